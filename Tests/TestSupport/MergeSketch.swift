/// An outline of the default model, sketched item by item and written in `fmt`'s layout: the
/// three documents of a merge test (base, ours, theirs), each the base with a few edits.
///
/// Items are `Item` elements numbered `order="0"...` among their siblings, found again by their
/// (unique) title; comments stand before an item, inside it after its last child, or before and
/// after the root. Writing uses an explicit stack.
public struct MergeSketch: Sendable, Equatable {
  /// One item: its title, other attributes as written, comments and children.
  public struct Item: Sendable, Equatable {
    public var title: String
    /// More attributes, written after the title (`done="true"`).
    public var attributes: String
    /// Comments on lines of their own before the item.
    public var before: [String]
    /// Comments inside the item, after its last child (a leaf with some is opened).
    public var inside: [String]
    public var children: [Item]

    /// An item titled `title` holding `children`.
    public static func item(
      _ title: String, attributes: String = "", before: [String] = [], inside: [String] = [],
      _ children: Item...
    ) -> Item {
      Item(title: title, attributes: attributes, before: before, inside: inside, children: children)
    }
  }

  /// The root's children.
  public var items: [Item]
  /// Comments before the root, after the XML declaration.
  public var prolog: [String] = []
  /// Comments after the root.
  public var epilog: [String] = []

  public init(_ items: Item...) { self.items = items }

  /// The document in `fmt`'s layout.
  public var text: String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    for comment in prolog { out += "<!-- \(comment) -->\n" }
    // As fmt writes a root without children.
    out += items.isEmpty ? "<outline version=\"1\"/>\n" : "<outline version=\"1\">\n"
    // `closing`: the item's end tag, after its children.
    var stack: [(item: Item, depth: Int, order: Int, closing: Bool)] =
      items.enumerated().reversed().map { ($0.element, 1, $0.offset, false) }
    while let (item, depth, order, closing) = stack.popLast() {
      let indent = String(repeating: "  ", count: depth)
      if closing {
        for comment in item.inside { out += "\(indent)  <!-- \(comment) -->\n" }
        out += "\(indent)</Item>\n"
        continue
      }
      for comment in item.before { out += "\(indent)<!-- \(comment) -->\n" }
      let extra = item.attributes.isEmpty ? "" : " " + item.attributes
      let tag = "\(indent)<Item order=\"\(order)\" title=\"\(item.title)\"\(extra)"
      if item.children.isEmpty && item.inside.isEmpty {
        out += tag + "/>\n"
        continue
      }
      out += tag + ">\n"
      stack.append((item, depth, order, true))
      stack += item.children.enumerated().reversed().map { ($0.element, depth + 1, $0.offset, false) }
    }
    if !items.isEmpty { out += "</outline>\n" }
    for comment in epilog { out += "<!-- \(comment) -->\n" }
    return out
  }

  /// This sketch with the item titled `title` changed by `change` (unchanged when there is none).
  public func editing(_ title: String, _ change: (inout Item) -> Void) -> MergeSketch {
    var copy = self
    var path: [Int] = []
    guard copy.find(title, path: &path) else { return copy }
    copy.update(path) { change(&$0) }
    return copy
  }

  /// This sketch without the item titled `title` (and everything inside it).
  public func removing(_ title: String) -> MergeSketch {
    var copy = self
    var path: [Int] = []
    guard copy.find(title, path: &path), let last = path.popLast() else { return copy }
    if path.isEmpty {
      copy.items.remove(at: last)
    } else {
      copy.update(path) { $0.children.remove(at: last) }
    }
    return copy
  }

  /// This sketch with `item` added as the last child of `parent` (nil: of the root).
  public func adding(_ item: Item, under parent: String? = nil) -> MergeSketch {
    guard let parent else {
      var copy = self
      copy.items.append(item)
      return copy
    }
    return editing(parent) { $0.children.append(item) }
  }

  /// This sketch with comment `text` before the item titled `title`.
  public func commenting(before title: String, _ text: String) -> MergeSketch {
    editing(title) { $0.before.append(text) }
  }

  /// This sketch with comment `text` inside the item titled `title`, after its last child.
  public func commenting(inside title: String, _ text: String) -> MergeSketch {
    editing(title) { $0.inside.append(text) }
  }

  /// This sketch without the comment `text`, wherever it stands.
  public func uncommenting(_ text: String) -> MergeSketch {
    var copy = self
    copy.prolog.removeAll { $0 == text }
    copy.epilog.removeAll { $0 == text }
    var stack: [[Int]] = items.indices.map { [$0] }
    while let path = stack.popLast() {
      let item = copy.item(at: path)
      if item.before.contains(text) || item.inside.contains(text) {
        copy.update(path) { item in
          item.before.removeAll { $0 == text }
          item.inside.removeAll { $0 == text }
        }
      }
      stack += item.children.indices.map { path + [$0] }
    }
    return copy
  }

  /// The indices from the root down to the item titled `title` (explicit stack).
  private func find(_ title: String, path: inout [Int]) -> Bool {
    var stack: [[Int]] = items.indices.reversed().map { [$0] }
    while let next = stack.popLast() {
      let item = self.item(at: next)
      if item.title == title {
        path = next
        return true
      }
      stack += item.children.indices.reversed().map { next + [$0] }
    }
    return false
  }

  private func item(at path: [Int]) -> Item {
    var item = items[path[0]]
    for index in path.dropFirst() { item = item.children[index] }
    return item
  }

  /// Applies `change` to the item at `path`, copying each item on the way back up.
  private mutating func update(_ path: [Int], _ change: (inout Item) -> Void) {
    var chain = [items[path[0]]]
    for index in path.dropFirst() { chain.append(chain[chain.count - 1].children[index]) }
    change(&chain[chain.count - 1])
    for level in stride(from: chain.count - 1, to: 0, by: -1) {
      chain[level - 1].children[path[level]] = chain[level]
    }
    items[path[0]] = chain[0]
  }
}
