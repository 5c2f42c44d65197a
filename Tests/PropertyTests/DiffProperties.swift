import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// `outline diff` over generated models and documents (Documentation/Git.md): a document has no
/// differences from itself nor from what `fmt` writes of it, and one generated edit (a title renamed, an
/// item added, a subtree removed, a subtree moved to another parent) is reported as exactly that change.
@Suite struct DiffProperties {
  /// An edit made to a document, and the one change the diff must report for it.
  struct Edit {
    var text: [UInt8]
    var kind: String
    var items = 1
  }

  @Test func diffReportsNothingForTheSameDataAndExactlyTheEditMade() throws {
    try Property.check("diff: none for X against X and fmt(X); exactly one edit", cases: 30) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      var options = DocumentGenerator.Options.random(modelPath: "M.xcdatamodel", using: &random)
      options.problems = 0
      options.looseValues = false
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let model = InProcess.load(generated)
      let formatted = InProcess.format(document.text, model: model) ?? document.text
      let kinds = ["changed", "added", "removed", "moved"].shuffled(using: &random)
      var made: Edit?
      for kind in kinds where made == nil { made = Self.edit(kind, document.text, model, &random) }
      guard let edit = made else { return nil }
      let folder = try Binary.folder([
        "M.xcdatamodel/contents": generated.text, "a.outline": document.text, "fmt.outline": formatted,
        "edited.outline": String(decoding: edit.text, as: UTF8.self),
      ])
      defer { Scratch.remove(folder.path) }
      for other in ["a.outline", "fmt.outline"] {
        let run = try Binary.run("outline", ["diff", "a.outline", other], in: folder)
        if run.status != 0 || !run.stdout.isEmpty {
          return "diff a.outline \(other) exited \(run.status): \(run.stdout)\(run.stderr)\n\(document)"
        }
      }
      let run = try Binary.run(
        "outline", ["diff", "--format", "json", "a.outline", "edited.outline"], in: folder)
      let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      let changes = object?["changes"] as? [[String: Any]] ?? []
      if run.status != 1 || changes.count != 1 || changes[0]["kind"] as? String != edit.kind
        || (edit.kind != "changed" && edit.kind != "moved" && changes[0]["items"] as? Int != edit.items)
      {
        return
          "expected one \(edit.kind) of \(edit.items) items, got \(run.status): \(run.stdout)\(run.stderr)\n"
          + "\(document)\n---\n\(String(decoding: edit.text, as: UTF8.self))"
      }
      return nil
    }
  }

  /// `kind` of edit made to `text` at a random item that allows it, or nil when none does.
  static func edit(_ kind: String, _ text: String, _ model: Model, _ random: inout SeededGenerator) -> Edit? {
    var bytes = Array(text.utf8)
    guard
      let tree = OutlineValidator.validate(SourceText(bytes: bytes), modelProvider: fixedModel(model)).tree
    else { return nil }
    let items = tree.items
    // Items in a containment (not the root, not free objects).
    let contained = items.indices.filter { items[$0].parent >= 0 && items[$0].relationship >= 0 }
    switch kind {
    case "changed":
      guard let item = contained.filter({ items[$0].titleRange != nil }).randomElement(using: &random) else {
        return nil
      }
      let range = items[item].titleRange!
      bytes.replaceSubrange(range.start..<range.end, with: Array("renamed by the edit".utf8))
      return Edit(text: bytes, kind: kind)
    case "added":
      let leaves = contained.filter { items[$0].subtreeEnd == $0 + 1 && items[$0].titleRange != nil }
      guard let item = leaves.randomElement(using: &random) else { return nil }
      let element = items[item]
      var copy = Array(bytes[element.fullRange.start..<element.fullRange.end])
      // The copy gets its own title and id (rewritten back to front, so the ranges hold).
      var rewrites = [(element.titleRange!, Array("added by the edit".utf8))]
      if let id = element.idRange { rewrites.append((id, Array("added-by-the-edit".utf8))) }
      for (range, value) in rewrites.sorted(by: { $0.0.start > $1.0.start }) {
        copy.replaceSubrange(
          (range.start - element.fullRange.start)..<(range.end - element.fullRange.start), with: value)
      }
      bytes.insert(contentsOf: copy, at: element.fullRange.end)
      return Edit(text: bytes, kind: kind)
    case "removed":
      guard let item = contained.randomElement(using: &random) else { return nil }
      let range = items[item].fullRange
      bytes.removeSubrange(range.start..<range.end)
      return Edit(text: bytes, kind: kind, items: Int(items[item].subtreeEnd) - item)
    default:
      // A subtree to another parent of its parent's entity, outside the subtree, with an end tag.
      for item in contained.shuffled(using: &random) {
        let parent = Int(items[item].parent)
        let targets = items.indices.filter {
          $0 != parent && ($0 < item || $0 >= Int(items[item].subtreeEnd)) && items[$0].endTag != nil
            && items[$0].entity == items[parent].entity
        }
        guard let target = targets.randomElement(using: &random) else { continue }
        let range = items[item].fullRange
        let moved = Array(bytes[range.start..<range.end])
        let at = items[target].endTag!.start
        if at > range.start {
          bytes.insert(contentsOf: moved, at: at)
          bytes.removeSubrange(range.start..<range.end)
        } else {
          bytes.removeSubrange(range.start..<range.end)
          bytes.insert(contentsOf: moved, at: at)
        }
        return Edit(text: bytes, kind: kind)
      }
      return nil
    }
  }
}
