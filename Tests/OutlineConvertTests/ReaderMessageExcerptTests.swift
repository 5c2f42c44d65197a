import OutlineCore
import OutlineModel
import Testing

@testable import OutlineConvert

/// The JSON form reader and the OPML reader quote keys, names and values of their input
/// only as an excerpt (Files.md, "What messages quote"), and so does a JSON path.
@Suite struct ReaderMessageExcerptTests {
  static let key = "k" + String(repeating: "e", count: 100_000)

  static func problems(_ json: String) -> [JSONFormError] { JSONFormRecoveryTests.problems(json) }

  @Test func aLongUnknownKeyIsCutInTheMessageAndThePath() throws {
    let found = Self.problems(#"{"children":[{"@entity":"Item","order":0,"\#(Self.key)":1}]}"#)
    let problem = try #require(found.first { $0.code == .unknownAttribute })
    let shown = String(Self.key.prefix(60)) + "..."
    #expect(problem.message == "'\(shown)' is not an attribute or relationship of 'Item'")
    #expect(problem.path == "$.children[0].\(shown)")
  }

  @Test func aKeyWithControlCharactersIsEscapedInTheMessage() throws {
    let found = Self.problems(#"{"children":[{"@entity":"Item","order":0,"a\nb":1}]}"#)
    let problem = try #require(found.first { $0.code == .unknownAttribute })
    #expect(problem.message == #"'a\nb' is not an attribute or relationship of 'Item'"#)
    #expect(problem.path == #"$.children[0]["a\nb"]"#)
  }

  @Test func aLongEntityNameOrValueIsCut() {
    let value = String(repeating: "v", count: 100_000)
    let found = Self.problems(
      #"{"children":[{"@entity":"\#(Self.key)","order":0},{"@entity":"Item","order":1,"when":"\#(value)"}]}"#)
    #expect(found.contains { $0.code == .valueType })
    for problem in found {
      #expect(problem.message.count < 200, "\(problem.message.prefix(200))")
    }
    #expect(found.contains { $0.message == "'\(Self.key.prefix(60))...' is not an entity of the model" })
  }

  @Test func opmlMessagesQuoteNamesShortened() throws {
    let name = "n" + String(repeating: "m", count: 100_000)
    for text in [
      "<\(name)/>",
      "<opml version=\"2.0\"><head/><body><\(name)/></body></opml>",
      "<opml version=\"2.0\"><head \(name)=\"1\"/><body/></opml>",
    ] {
      let (result, _) = OPMLReader.read(Array(text.utf8))
      guard case .failure(let error) = result else {
        Issue.record("read \(text.prefix(40))")
        continue
      }
      #expect(error.message.count < 200, "\(error.message.prefix(200))")
      #expect(error.message.contains("'\(name.prefix(60))...'"), "\(error.message.prefix(200))")
    }
  }
}
