import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineJSON
import OutlineModel
import OutlineWorkspace

/// `outline model diff OLD NEW | BUNDLE --from V [--to V] | MODEL`: what changed between
/// two versions of a model and whether Core Data's lightweight migration can infer it.
struct ModelDiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two versions of a model and say whether lightweight migration can infer the step.",
    discussion: """
      OLD NEW: two model files, .xcdatamodel folders or bundles (their current versions); two \
      versions of one bundle are compared along the versions between them, so renames follow \
      renamingIdentifier chains. BUNDLE --from V [--to V]: two versions of one bundle by name \
      (--to defaults to the current one). MODEL alone: the model against git's HEAD version of \
      it (for a bundle, HEAD's current version against the current one). Every change says \
      whether Core Data can infer it and what happens to stored data.

      Exit status: 0 the step can be migrated automatically, 1 it cannot (or with --frozen, a \
      released version differs from HEAD), 2 usage or I/O trouble.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, github
  }

  @Argument(help: "One or two models: files, .xcdatamodel folders or .xcdatamodeld bundles.")
  var models: [String]

  @Option(help: ArgumentHelp("The older version of the bundle, by name.", valueName: "version"))
  var from: String?

  @Option(
    help: ArgumentHelp(
      "The newer version of the bundle, by name (default: the current one).", valueName: "version"))
  var to: String?

  @Option(help: "Output format: text, json or github.")
  var format: Format = .text

  @Flag(help: "Fail when any version but the current one differs from its git HEAD version.")
  var frozen = false

  func validate() throws {
    if models.isEmpty || models.count > 2 { throw ValidationError("Give one or two models.") }
    if (from != nil || to != nil) && models.count != 1 {
      throw ValidationError("--from and --to name versions of the one bundle given.")
    }
    if to != nil && from == nil { throw ValidationError("--to needs --from.") }
  }

  /// The two ends of the comparison and the chain between them.
  struct Step {
    var oldName: String
    var newName: String
    var chain: [Model]
    /// The file the changes belong to (the newer model's `contents`).
    var file: String
  }

  func run() throws {
    var frozenProblems: [String] = []
    let step: Step
    do {
      step = try self.step()
      if frozen { frozenProblems = try frozenDifferences() }
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
    let changes = ModelDiff.changes(along: step.chain)
    let migratable = ModelDiff.isMigratable(changes)
    Terminal.write(render(step, changes, migratable: migratable, frozen: frozenProblems))
    if !migratable || !frozenProblems.isEmpty { throw ExitCode(1) }
  }

  private func step() throws -> Step {
    if let from {
      let history = try ModelLocator.history(path: models[0])
      guard let old = history.index(named: from) else { throw unknown(from, history) }
      let new =
        try to.map { name in
          guard let index = history.index(named: name) else { throw unknown(name, history) }
          return index
        } ?? history.current
      return try chain(history, from: old, to: new)
    }
    if models.count == 2 {
      let old = try ModelLocator.history(path: models[0])
      let new = try ModelLocator.history(path: models[1])
      if let oldBundle = old.bundlePath, let newBundle = new.bundlePath,
        AtomicFile.sameFile(oldBundle, newBundle)
      {
        return try chain(new, from: old.current, to: new.current)
      }
      let oldModel = old.versions[old.current].model
      let newModel = new.versions[new.current].model
      return Step(
        oldName: models[0], newName: models[1], chain: [oldModel, newModel], file: newModel.path ?? models[1])
    }
    return try againstHead()
  }

  private func chain(_ history: ModelHistory, from old: Int, to new: Int) throws -> Step {
    guard old <= new else {
      throw GitHead.Failure(
        description:
          "\(Excerpt.quoted(history.versions[old].name)) is newer than \(Excerpt.quoted(history.versions[new].name)); give the older version first"
      )
    }
    let newModel = history.versions[new].model
    return Step(
      oldName: history.versions[old].name, newName: history.versions[new].name,
      chain: history.versions[old...new].map(\.model), file: newModel.path ?? models[0])
  }

  private func unknown(_ name: String, _ history: ModelHistory) -> GitHead.Failure {
    GitHead.Failure(
      description:
        "\(Excerpt.quotedPath(models[0])) has no version \(Excerpt.quoted(name)) (it has \(history.names.map { Excerpt.quoted($0) }.joined(separator: ", ")))"
    )
  }

  /// The model (the current version of a bundle) against git's `HEAD`.
  private func againstHead() throws -> Step {
    let history = try ModelLocator.history(path: models[0])
    let current = history.versions[history.current]
    guard let bundle = history.bundlePath else {
      let contents = try ModelLocator.contentsPath(for: models[0])
      guard let bytes = try GitHead.contents(of: contents) else {
        throw GitHead.Failure(description: "\(Excerpt.quotedPath(contents)) is not in git's HEAD")
      }
      let old = ModelLoader.load(SourceText(bytes: bytes), path: "HEAD:\(contents)")
      return Step(oldName: "HEAD", newName: "working tree", chain: [old, current.model], file: contents)
    }
    // HEAD's current version, by HEAD's .xccurrentversion (else the same name).
    var headName = current.name
    if let plist = try GitHead.contents(of: bundle + "/.xccurrentversion"),
      let named = ModelLocator.currentVersionName(plist: plist)
    {
      headName = String(named.dropLast(named.hasSuffix(".xcdatamodel") ? ".xcdatamodel".count : 0))
    }
    let path = "\(bundle)/\(headName).xcdatamodel/contents"
    guard let bytes = try GitHead.contents(of: path) else {
      throw GitHead.Failure(description: "\(Excerpt.quotedPath(path)) is not in git's HEAD")
    }
    let old = ModelLoader.load(SourceText(bytes: bytes), path: "HEAD:\(path)")
    var chain = [old]
    if let index = history.index(named: headName), index < history.current {
      chain += history.versions[(index + 1)...history.current].map(\.model)
    } else {
      chain.append(current.model)
    }
    return Step(
      oldName: "\(headName) (HEAD)", newName: current.name, chain: chain, file: current.model.path ?? path)
  }

  /// The released (non-current) versions whose `contents` differ from git's `HEAD`.
  private func frozenDifferences() throws -> [String] {
    var problems: [String] = []
    for path in Set(models) {
      let history = try ModelLocator.history(path: path)
      guard let bundle = history.bundlePath else { continue }
      for (index, version) in history.versions.enumerated() where index != history.current {
        let contents = "\(bundle)/\(version.name).xcdatamodel/contents"
        guard let head = try GitHead.contents(of: contents) else { continue }
        if head != version.model.source.bytes {
          problems.append(
            "released version \(Excerpt.quoted(version.name)) of \(Excerpt.quotedPath(bundle)) differs from HEAD; add a new version instead"
          )
        }
      }
    }
    return problems.sorted()
  }

  /// Each entity's version hash, by name.
  static func hashes(_ model: Model) -> JSONValue {
    let hashes = ModelVersion(name: "", model: model).entityHashes
    return .object(hashes.keys.sorted().map { ($0, .string(hashes[$0]!)) })
  }

  private func render(_ step: Step, _ changes: [ModelChange], migratable: Bool, frozen: [String]) -> String {
    switch format {
    case .text:
      var text = "\(step.oldName) -> \(step.newName)\n"
      for change in changes {
        let verdict = change.inferable ? "inferred" : "NOT inferable"
        text += "  \(change.kind.rawValue): \(change.detail) [\(verdict); data \(change.data.rawValue)]\n"
      }
      for problem in frozen { text += "frozen: \(problem)\n" }
      let blocked = changes.filter { !$0.inferable }.count
      text +=
        changes.isEmpty
        ? "no changes\n"
        : migratable
          ? "\(counted(changes.count, "change")); lightweight migration can infer \(changes.count == 1 ? "it" : "them")\n"
          : "\(counted(changes.count, "change")), \(blocked) not inferable: lightweight migration cannot migrate this step\n"
      return text
    case .json:
      let value: JSONValue = [
        "from": .string(step.oldName), "to": .string(step.newName), "migratable": .bool(migratable),
        "changes": .array(
          changes.map { change in
            [
              "kind": .string(change.kind.rawValue), "entity": .string(change.entity),
              "property": change.property.map { .string($0) } ?? .null, "detail": .string(change.detail),
              "inferable": .bool(change.inferable), "data": .string(change.data.rawValue),
            ]
          }),
        "frozen": .array(frozen.map { .string($0) }),
        "versionHashes": [
          "old": Self.hashes(step.chain[0]), "new": Self.hashes(step.chain[step.chain.count - 1]),
        ],
      ]
      return value.serialized(indent: 2) + "\n"
    case .github:
      var text = ""
      let file = GitHubFormat.property(step.file)
      for change in changes {
        let level = change.inferable ? "notice" : "error"
        text +=
          "::\(level) file=\(file),title=\(GitHubFormat.property("model diff \(change.kind.rawValue)"))::\(GitHubFormat.data("\(change.detail) (\(change.inferable ? "inferred" : "not inferable by lightweight migration"); data \(change.data.rawValue))"))\n"
      }
      for problem in frozen {
        text += "::error file=\(file),title=frozen model version::\(GitHubFormat.data(problem))\n"
      }
      return text
    }
  }
}
