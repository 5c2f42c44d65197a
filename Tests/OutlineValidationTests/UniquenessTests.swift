import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

/// Accounts with a single, a compound (attribute + to-one) and a date
/// constraint, inherited by admins; a derived attribute, a fetched property
/// and a composite attribute.
let accountsModel = """
  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
  <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Account">
          <attribute name="login" attributeType="String"/>
          <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
          <attribute name="when" optional="YES" attributeType="Date"/>
          <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="NO"/>
          <attribute name="loginLength" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
          <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
          <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
          <fetchedProperty name="sameOwner" optional="YES">
              <fetchRequest name="fetchedPropertyFetchRequest" entity="Account" predicateString="owner == $FETCH_SOURCE.owner"/>
          </fetchedProperty>
          <uniquenessConstraints>
              <uniquenessConstraint>
                  <constraint value="login"/>
              </uniquenessConstraint>
              <uniquenessConstraint>
                  <constraint value="number"/>
                  <constraint value="owner"/>
              </uniquenessConstraint>
              <uniquenessConstraint>
                  <constraint value="when"/>
                  <constraint value="flag"/>
              </uniquenessConstraint>
          </uniquenessConstraints>
      </entity>
      <entity name="Admin" parentEntity="Account">
          <attribute name="level" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
      </entity>
      <entity name="Owner">
          <attribute name="name" optional="YES" attributeType="String"/>
      </entity>
      <composite name="Address">
          <attribute name="street" optional="YES" attributeType="String"/>
      </composite>
  </model>
  """

let accounts = ModelLoader.load(SourceText(accountsModel))

func lintAccounts(_ body: String) -> [Diagnostic] {
  validate("<outline>\n\(body)\n<Owner xml:id=\"o1\"/><Owner xml:id=\"o2\"/>\n</outline>\n", model: accounts)
}

@Suite struct UniquenessTests {
  @Test func modelLoadsConstraintsFetchedPropertiesAndComposites() throws {
    #expect(
      accounts.diagnostics.allSatisfy { $0.severity != .error }, "\(accounts.diagnostics.map(\.message))")
    let admin = try #require(accounts.entity(named: "Admin"))
    let constraints = accounts.entities[admin].uniquenessConstraints
    #expect(constraints.map(\.names) == [["login"], ["number", "owner"], ["when", "flag"]])
    #expect(constraints.allSatisfy { $0.declaringEntity == "Account" && $0.members != nil })
    #expect(accounts.entities[admin].fetchedProperties.map(\.name) == ["sameOwner"])
    #expect(accounts.entities[admin].fetchedProperties.first?.fetchedEntity == "Account")
    #expect(accounts.composites.map(\.name) == ["Address"])
    #expect(accounts.composites.first?.attributes.map(\.name) == ["street"])
    let account = accounts.entities[accounts.entity(named: "Account")!]
    let derived = try #require(account.attributes.first { $0.name == "loginLength" })
    #expect(derived.isDerived && derived.derivationExpression == "login.length")
  }

  @Test func badMembersAndCompositesAreModelErrors() {
    let text = accountsModel.replacingOccurrences(
      of: "<constraint value=\"login\"/>", with: "<constraint value=\"nope\"/>"
    )
    .replacingOccurrences(of: "composite=\"Address\"", with: "composite=\"Place\"")
    let model = ModelLoader.load(SourceText(text))
    let errors = model.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.code) == [.unknownComposite, .badUniquenessConstraint])
    #expect(errors.last?.message.contains("names 'nope'") == true)
    // A member that does not resolve disables that constraint only.
    let diagnostics = validate(
      "<outline><Account login=\"a\"/><Account login=\"a\"/></outline>", model: model)
    #expect(diagnostics.map(\.code) == [.modelHasErrors])
  }

  @Test func duplicatesAreReportedWithTheFirstAsRelated() throws {
    let marked = Marked(
      """
      <Account login=\"a\"/>
      <Account login=\"1️⃣a\"/>
      <Account login=\"b\"/>
      """)
    let diagnostics = lintAccounts(marked.text)
    #expect(diagnostics.map(\.code) == [.uniquenessViolation])
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.range.start == "<outline>\n".utf8.count + marked.offsets[0])
    #expect(diagnostic.message.contains("the same 'login'"))
    #expect(diagnostic.related.count == 1)
  }

  @Test func valuesAreComparedTyped() {
    // "01" and "+1" are the integer 1; the owner differs or is the same.
    let diagnostics = lintAccounts(
      """
      <Account login="a" number="01" owner="o1"/>
      <Account login="b" number="1" owner="o2"/>
      <Account login="c" number="+1" owner="o1"/>
      """)
    #expect(diagnostics.map(\.code) == [.uniquenessViolation])
    #expect(diagnostics.first?.message.contains("'number', 'owner'") == true)
    // The same instant in two time zones; a missing Boolean takes its default.
    let dates = lintAccounts(
      """
      <Account login="a" when="2024-05-01T09:30Z"/>
      <Account login="b" when="2024-05-01T11:30:00.000+02:00" flag="NO"/>
      <Account login="c" when="2024-05-01T11:30:00.000+02:00" flag="YES"/>
      """)
    #expect(dates.map(\.code) == [.uniquenessViolation])
  }

  @Test func missingMembersNeverCollide() {
    let diagnostics = lintAccounts(
      """
      <Account login="a" number="3"/>
      <Account login="b" number="3"/>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }

  @Test func subEntitiesShareTheirParentsConstraints() {
    let diagnostics = lintAccounts(
      """
      <Account login="root"/>
      <Admin login="root" level="1"/>
      """)
    #expect(diagnostics.map(\.code) == [.uniquenessViolation])
  }

  @Test func derivedAttributesAreNeverRequiredAndWarnWhenWritten() {
    #expect(lintAccounts("<Account login=\"a\"/>").isEmpty)
    let written = lintAccounts("<Account login=\"a\" loginLength=\"1\"/>")
    #expect(written.map(\.code) == [.derivedStored])
    #expect(written.first?.severity == .warning)
    #expect(written.first?.message.contains("derived (login.length)") == true)
  }

  @Test func fetchedPropertiesAreNeverWritten() {
    let diagnostics = lintAccounts("<Account login=\"a\" sameOwner=\"o1\"/>")
    #expect(diagnostics.map(\.code) == [.unknownAttribute])
    #expect(diagnostics.first?.message.contains("'sameOwner' is a fetched property of 'Account'") == true)
  }

  @Test func aHundredThousandDistinctObjects() {
    var body = ""
    for index in 0..<100_000 { body += "<Account login=\"user\(index)\" number=\"\(index)\"/>\n" }
    body += "<Account login=\"user5\"/>\n"
    let diagnostics = lintAccounts(body)
    #expect(diagnostics.map(\.code) == [.uniquenessViolation])
  }
}
