import Foundation
import TestSupport
import Testing

/// `outline merge` on generated outlines and generated edit scripts applied on two branches:
/// edits that do not overlap merge to what applying both gives, whatever the argument order (up
/// to the order of added siblings), and lint clean; a side left as the base gives the other.
/// Comments of the base, and those either side adds (in an item of the base or one it adds), come
/// through where that side put them; a comment of the base one side removed or edited is removed or
/// edited. Edits that overlap lose nothing silently: every comment a side added is in the merge,
/// even in an item the other side removed (then kept with a `removed` conflict).
@Suite struct MergeProperties {
  /// An outline of the default model as the properties build it: items with unique titles.
  struct Tree {
    /// Each item's title (index 0 is the root, untitled).
    var titles: [String] = [""]
    /// Each item's parent (-1 for the root and for a removed item).
    var parents: [Int] = [-1]
    /// Each item's children, in order.
    var children: [[Int]] = [[]]
    /// The comments before each item, and those after its last child.
    var before: [[String]] = [[]]
    var after: [[String]] = [[]]

    mutating func add(_ title: String, under parent: Int) -> Int {
      titles.append(title)
      parents.append(parent)
      children.append([])
      before.append([])
      after.append([])
      children[parent].append(titles.count - 1)
      return titles.count - 1
    }

    mutating func detach(_ item: Int) {
      children[parents[item]].removeAll { $0 == item }
      parents[item] = -1
    }

    mutating func move(_ item: Int, under parent: Int) {
      detach(item)
      parents[item] = parent
      children[parent].append(item)
    }

    /// `item` and everything under it (explicit stack).
    func subtree(_ item: Int) -> Set<Int> {
      var found: Set<Int> = []
      var stack = [item]
      while let next = stack.popLast() {
        found.insert(next)
        stack += children[next]
      }
      return found
    }

    func ancestors(_ item: Int) -> [Int] {
      var found: [Int] = []
      var at = parents[item]
      while at >= 0 {
        found.append(at)
        at = parents[at]
      }
      return found
    }

    /// The document in fmt's canonical layout (explicit stack).
    var text: String {
      var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\""
      // As fmt writes a root without children.
      if children[0].isEmpty { return out + "/>\n" }
      out += ">\n"
      var stack: [(item: Int, depth: Int, order: Int, closing: Bool)] =
        children[0].enumerated().reversed().map { ($0.element, 1, $0.offset, false) }
      while let (item, depth, order, closing) = stack.popLast() {
        let indent = String(repeating: "  ", count: depth)
        if closing {
          for comment in after[item] { out += "\(indent)  <!-- \(comment) -->\n" }
          out += "\(indent)</Item>\n"
          continue
        }
        for comment in before[item] { out += "\(indent)<!-- \(comment) -->\n" }
        let tag = "\(indent)<Item order=\"\(order)\" title=\"\(titles[item])\""
        if children[item].isEmpty && after[item].isEmpty {
          out += tag + "/>\n"
          continue
        }
        out += tag + ">\n"
        stack.append((item, depth, order, true))
        stack += children[item].enumerated().reversed().map { ($0.element, depth + 1, $0.offset, false) }
      }
      return out + "</outline>\n"
    }
  }

  /// One edit of a script, on items of the base.
  enum Edit {
    case retitle(Int, String)
    case add(String, under: Int)
    case remove(Int)
    case move(Int, under: Int)
    /// A comment before the item (`after`: after its last child, inside it).
    case comment(Int, String, after: Bool)
    /// The base's comments before the item removed, or replaced by one (an edit).
    case uncomment(Int, replacement: String?)
  }

  static func base(_ random: inout SeededGenerator) -> Tree {
    var tree = Tree()
    let count = Int.random(in: 3...16, using: &random)
    for index in 0..<count {
      let parents = (0..<tree.titles.count).filter { tree.ancestors($0).count < 3 }
      let item = tree.add("b\(index)", under: parents.randomElement(using: &random)!)
      if Int.random(in: 0..<4, using: &random) == 0 { tree.before[item].append("base \(index)") }
    }
    return tree
  }

  /// A script of `side`'s edits, none touching what `taken` holds (which grows by what they touch).
  static func script(
    _ tree: Tree, side: String, taken: inout Set<Int>, _ random: inout SeededGenerator
  ) -> [Edit] {
    var edits: [Edit] = []
    let items = Array(1..<tree.titles.count)
    for number in 0..<Int.random(in: 1...4, using: &random) {
      let item = items.randomElement(using: &random)!
      let touched: Set<Int>
      let edit: Edit
      switch Int.random(in: 0..<5, using: &random) {
      case 0:
        edit = .retitle(item, "\(tree.titles[item])-\(side)")
        touched = [item]
      case 1:
        let parent = Bool.random(using: &random) ? 0 : item
        edit = .add("\(side)\(number)", under: parent)
        touched = parent == 0 ? [] : [parent]
      case 2:
        // A leaf, or a whole subtree with the comments in it.
        edit = .remove(item)
        touched = tree.subtree(item)
      case 3 where !tree.before[item].isEmpty && Bool.random(using: &random):
        // A comment of the base removed or edited.
        edit = .uncomment(item, replacement: Bool.random(using: &random) ? "\(side) edit \(number)" : nil)
        touched = [item]
      case 3:
        // Each side's comment, in an item of the base or (below) in an item it adds.
        let after = Bool.random(using: &random)
        edit = .comment(item, "\(side) \(number)", after: after)
        touched = [item]
      default:
        let target = (0..<tree.titles.count).filter {
          !tree.subtree(item).contains($0) && $0 != tree.parents[item]
        }
        .randomElement(using: &random)
        guard let target else { continue }
        edit = .move(item, under: target)
        touched = tree.subtree(item).union([target]).union(tree.ancestors(target).filter { $0 != 0 })
          .union([tree.parents[item]].filter { $0 != 0 })
      }
      guard taken.isDisjoint(with: touched) else { continue }
      taken.formUnion(touched)
      edits.append(edit)
    }
    return edits
  }

  static func apply(_ edits: [Edit], to tree: inout Tree) {
    for edit in edits {
      switch edit {
      case .retitle(let item, let title): tree.titles[item] = title
      case .add(let title, let parent):
        let item = tree.add(title, under: parent)
        // Every other added item carries comments of its own.
        if title.last.map({ Int(String($0)) ?? 0 })?.isMultiple(of: 2) == true {
          tree.before[item].append("\(title) before")
          tree.after[item].append("\(title) inside")
        }
      case .remove(let item): tree.detach(item)
      case .move(let item, let parent): tree.move(item, under: parent)
      case .comment(let item, let text, let after):
        if after { tree.after[item].append(text) } else { tree.before[item].append(text) }
      case .uncomment(let item, let replacement):
        tree.before[item] = replacement.map { [$0] } ?? []
      }
    }
  }

  /// The merge of three texts through the binary, and whether its result lints clean.
  static func merge(_ base: String, _ ours: String, _ theirs: String) throws -> (
    status: Int32, text: String, lints: Bool
  ) {
    let folder = try Binary.folder(["base.outline": base, "ours.outline": ours, "theirs.outline": theirs])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try Binary.run(
      "outline", ["merge", "base.outline", "ours.outline", "theirs.outline"], in: folder)
    let text = Binary.read("ours.outline", in: folder) ?? ""
    let lint = try Binary.run("outline-lint", ["ours.outline"], in: folder)
    return (run.status, text, lint.status == 0)
  }

  /// Each item's title under its parent's, sorted: the document without its sibling order.
  static func shape(_ text: String) -> [String] {
    var path: [String] = []
    var found: [String] = []
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("</Item") {
        path.removeLast()
        continue
      }
      guard trimmed.hasPrefix("<Item"), let start = trimmed.range(of: "title=\"") else { continue }
      let title = String(trimmed[start.upperBound...].prefix { $0 != "\"" })
      found.append("\(path.last ?? "")/\(title)")
      if !trimmed.hasSuffix("/>") { path.append(title) }
    }
    return found.sorted()
  }

  @Test func nonOverlappingEditsMergeToApplyingBothInEitherOrder() throws {
    try Property.check("merge applies both scripts", cases: 12) { random, _ in
      let base = Self.base(&random)
      var taken: Set<Int> = []
      let oursEdits = Self.script(base, side: "o", taken: &taken, &random)
      let theirsEdits = Self.script(base, side: "t", taken: &taken, &random)
      var ours = base
      Self.apply(oursEdits, to: &ours)
      var theirs = base
      Self.apply(theirsEdits, to: &theirs)
      var both = ours
      Self.apply(theirsEdits, to: &both)
      let merged = try Self.merge(base.text, ours.text, theirs.text)
      guard merged.status == 0 else {
        return "exit \(merged.status) for\n\(base.text)\n\(ours.text)\n\(theirs.text)"
      }
      guard merged.text == both.text else {
        return
          "merged\n\(merged.text)\nexpected\n\(both.text)\nbase\n\(base.text)\nours\n\(ours.text)\ntheirs\n\(theirs.text)"
      }
      guard merged.lints else { return "the merge does not lint clean:\n\(merged.text)" }
      let swapped = try Self.merge(base.text, theirs.text, ours.text)
      guard swapped.status == 0, Self.shape(swapped.text) == Self.shape(merged.text), swapped.lints else {
        return "merged the other way\n\(swapped.text)\nexpected the shape of\n\(merged.text)"
      }
      return nil
    }
  }

  /// The comments of `text`.
  static func comments(_ text: String) -> [String] {
    text.components(separatedBy: "<!-- ").dropFirst().compactMap { $0.components(separatedBy: " -->").first }
  }

  @Test func overlappingEditsLoseNoCommentSilently() throws {
    try Property.check("merge keeps every added comment", cases: 12) { random, _ in
      let base = Self.base(&random)
      var oursTaken: Set<Int> = []
      var theirsTaken: Set<Int> = []
      var ours = base
      var theirs = base
      // Each side's script on its own: they may touch the same items (a comment in a subtree
      // the other side removes among them).
      let oursEdits = Self.script(base, side: "o", taken: &oursTaken, &random)
      Self.apply(oursEdits, to: &ours)
      var theirsEdits = Self.script(base, side: "t", taken: &theirsTaken, &random)
      if let removed = oursEdits.lazy.compactMap({ edit -> Int? in
        if case .remove(let item) = edit { return item } else { return nil }
      }).first {
        // Often a comment of theirs right inside what ours removed.
        let inside = base.subtree(removed).sorted()
        theirsEdits.append(
          .comment(inside.randomElement(using: &random)!, "t inside", after: Bool.random(using: &random)))
      }
      Self.apply(theirsEdits, to: &theirs)
      let inBase = Set(Self.comments(base.text))
      for (first, second) in [(ours, theirs), (theirs, ours)] {
        let merged = try Self.merge(base.text, first.text, second.text)
        guard merged.status == 0 || merged.status == 1 else { return "exit \(merged.status)\n\(merged.text)" }
        let kept = Set(Self.comments(merged.text))
        for side in [first, second] {
          for comment in Self.comments(side.text) where !inBase.contains(comment) && !kept.contains(comment) {
            return
              "lost <!-- \(comment) -->:\n\(merged.text)\nbase\n\(base.text)\nours\n\(first.text)\ntheirs\n\(second.text)"
          }
        }
      }
      return nil
    }
  }

  @Test func aSideLeftAsTheBaseGivesTheOtherSide() throws {
    try Property.check("merge(B, X, B) == X == merge(B, B, X)", cases: 8) { random, _ in
      let base = Self.base(&random)
      var taken: Set<Int> = []
      var changed = base
      Self.apply(Self.script(base, side: "x", taken: &taken, &random), to: &changed)
      let left = try Self.merge(base.text, changed.text, base.text)
      let right = try Self.merge(base.text, base.text, changed.text)
      guard left.status == 0, left.text == changed.text else {
        return "merge(B, X, B):\n\(left.text)\nX:\n\(changed.text)"
      }
      guard right.status == 0, right.text == changed.text else {
        return "merge(B, B, X):\n\(right.text)\nX:\n\(changed.text)"
      }
      return nil
    }
  }
}
