import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// What the migrator refuses rather than write: a rename onto a name the start tag already
/// holds, and new numbers for siblings that are not numbered 0..n-1.
@Suite struct MigrationRefusalTests {
  static let containment = MigrationTests.containment

  @Test func aRenameOntoANamePresentIsAClash() {
    let history = MigrationTests.history(
      "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\(Self.containment)</entity>",
      "<entity name=\"Item\"><attribute name=\"name\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"title\"/>\(Self.containment)</entity>"
    )
    let plan = MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings())
    let (_, clashing) = MigrationTests.stream(
      "<outline><Item title=\"a\" name=\"b\"/><Item title=\"c\"/></outline>", plan)
    #expect(clashing.clashes.count == 1)
    #expect(
      clashing.refusal(allowDataLoss: true)?.contains("Item.title=\"a\" would be renamed 'name'") == true)
    let (output, fine) = MigrationTests.stream(
      "<outline><Item title=\"a\"/><Item title=\"c\"/></outline>", plan)
    #expect(fine.clashes.isEmpty && fine.refusal(allowDataLoss: false) == nil)
    #expect(output.contains("<Item name=\"a\"/>"))
  }

  @Test func siblingsRenumberedMustBeNumberedInSequence() {
    let nodes = """
      <entity name="Node" isAbstract="YES"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>\
      <relationship name="children" optional="YES" toMany="YES" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>\
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Node" inverseName="children" inverseEntity="Node"/></entity>\
      <entity name="Item" parentEntity="Node"/><entity name="Root" parentEntity="Node"/>
      """
    let history = MigrationTests.history(nodes + "<entity name=\"Note\" parentEntity=\"Node\"/>", nodes)
    let plan = MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings())
    let duplicate =
      "<outline entity=\"Root\"><Item order=\"1\"/><Note order=\"0\"/><Item order=\"1\"/><Item order=\"0\"/></outline>"
    let (_, refused) = MigrationTests.stream(duplicate, plan)
    #expect(refused.misnumbered == ["the children of the root"])
    #expect(refused.refusal(allowDataLoss: true)?.contains("not numbered 0..n-1") == true)
    // A gap and a missing order are no sequence either; 0..n-1 is renumbered.
    for broken in [
      "<outline entity=\"Root\"><Item order=\"3\"/><Note order=\"0\"/><Item order=\"1\"/></outline>",
      "<outline entity=\"Root\"><Item/><Note order=\"0\"/><Item order=\"1\"/></outline>",
    ] {
      #expect(MigrationTests.stream(broken, plan).1.misnumbered.count == 1, "\(broken)")
    }
    let (output, fine) = MigrationTests.stream(
      "<outline entity=\"Root\"><Item order=\"2\"/><Note order=\"0\"/><Item order=\"1\"/></outline>", plan)
    #expect(fine.misnumbered.isEmpty && fine.refusal(allowDataLoss: true) == nil)
    #expect(output.contains("<Item order=\"1\"/>") && output.contains("<Item order=\"0\"/>"), "\(output)")
  }
}
