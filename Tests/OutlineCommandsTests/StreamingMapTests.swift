import Foundation
import Testing

@testable import OutlineCommands

/// Work started while its items are still being found: every item once, its
/// result beside it in the order the producer returns, whatever the threads.
@Suite struct StreamingMapTests {
  @Test(arguments: [1, 2, 3, 8])
  func resultsFollowTheProducersOrderWithRepeats(jobs: Int) {
    let found = (0..<500).map { "f\(($0 * 7919) % 500)" } + ["f1", "f2", "f1"]
    let (items, results) = StreamingMap.map(jobs: jobs) { emit in
      for item in found { emit(item) }
      return found.sorted()
    } _: { item in
      item + "!"
    }
    #expect(items == found.sorted())
    #expect(results == items.map { $0 + "!" })
  }

  @Test func nothingFoundIsNothingRun() {
    let (items, results) = StreamingMap.map(jobs: 2) { _ in
      []
    } _: { (item: String) in
      item
    }
    #expect(items.isEmpty && results.isEmpty)
  }
}
