import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineJSON
import OutlineMerge
import OutlineWorkspace

/// `outline diff OLD NEW` and `outline diff --git PATH OLD HEX MODE NEW HEX MODE`: the structural
/// differences of two outlines, item by item (Git.md).
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two outlines item by item: added, removed, moved and changed items.",
    discussion: """
      OLD and NEW are outlines of one model, each in XML or the JSON form. Items are matched by \
      xml:id, then by identical subtrees, then by place and content; each change is one line: \
      KIND LABEL OLD-POSITION -> NEW-POSITION: what changed (- for the side an item is not on). \
      An order value is never a change of its own: the order of the siblings is. With --git, the \
      arguments are the seven git passes to an external diff driver (PATH OLD-FILE OLD-HEX \
      OLD-MODE NEW-FILE NEW-HEX NEW-MODE; /dev/null for an added or deleted file), the model is \
      found from PATH, and a difference shown exits 0 (git stops at a driver that fails). Setup: \
      Git.md.

      Exit status: 0 no differences, 1 differences, 2 usage or I/O trouble or a file that does \
      not parse (with --git: 0 whenever the comparison was shown, 2 for trouble).
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Argument(
    help: "OLD NEW, or with --git the arguments git passes (PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE ...).")
  var files: [String]

  @Flag(
    help: "Take the arguments git passes to an external diff driver, and exit 0 when a difference is shown.")
  var git = false

  @Option(help: "Output format: text or json.")
  var format: Format = .text

  @Option(help: ArgumentHelp("Read both outlines with this model, whatever they say.", valueName: "path"))
  var model: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func validate() throws {
    if git {
      // A renamed file comes with two more: its new path and git's header lines.
      if files.count != 7 && files.count != 9 {
        throw ValidationError(
          "--git takes the seven arguments git passes (nine for a rename); got \(files.count).")
      }
    } else if files.count != 2 {
      throw ValidationError("Give two outlines: OLD NEW.")
    }
  }

  func run() throws {
    let (oldFile, newFile) = git ? (files[1], files[4]) : (files[0], files[1])
    let (oldPath, newPath) = git ? (files[0], files.count == 9 ? files[7] : files[0]) : (oldFile, newFile)
    let limit = maxSize?.bytes ?? InputFile.defaultLimit
    let configurations = ConfigurationFinder(limit: limit)
    let models = ModelCache(limit: limit)
    // The two sides are read, parsed and validated at once, each on a core of its own.
    let reads = ParallelMap.map([(oldFile, oldPath), (newFile, newPath)], jobs: 2) { file, path in
      DiffInput.read(
        file, path: path, modelOverride: model, configurations: configurations, models: models,
        limit: configurations.inputLimit(for: path, maxSize: maxSize))
    }
    var sides: [DiffInput] = []
    for read in reads {
      switch read {
      case .success(let input): sides.append(input)
      case .failure(let trouble):
        Terminal.error(trouble.message)
        throw ExitCode(2)
      }
    }
    let diff = StructuralDiff(old: sides[0].items, new: sides[1].items)
    let oldPositions = sides[0].positions(of: Set(diff.changes.compactMap(\.old)))
    let newPositions = sides[1].positions(of: Set(diff.changes.compactMap(\.new)))
    let (oldName, newName) = git ? ("a/\(oldPath)", "b/\(newPath)") : (oldFile, newFile)
    switch format {
    case .text:
      var text = git ? "diff --outline \(oldName) \(newName)\n" : ""
      let lines = DiffText.lines(
        diff, oldPosition: { oldPositions[$0] ?? "-" }, newPosition: { newPositions[$0] ?? "-" })
      for line in lines { text += line + "\n" }
      if git && lines.isEmpty { text += "no structural changes\n" }
      Terminal.write(text)
    case .json:
      Terminal.write(
        DiffJSON.render(
          diff, old: oldName, new: newName, oldPositions: oldPositions, newPositions: newPositions))
    }
    if !git && !diff.isEmpty { throw ExitCode(1) }
  }
}

/// `outline diff --format json`: one object, `{"old", "new", "changes": [...]}` (CLI.md gives the shape).
enum DiffJSON {
  static func render(
    _ diff: StructuralDiff, old: String, new: String, oldPositions: [Int: String], newPositions: [Int: String]
  ) -> String {
    func position(_ text: String?) -> String {
      guard let text else { return "null" }
      let parts = text.split(separator: ":")
      return "{\"line\": \(parts.first ?? "0"), \"column\": \(parts.last ?? "0")}"
    }
    func string(_ value: String?) -> String { value.map(JSONText.quote) ?? "null" }
    var entries: [String] = []
    for change in diff.changes {
      let document = change.new == nil ? diff.old : diff.new
      let item = change.new ?? change.old!
      var fields = [
        "\"kind\": \(string(change.kind.rawValue))",
        "\"label\": \(string(document.title(of: item) ?? plainLabel(document, item)))",
        "\"entity\": \(string(document.elementName(of: item)))",
        "\"old\": \(position(change.old.flatMap { oldPositions[$0] }))",
        "\"new\": \(position(change.new.flatMap { newPositions[$0] }))",
      ]
      switch change.kind {
      case .added, .removed:
        let parent = change.kind == .added ? change.newParent : change.oldParent
        fields.append("\"parent\": \(string(parent.map { plainLabel(document, $0) }))")
        fields.append("\"place\": \(document.place(of: item))")
        fields.append("\"items\": \(change.items)")
      case .moved:
        fields.append("\"oldParent\": \(string(change.oldParent.map { plainLabel(diff.old, $0) }))")
        fields.append("\"newParent\": \(string(change.newParent.map { plainLabel(diff.new, $0) }))")
        fields.append("\"oldPlace\": \(diff.old.place(of: change.old!))")
        fields.append("\"newPlace\": \(diff.new.place(of: change.new!))")
      case .changed:
        fields.append("\"attribute\": \(string(change.attribute))")
        fields.append("\"oldValue\": \(string(change.oldValue))")
        fields.append("\"newValue\": \(string(change.newValue))")
        if let added = change.addedIDs, let removed = change.removedIDs {
          fields.append("\"addedIDs\": [\(added.map(JSONText.quote).joined(separator: ", "))]")
          fields.append("\"removedIDs\": [\(removed.map(JSONText.quote).joined(separator: ", "))]")
        }
      }
      entries.append("    {" + fields.joined(separator: ", ") + "}")
    }
    let changes = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n  ]"
    return "{\n  \"old\": \(string(old)),\n  \"new\": \(string(new)),\n  \"changes\": \(changes)\n}\n"
  }

  /// A label without quotes: the title, else the element name and place.
  static func plainLabel(_ document: DocumentItems, _ item: Int) -> String {
    if let title = document.title(of: item) { return title }
    if document.tree.items[item].parent < 0 { return document.elementName(of: item) }
    return "\(document.elementName(of: item)) #\(document.place(of: item))"
  }
}
