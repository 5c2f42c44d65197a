import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

/// A to-many relationship is a set, in process: an id written twice is one object, for the
/// relationship's own counts and for its inverse.
@Suite struct ToManySetTests {
  static let shelves = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
      <entity name="Shelf">
          <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
          <relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="shelf" inverseEntity="Author"/>
      </entity>
      <entity name="Book">
          <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
          <relationship name="authors" optional="YES" toMany="YES" minCount="2" maxCount="2" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
      </entity>
      <entity name="Author">
          <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="authors" inverseEntity="Shelf"/>
          <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
      </entity>
      </model>

      """))

  /// `a1 a1` is one author (below a minimum of 2; within a maximum of 2 when written three
  /// times), and the inverse counts it once.
  @Test func toManyCountsDistinctIds() {
    let lint = SemanticsTests.lint(
      """
      <outline version="1" model="B.xcdatamodel" entity="Shelf">
        <Author xml:id="a1"/>
        <Author xml:id="a2" books="b2 b2"/>
        <Book xml:id="b1" authors="a1 a1"/>
        <Book xml:id="b3" authors="a1 a2 a1"/>
        <Book xml:id="b2"/>
      </outline>

      """, model: Self.shelves)
    let lines = lint.filter { $0.contains("OL503") }
    #expect(lines.count == 2, "\(lint)")
    #expect(lines.contains { $0.hasPrefix("4:") && $0.contains("holds 1 id, fewer than the minimum 2") })
    #expect(lines.contains { $0.hasPrefix("6:") && $0.contains("has 1 'authors'") })
    #expect(!lint.contains { $0.contains("more than the maximum") }, "\(lint)")
  }
}
