import Foundation
import OutlineCore
import OutlineSyntax
import TestSupport
import Testing

@testable import OutlineEditing
@testable import OutlineLSP

/// Markup edits inside items (an item typed between siblings character by
/// character, subtrees pasted, deleted and cut, attributes added, random
/// pieces of markup in a child list, undone again) on documents with and
/// without problems, references, suppression comments and a model with
/// uniqueness constraints: after every change the analysis the store gives
/// (carried over by ``MarkupEdit`` where it can) equals a fresh analysis of
/// the same text, its tree included. Built as ``AttributeEditTests``.
@Suite struct MarkupEditTests {
  /// The model of ``AttributeEditTests``; `unique` adds a uniqueness
  /// constraint on the owner, `bounded` a maximum of 3 children per task.
  static func model(unique: Bool, bounded: Bool) -> String {
    var text = AttributeEditTests.model
    if bounded {
      text = text.replacingOccurrences(
        of: "<relationship name=\"children\" optional=\"YES\"",
        with: "<relationship name=\"children\" optional=\"YES\" maxCount=\"3\"")
    }
    if unique {
      text = text.replacingOccurrences(
        of: "</entity>",
        with:
          "  <uniquenessConstraints><uniquenessConstraint><constraint value=\"owner\"/><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints>\n  </entity>"
      )
    }
    return text
  }

  /// What a random edit pastes into a child list: items, subtrees, ids (some taken), comments,
  /// processing instructions, a reference.
  static func subtree(using random: inout SeededGenerator, references: Bool) -> String {
    var text = ""
    var open = 0
    for index in 0..<Int.random(in: 1...20, using: &random) {
      var attributes =
        " title=\"p\(index)\" order=\"\(Int.random(in: 0...3, using: &random))\" owner=\"o\(index % 3)\""
      if Int.random(in: 0...4, using: &random) == 0 {
        attributes += " xml:id=\"t\(Int.random(in: 0...40, using: &random) * 5)\""
      }
      if Int.random(in: 0...9, using: &random) == 0 { attributes += " priority=\"x\"" }
      if references && Int.random(in: 0...9, using: &random) == 0 { attributes += " see=\"t10\"" }
      if Int.random(in: 0...3, using: &random) == 0 && open < 3 {
        text += "<Task\(attributes)>\n"
        open += 1
      } else {
        text += "<Task\(attributes)/>\n"
      }
      if Int.random(in: 0...9, using: &random) == 0 {
        text += index % 2 == 0 ? "<!-- a note -->\n" : "<?pi a note?>\n"
      }
      if Int.random(in: 0...29, using: &random) == 0 { text += "<!-- outline-disable-next OL300 -->\n" }
      if open > 0 && Int.random(in: 0...2, using: &random) == 0 {
        open -= 1
        text += "</Task>\n"
      }
    }
    return text + String(repeating: "</Task>\n", count: open)
  }

  struct Variant: Sendable, CustomTestStringConvertible {
    var problems: Bool
    var references: Bool
    var suppression: Bool
    var unique: Bool
    var bounded: Bool
    var seed: UInt64
    var testDescription: String {
      "problems \(problems), references \(references), suppression \(suppression), unique \(unique), bounded \(bounded)"
    }
  }

  static let variants = [
    Variant(problems: false, references: false, suppression: false, unique: false, bounded: false, seed: 31),
    Variant(problems: true, references: false, suppression: false, unique: false, bounded: false, seed: 32),
    Variant(problems: true, references: false, suppression: false, unique: false, bounded: true, seed: 33),
    Variant(problems: true, references: true, suppression: false, unique: false, bounded: false, seed: 34),
    Variant(problems: true, references: false, suppression: true, unique: false, bounded: false, seed: 35),
    Variant(problems: true, references: false, suppression: false, unique: true, bounded: false, seed: 36),
  ]

  @Test(arguments: variants)
  func carriedAnalysisEqualsAFreshOneAfterEveryMarkupEdit(_ variant: Variant) throws {
    let folder = Scratch.url("markup-edit")
    let modelFile = folder.appendingPathComponent("T.xcdatamodel/contents")
    try FileManager.default.createDirectory(
      at: modelFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(Self.model(unique: variant.unique, bounded: variant.bounded).utf8).write(to: modelFile)
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = SeededGenerator(seed: variant.seed)
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    var text = AttributeEditTests.document(
      items: 150, problems: variant.problems, references: variant.references, using: &random)
    if variant.suppression {
      // One before the root, one inside it (which a parse of an element alone does not see).
      text = text.replacingOccurrences(of: "<outline ", with: "<!-- outline-disable OL300 -->\n<outline ")
        .replacingOccurrences(of: "owner=\"me\">\n", with: "owner=\"me\">\n<!-- outline-disable OL203 -->\n")
        .replacingOccurrences(
          of: "<Task title=\"Eggs\"",
          with: "<!-- outline-disable-next OL300 OL400 OL401 OL402 -->\n<Task title=\"Eggs\"")
    }
    store.open(uri: uri, version: 1, text: text)
    #expect(store[uri]!.analysis.model != nil)
    var carried = 0
    var eligible = 0
    // Changes still to send (the rest of an item typed, the undoing of a random piece).
    var pending: [(TextRange, String)] = []
    for step in 0..<400 {
      let snapshot = store[uri]!
      let source = snapshot.source
      var range: TextRange
      let typed: String
      var undone = false
      if !pending.isEmpty {
        (range, typed) = pending.removeFirst()
      } else {
        var plan = Self.randomEdit(snapshot, references: variant.references, using: &random)
        (range, typed) = plan.changes.removeFirst()
        pending = plan.changes
        undone = plan.undone
      }
      // As the editor sends it: in UTF-16 units, never inside a character.
      range = try #require(mapper.textRange(mapper.range(range, in: source), in: source))
      if undone {
        pending = [
          (
            TextRange(start: range.start, end: range.start + typed.utf8.count),
            String(decoding: source.bytes[range.start..<range.end], as: UTF8.self)
          )
        ]
      }
      let applied = AppliedChange(
        range: TextRange(start: range.start, end: range.start + typed.utf8.count),
        removed: Array(source.bytes[range.start..<range.end]))
      var edited = source
      edited.replace(range, with: Array(typed.utf8))
      var probe = snapshot.analysis
      if probe.parsed { eligible += 1 }
      var ids: IDDirectory?
      let qualifies = MarkupEdit.apply(
        applied, to: &probe, source: edited, rules: snapshot.settings.rules(snapshot.analysis.configuration),
        ids: &ids)
      if qualifies { carried += 1 }
      let change = LSP.TextDocumentContentChangeEvent(
        range: mapper.range(range, in: source), text: DocumentText(typed))
      #expect(store.change(uri: uri, version: step + 2, changes: [change], mapper: mapper) != nil)
      if let difference = FreshAnalysis.difference(store[uri]!) {
        Issue.record("step \(step): \(difference) (markup edit: \(qualifies))")
        return
      }
    }
    // Documents the edits can be bounded in are often carried over; the rest take full passes.
    if variant.unique {
      #expect(carried == 0)
    } else {
      // (Not edits from a text that is not well formed, nor at the root's level, nor, with counts
      // an object's id may add to, edits of elements with ids.)
      #expect(
        carried * (variant.bounded || variant.references ? 10 : 4) > eligible,
        "\(carried) of \(eligible) carried over")
    }
  }

  /// The edit kinds the benchmark times, in a list two levels down: each is carried over, and right.
  @Test func itemsInsertedDeletedAndPastedAreCarriedOver() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "untitled:kinds.outline"
    var text =
      "<outline version=\"1\">\n  <Item title=\"a\" order=\"0\">\n    <Item title=\"b\" order=\"0\" xml:id=\"b\">\n"
    for index in 0..<5 {
      text += "      <Item title=\"c\(index)\" order=\"\(index)\" xml:id=\"c\(index)\"/>\n"
    }
    text += "    </Item>\n  </Item>\n</outline>\n"
    store.open(uri: uri, version: 1, text: text)
    #expect(store[uri]!.analysis.diagnostics.isEmpty)
    let pasted = (0..<20).map { "<Item title=\"p\($0)\" order=\"\($0 % 7)\"/>" }.joined(separator: "\n")
    // An item typed at once before c4, c0 deleted (its id gone), 20 pasted before c1, an id taken twice.
    func before(_ title: String, _ source: SourceText) -> Int {
      let needle = Array("<Item title=\"\(title)\"".utf8)
      return source.bytes.indices.first { source.bytes[$0...].starts(with: needle) }!
    }
    let edits: [(SourceText) -> (TextRange, String)] = [
      { (TextRange(at: before("c4", $0)), "<Item title=\"new\" order=\"5\"/>\n      ") },
      { (TextRange(start: before("c0", $0), end: before("c1", $0)), "") },
      { (TextRange(at: before("c1", $0)), pasted) },
      { (TextRange(at: before("c4", $0)), "<Item title=\"twin\" order=\"9\" xml:id=\"c4\"/>") },
    ]
    for (step, edit) in edits.enumerated() {
      let snapshot = store[uri]!
      let (offsets, typed) = edit(snapshot.source)
      let range = mapper.range(offsets, in: snapshot.source)
      var edited = snapshot.source
      edited.replace(offsets, with: Array(typed.utf8))
      var probe = snapshot.analysis
      var ids: IDDirectory?
      let change = AppliedChange(
        range: TextRange(start: offsets.start, end: offsets.start + typed.utf8.count),
        removed: Array(snapshot.source.bytes[offsets.start..<offsets.end]))
      #expect(
        MarkupEdit.apply(
          change, to: &probe, source: edited, rules: snapshot.settings.rules(snapshot.analysis.configuration),
          ids: &ids),
        "step \(step)")
      _ = store.change(
        uri: uri, version: step + 2,
        changes: [LSP.TextDocumentContentChangeEvent(range: range, text: DocumentText(typed))], mapper: mapper
      )
      let fresh = DocumentStore().open(uri: uri, text: store[uri]!.source.bytes).analysis
      #expect(store[uri]!.analysis.diagnostics == fresh.diagnostics, "step \(step)")
      #expect(store[uri]!.analysis.tree?.items == fresh.tree?.items, "step \(step)")
      #expect(fresh.diagnostics.contains { $0.code == .duplicateID } == (step == 3), "step \(step)")
    }
  }

  /// In a document that writes references, an item without id or reference is added and deleted
  /// (carried over), and an item another one names is deleted (analyzed afresh: the name now
  /// leads nowhere).
  @Test func referencesElsewhereBoundWhatIsCarriedOver() throws {
    let folder = Scratch.url("markup-refs")
    let modelFile = folder.appendingPathComponent("T.xcdatamodel/contents")
    try FileManager.default.createDirectory(
      at: modelFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(AttributeEditTests.model.utf8).write(to: modelFile)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = folder.appendingPathComponent("r.outline").absoluteString
    let text = """
      <outline version="1" model="T.xcdatamodel" owner="me">
        <Task title="a" order="0" owner="o">
          <Task title="b" order="0" owner="o" xml:id="b"/>
        </Task>
        <Task title="e" order="1" owner="o">
          <Task title="c" order="0" owner="o"/>
        </Task>
        <Task title="z" order="2" owner="o" see="b"/>
      </outline>

      """
    store.open(uri: uri, version: 1, text: text)
    #expect(store[uri]!.analysis.diagnostics.isEmpty)
    // (What to find; what to insert before it, or nothing to delete it; whether it is carried over.)
    let added = "    <Task title=\"d\" order=\"1\" owner=\"o\"/>\n"
    for (step, (find, replacement, carried)) in [
      ("  </Task>\n  <Task title=\"z\"", added, true), (added, "", true),
      ("    <Task title=\"b\" order=\"0\" owner=\"o\" xml:id=\"b\"/>\n", "", false),
    ].enumerated() {
      let snapshot = store[uri]!
      let needle = Array(find.utf8)
      let at = try #require(
        snapshot.source.bytes.indices.first { snapshot.source.bytes[$0...].starts(with: needle) })
      let offsets = TextRange(start: at, end: replacement.isEmpty ? at + needle.count : at)
      var edited = snapshot.source
      edited.replace(offsets, with: Array(replacement.utf8))
      var probe = snapshot.analysis
      var ids: IDDirectory?
      let change = AppliedChange(
        range: TextRange(start: offsets.start, end: offsets.start + replacement.utf8.count),
        removed: Array(snapshot.source.bytes[offsets.start..<offsets.end]))
      #expect(
        MarkupEdit.apply(
          change, to: &probe, source: edited, rules: snapshot.settings.rules(snapshot.analysis.configuration),
          ids: &ids)
          == carried,
        "step \(step)")
      _ = store.change(
        uri: uri, version: step + 2,
        changes: [
          LSP.TextDocumentContentChangeEvent(
            range: mapper.range(offsets, in: snapshot.source), text: DocumentText(replacement))
        ], mapper: mapper)
      let fresh = DocumentStore().open(uri: uri, text: store[uri]!.source.bytes).analysis
      #expect(store[uri]!.analysis.diagnostics == fresh.diagnostics, "step \(step)")
      #expect(fresh.diagnostics.map(\.code) == (step == 2 ? [.unknownID] : []), "step \(step)")
    }
  }

  /// An edit inside an item that removes a comment, more bytes than the document has before
  /// the comment: the comment's old place is no range of the new text (it was read out of
  /// bounds); the analysis is carried over or made afresh, equal to a fresh one.
  @Test func anEditRemovingACommentIsAnalyzedSafely() throws {
    let mapper = PositionMapper(unit: .utf16)
    for comment in ["<!-- c -->", "<!-- outline-disable OL203 -->"] {
      let store = DocumentStore()
      let uri = "untitled:comment.outline"
      let text =
        "<outline><Item order=\"0\"><Item order=\"0\"/>\(comment)<Item order=\"1\" title=\"a long long long long long title\"/></Item></outline>\n"
      store.open(uri: uri, version: 1, text: text)
      _ = store[uri]!.analysis
      let bytes = Array(text.utf8)
      let start = try #require(bytes.firstRange(of: Array("<Item order=\"0\"/>".utf8))?.lowerBound)
      let end = try #require(bytes.firstRange(of: Array("</Item></outline>".utf8))?.lowerBound)
      _ = store.change(
        uri: uri, version: 2,
        changes: [
          LSP.TextDocumentContentChangeEvent(
            range: mapper.range(TextRange(start: start, end: end), in: store[uri]!.source),
            text: DocumentText(""))
        ], mapper: mapper)
      let analysis = store[uri]!.analysis
      let fresh = DocumentStore().open(uri: uri, text: store[uri]!.source.bytes).analysis
      #expect(analysis.diagnostics == fresh.diagnostics, "\(comment)")
      #expect(analysis.tree?.items == fresh.tree?.items && analysis.tree?.comments == fresh.tree?.comments)
    }
  }

  /// `outline-disable` comments inside the root (a parse of an element alone does not see them)
  /// still turn off what a carried edit brings, and one covering the next start tag its own.
  @Test func suppressionCommentsCoverWhatACarriedEditBrings() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "untitled:suppressed.outline"
    let text = """
      <outline version="1">
        <!-- outline-disable OL203 -->
        <Item title="a" order="0">
          <Item title="c" order="0"/>
        </Item>
        <Item title="e" order="1">
          <!-- outline-disable-next OL300 -->
          <Item title="b" order="x"/>
        </Item>
      </outline>

      """
    store.open(uri: uri, version: 1, text: text)
    #expect(store[uri]!.analysis.diagnostics.isEmpty)
    // An attribute added to c, an item added after it (both carried over), an attribute added to b,
    // whose start tag the comment covers (analyzed afresh).
    for (step, (after, typed, carried)) in [
      ("<Item title=\"c\"", " colour=\"red\"", true),
      ("<Item title=\"c\" colour=\"red\" order=\"0\"/>", "<Item title=\"d\" order=\"1\" size=\"9\"/>", true),
      ("<Item title=\"b\"", " colour=\"red\"", false),
    ].enumerated() {
      let snapshot = store[uri]!
      let needle = Array(after.utf8)
      let at = try #require(
        snapshot.source.bytes.indices.first { snapshot.source.bytes[$0...].starts(with: needle) })
      let offsets = TextRange(at: at + needle.count)
      var edited = snapshot.source
      edited.replace(offsets, with: Array(typed.utf8))
      var probe = snapshot.analysis
      var ids: IDDirectory?
      let change = AppliedChange(
        range: TextRange(start: offsets.start, end: offsets.start + typed.utf8.count), removed: [])
      #expect(
        MarkupEdit.apply(
          change, to: &probe, source: edited, rules: snapshot.settings.rules(snapshot.analysis.configuration),
          ids: &ids)
          == carried,
        "step \(step)")
      _ = store.change(
        uri: uri, version: step + 2,
        changes: [
          LSP.TextDocumentContentChangeEvent(
            range: mapper.range(offsets, in: snapshot.source), text: DocumentText(typed))
        ], mapper: mapper)
      let fresh = DocumentStore().open(uri: uri, text: store[uri]!.source.bytes).analysis
      #expect(store[uri]!.analysis.diagnostics == fresh.diagnostics, "step \(step)")
      #expect(fresh.diagnostics.isEmpty, "step \(step)")
    }
  }

  /// A random markup edit in a child list as the changes that make it (one,
  /// or an item typed a character at a time), and whether to undo it next.
  static func randomEdit(_ snapshot: Snapshot, references: Bool, using random: inout SeededGenerator)
    -> (changes: [(TextRange, String)], undone: Bool)
  {
    let tree = snapshot.analysis.tree!
    let items = Array(tree.items.indices.dropFirst())
    guard !items.isEmpty else { return ([(TextRange(at: 0), " ")], false) }
    let item = tree.items[items.randomElement(using: &random)!]
    // Just after the start tag of an item with children, or after any item: a place in a child list.
    let place = item.endTag != nil && Bool.random(using: &random) ? item.startTag.end : item.fullRange.end
    switch Int.random(in: 0...12, using: &random) {
    case 0:
      // An item typed one character at a time (malformed until the last).
      let typed = "\n<Task title=\"new\" order=\"\(Int.random(in: 0...4, using: &random))\" owner=\"o\"/>"
      let characters = typed.map(String.init)
      return (characters.indices.map { (TextRange(at: place + $0), characters[$0]) }, false)
    case 1:
      // A subtree deleted (a line deleted, a cut).
      return ([(item.fullRange, "")], false)
    case 2:
      return ([(TextRange(at: place), subtree(using: &random, references: references))], false)
    case 3:
      // A subtree replaced by another (a paste over a selection).
      return (
        [(item.fullRange, subtree(using: &random, references: references).dropLast().description)], false
      )
    case 4:
      // An attribute added to a start tag (one it may have already: not well formed), then removed.
      let name = item.nameRange.end
      let attribute = [" colour=\"red\"", " priority=\"4\"", " order=\"9\"", " xml:id=\"t10\""]
        .randomElement(using: &random)!
      return ([(TextRange(at: name), attribute)], true)
    case 5, 7, 8:
      // Siblings cut from one child to a later one.
      let parent = Int(item.parent)
      guard parent >= 0 else { return ([(item.fullRange, "")], false) }
      let siblings = tree.children(of: parent)
      let first = siblings.randomElement(using: &random)!
      let last = siblings.filter { $0 >= first }.randomElement(using: &random)!
      return (
        [(TextRange(start: tree.items[first].startTag.start, end: tree.items[last].fullRange.end), "")], false
      )
    case 9, 10:
      return ([(TextRange(at: place), subtree(using: &random, references: references))], false)
    default:
      // A random piece of markup anywhere in the item, then undone.
      let start = Int.random(in: item.startTag.start...item.fullRange.end, using: &random)
      let range = TextRange(
        start: start, end: min(item.fullRange.end, start + Int.random(in: 0...6, using: &random)))
      return ([(range, AttributeEditTests.pieces.randomElement(using: &random)!)], true)
    }
  }
}
