import Foundation
import OutlineFiles
import Testing

@testable import OutlineWorkspace

/// The finder answers by the folder as a path spells it, and gives every
/// spelling of one folder the same configuration.
@Suite struct ConfigurationFinderCacheTests {
  @Test func spellingsOfOneFolderFindTheSameConfiguration() throws {
    let folder = try InputFileTests.folder()
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("a/b"), withIntermediateDirectories: true)
    try manager.createDirectory(at: folder.appendingPathComponent("c"), withIntermediateDirectories: true)
    try Data(#"{"maxSize": "1M"}"#.utf8).write(to: folder.appendingPathComponent(".outline.json"))
    try Data(#"{"maxSize": "2M"}"#.utf8).write(to: folder.appendingPathComponent("c/.outline.json"))
    let finder = ConfigurationFinder()
    let root = folder.path
    for _ in 0..<2 {  // the second time from the cache
      #expect(finder.configuration(for: "\(root)/a/b/x.outline")?.maxSize == 1 << 20)
      #expect(finder.configuration(for: "\(root)/c/../a/b/y.outline")?.maxSize == 1 << 20)
      #expect(finder.configuration(for: "\(root)/a/../c/z.outline")?.maxSize == 2 << 20)
      #expect(finder.configuration(for: "\(root)/c/z.outline")?.maxSize == 2 << 20)
      #expect(finder.configuration(for: "\(root)/x.outline")?.maxSize == 1 << 20)
    }
    // A file at the top of the file system and one named without a folder are not confused.
    #expect(
      finder.configuration(for: "/x.outline")?.path != finder.configuration(for: "\(root)/x.outline")?.path)
    // What changed on disk is seen after invalidate().
    try Data(#"{"maxSize": "3M"}"#.utf8).write(to: folder.appendingPathComponent("c/.outline.json"))
    #expect(finder.configuration(for: "\(root)/c/z.outline")?.maxSize == 2 << 20)
    finder.invalidate()
    #expect(finder.configuration(for: "\(root)/c/z.outline")?.maxSize == 3 << 20)
  }

  /// `--config PATH` and `--isolated`: every document gets the one file chosen, whatever its
  /// name and wherever the documents are, or none; a chosen file that cannot be read is OC100.
  @Test func aChosenConfigurationOrNoneIsEveryDocuments() throws {
    let folder = try InputFileTests.folder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
    try Data(#"{"maxSize": "1M"}"#.utf8).write(to: folder.appendingPathComponent("a/.outline.json"))
    try Data(#"{"maxSize": "2M"}"#.utf8).write(to: folder.appendingPathComponent("ci.json"))
    let chosen = ConfigurationFinder(choice: .file(folder.appendingPathComponent("ci.json").path))
    for document in ["a/x.outline", "b/y.outline", "/z.outline"] {
      let path = document.hasPrefix("/") ? document : folder.appendingPathComponent(document).path
      #expect(chosen.configuration(for: path)?.maxSize == 2 << 20, "\(document)")
      #expect(chosen.configuration(for: path)?.path == folder.appendingPathComponent("ci.json").path)
    }
    let isolated = ConfigurationFinder(choice: .isolated)
    #expect(isolated.configuration(for: folder.appendingPathComponent("a/x.outline").path) == nil)
    let missing = ConfigurationFinder(choice: .file(folder.appendingPathComponent("nope.json").path))
    let unread = try #require(missing.configuration(for: folder.appendingPathComponent("a/x.outline").path))
    #expect(unread.diagnostics.map(\.code) == [.configuration])
  }

  @Test func filesAreReadWholeWhateverTheirSizeAgainstTheChunks() throws {
    let folder = try InputFileTests.folder()
    for size in [0, 1, 4095, 4096, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (3 << 20) + 7] {
      let path = folder.appendingPathComponent("f\(size)").path
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      #expect(try InputFile.read(path) == bytes, "\(size)")
      var pieces: [UInt8] = []
      try FileChunks.read(path) { pieces.append(contentsOf: $0) }
      #expect(pieces == bytes, "\(size)")
      if size > 0 { #expect(throws: ReadError.self) { try InputFile.read(path, limit: size - 1) } }
    }
  }
}
