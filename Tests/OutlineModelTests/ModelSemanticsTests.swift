import OutlineCore
import Testing

@testable import OutlineModel

/// The model checks of uniqueness constraints and composites, in process.
@Suite struct ModelSemanticsTests {
  static let accounts = """
    <entity name="Account">
        <attribute name="login" attributeType="String"/>
        <attribute name="number" optional="YES" attributeType="Integer 32"/>
        <uniquenessConstraints>
            <uniquenessConstraint><constraint value="numbr"/></uniquenessConstraint>
        </uniquenessConstraints>
    </entity>
    <entity name="Admin" parentEntity="Account">
        <attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>
    </entity>
    """

  @Test func constraintsAndCompositesThatNameNothingAreErrors() {
    let model = ModelLoader.load(SourceText(modelText(Self.accounts)))
    let findings = model.diagnostics.map { "\($0.severity)[\($0.code)]: \($0.message)" }
    #expect(
      findings.contains {
        $0.hasPrefix("error[OM213]: The uniqueness constraint of 'Account' names 'numbr'")
      },
      "\(findings)")
    #expect(
      findings.contains("error[OM214]: composite 'Place' of 'Admin.place' is not a composite of the model"),
      "\(findings)")
    #expect(model.hasErrors)
    // The constraint that names nothing is kept, without members, and checks nothing.
    let account = model.entity(named: "Account")!
    #expect(model.entities[account].uniquenessConstraints.map(\.members) == [nil])
    #expect(model.index.uniqueness.checks[account].isEmpty)
  }

  @Test func aConstraintThatResolvesIsSharedWithSubEntities() {
    let model = ModelLoader.load(
      SourceText(
        modelText(
          Self.accounts.replacingOccurrences(of: "numbr", with: "number").replacingOccurrences(
            of: " composite=\"Place\"", with: ""
          )
          .replacingOccurrences(of: "attributeType=\"Composite\"", with: "attributeType=\"String\""))))
    #expect(!model.hasErrors, "\(model.diagnostics.map(\.message))")
    let plan = model.index.uniqueness
    let account = model.entity(named: "Account")!
    let admin = model.entity(named: "Admin")!
    #expect(plan.tableCount == 1)
    #expect(plan.checks[account].map(\.table) == [0] && plan.checks[admin].map(\.table) == [0])
    #expect(plan.checks[admin][0].types == [.integer32])
    #expect(plan.checks[admin][0].declaringEntity == "Account")
  }
}
