import Foundation
import TestSupport
import Testing

/// Core Data semantics through `outline-lint`, as a user runs it: inverse
/// pairs, uniqueness constraints, the rest of the model language.
@Suite(.serialized) struct SemanticsCLITests {
  static let libraryModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Library">
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
        </entity>
        <entity name="Author">
            <relationship name="books" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
            <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <relationship name="books" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
    </model>
    """

  @Test func inverseWrittenOnOneSideOnly() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Library.xcdatamodel/contents": Self.libraryModel,
        "books.outline": """
        <outline model="Library.xcdatamodel">
          <Book title="Dune" author="a1" tags="t1"/>
          <Author xml:id="a1"/>
          <Tag xml:id="t1"/>
        </outline>

        """,
        "broken.outline": """
        <outline model="Library.xcdatamodel">
          <Book title="Dune" author="a1"/>
          <Author xml:id="a1"/>
          <Tag xml:id="t1"/>
        </outline>

        """,
      ], in: folder)
    let clean = try CLI.run("outline-lint", ["books.outline"], in: folder)
    #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    let broken = try CLI.run("outline-lint", ["broken.outline"], in: folder)
    #expect(broken.status == 1)
    #expect(
      broken.stdout.contains(
        "broken.outline:4:16: error[OL503]: 'Tag' 't1' needs 'books' (not optional): it does not write it and no object names it through 'tags'"
      ), "\(broken.stdout)")
  }

  /// A real model whose change objects have two required parents: one by
  /// nesting, the other written as an id; the event's required revision is
  /// written only from the revision's side.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func corpusModelWithOneSideWritten() throws {
    let model = Corpus.folder("xcdatamodel").appendingPathComponent(
      "drewmccormack__ensembles__CDEEventStoreModel.xcdatamodeld/CDEEventStoreModel_2.xcdatamodel/contents"
    ).path
    let folder = try CLI.temporaryFolder()
    let document = """
      <outline model="\(model)" entity="CDEStoreModificationEvent" xml:id="ev" timestamp="2024-01-01T00:00Z">
        <CDEEventRevision persistentStoreIdentifier="store" storeModificationEvent="ev"/>
        <CDEObjectChange nameOfEntity="Person" globalIdentifier="g1"/>
        <CDEGlobalIdentifier xml:id="g1" globalIdentifier="x" nameOfEntity="Person"/>
      </outline>

      """
    try CLI.write(
      [
        "events.outline": document,
        "no-revision.outline": document.replacingOccurrences(of: " storeModificationEvent=\"ev\"", with: ""),
        "no-identifier.outline": document.replacingOccurrences(of: " globalIdentifier=\"g1\"", with: ""),
      ], in: folder)
    let clean = try CLI.run("outline-lint", ["events.outline"], in: folder)
    #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    let noRevision = try CLI.run("outline-lint", ["--format", "json", "no-revision.outline"], in: folder)
    #expect(noRevision.status == 1)
    #expect(noRevision.stdout.components(separatedBy: "\"OL503\"").count == 2, "\(noRevision.stdout)")
    #expect(noRevision.stdout.contains("needs 'eventRevision'"))
    let noIdentifier = try CLI.run("outline-lint", ["no-identifier.outline"], in: folder)
    #expect(noIdentifier.status == 1)
    #expect(noIdentifier.stdout.contains("error[OL503]: 'CDEObjectChange' needs 'globalIdentifier'"))
  }
}
