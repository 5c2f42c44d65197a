import Foundation
import OutlineCore
import OutlineModel
import OutlineWorkspace
import TestSupport
import Testing

/// What `model diff` reports between versions, in process, each change as the command writes
/// it (`kind: detail [inferred; data kept]`): a containment that ends drops its objects, a name
/// freed by a rename and used again is new, a new parent's required attribute is new to its
/// sub-entities. (The command itself goes through the binary in VersionsCLITests.)
@Suite struct ModelVersionDiffTests {
  static func model(_ entities: String) -> Model {
    ModelLoader.load(
      SourceText(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
      ))
  }

  static let item = """
    <entity name="Item">
        <attribute name="title" optional="YES" attributeType="String"/>
        <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    </entity>
    """

  /// The changes from the first model of `chain` to its last, one line each as `model diff`
  /// writes them, and whether Core Data can infer them all (`model diff` exits 0 then, else 1).
  static func diff(_ chain: [Model]) -> (text: String, migratable: Bool) {
    let changes = ModelDiff.changes(along: chain)
    let text = changes.map { change in
      "  \(change.kind.rawValue): \(change.detail) [\(change.inferable ? "inferred" : "NOT inferable"); data \(change.data.rawValue)]\n"
    }.joined()
    return (text, ModelDiff.isMigratable(changes))
  }

  /// `parent` going to-many ends the `children` containment: the nested objects are dropped,
  /// not kept.
  @Test func aContainmentThatEndsIsNotReportedAsKept() {
    let after = Self.item.replacingOccurrences(
      of: "name=\"parent\" optional=\"YES\" maxCount=\"1\"",
      with: "name=\"parent\" optional=\"YES\" toMany=\"YES\"")
    #expect(after != Self.item)
    let diff = Self.diff([Self.model(Self.item), Self.model(after)])
    #expect(diff.text.contains("'Item.children' is no longer a containment"), "\(diff.text)")
    #expect(diff.text.contains("[inferred; data dropped]"), "\(diff.text)")
  }

  /// `a` renamed `b` (keeping `renamingIdentifier="a"`), then a new `a` added beside it: the
  /// new `a` is new, not `b` renamed back, from either older version.
  @Test func aNameFreedByARenameIsNewWhenReused() {
    func version(_ attributes: String) -> Model {
      Self.model(
        "<entity name=\"Item\"><attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\"/>\(attributes)</entity>"
      )
    }
    let chain = [
      version("<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>"),
      version("<attribute name=\"b\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"a\"/>"),
      version(
        "<attribute name=\"b\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"a\"/><attribute name=\"a\" optional=\"YES\" attributeType=\"Integer 32\"/>"
      ),
    ]
    for from in [0, 1] {
      let diff = Self.diff(Array(chain[from...]))
      #expect(diff.migratable, "\(from): \(diff.text)")
      #expect(diff.text.contains("attribute 'Item.a' added"), "\(from): \(diff.text)")
      #expect(
        !diff.text.contains("changed type") && !diff.text.contains("renamed to 'a'"), "\(from): \(diff.text)")
    }
  }

  /// A new abstract parent that declares a required attribute: the parent change, and the
  /// attribute new to the sub-entity (not inferable), as migrate needs a value.
  @Test func aNewParentsRequiredAttributeIsNewToItsSubEntities() {
    let diff = Self.diff([
      Self.model(
        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
      ),
      Self.model(
        """
        <entity name="Base" isAbstract="YES"><attribute name="created" attributeType="Date"/></entity>
        <entity name="Item" parentEntity="Base"><attribute name="title" optional="YES" attributeType="String"/></entity>
        """),
    ])
    #expect(!diff.migratable, "\(diff.text)")
    #expect(
      diff.text.contains("parent-changed: parent entity of 'Item' changed from none to 'Base'"),
      "\(diff.text)")
    #expect(
      diff.text.contains("attribute 'Item.created' added (required, no default) [NOT inferable"),
      "\(diff.text)")
  }

  /// Every bundle of the corpus diffs from its first version to its current one.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func modelDiffOfTheCorpusVersionPairs() throws {
    for name in Corpus.names(in: "xcdatamodel", suffix: ".xcdatamodeld") {
      let bundle = Corpus.folder("xcdatamodel").appendingPathComponent(name).path
      let versions = try FileManager.default.contentsOfDirectory(atPath: bundle).filter {
        $0.hasSuffix(".xcdatamodel")
      }
      guard let first = versions.min(by: { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }) else {
        continue
      }
      // As `model diff BUNDLE --from FIRST` finds the chain: an older version, a newer one.
      let history = try ModelLocator.history(path: bundle)
      let old = try #require(history.index(named: first), "\(name): \(history.names)")
      #expect(old <= history.current, "\(name)")
      let chain = history.versions[old...history.current].map(\.model)
      _ = Self.diff(chain)
    }
  }

  /// On the real model where derived and defaulted attributes were found wanting: a derived
  /// attribute added is Core Data's to compute, and an optional scalar with a default needs
  /// nothing.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func diffOfTheSwiftGenModel() throws {
    let bundle = Corpus.folder("xcdatamodel").appendingPathComponent("SwiftGen__SwiftGen__Model.xcdatamodeld")
      .path
    // As `model diff BUNDLE --from Model`.
    let history = try ModelLocator.history(path: bundle)
    let old = try #require(history.index(named: "Model"), "\(history.names)")
    let diff = Self.diff(history.versions[old...history.current].map(\.model))
    #expect(
      diff.text.contains("attribute 'ChildEntity.now' added (derived: Core Data computes it"), "\(diff.text)")
    #expect(!diff.text.contains("(optional)") || !diff.text.contains("'ChildEntity.now' added (optional)"))
    #expect(
      !diff.text.contains("optionalFloat' added (required, default '0.0') [inferred; data needs-default]"))
  }
}
