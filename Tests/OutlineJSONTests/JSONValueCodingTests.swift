import OutlineJSON
import Testing

/// `JSONValueCoding`, the `Codable` bridge over `JSONValue`, through its public face only.
@Suite struct JSONValueCodingTests {
  struct Book: Codable, Equatable {
    var title: String
    var pages: Int
    var subtitle: String?
  }

  enum Binding: String, Codable, Equatable { case paper, cloth }

  enum Place: Codable, Equatable {
    case room(String, floor: Int)
    case lent(to: String?)
    case lost
  }

  struct Shelf: Codable, Equatable {
    var label: String
    var books: [Book]
    var place: Place
  }

  struct Library: Codable, Equatable {
    var name: String
    var shelves: [Shelf]
    var counts: [String: Int]
    var grid: [[Int8]]
    var ratio: Double
    var share: Float
    var open: [Bool]
    var binding: Binding
    var largest: UInt64
    var smallest: Int64
    var small: [UInt8]
    var wide: [Int16: UInt32]
    var founder: Book?
  }

  static let library = Library(
    name: "Stadt \"Bibliothek\" ü",
    shelves: [
      Shelf(
        label: "A",
        books: [Book(title: "One", pages: 10, subtitle: nil), Book(title: "Two", pages: 0, subtitle: "ii")],
        place: .room("west", floor: -1)),
      Shelf(label: "", books: [], place: .lent(to: nil)),
      Shelf(label: "C", books: [Book(title: "Three", pages: 3)], place: .lost),
    ],
    counts: ["a": 1, "b": -2], grid: [[], [1, -128, 127], [0]], ratio: 0.25, share: 1.5, open: [true, false],
    binding: .cloth, largest: .max, smallest: .min, small: [0, 255], wide: [-3: 7, 4: .max], founder: nil)

  @Test func nestedValuesRoundTrip() throws {
    let value = try JSONValueCoding.encode(Self.library)
    #expect(try JSONValueCoding.decode(Library.self, from: value) == Self.library)
    // Through the JSON text too: what is written is read back the same.
    let reparsed = try JSONValue.parse(value.serializedBytes())
    #expect(reparsed == value)
    #expect(try JSONValueCoding.decode(Library.self, from: reparsed) == Self.library)
  }

  @Test func nilIsLeftOutAndNumbersAreWrittenWhole() throws {
    #expect(try JSONValueCoding.encode(Book(title: "T", pages: 2)) == ["title": "T", "pages": 2])
    let book: Book? = nil
    #expect(try JSONValueCoding.encode(book) == .null)
    #expect(try JSONValueCoding.encode(UInt64.max) == .number("18446744073709551615"))
    #expect(try JSONValueCoding.encode([Int8.min]) == [-128])
  }

  @Test func errorsNameThePathOfWhatIsWrong() throws {
    var value = try JSONValueCoding.encode(Self.library)
    guard case .object(var members) = value, let index = members.firstIndex(where: { $0.0 == "shelves" })
    else {
      Issue.record("not an object: \(value)")
      return
    }
    members[index].1 = [["label": "A", "books": [["title": "T"]], "place": ["lost": [:] as JSONValue]]]
    value = .object(members)
    do {
      _ = try JSONValueCoding.decode(Library.self, from: value)
      Issue.record("decoded")
    } catch let error as DecodingError {
      #expect(JSONValueCoding.describe(error) == "shelves.[0].books.[0].pages is missing")
    }
    do {
      _ = try JSONValueCoding.decode(Book.self, from: ["title": true, "pages": 2])
      Issue.record("decoded")
    } catch let error as DecodingError {
      #expect(JSONValueCoding.describe(error) == "title: expected a string, found a Boolean")
    }
    do {
      _ = try JSONValueCoding.decode([Int8].self, from: [1, 300])
      Issue.record("decoded")
    } catch let error as DecodingError {
      #expect(JSONValueCoding.describe(error) == "[1]: 300 does not fit Int8")
    }
  }
}
