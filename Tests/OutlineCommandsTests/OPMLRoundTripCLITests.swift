import Foundation
import OutlineConvert
import TestSupport
import Testing

/// Values no XML writer may change through the binaries: tab, line feed, carriage return, a
/// `\r\n` pair, `]]>`, markup characters, quotes, non-ASCII. OPML -> import -> export gives them
/// back in every place OPML holds them (head fields are text, the rest attribute values), export
/// -> import gives the same outline byte for byte, and XML -> JSON -> XML the same values.
@Suite struct OPMLRoundTripCLITests {
  static let values = OPMLEveryValue.values
  static let opml = OPMLEveryValue.opml

  static func read(_ url: URL) throws -> OPMLDocument {
    try OPMLReader.read([UInt8](try Data(contentsOf: url))).0.get()
  }

  @Test func exportThenImportKeepsEveryValue() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["in.opml": Self.opml], in: folder)
    let original = try Self.read(folder.appendingPathComponent("in.opml"))
    #expect(original.head.first?.value == Self.values.last)
    let imported = try CLI.run("outline", ["import", "in.opml", "-o", "a.outline"], in: folder)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    let exported = try CLI.run("outline", ["export", "a.outline", "-o", "out.opml"], in: folder)
    #expect(exported.status == 0, "\(exported.stderr)")
    // Every value comes back as it was, in its place.
    let back = try Self.read(folder.appendingPathComponent("out.opml"))
    #expect(back == original)
    for (index, value) in Self.values.enumerated() {
      #expect(back.head.first { $0.name == "h\(index)" }?.value == value, "head field h\(index)")
      #expect(back.opmlAttributes.first { $0.name == "o\(index)" }?.value == value, "<opml> o\(index)")
      #expect(back.bodyAttributes.first { $0.name == "b\(index)" }?.value == value, "<body> b\(index)")
      #expect(back.outlines[index].attributes.map(\.value) == [value, value], "<outline> \(index)")
    }
    // And the OPML imports as the same outline, byte for byte (same stem: same model name).
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("again"), withIntermediateDirectories: true)
    let again = try CLI.run("outline", ["import", "out.opml", "-o", "again/a.outline"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("again/a.outline"))
        == Data(contentsOf: folder.appendingPathComponent("a.outline")))
  }
}
