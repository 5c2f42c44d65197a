import Foundation
import Testing

@testable import OutlineWorkspace

/// Each thread keeps the finder's last answer: it must never answer for another
/// finder, for another folder, or from before an invalidation made on another thread.
@Suite struct ConfigurationFinderThreadTests {
  @Test func aThreadsKeptAnswerBelongsToOneFinderAndOneFolder() throws {
    let folder = try InputFileTests.folder()
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
    try manager.createDirectory(at: folder.appendingPathComponent("ab"), withIntermediateDirectories: true)
    try Data(#"{"maxSize": "1M"}"#.utf8).write(to: folder.appendingPathComponent("a/.outline.json"))
    try Data(#"{"maxSize": "2M"}"#.utf8).write(to: folder.appendingPathComponent("ab/.outline.json"))
    let root = folder.path
    let first = ConfigurationFinder()
    #expect(first.configuration(for: "\(root)/a/x.outline")?.maxSize == 1 << 20)
    // A folder whose name starts as the last one's does is another folder.
    #expect(first.configuration(for: "\(root)/ab/x.outline")?.maxSize == 2 << 20)
    #expect(first.configuration(for: "\(root)/a/y.outline")?.maxSize == 1 << 20)
    // The file changes: a new finder reads it, the first keeps what it read until invalidated.
    try Data(#"{"maxSize": "3M"}"#.utf8).write(to: folder.appendingPathComponent("a/.outline.json"))
    let second = ConfigurationFinder()
    #expect(second.configuration(for: "\(root)/a/x.outline")?.maxSize == 3 << 20)
    #expect(first.configuration(for: "\(root)/a/x.outline")?.maxSize == 1 << 20)
    #expect(second.configuration(for: "\(root)/a/x.outline")?.maxSize == 3 << 20)
    // A path with no folder and one at the top of the file system are not the same folder as each other.
    #expect(first.configuration(for: "x.outline")?.path == first.configuration(for: "./x.outline")?.path)
    #expect(first.configuration(for: "/x.outline")?.path != "\(root)/a/.outline.json")
  }

  @Test func anInvalidationOnOneThreadIsSeenByAnother() throws {
    let folder = try InputFileTests.folder()
    try Data(#"{"maxSize": "1M"}"#.utf8).write(to: folder.appendingPathComponent(".outline.json"))
    let finder = ConfigurationFinder()
    let path = folder.appendingPathComponent("x.outline").path
    let asked = DispatchSemaphore(value: 0)
    let changed = DispatchSemaphore(value: 0)
    let answers = Answers()
    let worker = Thread {
      answers.add(finder.configuration(for: path)?.maxSize)
      answers.add(finder.configuration(for: path)?.maxSize)
      asked.signal()
      changed.wait()
      answers.add(finder.configuration(for: path)?.maxSize)
      asked.signal()
    }
    worker.start()
    asked.wait()
    try Data(#"{"maxSize": "2M"}"#.utf8).write(to: folder.appendingPathComponent(".outline.json"))
    finder.invalidate()
    changed.signal()
    asked.wait()
    #expect(answers.all == [1 << 20, 1 << 20, 2 << 20])
  }

  @Test func threadsAskingForManyFoldersAtOnceGetEachFoldersAnswer() throws {
    let folder = try InputFileTests.folder()
    let manager = FileManager.default
    for index in 0..<8 {
      let sub = folder.appendingPathComponent("f\(index)")
      try manager.createDirectory(at: sub, withIntermediateDirectories: true)
      try Data(#"{"maxSize": "\#(index + 1)M"}"#.utf8).write(to: sub.appendingPathComponent(".outline.json"))
    }
    let finder = ConfigurationFinder()
    let wrong = Answers()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 0..<400 {
        let index = (round * 7 + thread * 3) % 8
        let size = finder.configuration(for: folder.path + "/f\(index)/doc\(round).outline")?.maxSize
        if size != (index + 1) << 20 { wrong.add(size) }
      }
    }
    #expect(wrong.all.isEmpty)
  }
}

/// Answers gathered from several threads.
private final class Answers: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Int?] = []
  func add(_ value: Int?) {
    lock.lock()
    values.append(value)
    lock.unlock()
  }
  var all: [Int?] {
    lock.lock()
    defer { lock.unlock() }
    return values
  }
}
