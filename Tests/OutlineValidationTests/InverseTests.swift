import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

/// A corpus-shaped model: books contained by a library, each with a required
/// author (a to-one whose inverse is another containment), tags (many to
/// many, a tag needs a book) and a cover (one to one, a cover needs a book).
let libraryModel = """
  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
  <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Library">
          <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
      </entity>
      <entity name="Author">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="books" toMany="YES" maxCount="2" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
      </entity>
      <entity name="Book">
          <attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
          <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
          <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
          <relationship name="cover" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Cover" inverseName="book" inverseEntity="Cover"/>
      </entity>
      <entity name="Tag">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="books" toMany="YES" minCount="1" maxCount="2" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
      </entity>
      <entity name="Cover">
          <relationship name="book" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="cover" inverseEntity="Book"/>
      </entity>
  </model>
  """

let library = ModelLoader.load(SourceText(libraryModel))

func lintLibrary(_ body: String) -> [Diagnostic] {
  validate("<outline xml:id=\"lib\">\n\(body)\n</outline>\n", model: library)
}

@Suite struct InverseTests {
  @Test func modelLoadsClean() {
    #expect(library.diagnostics.isEmpty, "\(library.diagnostics.map(\.message))")
  }

  /// Only the to-one and one many-to-many side are written: the author's,
  /// the tag's and the cover's relationships are set through their inverses.
  @Test func writingOnlyTheOwningSideSatisfiesTheOther() {
    let diagnostics = lintLibrary(
      """
      <Book xml:id="b1" title="Dune" author="a1" tags="t1" cover="c1"/>
      <Book xml:id="b2" title="Emma" author="a1" tags="t1"/>
      <Author xml:id="a1" name="Herbert"/>
      <Tag xml:id="t1" name="novel"/>
      <Cover xml:id="c1"/>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }

  /// The mirror image: the author nests its books (so their author is
  /// implied), the tag lists its books, the cover names its book.
  @Test func writingOnlyTheOtherSideSatisfiesTheOwningSide() {
    let diagnostics = lintLibrary(
      """
      <Author xml:id="a1" name="Herbert">
        <Book xml:id="b1" title="Dune" library="lib"/>
      </Author>
      <Tag xml:id="t1" books="b1"/>
      <Cover xml:id="c1" book="b1"/>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }

  @Test func bothSidesWrittenAndAgreeingCountOnce() {
    let diagnostics = lintLibrary(
      """
      <Book xml:id="b1" author="a1" tags="t1" cover="c1"/>
      <Author xml:id="a1"/>
      <Tag xml:id="t1" books="b1"/>
      <Cover xml:id="c1" book="b1"/>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }

  @Test func requiredRelationshipSetFromNeitherSide() {
    let text = """
      <Book xml:id="b1" author="a1"/>
      <Author xml:id="a1"/>
      <Tag xml:id="t1"/>
      <Cover xml:id="c1"/>
      """
    let diagnostics = lintLibrary(text)
    #expect(diagnostics.map(\.code) == [.cardinality, .cardinality])
    #expect(diagnostics[0].message.contains("'Tag' 't1' needs 'books'"))
    #expect(diagnostics[1].message.contains("'Cover' 'c1' needs 'book'"))
  }

  /// A free book's author is not implied by nesting: it must be written.
  @Test func freeObjectNeedsItsContainmentInverse() {
    let diagnostics = lintLibrary("<Book xml:id=\"b1\"/>")
    #expect(diagnostics.map(\.code) == [.cardinality])
    #expect(diagnostics[0].message.contains("needs 'author'"))
  }

  @Test func countsIncludeObjectsNamingItFromTheOtherSide() {
    // Three books name a1 (maximum 2): two nested, one by its to-one.
    let tooMany = lintLibrary(
      """
      <Author xml:id="a1">
        <Book/>
        <Book/>
      </Author>
      <Book xml:id="b3" author="a1"/>
      """)
    #expect(tooMany.map(\.code) == [.cardinality])
    #expect(tooMany.first?.message.contains("3 'books'") == true)
    // Three books name t1 through their tags (maximum 2).
    let tagged = lintLibrary(
      """
      <Author xml:id="a1"><Book tags="t1"/></Author>
      <Author xml:id="a2"><Book tags="t1"/><Book tags="t1"/></Author>
      <Tag xml:id="t1"/>
      """)
    #expect(tagged.map(\.code) == [.cardinality])
    #expect(tagged.first?.message.contains("more than the maximum 2") == true)
  }

  @Test func toOneNamedByTwoObjects() {
    let diagnostics = lintLibrary(
      """
      <Author xml:id="a1"><Book cover="c1"/><Book cover="c1"/></Author>
      <Cover xml:id="c1"/>
      """)
    #expect(diagnostics.map(\.code) == [.cardinality])
    #expect(diagnostics.first?.message.contains("by 2 objects, but its 'book' is to-one") == true)
  }

  @Test func impliedSideWrittenIsRefusedAndDisagreementsReported() {
    let implied = lintLibrary(
      """
      <Author xml:id="a1"><Book xml:id="b1" author="a1"/></Author>
      """)
    #expect(implied.map(\.code) == [.unknownAttribute])
    let disagree = lintLibrary(
      """
      <Author xml:id="a1"><Book xml:id="b1" cover="c1"/><Book xml:id="b2"/></Author>
      <Cover xml:id="c1" book="b2"/>
      """)
    #expect(disagree.map(\.code).contains(.inverseDisagrees))
  }

  /// Ids are counted in the compact table: 20,000 tags named only from the
  /// books' side, each needing one.
  @Test func manyObjectsNamedFromOneSide() {
    var body = "<Author xml:id=\"a\">\n"
    for index in 0..<2 {
      body += "<Book tags=\"\((0..<10_000).map { "t\($0 * 2 + index)" }.joined(separator: " "))\"/>\n"
    }
    body += "</Author>\n"
    for index in 0..<20_000 { body += "<Tag xml:id=\"t\(index)\"/>\n" }
    let diagnostics = lintLibrary(body)
    #expect(diagnostics.isEmpty, "\(diagnostics.prefix(3).map(\.message))")
  }
}
