/// Names for model entities and properties made up from a seed: odd but legal XML names
/// (letters of any script, `_`, digits, `.`, `-`, `·` and combining marks inside, long ones;
/// prefixed property names `p:local`) and names no document can spell (a space, a colon first,
/// last or twice, a leading digit, `-` or `.`, a character that is not a name character, empty).
public enum ModelNameGenerator {
  /// How a name breaks the XML name rule, when it does.
  public enum Flaw: String, CaseIterable, Sendable {
    case space, colon, leadingDigit, leadingHyphen, leadingDot, notANameCharacter, empty
  }

  /// A generated name and, when it is not an XML name, why.
  public struct Name: Sendable, CustomStringConvertible {
    public var text: String
    public var flaw: Flaw?
    public var isLegal: Bool { flaw == nil }
    public var description: String { "\(text.debugDescription)\(flaw.map { " (\($0))" } ?? "")" }

    public init(text: String, flaw: Flaw?) {
      self.text = text
      self.flaw = flaw
    }
  }

  /// Letters a name may start with, from several scripts and cases (a titlecase `ǅ`, caseless `項`).
  static let starts: [Character] = Array("abcxyzABCXYZ_éßÄøжΩ項ǅあ")
  /// What may follow inside a name.
  static let insides: [Character] =
    Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-·éüжω項") + ["e\u{0301}"]
  /// Characters that are not name characters anywhere.
  static let foreign: [Character] = [
    "½", "!", "@", "#", "$", "%", "&", "<", "\"", "'", "/", "?", "§", "+", "\u{2028}", "\u{00D7}", "\u{037E}",
  ]

  /// A legal name of 1 to 12 characters, sometimes 100 to 600.
  public static func legal(using random: inout SeededGenerator) -> String {
    let long = Int.random(in: 0..<10, using: &random) == 0
    let count = long ? Int.random(in: 100...600, using: &random) : Int.random(in: 1...12, using: &random)
    var text = String(starts.randomElement(using: &random)!)
    for _ in 1..<count { text.append(insides.randomElement(using: &random)!) }
    return text
  }

  /// A prefixed name `prefix:local`: a property a document writes under a declaration of the
  /// prefix (an entity's name cannot be one).
  public static func prefixed(using random: inout SeededGenerator) -> String {
    var prefix = legal(using: &random)
    if prefix == "xmlns" { prefix = "p" }
    return prefix + ":" + legal(using: &random)
  }

  /// A name that is illegal for `flaw`.
  public static func illegal(_ flaw: Flaw, using random: inout SeededGenerator) -> String {
    let base = legal(using: &random)
    let cut = Int.random(in: 0...base.count, using: &random)
    let index = base.index(base.startIndex, offsetBy: cut)
    switch flaw {
    case .space: return String(base[..<index]) + " " + String(base[index...]) + (cut == base.count ? "x" : "")
    case .colon:
      // A colon no name may hold: first, last, or a second one (`p:local` is a property's
      // prefixed name, ``prefixed(using:)``; an entity's name holds none).
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return ":" + base
      case 1: return base + ":"
      default: return base + ":" + legal(using: &random) + ":" + legal(using: &random)
      }
    case .leadingDigit: return String(Int.random(in: 0...9, using: &random)) + base
    case .leadingHyphen: return "-" + base
    case .leadingDot: return "." + base
    case .notANameCharacter:
      return String(base[..<index]) + String(foreign.randomElement(using: &random)!) + String(base[index...])
    case .empty: return ""
    }
  }

  /// A legal name most of the time, else one with a random flaw (`empty` only when `allowEmpty`).
  public static func name(
    illegalPercent: Int, allowEmpty: Bool = true, using random: inout SeededGenerator
  ) -> Name {
    guard Int.random(in: 0..<100, using: &random) < illegalPercent else {
      return Name(text: legal(using: &random), flaw: nil)
    }
    let flaws = Flaw.allCases.filter { allowEmpty || $0 != .empty }
    let flaw = flaws.randomElement(using: &random)!
    return Name(text: illegal(flaw, using: &random), flaw: flaw)
  }

  /// `text` escaped for an XML attribute value between double quotes.
  public static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }
}
