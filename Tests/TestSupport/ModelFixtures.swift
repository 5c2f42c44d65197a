/// Model texts the model tests share, in process and through the binaries.
public enum ModelFixtures {
  /// A model whose names no document can spell: an entity and attributes with spaces, two
  /// colons and a leading digit (each an OM218 error).
  public static let badNames = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model>
      <entity name="My Folder"><attribute name="has space" optional="YES" attributeType="String"/></entity>
      <entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
      <attribute name="x:y:z" optional="YES" attributeType="String"/><attribute name="1abc" optional="YES" attributeType="String"/>
      <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent"/>
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/></entity>
    </model>
    """

  /// A Core Data model file holding `entities`, as Xcode writes one.
  public static func model(_ entities: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
  }

  /// The `Item` entity of the versioning tests: a title, an order, the children and parent
  /// relationships, and `priority` (an attribute's text, or nothing) between them.
  public static func item(priority: String) -> String {
    """
    <entity name="Item">
        <attribute name="title" optional="YES" attributeType="String"/>
        <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
        \(priority)
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    </entity>
    """
  }

  /// A `Doc` holding `Item`s, each with a to-one `friend` and its inverse `friendOf`: the model
  /// of the convert tests, in process and through the binary.
  public static let friends = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Doc"><attribute name="version" optional="YES" attributeType="Integer 16"/>
        <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="doc" inverseEntity="Item"/></entity>
      <entity name="Item">
        <relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="items" inverseEntity="Doc"/>
        <relationship name="friend" optional="YES" maxCount="1" destinationEntity="Item" inverseName="friendOf" inverseEntity="Item"/>
        <relationship name="friendOf" optional="YES" toMany="YES" destinationEntity="Item" inverseName="friend" inverseEntity="Item"/>
      </entity>
    </model>

    """
}
