import Foundation
import TestSupport
import Testing

/// `outline-lint` compares uniqueness members as Core Data stores them: a Date as the Double of
/// seconds since 2001 from every digit, binary data by its bytes, decimals by value.
@Suite struct UniquenessCLITests {
  static func model(_ type: String) -> String { ModelFixtures.uniqueEvents(type) }

  func lint(_ type: String, _ values: [String]) throws -> CLI.Output {
    let folder = try CLI.temporaryFolder()
    let events = values.map { "  <Event at=\"\($0)\"/>\n" }.joined()
    try CLI.write(
      [
        "U.xcdatamodel/contents": Self.model(type),
        "a.outline": "<outline model=\"U.xcdatamodel\">\n\(events)</outline>\n",
      ], in: folder)
    return try CLI.run("outline-lint", ["a.outline"], in: folder)
  }

  @Test func oneInstantWrittenTwiceCollides() throws {
    let run = try lint("Date", ["2024-05-01T09:30:00.0011Z", "2024-05-01T11:30:00.00110+02:00"])
    #expect(run.status == 1)
    #expect(
      run.stdout.contains("a.outline:3:14: error[OL505]: This 'Event' has the same 'at' as an earlier object")
    )
  }
}
