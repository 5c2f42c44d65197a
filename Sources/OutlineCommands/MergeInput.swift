import OutlineConvert
import OutlineCore
import OutlineMerge
import OutlineModel
import OutlineValidation
import OutlineWorkspace

/// One of the three documents of `outline merge`, read and bound to its model: XML as it stands,
/// the JSON form transcoded to XML first (told by `path`'s name, else by the content).
struct MergeInput {
  /// Whether a document is XML or the JSON form.
  enum Form { case xml, json }

  /// Why an input cannot be merged (exit 2).
  struct Trouble: Error {
    var message: String
  }

  /// The bytes as read.
  var original: [UInt8]
  /// The items of the XML (transcoded from the JSON form when it was that).
  var items: DocumentItems
  var form: Form
  /// The root entity the document was read with (for writing the JSON form back).
  var rootEntity: Int?

  /// Whether `bytes` at `path` is the JSON form: a `.json` name, else a `{` first.
  static func form(of bytes: [UInt8], path: String) -> Form {
    if path.hasSuffix(".json") { return .json }
    if path.hasSuffix(".outline") { return .xml }
    let first = bytes.first {
      $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
    }
    return first == UInt8(ascii: "{") ? .json : .xml
  }

  /// Reads `bytes` (the `role` side, from `file`) as the document at `path`.
  static func read(
    _ bytes: [UInt8], role: String, file: String, path: String, modelOverride: String?,
    configurations: ConfigurationFinder, models: ModelCache
  ) -> Result<MergeInput, Trouble> {
    let form = form(of: bytes, path: path)
    let named = "\(role) \(Excerpt.quotedPath(file))"
    var xml = bytes
    if form == .json {
      let check = DocumentCheck.runJSON(
        ByteBuffer(copying: bytes), path: path, modelOverride: modelOverride, configurations: configurations,
        models: models)
      guard let model = check.model else {
        return .failure(Trouble(message: "\(named): its model could not be read"))
      }
      do {
        xml = try JSONFormReader.convert(bytes, model: model)
      } catch {
        return .failure(Trouble(message: "\(named) is not a JSON form that can be merged: \(error.message)"))
      }
    }
    let source = SourceText(bytes: xml)
    let check = DocumentCheck.run(
      source, path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: true)
    if let unreadable = check.unreadableNamedModel {
      return .failure(Trouble(message: "\(named): \(unreadable.message)"))
    }
    if let syntax = check.diagnostics.first(where: { $0.code == .notWellFormed || $0.code == .doctypePresent }
    ) {
      let at = source.position(of: syntax.range.start, unit: .scalar)
      return .failure(
        Trouble(
          message:
            "\(named) does not parse (\(at.line + 1):\(at.column + 1): \(syntax.message)); nothing merged"))
    }
    guard let tree = check.tree else { return .failure(Trouble(message: "\(named) could not be read")) }
    return .success(
      MergeInput(
        original: bytes, items: DocumentItems(source: source, tree: tree, model: check.model), form: form,
        rootEntity: check.rootEntity))
  }

  /// The bytes to write for `result`: the XML as merged, or its JSON form.
  static func written(_ result: MergeResult, form: Form, model: Model?, rootEntity: Int?) -> Result<
    [UInt8], Trouble
  > {
    guard form == .json else { return .success(result.bytes) }
    guard let model else {
      return .failure(Trouble(message: "the merged JSON form has no model to be written with"))
    }
    let source = SourceText(bytes: result.bytes)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    guard let tree = validator.tree else {
      return .failure(Trouble(message: "the merge could not be read back"))
    }
    var json: [UInt8] = []
    JSONFormWriter.writeTree(source, tree: tree, model: model, rootEntity: rootEntity) { json += $0 }
    return .success(json)
  }
}
