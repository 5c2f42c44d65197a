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
}
