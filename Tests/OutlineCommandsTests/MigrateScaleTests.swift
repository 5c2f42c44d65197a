import Foundation
import TestSupport
import Testing

/// `outline migrate` on a million items: every start tag edited, memory that does not grow with the file.
@Suite(.serialized, .enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)))
struct MigrateScaleTests {
  static func bundle(in folder: URL) throws {
    let containment = """
      <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
      """
    let order = "<attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\"/>"
    try CLI.write(
      [
        "Big.xcdatamodeld/V1.xcdatamodel/contents":
          "<model><entity name=\"Item\">\(order)<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\(containment)</entity></model>\n",
        "Big.xcdatamodeld/V2.xcdatamodel/contents":
          "<model><entity name=\"Item\">\(order)<attribute name=\"name\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"title\"/>\(containment)</entity></model>\n",
      ], in: folder)
  }

  /// Migrates `parents` x `children` items; the peak resident kilobytes of the run.
  static func migrate(parents: Int, children: Int) throws -> Int {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try bundle(in: folder)
    let text = GeneratedOutline.twoLevels(parents: parents, children: children).replacingOccurrences(
      of: "<outline>", with: "<outline model=\"Big.xcdatamodeld\" modelVersion=\"V1\">")
    try CLI.write(["big.outline": text], in: folder)
    let outline = CLI.products.appendingPathComponent("outline").path
    let run = try CLI.program(
      "/usr/bin/time", ["-f", "peak %M", outline, "migrate", "big.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr.suffix(500))")
    let migrated = try String(contentsOf: folder.appendingPathComponent("big.outline"), encoding: .utf8)
    #expect(!migrated.contains(" title=") && migrated.contains("modelVersion=\"V2\""))
    // `title` becomes `name`: one byte less a start tag.
    #expect(migrated.utf8.count == text.utf8.count - parents * (children + 1))
    let peak = run.stderr.components(separatedBy: "peak ").last.flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return peak ?? 0
  }

  @Test func aMillionItemsMigrateInMemoryThatDoesNotGrow() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
      print("/usr/bin/time is not installed (Debian: time): skipping the memory measurement of migrate")
      return
    }
    let small = try Self.migrate(parents: 100, children: 999)
    let large = try Self.migrate(parents: 1000, children: 999)
    #expect(small > 0 && large > 0)
    print("migrate peak resident memory: \(small) KB for 100,000 items, \(large) KB for 1,000,000")
    // Ten times the items: the validator's tables grow a little, the document is never held.
    #expect(
      large < small + 40 * 1024,
      "peak resident memory \(small) KB for 100,000 items, \(large) KB for 1,000,000")
  }
}
