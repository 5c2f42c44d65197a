import Foundation
import Testing

@testable import OutlineWorkspace

/// The history cache answers each model path once per run (every document
/// of a run asks with the same path), and reads again after invalidate().
@Suite struct ModelHistoryCacheTests {
  @Test func eachModelPathIsLookedUpOnceUntilInvalidated() throws {
    let folder = try InputFileTests.folder()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/versions/Tasks.xcdatamodeld")
    let bundle = folder.appendingPathComponent("Tasks.xcdatamodeld")
    try FileManager.default.copyItem(at: fixture, to: bundle)
    let versions = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
      .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
    let modelPath = bundle.appendingPathComponent(versions[0]).appendingPathComponent("contents").path
    let cache = ModelHistoryCache()
    let first = try #require(cache.history(forModelAt: modelPath))
    #expect(first.versions.count == versions.count)
    #expect(
      cache.history(forModelAt: bundle.path + "/" + versions[0] + "/contents")?.versions.count
        == versions.count)
    // Gone from disk: the run keeps its answer until the cache is told.
    try FileManager.default.removeItem(at: bundle)
    #expect(cache.history(forModelAt: modelPath)?.versions.count == versions.count)
    cache.invalidate()
    #expect(cache.history(forModelAt: modelPath) == nil)
    // A model outside any bundle has no history.
    #expect(
      cache.history(forModelAt: folder.appendingPathComponent("plain.xcdatamodel/contents").path) == nil)
  }
}
