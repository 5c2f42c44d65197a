// The JSON form reader's public face: finding the root's `@model`, checking an input, and converting it to XML.
// It runs the passes a conversion needs (collect late attributes, write while validating, locate the validator's
// problems at their JSON values) and leaves each pass to the `Transcoder` (JSONFormTranscoder.swift), the
// model's facts to `ModelIndex` (OutlineModel).

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// Reads the JSON form (SPEC §5) and writes `.outline` XML in the canonical
/// layout.
///
/// One pass over the input's bytes, with a flat stack of open objects and no
/// recursion: keys are compared as bytes against per-entity tables, values
/// go from JSON string to XML attribute text without a `String` between, and
/// each start tag is handed, as written, to the validator (no XML parser
/// runs), so what the document means (orders, ids, references, counts) is
/// checked by the same code that lints it and a converted file always lints
/// clean. A problem the validator finds is reported at the JSON value it came
/// from, which a second pass finds only when there is such a problem.
///
/// A start tag is written at an object's first array of children, so an
/// attribute that comes after one (this toolchain never writes that, people
/// may) cannot join it: the pass then stops, the output so far is dropped
/// (`restart`), and a first pass collects such late attributes before the
/// writing pass. `@entity` must come before an object's attributes and
/// arrays (as a type discriminator does); `@model` may stand anywhere in the
/// root: the model is chosen from the `@model` among the root's keys before
/// its first array, and a `@model` after one is a late attribute, so the
/// whole root is searched for it only then.
public enum JSONFormReader {
  /// The root's `@model`, wherever it stands in the root.
  public static func modelReference(in bytes: ByteBuffer) -> String? {
    modelReference(in: bytes, leadingOnly: false)
  }

  /// The root's `@model`; with `leadingOnly`, only among the keys before its first array or object.
  static func modelReference(in bytes: ByteBuffer, leadingOnly: Bool) -> String? {
    var reader = JSONReader(bytes)
    do {
      guard try reader.nextToken()?.kind == .objectStart else { return nil }
      while let token = try reader.nextToken() {
        if token.kind == .objectStart || token.kind == .arrayStart {
          if leadingOnly { return nil }
          reader.skipContainer()
          continue
        }
        guard token.kind == .key else { continue }
        if XMLName.equals(reader.contents(of: token), "@model")
          || token.hasEscapes && reader.string(token) == "@model"
        {
          guard let value = try reader.nextToken(), value.kind == .string else { return nil }
          return reader.string(value)
        }
      }
    } catch {}
    return nil
  }

  /// Every problem of `bytes` as the JSON form (errors, warnings and hints,
  /// in document order) with the model `choose` gives for the root's
  /// `@model`; what `choose` throws ends the check. Writes nothing.
  public static func check(_ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model) throws
    -> [JSONFormError]
  {
    try problems(bytes, choosingModel: choose, output: { _ in }, restart: {})
  }

  /// Checks `bytes` against `model`, then returns the XML (nothing on error).
  public static func convert(_ bytes: [UInt8], model: Model) throws(JSONFormError) -> [UInt8] {
    var xml: [UInt8] = []
    do {
      try convert(
        ByteBuffer(copying: bytes), choosingModel: { _ in model }, output: { xml += $0 },
        restart: { xml.removeAll() })
    } catch let error as JSONFormError {
      throw error
    } catch {
      preconditionFailure("a fixed model cannot fail: \(error)")
    }
    return xml
  }

  /// Writes the XML of `bytes` to `output` in pieces of about 1 MiB while
  /// checking it against the model `choose` gives for the root's `@model`
  /// (nil when it has none); what `choose` throws ends the conversion. On
  /// a ``JSONFormError`` this throws after `output` may have received
  /// pieces, which the caller discards (``AtomicFileWriter`` and a spooled
  /// standard output do); `restart` says everything received so far is void
  /// and the XML comes again from its start. An error whose code
  /// `writesThrough` names (a rule turned it off, and the value is written
  /// as it stands) does not stop it.
  public static func convert(
    _ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model, output: (inout [UInt8]) -> Void,
    restart: () -> Void, rebaseModel: (@Sendable (String) -> String)? = nil,
    writesThrough: (DiagnosticCode) -> Bool = { _ in false }
  ) throws {
    let errors = try problems(
      bytes, choosingModel: choose, output: output, restart: restart, rebaseModel: rebaseModel
    ).filter {
      $0.severity == .error && !writesThrough($0.code)
    }
    guard var first = errors.first else { return }
    first.others = Array(errors.dropFirst())
    throw first
  }

  /// The passes of a conversion, until one needs no other: its problems.
  private static func problems(
    _ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model, output: (inout [UInt8]) -> Void,
    restart: () -> Void, rebaseModel: (@Sendable (String) -> String)? = nil
  ) throws -> [JSONFormError] {
    // The model named among the root's keys before its first array; the
    // whole root is searched only when a pass stops (a late attribute, or
    // an error that a `@model` further on might explain).
    var reference = modelReference(in: bytes, leadingOnly: true)
    var searchedWhole = false
    while true {
      let model = try choose(reference)
      var found: [JSONFormError]?
      do {
        found = try withoutActuallyEscaping(output) { output throws(Transcoder.Stop) in
          try convert(
            bytes, model: model, output: output, collectingLate: searchedWhole, rebaseModel: rebaseModel)
        }
      } catch {
        precondition(!searchedWhole, "late attributes were collected")
      }
      if let found, searchedWhole || !found.contains(where: { $0.severity == .error }) { return found }
      searchedWhole = true
      let whole = modelReference(in: bytes)
      if let found, whole == reference { return found }
      reference = whole
      restart()
    }
  }

  /// One conversion with `model`: a single pass when no attribute comes
  /// after an array of children, else (`collectingLate`) a pass collecting
  /// those, then the pass that writes.
  private static func convert(
    _ bytes: ByteBuffer, model: Model, output: @escaping (inout [UInt8]) -> Void, collectingLate: Bool,
    rebaseModel: (@Sendable (String) -> String)? = nil
  ) throws(Transcoder.Stop) -> [JSONFormError] {
    var late: LateAttributes?
    if collectingLate {
      var collect = Transcoder(bytes: bytes, model: model, mode: .collectLate)
      try collect.run()
      late = collect.collected
    }
    let validator = OutlineValidator(modelProvider: fixedModel(model))
    // A large input is validated on a second core while the next objects are read.
    let pipeline =
      bytes.view.count >= XMLEventPipeline.worthwhileBytes ? XMLEventPipeline(handler: validator) : nil
    var pass = Transcoder(bytes: bytes, model: model, mode: .write(late: late))
    pass.rebaseModel = rebaseModel
    pass.validator = pipeline ?? validator
    pass.sink = output
    do {
      try pass.run()
    } catch {
      pipeline?.finish()
      throw error
    }
    pipeline?.finish()
    validator.finish()
    // After a syntax error the XML is cut short: what it would mean is not asked.
    if pass.stopped || validator.diagnostics.isEmpty { return pass.problems }
    // Find the object, or the key, whose start or end tag bytes hold each problem.
    var locate = Transcoder(bytes: bytes, model: model, mode: .write(late: late))
    locate.rebaseModel = rebaseModel
    locate.locating = Array(Set(validator.diagnostics.map(\.range.start))).sorted()
    try? locate.run()
    // A value the reader refused already stands in the XML only to keep the
    // rest checkable: what the validator says about it again is left out.
    let refused = Set(pass.problems.map(\.path))
    var problems = pass.problems
    for diagnostic in validator.diagnostics {
      let at = locate.located[diagnostic.range.start] ?? (path: "$", offset: 0)
      if refused.contains(at.path) { continue }
      var problem = JSONFormError(
        message: diagnostic.message, path: at.path, offset: at.offset, code: diagnostic.code,
        severity: diagnostic.severity)
      problem.fromValidator = true
      problems.append(problem)
    }
    return problems.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
      .map(\.element)
  }
}
