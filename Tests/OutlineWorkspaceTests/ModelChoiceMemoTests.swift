import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineWorkspace

/// The model choices a run remembers (``ModelCache``): each document still gets the model its
/// own folder, its own project and its own configuration give it, however many documents
/// before it named a model with the same words.
@Suite struct ModelChoiceMemoTests {
  /// `order` only.
  static let plain = """
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/></entity></model>
    """
  /// `order` and a `mark`.
  static let marked = """
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/><attribute name="mark" optional="YES" attributeType="String"/></entity></model>
    """

  static func document(model: String? = nil) -> String {
    "<outline\(model.map { " model=\"\($0)\"" } ?? "")><Item order=\"0\" mark=\"x\"/></outline>"
  }

  /// The codes of each document, checked in the order given through one finder and one cache.
  static func codes(_ root: URL, _ paths: [String]) throws -> [String: [String]] {
    let configurations = ConfigurationFinder()
    let models = ModelCache()
    var found: [String: [String]] = [:]
    for path in paths {
      let check = try DocumentCheck.stream(
        path: root.appendingPathComponent(path).path, modelOverride: nil, configurations: configurations,
        models: models
      ).0
      found[path] = check.diagnostics.map(\.code.rawValue)
    }
    return found
  }

  @Test func theSameWordsInAnotherFolderNameAnotherModel() throws {
    let root = try Scratch.folder("model-choice")
    try CLI.write(
      [
        ".outline.json": "{}",
        "a/N.xcdatamodel/contents": Self.marked,
        "b/N.xcdatamodel/contents": Self.plain,
        "a/x.outline": Self.document(model: "N.xcdatamodel"),
        "a/y.outline": Self.document(model: "N.xcdatamodel"),
        "b/x.outline": Self.document(model: "N.xcdatamodel"),
        "c/x.outline": Self.document(model: "N.xcdatamodel"),
        "a/sub/x.outline": Self.document(model: "../N.xcdatamodel"),
      ], in: root)
    let codes = try Self.codes(
      root, ["a/x.outline", "a/y.outline", "b/x.outline", "c/x.outline", "a/sub/x.outline"])
    #expect(codes["a/x.outline"] == [])
    #expect(codes["a/y.outline"] == [])
    // `mark` is not b's model's: OL203 (an attribute the model does not declare).
    #expect(codes["b/x.outline"] == ["OL203"])
    #expect(codes["c/x.outline"] == ["OL102"])
    #expect(codes["a/sub/x.outline"] == [])
  }

  @Test func oneModelIsRefusedFromAProjectItLiesOutside() throws {
    let root = try Scratch.folder("model-choice")
    try CLI.write(
      [
        ".outline.json": "{}",
        "a/N.xcdatamodel/contents": Self.marked,
        "a/sub/x.outline": Self.document(model: "../N.xcdatamodel"),
        // A project of its own (its own configuration): a's model lies outside it.
        "a/inner/.outline.json": "{}",
        "a/inner/x.outline": Self.document(model: "../N.xcdatamodel"),
      ], in: root)
    let codes = try Self.codes(root, ["a/sub/x.outline", "a/inner/x.outline"])
    #expect(codes["a/sub/x.outline"] == [])
    #expect(codes["a/inner/x.outline"] == ["OL106"])
  }

  @Test func eachConfigurationGivesItsOwnModel() throws {
    let root = try Scratch.folder("model-choice")
    try CLI.write(
      [
        "p/.outline.json": #"{"model": "N.xcdatamodel"}"#,
        "p/N.xcdatamodel/contents": Self.marked,
        "p/d/x.outline": Self.document(),
        "q/.outline.json": #"{"model": "N.xcdatamodel"}"#,
        "q/N.xcdatamodel/contents": Self.plain,
        "q/d/x.outline": Self.document(),
      ], in: root)
    let codes = try Self.codes(root, ["p/d/x.outline", "q/d/x.outline"])
    #expect(codes["p/d/x.outline"] == [])
    #expect(codes["q/d/x.outline"] == ["OL203"])
  }

  @Test func keysTellFoldersAndStandardInputApart() {
    let key = { (path: String?) in
      ModelResolution.choiceKey(attribute: "M", documentPath: path, configuration: nil)
    }
    #expect(key("a/x.outline") == key("a/y.outline"))
    #expect(key("x.outline") != key("/x.outline"))
    #expect(key("a/x.outline") != key("b/x.outline"))
    #expect(key(nil) != key("x.outline"))
  }
}
