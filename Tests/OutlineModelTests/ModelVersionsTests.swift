import Foundation
import OutlineCore
import OutlineModel
import OutlineWorkspace
import Testing

/// Versions, version hashes and the diff of two versions.
@Suite struct ModelVersionsTests {
  static let bundle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/versions/Tasks.xcdatamodeld").path

  static func model(_ entities: String) -> Model {
    ModelLoader.load(SourceText("<?xml version=\"1.0\"?>\n<model>\n\(entities)\n</model>\n"))
  }

  static let base = """
    <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
    <attribute name="order" attributeType="Integer 64" defaultValueString="0"/></entity>
    """

  @Test func theBundleLoadsEveryVersionAndKnowsTheCurrentOne() throws {
    let history = try ModelLocator.history(path: Self.bundle)
    #expect(history.names == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(history.current == 3)
    #expect(history.index(named: "Tasks 2.xcdatamodel") == 1)
    let second = try ModelLocator.history(path: Self.bundle + "/Tasks 2.xcdatamodel")
    #expect(second.current == 1 && second.versions.count == 4)
  }

  @Test func theHashCoversWhatCoreDataHashesAndNothingElse() {
    let hash = ModelVersion(name: "A", model: Self.model(Self.base)).entityHashes["Item"]
    let userInfo = Self.model(
      Self.base.replacingOccurrences(
        of: "attributeType=\"String\"/>",
        with: "attributeType=\"String\"><userInfo><entry key=\"k\" value=\"v\"/></userInfo></attribute>"))
    let defaultValue = Self.model(Self.base.replacingOccurrences(of: "\"0\"", with: "\"5\""))
    let required = Self.model(Self.base.replacingOccurrences(of: "optional=\"YES\" ", with: ""))
    let retyped = Self.model(Self.base.replacingOccurrences(of: "Integer 64", with: "Integer 32"))
    let modifier = Self.model(
      Self.base.replacingOccurrences(
        of: "<entity name=\"Item\"", with: "<entity name=\"Item\" versionHashModifier=\"2\""))
    #expect(hash != nil)
    #expect(ModelVersion(name: "B", model: userInfo).entityHashes["Item"] == hash)
    #expect(ModelVersion(name: "B", model: defaultValue).entityHashes["Item"] == hash)
    #expect(ModelVersion(name: "B", model: required).entityHashes["Item"] != hash)
    #expect(ModelVersion(name: "B", model: retyped).entityHashes["Item"] != hash)
    #expect(ModelVersion(name: "B", model: modifier).entityHashes["Item"] != hash)
  }

  @Test func unchangedEntitiesHashAlikeAcrossTheChain() throws {
    let history = try ModelLocator.history(path: Self.bundle)
    #expect(history.versions[0].entityHashes["Archive"] == history.versions[1].entityHashes["Archive"])
    #expect(history.versions[0].entityHashes["Task"] != history.versions[1].entityHashes["Task"])
  }
}
