import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Every writer run through the binary on generated models and documents, valid and broken,
/// either writes what lints with no errors or refuses and writes nothing (README, "safe writes";
/// CLI.md for each command). `fmt` formats documents with errors too: its output has the errors
/// its input had and no other (FmtProperties checks the codes item by item).
@Suite struct WriterProperties {
  /// The number of errors `outline-lint` reports for `path` in `folder`, nil when it could not check it.
  static func errors(_ path: String, in folder: URL) throws -> Int? {
    let lint = try Binary.run("outline-lint", ["--format", "json", path], in: folder)
    guard lint.status != 2, let report = try? JSONValue.parse(Array(lint.stdout.utf8)) else { return nil }
    return report["summary"]?["errors"]?.intValue
  }

  /// A folder with a generated model `M.xcdatamodel` and a document `a.outline` for it.
  static func folder(_ random: inout SeededGenerator) throws -> (URL, GeneratedModel, GeneratedDocument) {
    let generated = ModelGenerator.generate(using: &random)
    let options = DocumentGenerator.Options.random(modelPath: "M.xcdatamodel", using: &random)
    let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
    let folder = try Binary.folder(["M.xcdatamodel/contents": generated.text, "a.outline": document.text])
    return (folder, generated, document)
  }

  @Test func convertWritesWhatLintsCleanOrNothing() throws {
    try Property.check("convert writes what lints clean, or nothing", cases: 12) { random, _ in
      let (folder, _, document) = try Self.folder(&random)
      defer { Scratch.remove(folder.path) }
      guard let before = try Self.errors("a.outline", in: folder) else {
        return "lint could not check\n\(document)"
      }
      let toJSON = try Binary.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
      let written = Binary.read("a.json", in: folder)
      switch toJSON.status {
      case 0:
        guard written != nil else { return "convert exited 0 and wrote nothing" }
        if before > 0 {
          return "convert wrote the JSON form of a document with \(before) errors\n\(document)"
        }
        guard try Self.errors("a.json", in: folder) == 0 else {
          return "the JSON convert wrote has errors\n\(written!)"
        }
        let toXML = try Binary.run("outline", ["convert", "a.json", "-o", "b.outline"], in: folder)
        guard toXML.status == 0, try Self.errors("b.outline", in: folder) == 0 else {
          return
            "JSON -> XML: \(toXML.status) \(toXML.stderr)\n\(Binary.read("b.outline", in: folder) ?? "nothing written")"
        }
      case 1:
        if written != nil { return "convert refused and still wrote a.json\n\(toJSON.stderr)" }
        if before == 0 { return "convert refused a document without errors: \(toJSON.stderr)\n\(document)" }
      default:
        return "convert: exit \(toJSON.status) \(toJSON.stderr)"
      }
      return nil
    }
  }

  @Test func fmtWritesWhatLintsAsItsInputOrNothing() throws {
    try Property.check("fmt writes what lints as its input did, or nothing", cases: 12) { random, _ in
      let (folder, _, document) = try Self.folder(&random)
      defer { Scratch.remove(folder.path) }
      guard let before = try Self.errors("a.outline", in: folder) else {
        return "lint could not check\n\(document)"
      }
      let fmt = try Binary.run("outline", ["fmt", "a.outline"], in: folder)
      let after = Binary.read("a.outline", in: folder)
      switch fmt.status {
      case 0:
        guard try Self.errors("a.outline", in: folder) == before else {
          return "fmt changed the number of errors from \(before)\n\(document)\n---\n\(after ?? "")"
        }
      case 1:
        if after != document.text { return "fmt refused and still changed the file: \(fmt.stderr)" }
        if document.parses && !document.hasText { return "fmt refused a document that parses: \(fmt.stderr)" }
      default:
        return "fmt: exit \(fmt.status) \(fmt.stderr)"
      }
      return nil
    }
  }

  @Test func newWritesWhatLintsCleanOrNothing() throws {
    try Property.check("new writes what lints clean, or nothing", cases: 10) { random, _ in
      let (folder, generated, _) = try Self.folder(&random)
      defer { Scratch.remove(folder.path) }
      let new = try Binary.run("outline", ["new", "--model", "M.xcdatamodel", "-o", "n.outline"], in: folder)
      let written = Binary.read("n.outline", in: folder)
      if new.status == 0 {
        guard let written else { return "new exited 0 and wrote nothing" }
        let errors = try Self.errors("n.outline", in: folder)
        return errors == 0
          ? nil
          : "new wrote a document with errors (\(errors.map(String.init) ?? "unchecked"))\n\(generated)\n\(written)"
      }
      return written == nil ? nil : "new exited \(new.status) and wrote n.outline: \(new.stderr)"
    }
  }

  @Test func modelRenameWritesWhatLintsCleanOrNothing() throws {
    try Property.check("model rename writes what lints clean, or nothing", cases: 10) { random, _ in
      let (folder, generated, document) = try Self.folder(&random)
      defer { Scratch.remove(folder.path) }
      guard let before = try Self.errors("a.outline", in: folder) else {
        return "lint could not check\n\(document)"
      }
      let entity = generated.entities.filter { !$0.attributes.isEmpty || !$0.relationships.isEmpty }
        .randomElement(using: &random)!
      let properties = entity.attributes.map(\.name) + entity.relationships.map(\.name)
      let property = properties.randomElement(using: &random)!
      let newName = ["renamed", "umbenannt_ä", "x9"].randomElement(using: &random)!
      let snapshot = Binary.snapshot(folder)
      let rename = try Binary.run(
        "outline", ["model", "rename", "M.xcdatamodel", "\(entity.name).\(property)", newName, "."],
        in: folder)
      let what = "model rename \(entity.name).\(property) \(newName)"
      switch rename.status {
      case 0:
        let check = try Binary.run("outline", ["model", "check", "M.xcdatamodel"], in: folder)
        if check.status != 0 { return "\(what) left a model with errors: \(check.stdout)" }
        let after = try Self.errors("a.outline", in: folder)
        if before == 0 && after != 0 {
          return
            "\(what) wrote a document with errors\n\(generated)\n\(document)\n---\n\(Binary.read("a.outline", in: folder) ?? "")"
        }
        if before > 0 && Binary.read("a.outline", in: folder) != document.text {
          return "\(what) rewrote a document with errors\n\(document)"
        }
      default:
        if Binary.snapshot(folder) != snapshot {
          return "\(what) exited \(rename.status) and changed files: \(rename.stderr)"
        }
      }
      return nil
    }
  }

  @Test func migrateWritesWhatLintsCleanOrNothing() throws {
    try Property.check("migrate writes what lints clean, or nothing", cases: 12) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let (next, change, arguments) = Self.nextVersion(of: generated, using: &random)
      let options = DocumentGenerator.Options.random(modelPath: "M.xcdatamodeld", using: &random)
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let folder = try Binary.folder([
        "M.xcdatamodeld/M.xcdatamodel/contents": generated.text,
        "M.xcdatamodeld/M 2.xcdatamodel/contents": next.text,
        "M.xcdatamodeld/.xccurrentversion": Self.currentVersion("M 2"),
        "a.outline": document.text,
      ])
      defer { Scratch.remove(folder.path) }
      let snapshot = Binary.snapshot(folder)
      let migrate = try Binary.run("outline", ["migrate", "a.outline"] + arguments, in: folder)
      let what = "migrate \(arguments.joined(separator: " ")) after \(change)"
      switch migrate.status {
      case 0:
        let errors = try Self.errors("a.outline", in: folder)
        if errors != 0 {
          return
            "\(what) wrote a document with errors (\(errors.map(String.init) ?? "unchecked")): \(migrate.stderr)\n\(generated)\n\(document)\n---\n\(Binary.read("a.outline", in: folder) ?? "")"
        }
      case 1:
        if Binary.snapshot(folder) != snapshot {
          return "\(what) refused and changed files: \(migrate.stderr)"
        }
      default:
        return "\(what): exit \(migrate.status) \(migrate.stdout)\(migrate.stderr)"
      }
      return nil
    }
  }

  /// `.xccurrentversion` naming `name`.
  static func currentVersion(_ name: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>_XCCurrentVersionName</key>
    \t<string>\(name).xcdatamodel</string>
    </dict>
    </plist>

    """
  }

  /// A next version of `model` with one change Core Data's inferred mapping handles, what it
  /// is, and the arguments `migrate` may need for it (`--set`, `--allow-data-loss`), sometimes left out.
  static func nextVersion(of model: GeneratedModel, using random: inout SeededGenerator)
    -> (GeneratedModel, String, [String])
  {
    var next = model
    let index = Int.random(in: 0..<next.entities.count, using: &random)
    let entity = next.entities[index]
    let special = Set(
      [model.orderAttribute, "title"] + entity.uniqueness.flatMap { $0 } + entity.userInfo.map(\.value))
    let plain = entity.attributes.indices.filter { !special.contains(entity.attributes[$0].name) }
    let name = "added_\(Int.random(in: 1...99, using: &random))"
    var arguments: [String] = []
    let change: String
    switch Int.random(in: 0..<5, using: &random) {
    case 0:
      next.entities[index].attributes.append(.init(name: name, type: "String", isOptional: true))
      change = "an optional \(entity.name).\(name) added"
    case 1:
      var attribute = GeneratedModel.Attribute(name: name, type: "Integer 32", isOptional: false)
      attribute.defaultValue = "7"
      next.entities[index].attributes.append(attribute)
      change = "a required \(entity.name).\(name) with a default added"
    case 2:
      next.entities[index].attributes.append(.init(name: name, type: "Boolean", isOptional: false))
      if Bool.random(using: &random) { arguments += ["--set", "\(entity.name).\(name)=true"] }
      change = "a required \(entity.name).\(name) without a default added"
    case 3 where !plain.isEmpty:
      let attribute = plain.randomElement(using: &random)!
      let old = entity.attributes[attribute].name
      next.entities[index].attributes[attribute].name = name
      next.entities[index].attributes[attribute].renamingIdentifier = old
      change = "\(entity.name).\(old) renamed \(name)"
    case 4 where !plain.isEmpty:
      let attribute = plain.randomElement(using: &random)!
      let old = entity.attributes[attribute].name
      next.entities[index].attributes.remove(at: attribute)
      if Bool.random(using: &random) { arguments.append("--allow-data-loss") }
      change = "\(entity.name).\(old) removed"
    default:
      change = "nothing changed"
    }
    next.text = ModelGenerator.contents(next)
    return (next, change, arguments)
  }
}
