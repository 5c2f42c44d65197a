import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineWorkspace

/// The globs of `.outline.json` (Configuration.md): `*` within a segment, `?` one character
/// other than `/`, `**` across segments; a character is a Unicode scalar, and in a name that is
/// not UTF-8 each stray byte is one.
@Suite struct GlobTests {
  @Test func aQuestionMarkIsOneCharacterNotOneByte() {
    #expect(Glob.matches("?.outline", "é.outline"))
    #expect(Glob.matches("?.outline", "a.outline"))
    #expect(!Glob.matches("??.outline", "é.outline"))
    #expect(Glob.matches("?.outline", "😀.outline"))
    #expect(!Glob.matches("????.outline", "😀.outline"))
    #expect(Glob.matches("a?c", "a中c"))
    #expect(!Glob.matches("?", "/"))
    #expect(!Glob.matches("a?b", "a/b"))
  }

  @Test func starsStayInTheirSegmentAndDoubleStarsCrossThem() {
    #expect(Glob.matches("*.outline", "é.outline"))
    #expect(!Glob.matches("*.outline", "d/a.outline"))
    #expect(Glob.matches("**/*.outline", "a.outline"))
    #expect(Glob.matches("**/*.outline", "d/e/a.outline"))
    #expect(Glob.matches("drafts/**", "drafts/a/b.outline"))
    #expect(!Glob.matches("drafts/**", "draftsy/a.outline"))
    #expect(Glob.matches("a/**/b", "a/b"))
    #expect(Glob.matches("a/**/b", "a/x/y/b"))
    #expect(Glob.matches("d*s/*é?", "drafts/xéy"))
    #expect(Glob.matches("[ab].outline", "[ab].outline"), "brackets are not special")
    #expect(!Glob.matches("[ab].outline", "a.outline"))
  }

  @Test func aDoubleStarSlashStartsTheRestAtASegment() {
    // `**/` is nothing or whole segments: `**/b.outline` is not any name ending in `b.outline`.
    #expect(Glob.matches("**/b.outline", "b.outline"))
    #expect(Glob.matches("**/b.outline", "x/b.outline"))
    #expect(!Glob.matches("**/b.outline", "ab.outline"))
    #expect(!Glob.matches("a/**/b", "a/xb"))
    #expect(Glob.matches("**b.outline", "ab.outline"), "without its slash it is any characters")
  }

  @Test func namesThatAreNotUTF8MatchByCharacterAndStrayByte() {
    let latin1 = Array("drafts/".utf8) + [0xE9] + Array(".outline".utf8)
    #expect(Glob.matches("drafts/?.outline", bytes: latin1))
    #expect(Glob.matches("drafts/*.outline", bytes: latin1))
    #expect(Glob.matches("drafts/**", bytes: latin1))
    #expect(!Glob.matches("drafts/??.outline", bytes: latin1))
    #expect(!Glob.matches("drafts/é.outline", bytes: latin1), "a stray byte is no character of the pattern")
    // A cut sequence (the lead of `é` without its second byte) counts one stray byte.
    #expect(Glob.matches("?x", bytes: [0xC3, UInt8(ascii: "x")]))
    #expect(Glob.matches("é", bytes: [0xC3, 0xA9]))
    #expect(Glob.characters(of: [0xF0, 0x9F, 0x98]).count == 3)
    #expect(Glob.characters(of: Array("😀".utf8)) == [0x1F600])
  }

  @Test func manyStarsTakeTimeInProportion() {
    let pattern = String(repeating: "*a", count: 30) + "*b"
    let path = String(repeating: "a", count: 4_000)
    let start = Date()
    #expect(!Glob.matches(pattern, path))
    #expect(!Glob.matches(String(repeating: "**/a", count: 30) + "b", String(repeating: "a/", count: 2_000)))
    #expect(Glob.matches(pattern, path + "b"))
    #expect(Date().timeIntervalSince(start) < 5)
  }

  /// The matcher agrees with the definition, written as plain recursion, on generated globs.
  @Test func agreesWithTheDefinition() {
    var random = SeededGenerator(seed: 7)
    let pieces = ["a", "b", "é", "/", "*", "**", "**/", "?"]
    let letters: [Character] = ["a", "b", "é", "/"]
    for _ in 0..<4_000 {
      let pattern = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }
      .joined()
      let path = String(
        (0..<Int.random(in: 0...7, using: &random)).map { _ in letters.randomElement(using: &random)! })
      #expect(
        Glob.matches(pattern, path) == Self.definition(Array(pattern), Array(path)), "\(pattern) \(path)")
    }
  }

  /// `**/` is nothing or anything ending in `/`, `**` anything, `*` anything without `/`, `?`
  /// one character but `/`; anything else itself.
  static func definition(_ pattern: [Character], _ path: [Character]) -> Bool {
    guard let first = pattern.first else { return path.isEmpty }
    if first == "*" && pattern.count > 1 && pattern[1] == "*" {
      if pattern.count > 2 && pattern[2] == "/" {
        let rest = Array(pattern.dropFirst(3))
        if definition(rest, path) { return true }
        return path.indices.contains { path[$0] == "/" && definition(rest, Array(path[($0 + 1)...])) }
      }
      let rest = Array(pattern.dropFirst(2))
      return (0...path.count).contains { definition(rest, Array(path[$0...])) }
    }
    if first == "*" {
      let rest = Array(pattern.dropFirst())
      for count in 0...path.count {
        if count > 0 && path[count - 1] == "/" { break }
        if definition(rest, Array(path[count...])) { return true }
      }
      return false
    }
    guard let character = path.first else { return false }
    if first == "?" ? character == "/" : character != first { return false }
    return definition(Array(pattern.dropFirst()), Array(path.dropFirst()))
  }
}
