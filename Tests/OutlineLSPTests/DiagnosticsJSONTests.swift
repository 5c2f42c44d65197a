import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// Published and pulled diagnostics are written as JSON text (``DiagnosticsFeature/json(_:mapper:)``):
/// the bytes `JSONValueCoding` writes for ``DiagnosticsFeature/render(_:mapper:)``'s values.
@Suite struct DiagnosticsJSONTests {
  /// The bytes `JSONValueCoding` writes for the rendered values, and the written text's.
  static func both(_ snapshot: Snapshot, unit: ColumnUnit) throws -> (encoded: [UInt8], written: [UInt8]) {
    let mapper = PositionMapper(unit: unit)
    let encoded = try JSONValueCoding.encode(DiagnosticsFeature.render(snapshot, mapper: mapper))
    return (encoded.serializedBytes(), DiagnosticsFeature.json(snapshot, mapper: mapper).serializedBytes())
  }

  @Test(arguments: [ColumnUnit.utf16, .utf8])
  func theTextIsTheEncodedValues(unit: ColumnUnit) throws {
    // Duplicate orders (a related location each), items without one (OL401 tags),
    // astral characters and escapes in titles, CRLF, unknown attributes, a broken tail.
    let items = (0..<300).map { index -> String in
      let order = index % 10 < 7 ? " order=\"\(index % 4)\"" : ""
      return "<Item title=\"😀 \\\"q\\\" \(index)\"\(order) x\(index % 3)=\"v\"/>"
    }
    let texts = [
      weekend,
      weekend.replacingOccurrences(of: "\"Eggs\" order=\"1\"", with: "\"Eggs\" order=\"0\""),
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n" + items.joined(separator: "\n")
        + "\n</outline>\n",
      // One line of 30 KB: columns past the long-line checkpoints.
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><outline version=\"1\">" + items.joined() + "</outline>\n",
      "<outline version=\"1\">\r\n" + items.prefix(20).joined(separator: "\r\n") + "\r\n<Item",
      // Siblings out of document order (OL403, tagged).
      "<outline version=\"1\">\n<Item title=\"p\" order=\"0\"><Item title=\"b\" order=\"1\"/>"
        + "<Item title=\"a\" order=\"0\"/></Item>\n</outline>\n",
    ]
    let store = DocumentStore()
    for (index, text) in texts.enumerated() {
      let snapshot = store.open(uri: "file:///tmp/diagnostics-json/\(index).outline", text: Array(text.utf8))
      #expect(!snapshot.analysis.diagnostics.isEmpty)
      if index == texts.count - 1 {
        #expect(snapshot.analysis.diagnostics.map(\.code) == [.orderNotDocumentOrder])
      }
      let (encoded, written) = try Self.both(snapshot, unit: unit)
      #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
    }
    let none = store.open(uri: "file:///tmp/diagnostics-json/none.outline", text: Array("<outline/>\n".utf8))
    let (encoded, written) = try Self.both(none, unit: unit)
    #expect(written == encoded)
  }

  /// A model with errors: OL108's related location is in the model file, on its URI.
  @Test func relatedLocationsInTheModelAreTheEncodedOnes() throws {
    let folder = Scratch.url("diagnostics-json")
    let model = folder.appendingPathComponent("T.xcdatamodel/contents")
    try FileManager.default.createDirectory(
      at: model.deletingLastPathComponent(), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      "<model>\n  <entity name=\"Tag\"><attribute name=\"a\" attributeType=\"Nope\"/></entity>\n</model>".utf8
    )
    .write(to: model)
    let snapshot = DocumentStore().open(
      uri: folder.appendingPathComponent("t.outline").absoluteString,
      text: Array("<outline model=\"T.xcdatamodel\">\n  <Tag/>\n</outline>\n".utf8))
    #expect(snapshot.analysis.diagnostics.contains { $0.related.contains { $0.file != nil } })
    let (encoded, written) = try Self.both(snapshot, unit: .utf16)
    #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
    #expect(String(decoding: written, as: UTF8.self).contains("T.xcdatamodel/contents"))
  }
}
