import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport

/// The toolchain's faces called in the test process: what `outline-lint`, `fmt` and `convert`
/// do to a document's text, against a generated model.
enum InProcess {
  /// `generated` loaded as the toolchain loads a `contents` file.
  static func load(_ generated: GeneratedModel) -> Model {
    ModelLoader.load(SourceText(generated.text), path: "Generated.xcdatamodel/contents")
  }

  /// The diagnostics `outline-lint` gives `text` against `model`.
  static func lint(_ text: String, model: Model) -> [Diagnostic] {
    OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(model), buildTree: false)
      .diagnostics
  }

  /// The errors among ``lint(_:model:)``'s diagnostics, each as `CODE line:column message`.
  static func errors(_ text: String, model: Model) -> [String] {
    let source = SourceText(text)
    return lint(text, model: model).filter { $0.severity == .error }.map { diagnostic in
      let position = source.position(of: diagnostic.range.start, unit: .scalar)
      return "\(diagnostic.code) \(position.line + 1):\(position.column + 1) \(diagnostic.message)"
    }
  }

  /// `outline fmt`'s output for `text`, or nil when fmt refuses it (it does not parse, or holds text).
  static func format(_ text: String, model: Model) -> String? {
    var dropped: TextRange?
    let output = Formatter.format(SourceText(text), model: model, dropped: &dropped)
    return dropped == nil ? String(decoding: output, as: UTF8.self) : nil
  }

  /// The JSON form of `text`, which must validate without errors.
  static func toJSON(_ text: String, model: Model) -> String {
    let source = SourceText(text)
    let check = OutlineValidator.validate(source, modelProvider: fixedModel(model), buildTree: false)
    var out: [UInt8] = []
    JSONFormWriter.write(
      source, model: model, rootEntity: check.rootEntity, childrenInOrder: check.childrenInOrder,
      tree: { OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree! },
      output: { out += $0 })
    return String(decoding: out, as: UTF8.self)
  }

  /// The XML `convert` writes for the JSON form `json`.
  static func toXML(_ json: String, model: Model) throws(JSONFormError) -> String {
    String(decoding: try JSONFormReader.convert(Array(json.utf8), model: model), as: UTF8.self)
  }

  /// Each diagnostic as `CODE@element`: its code and the element it falls in, counted in
  /// document order (0 the root), so two layouts of one document compare item by item.
  static func codesByElement(_ diagnostics: [Diagnostic], in text: String) -> [String] {
    let starts = elementStarts(Array(text.utf8))
    return diagnostics.map { diagnostic in
      let element = Partitioned.lastIndex(in: starts, atOrBefore: diagnostic.range.start)
      return "\(diagnostic.code)@\(element)"
    }.sorted()
  }

  /// The byte offsets of the elements' start tags, in document order; comments, processing
  /// instructions and CDATA are passed over.
  static func elementStarts(_ bytes: [UInt8]) -> [Int] {
    var starts: [Int] = []
    var index = 0
    func skip(past end: [UInt8]) {
      while index < bytes.count && !bytes[index...].starts(with: end) { index += 1 }
      index += end.count
    }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
        index += 1
        continue
      }
      switch bytes[index + 1] {
      case UInt8(ascii: "!"):
        if bytes[index...].starts(with: Array("<!--".utf8)) {
          skip(past: Array("-->".utf8))
        } else if bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
          skip(past: Array("]]>".utf8))
        } else {
          skip(past: [UInt8(ascii: ">")])
        }
      case UInt8(ascii: "?"): skip(past: Array("?>".utf8))
      case UInt8(ascii: "/"): index += 2
      default:
        starts.append(index)
        index += 1
      }
    }
    return starts
  }
}

enum Partitioned {
  /// The index of the last value in the sorted `values` not above `offset` (-1 when none).
  static func lastIndex(in values: [Int], atOrBefore offset: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }
}
