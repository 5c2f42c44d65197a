import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// What a migration says it dropped quotes the document's values and titles only as an
/// excerpt: 60 characters, then `...`, controls escaped.
@Suite struct MigrationMessageExcerptTests {
  @Test func droppedValuesAndObjectsAreNamedByExcerpts() {
    let item = """
      <attribute name="title" optional="YES" attributeType="String"/>\
      <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>\
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
      """
    let history = MigrationTests.history(
      "<entity name=\"Item\">\(item)<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/></entity>"
        + "<entity name=\"Gone\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
      "<entity name=\"Item\">\(item)</entity>")
    let plan = MigrationPlan(
      history: history, from: 0, to: 1, settings: MigrationSettings(allowDataLoss: true))
    let long = String(repeating: "v", count: 1_000_000)
    let document = """
      <outline>
        <Item title="a" note="a&#10;\(long)"/>
        <Gone title="\(long)"/>
      </outline>
      """
    let (_, outcome) = MigrationTests.stream(document, plan, chunk: 1 << 20)
    let shown = String(repeating: "v", count: 60) + "..."
    #expect(
      outcome.dropped.map(\.what) == [
        #"Item.note="a\n"# + String(repeating: "v", count: 58) + "...\"", "Gone '\(shown)'",
      ])
  }
}
