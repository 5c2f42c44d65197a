import OutlineCore
import OutlineModel
import TestSupport
import Testing

@testable import OutlineValidation

/// `KeyLookup` compares names as integers before bytes; it must give exactly the answers of
/// `ModelIndex`'s byte-by-byte lookup, for names of every length around its eight-byte prefix.
@Suite struct KeyLookupTests {
  static let model: Model = {
    let names = [
      "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh1", "abcdefgh2",
      "order", "title", "x_long_attribute_name_beyond_eight", "é", "éé",
    ]
    let attributes = names.map { "<attribute name=\"\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
    let text = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Item" representedClassName="Item" syncable="YES">
      \(attributes.joined(separator: "\n"))
      <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
      <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
      <relationship name="abcdefgh3" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
      </entity>
      </model>
      """
    return ModelLoader.load(SourceText(text), path: "/models/Keys.xcdatamodel/contents")
  }()

  @Test func agreesWithTheModelIndexForEveryName() throws {
    let index = Self.model.index
    let lookup = KeyLookup(index)
    let known = index.keys[0].map { String(decoding: $0, as: UTF8.self) }
    try Property.check("KeyLookup agrees with ModelIndex", cases: 1000, slowFactor: 2) { random, _ in
      // A known name, or one changed at a random place (a byte changed, cut, or lengthened).
      var name = Array(known.randomElement(using: &random)!.utf8)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: break
      case 1: name[Int.random(in: 0..<name.count, using: &random)] ^= 1
      case 2: name.removeLast(Int.random(in: 1...name.count, using: &random))
      default: name.append(UInt8.random(in: 0x61...0x7A, using: &random))
      }
      return name.withUnsafeBufferPointer { bytes -> String? in
        let attribute = lookup.attribute(bytes, of: 0, in: index)
        let relationship = lookup.relationship(bytes, of: 0, in: index)
        let spelled = String(decoding: name, as: UTF8.self)
        if attribute != index.attribute(ByteView(bytes), of: 0) {
          return "attribute '\(spelled)': \(String(describing: attribute))"
        }
        if relationship != index.relationship(ByteView(bytes), of: 0) {
          return "relationship '\(spelled)': \(String(describing: relationship))"
        }
        return nil
      }
    }
  }

  @Test func prefixIsTheFirstEightBytesZeroPadded() {
    for length in 0...12 {
      let bytes = (0..<length).map { UInt8(0x41 + $0) }
      var expected: UInt64 = 0
      for (index, byte) in bytes.prefix(8).enumerated() { expected |= UInt64(byte) << UInt64(8 * index) }
      #expect(bytes.withUnsafeBufferPointer { KeyLookup.prefix($0) } == expected, "length \(length)")
    }
  }
}
