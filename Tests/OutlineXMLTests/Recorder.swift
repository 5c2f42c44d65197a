import OutlineCore
import OutlineXML

/// Records events as readable lines: `start Item @3..<40 name 4..<8 [title=4..10]`.
final class Recorder: XMLEventHandler {
  var lines: [String] = []
  /// The ranges of the syntax errors, in order.
  var errorRanges: [TextRange] = []
  let source: [UInt8]
  init(_ source: [UInt8]) { self.source = source }

  func text(_ range: TextRange) -> String {
    String(decoding: source[range.start..<range.end], as: UTF8.self)
  }

  func startElement(_ tag: StartTag) {
    var attributes: [String] = []
    for index in 0..<tag.attributes.count {
      attributes.append("\(text(tag.nameRange(of: index)))=\(text(tag.valueRange(of: index)))")
    }
    lines.append(
      "start \(text(tag.nameRange)) tag=\(text(tag.range))\(tag.isSelfClosing ? " empty" : "") [\(attributes.joined(separator: " "))]"
    )
  }
  func endElement(range: TextRange?) {
    lines.append("end \(range.map { text($0) } ?? "-")")
  }
  func comment(range: TextRange, content: ByteView) {
    lines.append("comment \(text(range)) content=\(String(decoding: content, as: UTF8.self))")
  }
  func text(range: TextRange) { lines.append("text \(text(range))") }
  func doctype(range: TextRange) { lines.append("doctype \(text(range))") }
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    lines.append("error@\(range.start) \(message)")
    errorRanges.append(range)
  }
}

extension Recorder {
  func processingInstruction(range: TextRange) { lines.append("pi \(text(range))") }
}
