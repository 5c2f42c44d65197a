import Foundation
import Testing

/// Documentation/Guarantees.md names, for every promise, the tests that check it, as
/// `` `Target/File.swift` `testName` ``. Each named test must exist, so the page cannot point
/// at a test that was renamed or removed.
@Suite struct GuaranteesDocumentTests {
  /// The (file, test) pairs the page names, in order.
  static func namedTests(in text: String) -> [(file: String, test: String)] {
    // Joined lines: a reference may be wrapped between its file and its test. Each reference is
    // found by its own shape, so a stray backtick elsewhere on the page cannot hide the ones after.
    let flat = text.replacingOccurrences(of: "\n  ", with: " ")
    let reference = /`([^`\s]*Tests\/[^`\s]*\.swift)` `([A-Za-z_][A-Za-z0-9_]*)`/
    return flat.matches(of: reference).map { (String($0.output.1), String($0.output.2)) }
  }

  @Test func everyTestThePageNamesExists() throws {
    let page = try RepositoryFiles.text("Documentation/Guarantees.md")
    let pairs = Self.namedTests(in: page)
    #expect(pairs.count >= 100, "the page names \(pairs.count) tests")
    var missing: [String] = []
    for (file, test) in pairs {
      guard let source = try? RepositoryFiles.text("Tests/" + file) else {
        missing.append("\(file) (no such file)")
        continue
      }
      if !source.contains("func \(test)(") { missing.append("\(file): \(test)") }
    }
    #expect(missing.isEmpty, "Guarantees.md names tests that do not exist: \(missing)")
  }

  @Test func namedTestsAreReadAcrossWrappedLines() {
    let text = "- a promise. *examples*: `ATests/B.swift`\n  `first`; `CTests/D.swift` `second`; `x` `y`"
    let pairs = Self.namedTests(in: text)
    #expect(pairs.map(\.file) == ["ATests/B.swift", "CTests/D.swift"])
    #expect(pairs.map(\.test) == ["first", "second"])
  }

  /// A lone backtick (a code span of one, ``` `` ` `` ```) put an earlier reader out of step, and
  /// every reference after it went unchecked.
  @Test func aStrayBacktickHidesNoReferenceAfterIt() {
    let text = "| a `` ` `` cell | `ATests/B.swift` `first` |\n| `x | `CTests/D.swift` `second` |"
    let pairs = Self.namedTests(in: text)
    #expect(pairs.map(\.test) == ["first", "second"])
  }
}
