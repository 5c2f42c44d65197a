import Foundation
import JSONRPC
import OutlineConvert
import OutlineCore
import OutlineEditing
import OutlineFiles
import OutlineJSON
import OutlineLSP
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// What each fuzz target does with one input. The libFuzzer entry points in
/// `Fuzz/Fuzz*` are one line each around these; the test suite runs every
/// seed and every regression file through them too (FuzzHarnessTests), so a
/// crash found once stays fixed. A broken invariant is a `precondition`
/// failure, which is a crash to libFuzzer and a trap to the tests.
public enum FuzzHarness {
  /// The targets, by the name of their entry point and seed folder.
  public static let targets: [(name: String, body: @Sendable ([UInt8]) -> Void)] = [
    ("FuzzOutline", outline), ("FuzzModel", model), ("FuzzJSON", json), ("FuzzLSP", lsp),
  ]

  /// Parse + validate: any bytes as an `.outline` document, fed to libxml2
  /// in pieces whose size depends on the input's length (so chunk
  /// boundaries fall everywhere), validated with the tree built. When it
  /// parsed, the renumbering fix, the formatter and the JSON writer run too.
  ///
  /// Invariants: every diagnostic range lies inside the document; the
  /// fix-all edits apply without overlapping and leave no order problem.
  public static func outline(_ bytes: [UInt8]) {
    let source = SourceText(bytes: bytes)
    let piece = bytes.count % 4 == 0 ? max(bytes.count, 1) : 1 + bytes.count % 97
    let validator = OutlineValidator(modelProvider: fixedModel(), buildTree: true)
    let parser = XMLEventParser(handler: validator)
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let end = min(buffer.count, offset + piece)
        parser.feed(UnsafeBufferPointer(rebasing: buffer[offset..<end]))
        offset = end
      }
    }
    parser.finish()
    validator.finish()

    for diagnostic in validator.diagnostics {
      let range = diagnostic.range
      precondition(
        range.start >= 0 && range.start <= range.end && range.end <= bytes.count,
        "\(diagnostic.code) range \(range) outside 0..<\(bytes.count)")
      _ = source.position(of: range.start, unit: .utf16)
    }
    let parsed = !validator.diagnostics.contains { $0.code == .notWellFormed || $0.code == .doctypePresent }
    guard parsed, let tree = validator.tree, let model = validator.model else { return }

    let edits = Renumbering.fixAll(tree: tree, source: source, model: model, reported: validator.diagnostics)
    if !edits.isEmpty {
      guard let fixed = TextEdit.apply(edits, to: bytes) else { preconditionFailure("fix-all edits overlap") }
      let again = OutlineValidator.validate(SourceText(bytes: fixed), buildTree: false)
      let orderCodes: [DiagnosticCode] = [.orderMissing, .duplicateOrder, .orderOutOfSequence]
      let left = again.diagnostics.filter { orderCodes.contains($0.code) }
      precondition(left.isEmpty, "fix-all left order problems: \(left.map(\.message))")
    }
    _ = Formatter.format(source, model: model)
    if !validator.diagnostics.contains(where: { $0.severity == .error }) {
      JSONFormWriter.write(
        source, model: model, rootEntity: validator.rootEntity, childrenInOrder: validator.childrenInOrder,
        tree: { tree }, output: { $0.removeAll(keepingCapacity: true) })
    }
  }

  /// The model loader: any bytes as an `.xcdatamodel/contents` file, read
  /// and checked (SPEC §3). Whatever loads then validates a small outline,
  /// so the validator's model tables are fuzzed through the model too.
  public static func model(_ bytes: [UInt8]) {
    let model = ModelLoader.load(SourceText(bytes: bytes), path: "fuzz.xcdatamodel/contents")
    for diagnostic in model.diagnostics {
      precondition(diagnostic.range.end <= bytes.count, "model diagnostic outside the file")
    }
    guard let root = model.entities.first else { return }
    let outline = """
      <?xml version="1.0" encoding="UTF-8"?>
      <\(root.name) title="a" order="0"><\(root.name) order="0"/><\(root.name) order="2" id="x"/></\(root.name)>
      """
    _ = OutlineValidator.validate(SourceText(outline), modelProvider: fixedModel(model))
  }

  /// The JSON reader: any bytes through the pull reader to the end or the
  /// first error, through the value parser, and as a JSON form document
  /// through JSON -> XML against the default model.
  ///
  /// Invariants: error offsets lie inside the input, and XML that the
  /// conversion writes always validates without an error.
  public static func json(_ bytes: [UInt8]) {
    var reader = JSONReader(bytes)
    do {
      while try reader.next() != nil {}
    } catch {
      precondition(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside")
    }
    _ = try? JSONValue.parse(bytes, maximumDepth: 64)

    do {
      let xml = try JSONFormReader.convert(bytes, model: ModelLoader.defaultModel)
      let check = OutlineValidator.validate(SourceText(bytes: xml), buildTree: false)
      let errors = check.diagnostics.filter { $0.severity == .error }
      precondition(
        errors.isEmpty,
        "JSON -> XML wrote a document with errors: \(errors.map { "\($0.code) \($0.message)" })\n"
          + String(decoding: xml, as: UTF8.self))
    } catch {
      precondition(error.offset >= 0 && error.offset <= bytes.count, "form error offset outside")
    }
  }

  /// LSP framing + dispatch: any bytes as what a client writes to the
  /// server's standard input (headers, bodies, garbage), served by a real
  /// `LanguageServer` to the end of input, until every request it started
  /// has replied; replies go to /dev/null; `exit` is recorded, not obeyed.
  public static func lsp(_ bytes: [UInt8]) {
    guard let input = FileDescriptorIO.anonymousTemporaryFile(prefix: "outline-fuzz-lsp") else {
      preconditionFailure("cannot create a temporary file")
    }
    defer { close(input) }
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = write(input, buffer.baseAddress! + written, buffer.count - written)
        precondition(count > 0, "cannot write the temporary file")
        written += count
      }
    }
    lseek(input, 0, SEEK_SET)
    let output = open("/dev/null", O_WRONLY)
    defer { close(output) }
    let server = LanguageServer(
      connection: Connection(input: input, output: output), log: { _ in }, exit: { _ in })
    _ = server.run()
    server.waitUntilIdle()
  }
}
