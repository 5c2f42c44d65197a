import Foundation
import TestSupport
import Testing

@testable import OutlineLSP

@Suite struct DependencyStampsTests {
  @Test func stampsSeeWritesCreationsAndRemovals() throws {
    let folder = Scratch.url("stamps")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("contents").path
    let missing = FileStamp(file)
    #expect(!missing.exists)
    try Data("a".utf8).write(to: URL(fileURLWithPath: file))
    let written = FileStamp(file)
    #expect(written.exists && written != missing)
    try Data("ab".utf8).write(to: URL(fileURLWithPath: file))
    #expect(FileStamp(file) != written)
  }

  @Test func theStoreNamesTheFilesItsAnalysesRead() throws {
    let folder = Scratch.url("stamps")
    let bundle = folder.appendingPathComponent("M.xcdatamodeld/M.xcdatamodel")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("<model><entity name=\"Tag\"/></model>".utf8).write(
      to: bundle.appendingPathComponent("contents"))
    let store = DocumentStore()
    let snapshot = store.open(
      uri: folder.appendingPathComponent("t.outline").absoluteString,
      text: "<outline model=\"M.xcdatamodeld\"><Tag/></outline>\n")
    #expect(snapshot.analysis.model != nil)
    let paths = DependencyStamps.paths(models: store.models, configurations: store.configurations)
    let root = folder.standardizedFileURL.path
    #expect(paths.contains(root + "/M.xcdatamodeld/.xccurrentversion"))
    #expect(paths.contains(root + "/M.xcdatamodeld/M.xcdatamodel/contents"))
    #expect(paths.contains(root + "/.outline.json"))
    let stamps = DependencyStamps()
    stamps.learn(paths)
    #expect(!stamps.changed())
    try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: root + "/M.xcdatamodeld/.xccurrentversion"))
    #expect(stamps.changed())
    #expect(!stamps.changed())
  }
}
