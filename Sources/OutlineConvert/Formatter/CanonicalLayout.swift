import OutlineModel

/// The canonical XML layout shared by `fmt` and JSON -> XML.
public enum CanonicalLayout {
  /// Indentation stops growing at this depth, so a chain of 100,000 items
  /// formats in linear size (2 spaces a level would make it 10 GB).
  public static let maximumIndentDepth = 100

  /// The spaces before an element at `depth` (the root is 0): 2 a level, up to the cap.
  public static func indentWidth(depth: Int) -> Int { 2 * min(depth, maximumIndentDepth) }

  /// Whether the bytes `start..<end` are an integer as written canonically: `0`, or an
  /// optional `-` and up to 18 digits not starting with `0` (not `-0`). `fmt` copies such an
  /// order as it stands, and the JSON form writes it as its number unchanged.
  @inline(__always)
  static func isCanonicalInteger(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var at = start
    if at < end && base[at] == UInt8(ascii: "-") { at += 1 }
    let digits = end - at
    guard digits > 0 && digits <= 18 else { return false }
    if base[at] == UInt8(ascii: "0") { return digits == 1 && at == start }
    for index in at..<end where base[index] &- UInt8(ascii: "0") >= 10 { return false }
    return true
  }

  /// ``isCanonicalInteger(_:_:_:)`` for all of `raw`.
  @inline(__always)
  static func isCanonicalInteger(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = raw.baseAddress else { return false }
    return isCanonicalInteger(base, 0, raw.count)
  }

  /// Where attribute `name` goes in a canonical start tag, as (group, rank):
  /// the root's format attributes (`version`, `model`, `modelVersion`, `entity`), namespace
  /// declarations, `xml:id`, the entity's attributes then relationships in
  /// model order, then anything else. Equal keys keep source order.
  public static func attributeRank(_ name: String, isRoot: Bool, entity: Entity?) -> (group: Int, rank: Int) {
    if isRoot, let format = RootFormat.attributeNames.firstIndex(of: name) {
      return (0, format)
    }
    if name == "xmlns" || name.hasPrefix("xmlns:") { return (1, 0) }
    if name == "xml:id" { return (2, 0) }
    if let entity {
      if let attribute = entity.attributeIndex[name] { return (3, attribute) }
      if let relationship = entity.relationshipIndex[name] { return (4, relationship) }
    }
    return (5, 0)
  }

  /// The indexes of `names` in canonical order (source order among equals).
  public static func attributeOrder(_ names: [String], isRoot: Bool, entity: Entity?) -> [Int] {
    let ranks = names.map { attributeRank($0, isRoot: isRoot, entity: entity) }
    return names.indices.sorted {
      (ranks[$0].group, ranks[$0].rank, $0) < (ranks[$1].group, ranks[$1].rank, $1)
    }
  }

  /// The canonical text of attribute `name`'s value: an integer attribute's
  /// value as its decimal number (`-0` as `0`, `+3` as `3`, `007` as `7`);
  /// anything else, and text that is not an integer, as written.
  public static func value(_ text: String, of name: String, entity: Entity?) -> String {
    guard let entity, let index = entity.attributeIndex[name],
      entity.attributes[index].type?.isInteger == true, let canonical = ModelValues.canonicalInteger(text)
    else { return text }
    return canonical
  }
}
