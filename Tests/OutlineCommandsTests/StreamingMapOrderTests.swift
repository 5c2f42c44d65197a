import Foundation
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineCommands

/// The lint run's ordering: the folder search numbers each file by when it reported it,
/// and the results follow those numbers, as they followed a lookup of each path before.
@Suite struct StreamingMapOrderTests {
  @Test(arguments: [1, 2, 3])
  func givenNumbersPutResultsInTheProducersOrder(jobs: Int) {
    let found = (0..<300).map { "f\(($0 * 7919) % 300)" } + ["f1", "f2", "f1"]
    let sorted = found.indices.sorted { (found[$0], $0) < (found[$1], $1) }
    let (items, results) = StreamingMap.mapInOrder(jobs: jobs) { emit in
      for item in found { emit(item) }
      return (sorted.map { found[$0] }, sorted)
    } _: { item in
      item + "!"
    }
    #expect(items == found.sorted())
    #expect(results == items.map { $0 + "!" })
  }

  @Test func theSearchNumbersEachFileByItsReport() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["b/z.outline": "", "b/a.outline": "", "a.outline": "", "c/d/e.outline": "", "c/x.outline": ""],
      in: folder)
    var reported: [String] = []
    let paths = [folder.path + "/c", folder.path, folder.path + "/a.outline"]
    let (files, order) = FileCollector.collectWithOrder(
      paths, configurations: ConfigurationFinder(), trouble: { _ in }, found: { reported.append($0) })
    #expect(
      files == FileCollector.collect(paths, configurations: ConfigurationFinder(), trouble: { _ in }))
    #expect(files.count == 8 && order.count == files.count)
    #expect(order.map { reported[$0] } == files)
    #expect(Set(order).count == order.count)
  }

  /// Makes the file `name` (any bytes) in `folder`; false when the file system refuses the name.
  static func make(_ name: [UInt8], in folder: URL) -> Bool {
    let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let descriptor = path.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
    }
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }

  /// A folder's files and the names it cannot take (not UTF-8) in one order, by the bytes of
  /// their paths: each trouble says how many files come before it, and shows its name escaped.
  @Test func namesThatAreNotUTF8StandAmongTheFiles() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": "", "c.outline": "", "sub/y.outline": "", "é.outline": ""], in: folder)
    guard Self.make(Array("b".utf8) + [0xFF] + Array(".outline".utf8), in: folder),
      Self.make(Array("sub/x".utf8) + [0xFE] + Array(".outline".utf8), in: folder)
    else {
      print("skipped: the file system refuses names that are not UTF-8")
      return
    }
    var troubles: [PathTrouble] = []
    let root = folder.path
    let files = FileCollector.collect(
      [root + "/c.outline", root], configurations: ConfigurationFinder(), trouble: { troubles.append($0) })
    #expect(
      files.map { String($0.dropFirst(root.count + 1)) } == [
        "c.outline", "a.outline", "c.outline", "sub/y.outline", "é.outline",
      ])
    #expect(
      troubles.map { String($0.path.dropFirst(root.count + 1)) } == [
        #"b\xFF.outline"#, #"sub/x\xFE.outline"#,
      ])
    #expect(troubles.map(\.position) == [2, 3])
    #expect(troubles.first?.bytes == Array((root + "/b").utf8) + [0xFF] + Array(".outline".utf8))
    #expect(
      troubles.first?.message
        == "cannot read '\(root)/b\\xFF.outline': file names that are not UTF-8 are not supported")
  }
}
