import OutlineCore
import Testing

@testable import OutlineValidation

/// The id table told a document's size grows toward the ids the rate so far promises, but
/// never more than eight times what it holds at once: ids crowded at the start of a large
/// file cannot size it for the whole file.
@Suite struct IDTableBoundTests {
  static func define(_ count: Int, spacing: Int, documentBytes: Int) -> IDTable {
    var table = IDTable()
    table.expectedDocumentBytes = documentBytes
    for index in 0..<count {
      var id = Array("id\(index)".utf8)
      let range = TextRange(start: 100 + index * spacing, end: 100 + index * spacing + id.count)
      _ = id.withUnsafeMutableBufferPointer {
        table.define(raw: UnsafeBufferPointer($0), entity: nil, range: range)
      }
    }
    return table
  }

  @Test func idsCrowdedAtTheStartKeepTheTableSmall() {
    let table = Self.define(5_000, spacing: 10, documentBytes: 1 << 30)
    #expect(table.count == 5_000)
    #expect(table.slotCount <= 65_536)
  }

  @Test func idsSpreadEvenlyGetRoomForAllInFewSteps() {
    // 40,000 ids over a document of 4,000,000 bytes, one every 100.
    let table = Self.define(40_000, spacing: 100, documentBytes: 4_000_000)
    #expect(table.count == 40_000)
    #expect(table.slotCount >= 80_000)
    #expect(table.slotCount <= 262_144)
    for index in stride(from: 0, to: 40_000, by: 997) {
      #expect(table.definition(of: "id\(index)") != nil)
    }
  }
}
