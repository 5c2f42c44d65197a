import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineConvert

/// Random values of every attribute type, written as people write them
/// (signs, leading zeros, `-0`, Boolean spellings, edge dates and ranges):
/// whatever `fmt` and `convert` write in either direction lints clean.
@Suite struct ValueRoundTripTests {
  /// One random value per attribute of the test model's `Item`.
  static func values(using random: inout SeededGenerator) -> [(String, String)] {
    func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in pick(Array("0123456789")) })
    }
    func integer(_ range: ClosedRange<Int64>) -> String {
      let value = Int64.random(in: range, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0: return value >= 0 ? "+\(value)" : "\(value)"
      case 1: return value >= 0 ? "00\(value)" : "-00\(-value)"
      case 2: return value == 0 ? "-0" : "\(value)"
      default: return "\(value)"
      }
    }
    func number(maxExponent: Int, edge: String) -> String {
      if Int.random(in: 0..<8, using: &random) == 0 {
        return pick([edge, "-" + edge, "0", "-0.0", ".5", "5."])
      }
      let sign = pick(["", "-", "+"])
      let whole = digits(Int.random(in: 1...6, using: &random))
      let fraction = Bool.random(using: &random) ? "." + digits(Int.random(in: 0...6, using: &random)) : ""
      let exponent =
        Bool.random(using: &random)
        ? "e\(Int.random(in: -maxExponent...(maxExponent - 7), using: &random))" : ""
      return sign + whole + fraction + exponent
    }
    func date() -> String {
      let year = Int.random(in: 1...9999, using: &random)
      let month = Int.random(in: 1...12, using: &random)
      let day = Int.random(in: 1...ModelValues.daysIn(month: month, year: year), using: &random)
      var text = String(
        format: "%04d-%02d-%02dT%02d:%02d", year, month, day, Int.random(in: 0...23, using: &random),
        Int.random(in: 0...59, using: &random))
      if Bool.random(using: &random) {
        text += String(format: ":%02d", Int.random(in: 0...59, using: &random))
        if Bool.random(using: &random) { text += "." + digits(Int.random(in: 1...4, using: &random)) }
      }
      let offset = Int.random(in: 0...(18 * 60), using: &random)
      let sign = pick(["+", "-"])
      return text
        + pick([
          "Z", String(format: "%@%02d:%02d", sign, offset / 60, offset % 60),
          String(format: "%@%02d%02d", sign, offset / 60, offset % 60),
          String(format: "%@%02d", sign, offset / 60),
        ])
    }
    let bytes = (0..<Int.random(in: 0...20, using: &random)).map { _ in
      UInt8.random(in: 0...255, using: &random)
    }
    let decimalDigits = Int.random(in: 1...38, using: &random)
    let decimalPoint = Int.random(in: 0...decimalDigits, using: &random)
    var decimal = digits(decimalDigits)
    decimal.insert(".", at: decimal.index(decimal.startIndex, offsetBy: decimalPoint))
    if decimal.hasSuffix(".") { decimal.removeLast() }
    if Bool.random(using: &random) { decimal += "e\(Int.random(in: -90...90, using: &random))" }
    return [
      ("count", integer(0...10)),
      ("ratio", number(maxExponent: 308, edge: "1.7976931348623157e308")),
      ("weight", number(maxExponent: 38, edge: "3.4028235e38")),
      ("price", pick(["", "-", "+"]) + decimal),
      ("flag", pick(["true", "false", "YES", "NO", "1", "0"])),
      ("when", date()),
      (
        "uid",
        UUID(
          uuid: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }.withUnsafeBytes {
            $0.load(as: uuid_t.self)
          }
        ).uuidString
      ),
      ("link", "https://example.com/\(digits(3))?q=\(digits(2))"),
      ("blob", Data(bytes).base64EncodedString()),
      ("code", String((0..<3).map { _ in pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) })),
      ("nick", String((0..<Int.random(in: 1...5, using: &random)).map { _ in pick(Array("aé中😀&<\"")) })),
    ]
  }

  static func document(seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    var xml = "<outline version=\"1\">\n"
    for order in 0..<Int.random(in: 1...20, using: &random) {
      let integerOrder = ["\(order)", "+\(order)", "0\(order)", order == 0 ? "-0" : "\(order)"].randomElement(
        using: &random)!
      let attributes = values(using: &random).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
      xml += "  <Item order=\"\(integerOrder)\""
      for (name, value) in attributes.shuffled(using: &random) { xml += " \(name)=\"\(value.xmlEscaped)\"" }
      xml += "/>\n"
    }
    return xml + "</outline>\n"
  }

  static func errors(_ xml: String) -> [String] {
    OutlineValidator.validate(SourceText(xml), modelProvider: fixedModel(Fixtures.testModel)).diagnostics
      .filter { $0.severity == .error }.map(\.message)
  }

  /// The integer attributes' values in `xml`, as written.
  static func integers(_ xml: String) -> [String] {
    ["order", "count"].flatMap { name in
      xml.components(separatedBy: " \(name)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
  }

  @Test(arguments: 0..<80)
  func everyWrittenValueLints(seed: Int) throws {
    let model = Fixtures.testModel
    let xml = Self.document(seed: UInt64(seed) &* 104_729 &+ 3)
    #expect(Self.errors(xml).isEmpty, "\(Self.errors(xml)) in \(xml)")
    let formatted = Convert.format(xml, model: model)
    #expect(Self.errors(formatted).isEmpty, "\(Self.errors(formatted))")
    #expect(Convert.format(formatted, model: model) == formatted)
    let json = Convert.toJSON(xml, model: model)
    let back = try Convert.toXML(json, model: model)
    #expect(Self.errors(back).isEmpty, "\(Self.errors(back)) in \(back)")
    #expect(Convert.toJSON(back, model: model) == json)
    #expect(try Convert.toXML(Convert.toJSON(formatted, model: model), model: model) == back)
    for written in Self.integers(formatted) + Self.integers(back) {
      #expect(ModelValues.canonicalInteger(written) == written, "\(written)")
    }
  }

  @Test func fmtWritesCanonicalIntegersOnly() {
    let xml = """
      <outline><Item order="-0" count="+3" title="-0"/><Item order="+001" count="007"/><Item order="2" count="x"/></outline>
      """
    let formatted = Convert.format(xml, model: Fixtures.testModel)
    #expect(formatted.contains(#"<Item order="0" title="-0" count="3"/>"#), "\(formatted)")
    #expect(formatted.contains(#"<Item order="1" count="7"/>"#))
    #expect(
      formatted.contains(#"<Item order="2" count="x"/>"#),
      "not an integer: left as written for lint to report")
  }

  @Test func jsonMinusZeroBecomesZero() throws {
    let back = try Convert.toXML(
      #"{"@outline":1,"children":[{"@entity":"Item","order":-0,"count":-0,"ratio":-0}]}"#,
      model: Fixtures.testModel)
    #expect(back.contains(#"<Item order="0" count="0" ratio="-0"/>"#), "\(back)")
  }

  @Test func outOfRangeValuesFromJSONAreRefusedAtTheirKey() {
    for (key, value) in [
      ("ratio", "1e400"), ("weight", "1e39"), ("price", "1e400"), ("when", #""2024-02-30T00:00Z""#),
    ] {
      #expect(throws: JSONFormError.self) {
        try Convert.toXML(
          #"{"children":[{"@entity":"Item","order":0,"\#(key)":\#(value)}]}"#, model: Fixtures.testModel)
      }
      do {
        _ = try Convert.toXML(
          #"{"children":[{"@entity":"Item","order":0,"\#(key)":\#(value)}]}"#, model: Fixtures.testModel)
      } catch {
        #expect(error.path == "$.children[0].\(key)")
        #expect(error.code == .valueType && error.fromValidator)
      }
    }
  }
}
