import Foundation
import OutlineJSON
import Testing

/// `JSONValue.parse` appends each element to its open array in place: a long array (a reply's
/// 100,000 folds, a change of many files) is parsed in time linear in its length.
@Suite struct JSONValueParseScaleTests {
  static func array(_ count: Int) -> [UInt8] {
    Array(
      ("[" + (0..<count).map { "{\"line\":\($0),\"names\":[\"a\",\"b\"]}" }.joined(separator: ",") + "]").utf8
    )
  }

  static func seconds(_ bytes: [UInt8]) throws -> (Double, Int) {
    let start = Date()
    let value = try JSONValue.parse(bytes)
    return (Date().timeIntervalSince(start), value.arrayValue?.count ?? 0)
  }

  @Test func longArraysParseInLinearTime() throws {
    let (small, smallCount) = try Self.seconds(Self.array(25_000))
    let (large, largeCount) = try Self.seconds(Self.array(200_000))
    #expect(smallCount == 25_000 && largeCount == 200_000)
    // Eight times the elements: a copy per element would take about 64 times as long.
    #expect(large < max(small, 0.01) * 24, "\(small) s, then \(large) s")
  }
}
