import Foundation
import OutlineWorkspace
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
      paths, configurations: ConfigurationFinder(), trouble: { _, _ in }, found: { reported.append($0) })
    #expect(
      files == FileCollector.collect(paths, configurations: ConfigurationFinder(), trouble: { _, _ in }))
    #expect(files.count == 8 && order.count == files.count)
    #expect(order.map { reported[$0] } == files)
    #expect(Set(order).count == order.count)
  }
}
