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

  /// The path of the OPML model inside the repository.
  public static let opmlPath = "schema/OPML.xcdatamodeld"

  /// `schema/OPML.xcdatamodeld/OPML.xcdatamodel/contents`: OPML head fields on
  /// the root object (`OPML`), nested `Outline` objects with OPML's standard attributes.
  public static let opml = #"""
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="OPML" representedClassName="OPMLDocument" syncable="YES">
            <attribute name="opmlVersion" optional="YES" attributeType="String"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="dateCreated" optional="YES" attributeType="String"/>
            <attribute name="dateModified" optional="YES" attributeType="String"/>
            <attribute name="ownerName" optional="YES" attributeType="String"/>
            <attribute name="ownerEmail" optional="YES" attributeType="String"/>
            <attribute name="ownerId" optional="YES" attributeType="String"/>
            <attribute name="docs" optional="YES" attributeType="String"/>
            <attribute name="expansionState" optional="YES" attributeType="String"/>
            <attribute name="vertScrollState" optional="YES" attributeType="String"/>
            <attribute name="windowTop" optional="YES" attributeType="String"/>
            <attribute name="windowLeft" optional="YES" attributeType="String"/>
            <attribute name="windowBottom" optional="YES" attributeType="String"/>
            <attribute name="windowRight" optional="YES" attributeType="String"/>
            <relationship name="outlines" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Outline" inverseName="document" inverseEntity="Outline"/>
        </entity>
        <entity name="Outline" representedClassName="OPMLOutline" syncable="YES">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="text" optional="YES" attributeType="String"/>
            <attribute name="type" optional="YES" attributeType="String"/>
            <attribute name="isComment" optional="YES" attributeType="String"/>
            <attribute name="isBreakpoint" optional="YES" attributeType="String"/>
            <attribute name="created" optional="YES" attributeType="String"/>
            <attribute name="category" optional="YES" attributeType="String"/>
            <attribute name="description" optional="YES" attributeType="String"/>
            <attribute name="xmlUrl" optional="YES" attributeType="String"/>
            <attribute name="htmlUrl" optional="YES" attributeType="String"/>
            <attribute name="language" optional="YES" attributeType="String"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="version" optional="YES" attributeType="String"/>
            <attribute name="url" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Outline" inverseName="parent" inverseEntity="Outline"/>
            <relationship name="document" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="OPML" inverseName="outlines" inverseEntity="OPML"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Outline" inverseName="children" inverseEntity="Outline"/>
        </entity>
    </model>

    """#
}
