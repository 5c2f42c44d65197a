import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMerge
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineWorkspace

/// One side of `outline diff`, read and bound to its model: XML as it stands, the JSON form
/// transcoded to XML in memory (positions then point back into the JSON), `/dev/null` as no document.
struct DiffInput {
  /// Why a side cannot be compared (exit 2), as `path:line:col: message` where there is a place.
  struct Trouble: Error {
    var message: String
  }

  /// The items, of the XML (transcoded from the JSON form when it was that).
  var items: DocumentItems
  /// The JSON form's bytes, when the side was in that form.
  var json: ByteBuffer?
  /// The JSON text's line index, for positions, when the side was in the JSON form.
  var jsonText: SourceText?

  /// Reads `file` as the document at `path` (where its configuration and model are found).
  static func read(
    _ file: String, path: String, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, limit: Int
  ) -> Result<DiffInput, Trouble> {
    if file == "/dev/null" {
      return .success(
        DiffInput(items: DocumentItems(source: SourceText(bytes: []), tree: ItemTree(), model: nil)))
    }
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(file, limit: limit)
    } catch {
      return .failure(Trouble(message: error.description))
    }
    let shown = Excerpt.quotedPath(file)
    guard isJSONForm(bytes) else {
      return xml(
        bytes, shown: shown, path: path, modelOverride: modelOverride, configurations: configurations,
        models: models)
    }
    let buffer = ByteBuffer(copying: bytes)
    let jsonText = SourceText(bytes: bytes)
    func place(_ offset: Int) -> String { "\(shown):\(jsonText.position(of: offset, unit: .scalar))" }
    // The model as `convert` chooses it: the root's `@model`, `--model`, the configuration.
    let configuration = configurations.configuration(for: path)
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let provider = resolution.provider(for: path)
    var chosen: Model?
    func choose(_ reference: String?) throws -> Model {
      switch provider(reference) {
      case .loaded(let model):
        chosen = model
        return model
      case .unreadable(let reason): throw Trouble(message: ModelChoice.unreadableMessage(reason))
      case .refused(let reason): throw Trouble(message: reason)
      }
    }
    var xml: [UInt8] = []
    // What the document means may have errors (a diff compares it all the same); what is not the
    // JSON form stops. The reader's and the validator's OL300 share a code: a second pass writes
    // through an error that turned out to be the validator's.
    for writesThroughTypes in [false, true] {
      do {
        try JSONFormReader.convert(
          buffer, choosingModel: choose, output: { xml += $0 }, restart: { xml.removeAll() },
          writesThrough: { $0 != .notWellFormed && (writesThroughTypes || $0 != .valueType) })
        break
      } catch let error as JSONFormError {
        xml.removeAll()
        if error.refusesTheForm || writesThroughTypes {
          let first = error.all.first { $0.isFormProblem } ?? error
          return .failure(Trouble(message: "\(place(first.offset)): \(first.message); not compared"))
        }
      } catch let trouble as Trouble {
        return .failure(
          Trouble(message: "\(shown): its model cannot be read: \(trouble.message); not compared"))
      } catch {
        return .failure(Trouble(message: "\(shown): \(error); not compared"))
      }
    }
    guard let model = chosen else {
      return .failure(Trouble(message: "\(shown): its model cannot be read; not compared"))
    }
    var read = self.xml(
      xml, shown: shown, path: path, modelOverride: modelOverride, configurations: configurations,
      models: models,
      fixedModel: model)
    if case .success(var input) = read {
      input.json = buffer
      input.jsonText = jsonText
      read = .success(input)
    }
    return read
  }

  /// Reads XML `bytes` bound to the model found for `path` (or `fixedModel`).
  private static func xml(
    _ bytes: [UInt8], shown: String, path: String, modelOverride: String?,
    configurations: ConfigurationFinder,
    models: ModelCache, fixedModel: Model? = nil
  ) -> Result<DiffInput, Trouble> {
    let source = SourceText(bytes: bytes)
    let check = DocumentCheck.run(
      source, path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: true)
    if let syntax = check.diagnostics.first(where: { $0.code == .notWellFormed || $0.code == .doctypePresent }
    ) {
      let at = source.position(of: syntax.range.start, unit: .scalar)
      return .failure(Trouble(message: "\(shown):\(at): \(syntax.message); not compared"))
    }
    guard let model = fixedModel ?? check.model else {
      let reason = check.diagnostics.first { $0.code == .modelUnreadable || $0.code == .modelOutsideProject }
      return .failure(
        Trouble(
          message: "\(shown): its model cannot be read\(reason.map { ": \($0.message)" } ?? ""); not compared"
        ))
    }
    guard let tree = check.tree else { return .failure(Trouble(message: "\(shown) could not be read")) }
    return .success(DiffInput(items: DocumentItems(source: source, tree: tree, model: model)))
  }

  /// Whether `bytes` is the JSON form: its first character, after spaces and a byte order mark, is `{`.
  static func isJSONForm(_ bytes: [UInt8]) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count
      && (bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
        || bytes[index] == 0x0D)
    {
      index += 1
    }
    return index < bytes.count && bytes[index] == UInt8(ascii: "{")
  }

  /// The `line:column` of every item `items` names, in the file as read: in the XML, or where the
  /// JSON form has the item's object.
  func positions(of items: Set<Int>) -> [Int: String] {
    var result: [Int: String] = [:]
    guard let json, let jsonText, let model = self.items.model else {
      for item in items { result[item] = "\(self.items.position(of: item))" }
      return result
    }
    let offsets = items.map { self.items.tree.items[$0].startTag.start }
    let located = JSONFormReader.locate(offsets, in: json, model: model)
    for item in items {
      let offset = located[self.items.tree.items[item].startTag.start]?.offset ?? 0
      result[item] = "\(jsonText.position(of: offset, unit: .scalar))"
    }
    return result
  }
}
