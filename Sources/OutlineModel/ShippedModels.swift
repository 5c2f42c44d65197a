/// The models the toolchain ships in `schema/`, embedded so the default
/// model needs no file at run time. A test keeps them identical to the files.
public enum ShippedModels {
  /// The path of the default model inside the repository.
  public static let outlinePath = "schema/Outline.xcdatamodeld"

  /// `schema/Outline.xcdatamodeld/Outline.xcdatamodel/contents`: the seed's nested to-do list.
  public static let outline = #"""
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
        </entity>
    </model>

    """#
}
