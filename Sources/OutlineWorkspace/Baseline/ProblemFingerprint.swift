// A problem's identity across edits: which item it is on, said without lines or columns, and the
// fingerprint a baseline and SARIF's `partialFingerprints` record (Documentation/Baseline.md).

import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

/// Names the item a diagnostic is on so that the name survives edits elsewhere.
///
/// An item is named by its `xml:id` (`#milk`); without one, by the path of
/// labels from the nearest ancestor with an id, or from the root (`/Work/Review
/// the plan`): each step is the item's title (the model's title attribute:
/// `outline.title`, else `title`, else `name`), or, for an item without one, its
/// entity and its position among its siblings of that entity (`Item[2]`). The
/// root is `/`; a place outside every element (a syntax error before the root)
/// is the empty name. Lines, columns, indentation and the order of attributes
/// never enter it, so items inserted elsewhere, reindentation and `fmt` keep it.
public enum ItemIdentity {
  /// The name of the item each diagnostic's start lies in, one per diagnostic, for the
  /// document `bytes` (XML) read with `model` (nil: the default title attributes `title`, `name`).
  public static func names(of diagnostics: [Diagnostic], in bytes: [UInt8], model: Model?) -> [String] {
    if diagnostics.isEmpty { return [] }
    let tree = ItemTree.parse(bytes)
    var namer = Namer(tree: tree, bytes: bytes, model: model)
    return diagnostics.map { diagnostic in
      guard let item = innermost(diagnostic.range.start, in: tree) else { return "" }
      return namer.name(of: item)
    }
  }

  /// The innermost item whose range holds `offset`: the last item starting at or before it
  /// (items are in document order), then up its parents. A search, not a walk along a wide
  /// group, so many problems in one group stay linear.
  static func innermost(_ offset: Int, in tree: ItemTree) -> Int? {
    var low = 0
    var high = tree.items.count
    while low < high {
      let middle = (low + high) / 2
      if tree.items[middle].fullRange.start <= offset { low = middle + 1 } else { high = middle }
    }
    var item = low - 1
    while item >= 0 {
      if tree.items[item].fullRange.contains(offset) { return item }
      item = Int(tree.items[item].parent)
    }
    return nil
  }

  /// Names items of one tree, each item's name made once.
  private struct Namer {
    let tree: ItemTree
    let bytes: [UInt8]
    let model: Model?
    var known: [Int: String] = [:]
    var positions: [Int: Int] = [:]
    var countedParents: Set<Int> = []

    init(tree: ItemTree, bytes: [UInt8], model: Model?) {
      self.tree = tree
      self.bytes = bytes
      self.model = model
    }

    mutating func name(of item: Int) -> String {
      if let name = known[item] { return name }
      // The chain up to the first item already named, one with an id, or the root: a loop, not recursion.
      var chain: [Int] = []
      var current = item
      var base = ""
      while true {
        if let name = known[current] {
          base = name
          break
        }
        if current == 0 || tree.items[current].parent < 0 {
          base = "/"
          known[current] = base
          break
        }
        if let id = value(tree.items[current].idRange), !id.isEmpty {
          base = "#" + id
          known[current] = base
          break
        }
        chain.append(current)
        current = Int(tree.items[current].parent)
      }
      for step in chain.reversed() {
        base = (base.hasSuffix("/") ? base : base + "/") + segment(step)
        known[step] = base
      }
      return base
    }

    /// The step naming `item` under its parent: its title, else `Entity[position]`.
    mutating func segment(_ item: Int) -> String {
      let element = elementName(item)
      if let title = title(of: item, element: element), !title.isEmpty { return ItemIdentity.escaped(title) }
      return ItemIdentity.escaped(element) + "[\(position(of: item))]"
    }

    /// Where `item` stands among its parent's children of its element name. A parent's
    /// children are counted once, for all of them, so a wide group stays linear.
    mutating func position(of item: Int) -> Int {
      let parent = Int(tree.items[item].parent)
      if !countedParents.contains(parent) {
        countedParents.insert(parent)
        var counts: [String: Int] = [:]
        var sibling = parent + 1
        let end = Int(tree.items[parent].subtreeEnd)
        while sibling < end {
          let name = elementName(sibling)
          positions[sibling] = counts[name, default: 0]
          counts[name, default: 0] += 1
          sibling = Int(tree.items[sibling].subtreeEnd)
        }
      }
      return positions[item] ?? 0
    }

    func elementName(_ item: Int) -> String {
      let range = tree.items[item].nameRange
      return String(decoding: bytes[clamped(range)], as: UTF8.self)
    }

    /// The item's title value, decoded: the attribute its entity's title is, or `title` then
    /// `name` when the model does not know the element.
    func title(of item: Int, element: String) -> String? {
      var names = ["title", "name"]
      if let model, let entity = model.entity(named: element) {
        guard let index = model.entities[entity].titleAttribute else { return nil }
        names = [model.entities[entity].attributes[index].name]
      }
      let tag = clamped(tree.items[item].startTag)
      for name in names {
        if let raw = ItemIdentity.attribute(Array(name.utf8), in: bytes[tag]) {
          return XMLEscaping.decodeAttribute(Array(raw))
        }
      }
      return nil
    }

    func value(_ range: TextRange?) -> String? {
      guard let range else { return nil }
      return XMLEscaping.decodeAttribute(Array(bytes[clamped(range)]))
    }

    func clamped(_ range: TextRange) -> Range<Int> {
      let start = min(max(0, range.start), bytes.count)
      return start..<min(max(start, range.end), bytes.count)
    }
  }

  /// The raw value of the attribute `name` in the start tag `tag` (`<` to `>`), or nil.
  static func attribute(_ name: [UInt8], in tag: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    var at = tag.startIndex + 1
    let end = tag.endIndex
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    // The element name.
    while at < end, !isSpace(tag[at]), tag[at] != UInt8(ascii: ">"), tag[at] != UInt8(ascii: "/") { at += 1 }
    while at < end {
      while at < end, isSpace(tag[at]) { at += 1 }
      let nameStart = at
      while at < end, !isSpace(tag[at]), tag[at] != UInt8(ascii: "="), tag[at] != UInt8(ascii: ">"),
        tag[at] != UInt8(ascii: "/")
      {
        at += 1
      }
      let attributeName = tag[nameStart..<at]
      while at < end, isSpace(tag[at]) { at += 1 }
      guard at < end, tag[at] == UInt8(ascii: "=") else { return nil }
      at += 1
      while at < end, isSpace(tag[at]) { at += 1 }
      guard at < end, tag[at] == UInt8(ascii: "\"") || tag[at] == UInt8(ascii: "'") else { return nil }
      let quote = tag[at]
      at += 1
      let valueStart = at
      while at < end, tag[at] != quote { at += 1 }
      if attributeName.elementsEqual(name) { return tag[valueStart..<at] }
      at += 1
    }
    return nil
  }

  /// `text` with `\`, `/` and `[` escaped by `\`, and a leading `#` too, so a step never reads
  /// as a separator, a position or an id.
  static func escaped(_ text: String) -> String {
    var out = ""
    for (index, character) in text.enumerated() {
      if character == "\\" || character == "/" || character == "[" || (index == 0 && character == "#") {
        out.append("\\")
      }
      out.append(character)
    }
    return out
  }
}

/// The fingerprint of a problem: its code, the file's path in its project, the item it is on
/// (``ItemIdentity``) and its message, hashed, then `:n` for the n-th problem of that hash in
/// the file (in document order), so two identical problems on one item stay two.
public enum ProblemFingerprint {
  /// The hash of one problem's identity: FNV-1a 64 of its fields, NUL-separated, as 16 hex digits.
  public static func hash(code: String, path: String, item: String, message: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ text: String) {
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
      }
      hash ^= 0
      hash = hash &* 0x0000_0100_0000_01B3
    }
    add(code)
    add(path)
    add(item)
    add(message)
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The fingerprints of one file's problems, in the order given (document order):
  /// `problems` are (code, item, message); `path` is the file's project-relative path.
  public static func fingerprints(
    path: String, problems: [(code: String, item: String, message: String)]
  ) -> [String] {
    var occurrences: [String: Int] = [:]
    return problems.map { problem in
      let hash = hash(code: problem.code, path: path, item: problem.item, message: problem.message)
      let occurrence = occurrences[hash, default: 0] + 1
      occurrences[hash] = occurrence
      return "\(hash):\(occurrence)"
    }
  }
}
