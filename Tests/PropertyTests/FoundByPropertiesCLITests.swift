import Foundation
import Testing

/// What the properties found, each kept as an example through the binaries.
@Suite struct FoundByPropertiesCLITests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model>
        <entity name="Item">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
            <relationship name="related" optional="YES" toMany="YES" destinationEntity="Item" inverseName="relatedBy" inverseEntity="Item"/>
            <relationship name="relatedBy" optional="YES" toMany="YES" destinationEntity="Item" inverseName="related" inverseEntity="Item"/>
        </entity>
    </model>
    """

  /// A reference written with a character reference names the id it decodes to, as `xml:id` does.
  @Test func anEscapedReferenceNamesItsDecodedID() throws {
    let folder = try Binary.folder([
      "M.xcdatamodel/contents": Self.model,
      "a.outline": """
      <outline model="M.xcdatamodel">
        <Item xml:id="&#233;6" order="0"/>
        <Item order="1" related="&#233;6 é6"/>
        <Item order="2" related="&#xE9;7"/>
      </outline>

      """,
    ])
    let lint = try Binary.run("outline-lint", ["a.outline"], in: folder)
    #expect(lint.status == 1)
    #expect(
      lint.stdout.hasPrefix("a.outline:4:28: error[OL501]: 'related' names 'é7', which no object"),
      "\(lint.stdout)")
    #expect(lint.stdout.contains("1 error,"), "\(lint.stdout)")
  }
}
