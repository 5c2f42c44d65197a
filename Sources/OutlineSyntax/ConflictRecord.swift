import OutlineCore
import OutlineXML

/// A merge conflict as `outline merge` records it in the document it writes: a processing
/// instruction `<?outline-conflict kind="..." ...?>` on its own line just before the item it
/// concerns (OL600).
///
/// A processing instruction keeps the merged document well formed and carries no outline data,
/// so every tool reads past it; the validator reports each one as an error with both sides'
/// values until the user picks a side. Its data is pseudo-attributes as in
/// `<?xml-stylesheet?>`: `name="value"`, values escaped as attribute values are, with `>` also
/// escaped (so `?>` can never end it early). A value left out means the attribute is absent on
/// that side.
public struct ConflictRecord: Sendable, Hashable {
  /// What kind of disagreement the record holds.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// One attribute changed differently on each side: `name`, `base`, `ours`, `theirs`.
    /// The item below holds ours' value.
    case attribute
    /// The item below was removed on one side (`side`) and changed on the other: it stands as
    /// the other side changed it.
    case removed
    /// The item below was moved to different parents on each side: it stands where ours put
    /// it (`ours` names that parent, `theirs` the other); `move` pairs it with its `place`.
    case moved
    /// Where theirs put the item that ours moved elsewhere (see `moved`; same `move`).
    case place
    /// Both sides added an item with the same `xml:id` (`id`): the item below is theirs'.
    case id
    /// Both sides reordered the children of one item (`parent`) differently: `base`, `ours`
    /// and `theirs` list the titles of the children both kept, in each side's order. The list
    /// that starts with the item below stands in ours' order.
    case order
  }

  /// The processing instruction's target.
  public static let target = "outline-conflict"

  /// What kind of conflict this is.
  public var kind: Kind
  /// The pseudo-attributes besides `kind`, in the order written.
  public var fields: [(name: String, value: String)]

  /// A record of `kind` with `fields` (nil values are left out).
  public init(_ kind: Kind, _ fields: [(String, String?)]) {
    self.kind = kind
    self.fields = fields.compactMap { pair in pair.1.map { (pair.0, $0) } }
  }

  /// The value of field `name`, or nil when the record does not have it.
  public subscript(name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  public static func == (lhs: ConflictRecord, rhs: ConflictRecord) -> Bool {
    lhs.kind == rhs.kind && lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    for field in fields {
      hasher.combine(field.name)
      hasher.combine(field.value)
    }
  }

  /// The processing instruction's text, `<?outline-conflict kind="..." ...?>`.
  public var markup: String {
    var out = "<?\(Self.target) kind=\"\(kind.rawValue)\""
    for field in fields { out += " \(field.name)=\"\(Self.escape(field.value))\"" }
    return out + "?>"
  }

  /// Whether `bytes` (a processing instruction from `<?` to `?>`) is an outline conflict record
  /// by its target; cheap: only the first bytes are read.
  public static func isRecord<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool
  where Bytes.Index == Int {
    let opener = Array("<?\(target)".utf8)
    let first = bytes.startIndex
    guard bytes.count > opener.count + 1, opener.elementsEqual(bytes[first..<first + opener.count]) else {
      return false
    }
    let next = bytes[first + opener.count]
    return XMLName.isSpace(next) || next == UInt8(ascii: "?")
  }

  /// Reads a record from a processing instruction's bytes (`<?` to `?>`); nil when it is not
  /// an outline conflict record or its data cannot be read (no or an unknown `kind`, a field
  /// without a quoted value).
  public static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> ConflictRecord?
  where Bytes.Index == Int {
    guard isRecord(bytes) else { return nil }
    let bytes = Array(bytes)
    let opener = 2 + target.utf8.count
    var at = opener
    let end = bytes.count - 2
    var kind: Kind?
    var fields: [(name: String, value: String)] = []
    while at < end {
      while at < end, XMLName.isSpace(bytes[at]) { at += 1 }
      if at >= end { break }
      let nameStart = at
      while at < end, bytes[at] != UInt8(ascii: "="), !XMLName.isSpace(bytes[at]) { at += 1 }
      let name = String(decoding: bytes[nameStart..<at], as: UTF8.self)
      guard at < end, bytes[at] == UInt8(ascii: "="), at + 1 < end else { return nil }
      let quote = bytes[at + 1]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
      let valueStart = at + 2
      guard let close = bytes[valueStart..<end].firstIndex(of: quote) else { return nil }
      let value = XMLEscaping.decodeAttribute(Array(bytes[valueStart..<close]))
      at = close + 1
      if name == "kind" {
        kind = Kind(rawValue: value)
      } else {
        fields.append((name, value))
      }
    }
    guard let kind else { return nil }
    var record = ConflictRecord(kind, [])
    record.fields = fields
    return record
  }

  /// Reads a record from a string holding the processing instruction.
  public static func parse(_ text: String) -> ConflictRecord? {
    parse(Array(text.utf8))
  }

  /// What the linter says of the record: the disagreement with both sides' values.
  public var message: String {
    func shown(_ name: String) -> String {
      self[name].map { Excerpt.quoted($0) } ?? "absent"
    }
    switch kind {
    case .attribute:
      let attribute = Excerpt.quoted(self["name"] ?? "?")
      return
        "Merge conflict: \(attribute) is \(shown("ours")) in ours and \(shown("theirs")) in theirs "
        + "(\(shown("base")) in the base); the item holds ours' value"
    case .removed:
      let remover = self["side"] == "ours" ? "ours" : "theirs"
      let changer = remover == "ours" ? "theirs" : "ours"
      return
        "Merge conflict: \(remover) removed the next item, \(changer) changed it; it stands as \(changer) left it"
    case .moved:
      return
        "Merge conflict: ours moved the next item into \(shown("ours")), theirs into \(shown("theirs")); "
        + "it stands where ours put it"
    case .place:
      return
        "Merge conflict: theirs moved the item \(shown("item")) here; ours moved it into \(shown("ours"))"
    case .id:
      return
        "Merge conflict: ours and theirs each added an item with the id \(shown("id")); the next item is theirs'"
    case .order:
      return
        "Merge conflict: ours and theirs reordered the children of \(shown("parent")) differently: "
        + "ours \(shown("ours")), theirs \(shown("theirs")) (base \(shown("base"))); they stand in ours' order"
    }
  }

  /// Escapes a value for the record: as an attribute value, and `>` too.
  static func escape(_ value: String) -> String {
    let escaped = XMLEscaping.escapeAttribute(value)
    guard escaped.utf8.contains(UInt8(ascii: ">")) else { return escaped }
    return escaped.replacingGreaterThan()
  }
}

extension String {
  fileprivate func replacingGreaterThan() -> String {
    var out = ""
    for scalar in unicodeScalars {
      if scalar == ">" { out += "&gt;" } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }
}
