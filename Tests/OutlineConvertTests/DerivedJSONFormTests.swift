import OutlineCore
import OutlineModel
import Testing

@testable import OutlineConvert

/// A derived attribute is never required in the JSON form either, and the
/// XML written for it validates clean.
@Suite struct DerivedJSONFormTests {
  static let model = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Account">
              <attribute name="login" attributeType="String"/>
              <attribute name="loginLength" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
              <attribute name="code" attributeType="String"/>
          </entity>
      </model>
      """))

  @Test func aDerivedAttributeIsNotRequiredButAStoredOneIs() throws {
    let clean = Array(
      "{\"@outline\":1,\"@objects\":[{\"@entity\":\"Account\",\"login\":\"ann\",\"code\":\"a\"}]}\n".utf8)
    let xml = try JSONFormReader.convert(clean, model: Self.model)
    #expect(String(decoding: xml, as: UTF8.self).contains("<Account login=\"ann\" code=\"a\"/>"))
    let missing = Array("{\"@outline\":1,\"@objects\":[{\"@entity\":\"Account\",\"login\":\"ann\"}]}\n".utf8)
    #expect(throws: JSONFormError.self) { try JSONFormReader.convert(missing, model: Self.model) }
    do {
      _ = try JSONFormReader.convert(missing, model: Self.model)
    } catch {
      #expect(error.code == .requiredAttributeMissing)
      #expect(error.message == "'Account' needs 'code'")
    }
  }
}
