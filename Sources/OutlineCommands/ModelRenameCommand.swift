import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineModel
import OutlineWorkspace

/// `outline model rename [MODEL] Entity.property newName [PATH...] [--new-version]`.
struct ModelRenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rename",
    abstract: "Rename an attribute or relationship in a model and in every outline that uses it.",
    usage: "outline model rename [MODEL] Entity.property newName [PATH...] [--new-version]",
    discussion: """
      The property is renamed in the model's current version with renamingIdentifier set to \
      the old name (so Core Data's lightweight migration and outline migrate follow it), its \
      inverse's inverseName and uniqueness constraints renamed too; with --new-version, in a new \
      version of the bundle made current instead. Every .outline file under PATH whose model is \
      this one and that is written for its current version is renamed to match (with \
      --new-version, migrated to the new version). Nothing is written unless every file can be.

      MODEL may be left out: the model is then the one that has Entity.property among the \
      models the working folder's .outline.json names and those the outlines under PATH are \
      read with (their model attribute, else their .outline.json).

      Exit status: 0 renamed, 1 the rename or a file was refused, 2 usage or I/O trouble.
      """)

  @Argument(
    help: ArgumentHelp(
      "[MODEL] Entity.property newName [PATH...]: the model (a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file; left out, the configured one), the property, its new name, and the files or folders (searched for *.outline) to rename it in.",
      valueName: "arguments"))
  var words: [String] = []

  @Flag(help: "Make the change in a new version of the bundle, made current.")
  var newVersion = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  /// The command line's words read as `[MODEL] Entity.property newName [PATH...]`.
  struct Words: Equatable {
    var model: String?
    var property: String
    var newName: String
    var paths: [String]
  }

  /// Whether `word` is written `Entity.property`.
  static func isProperty(_ word: String) -> Bool {
    let parts = word.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
  }

  /// Whether `word` names a model rather than a property: a file or folder that is there, a
  /// path with a `/`, or a name Xcode gives models (`.xcdatamodel`, `.xcdatamodeld`, `contents`).
  static func looksLikeModel(_ word: String) -> Bool {
    if word.contains("/") || FileManager.default.fileExists(atPath: word) { return true }
    return word.hasSuffix(".xcdatamodel") || word.hasSuffix(".xcdatamodeld") || word == "contents"
  }

  /// Reads the words: the first is the model when it looks like one and the second is `Entity.property`.
  static func read(_ words: [String]) throws -> Words {
    var rest = words[...]
    var model: String?
    if words.count >= 3, looksLikeModel(words[0]), isProperty(words[1]) {
      model = rest.removeFirst()
    }
    guard let property = rest.popFirst(), let newName = rest.popFirst() else {
      throw ValidationError(
        "Give the property as Entity.property and its new name (the model first, when it is not configured).")
    }
    guard isProperty(property) else {
      throw ValidationError("Name the property as Entity.property, not \(Excerpt.quoted(property)).")
    }
    return Words(model: model, property: property, newName: newName, paths: Array(rest))
  }

  func validate() throws {
    _ = try Self.read(words)
  }

  func run() throws {
    let words = try Self.read(words)
    let property = words.property
    let newName = words.newName
    let paths = words.paths
    let parts = property.split(separator: ".").map(String.init)
    let limit = maxSize?.bytes ?? InputFile.defaultLimit
    let configurations = ConfigurationFinder(limit: limit)
    let versions = DocumentVersions(
      configurations: configurations, models: ModelCache(limit: limit), modelOverride: nil)
    var troubled = false
    let files =
      paths.isEmpty
      ? []
      : FileCollector.collect(paths, configurations: configurations, oncePerFile: true) { trouble in
        Terminal.error(trouble.message)
        troubled = true
      }
    let model: String
    let history: ModelHistory
    if let named = words.model {
      model = named
      do {
        history = try ModelLocator.history(path: model, limit: limit)
      } catch {
        Terminal.error("\(error)")
        throw ExitCode(2)
      }
    } else {
      (model, history) = try Self.configuredModel(
        entity: parts[0], property: parts[1], files: files, configurations: configurations,
        versions: versions,
        limit: limit)
    }
    let current = history.versions[history.current]
    // The model as read: its commit refuses a model changed meanwhile, as a document's does.
    let modelSnapshot = current.model.path.flatMap {
      FileSnapshot.take($0)?.holding(current.model.source.bytes)
    }
    let edits: [TextEdit]
    do {
      edits = try ModelRename.edits(in: current.model, entity: parts[0], property: parts[1], to: newName)
    } catch {
      Terminal.error("cannot rename \(property): \(error.description)")
      throw ExitCode(1)
    }
    guard let renamedBytes = TextEdit.apply(edits, to: current.model.source.bytes) else {
      Terminal.error("cannot rename \(property): the edits overlap")
      throw ExitCode(1)
    }
    if newVersion && history.bundlePath == nil {
      Terminal.error("--new-version needs a .xcdatamodeld bundle, not \(Excerpt.quotedPath(model))")
      throw ExitCode(2)
    }
    let versionName = newVersion ? Self.nextVersionName(history) : current.name
    let renamed = ModelLoader.load(SourceText(bytes: renamedBytes), path: current.model.path)
    let step = ModelHistory(
      versions: [current, ModelVersion(name: versionName, model: renamed)], current: 1,
      bundlePath: history.bundlePath)
    var plan = MigrationPlan(history: step, from: 0, to: 1, settings: MigrationSettings())
    plan.recordsVersion = newVersion

    // Every document first, into temporary files; nothing is committed unless all succeeded.
    var pending: [(path: String, writer: AtomicFileWriter)] = []
    var failed = false
    for path in files {
      guard let root = try? DocumentVersions.rootAttributes(path: path),
        case .success(let documentHistory) = versions.history(for: path, modelAttribute: root["model"]),
        Self.sameModel(documentHistory, history)
      else { continue }
      if let recorded = root["modelVersion"], recorded != current.name { continue }
      do {
        let snapshot = FileSnapshot.take(path)
        let bytes = try FileInput.read(path, limit: configurations.inputLimit(for: path, maxSize: maxSize))
        let writer = try AtomicFileWriter(
          path: path, unchangedSince: snapshot?.holding(bytes), activity: "renamed")
        let outcome = Migration.run(plan: plan) { feed in
          bytes.withByteView { feed($0) }
        } write: {
          writer.write($0)
        }
        if let refusal = outcome.refusal(allowDataLoss: false) {
          Terminal.error("\(path): not renamed: \(refusal)")
          failed = true
        } else if outcome.changed {
          // Closed until the group's commit: one open file a document would reach the
          // process's limit in a project of a few thousand.
          writer.park()
          pending.append((path, writer))
        }
      } catch {
        Terminal.error("\(error)")
        troubled = true
      }
    }
    let documents = pending.map(\.writer)
    if troubled || failed {
      for writer in documents { writer.discard() }
      throw ExitCode(troubled ? 2 : 1)
    }
    // All or nothing: the model and every document are checked before anything changes, then
    // replaced together; a failure puts back what was already replaced.
    let modelFiles: ModelWriters
    do {
      modelFiles = try modelWriters(
        renamedBytes, model: model, history: history, versionName: versionName, snapshot: modelSnapshot,
        property: property, newName: newName)
    } catch {
      for writer in documents { writer.discard() }
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
    do {
      try AtomicFileGroup.commit(modelFiles.writers + documents)
    } catch {
      if let folder = modelFiles.madeFolder { rmdir(folder) }
      Terminal.error(error.description)
      if error.notRestored.isEmpty {
        Terminal.error("nothing was changed: not the model, not a document")
      } else {
        for line in error.notRestored { Terminal.error(line) }
      }
      throw ExitCode(2)
    }
    Terminal.write(modelFiles.done, to: 2)
    for (path, _) in pending {
      Terminal.write("\(TextFormat.displayedPath(path)): renamed \(property) to \(newName)\n", to: 2)
    }
  }

  /// The model to rename in when none is named: among the models the working folder's
  /// `.outline.json` names and those the outlines in `files` are read with (the shipped default
  /// model aside: it is built in), the one whose `entity` has `property`. None, or several, is a
  /// usage error (exit 2) that says which models were looked at.
  static func configuredModel(
    entity: String, property: String, files: [String], configurations: ConfigurationFinder,
    versions: DocumentVersions, limit: Int
  ) throws -> (path: String, history: ModelHistory) {
    var candidates: [(path: String, history: ModelHistory)] = []
    func consider(_ path: String, _ history: ModelHistory) {
      if history.versions[history.current].model.isShippedDefault { return }
      if candidates.contains(where: { sameModel($0.history, history) }) { return }
      candidates.append((path, history))
    }
    if let configuration = configurations.configuration(for: "./-") {
      let named = [configuration.model].compactMap { $0 } + configuration.models.map(\.model)
      for path in named {
        let full = path.hasPrefix("/") ? path : configuration.folder + "/" + path
        guard let history = try? ModelLocator.history(path: full, limit: limit) else { continue }
        consider(TextFormat.displayedPath(full), history)
      }
    }
    for file in files {
      guard let root = try? DocumentVersions.rootAttributes(path: file),
        case .success(let history) = versions.history(for: file, modelAttribute: root["model"])
      else { continue }
      consider(history.bundlePath ?? history.versions[history.current].model.path ?? file, history)
    }
    let having = candidates.filter { candidate in
      let model = candidate.history.versions[candidate.history.current].model
      guard let index = model.entity(named: entity) else { return false }
      return model.entities[index].attributeIndex[property] != nil
        || model.entities[index].relationshipIndex[property] != nil
    }
    let looked = candidates.map { Excerpt.quotedPath($0.path) }.joined(separator: ", ")
    let wanted = Excerpt.quoted(entity + "." + property)
    if having.count == 1 { return having[0] }
    if candidates.isEmpty {
      Terminal.error(
        "no model given, and none is configured: the working folder's .outline.json names none\(files.isEmpty ? "" : " and no outline under the paths given names one"); give the model first: outline model rename MODEL \(entity).\(property) ..."
      )
    } else if having.isEmpty {
      Terminal.error(
        "no model given, and no configured model has \(wanted) (looked in \(looked)); give the model first: outline model rename MODEL \(entity).\(property) ..."
      )
    } else {
      Terminal.error(
        "no model given, and \(wanted) is in several configured models (\(having.map { Excerpt.quotedPath($0.path) }.joined(separator: ", "))); give the one to rename first: outline model rename MODEL \(entity).\(property) ..."
      )
    }
    throw ExitCode(2)
  }

  /// The renamed model's writers, not committed; the version folder made for them; what to say
  /// once they are.
  private struct ModelWriters {
    var writers: [AtomicFileWriter]
    var madeFolder: String?
    var done: String
  }

  /// Opens the writers of the renamed model: over the current version, or as a new version made
  /// current (its folder made here, and removed again when a writer cannot be opened).
  private func modelWriters(
    _ bytes: [UInt8], model: String, history: ModelHistory, versionName: String, snapshot: FileSnapshot?,
    property: String, newName: String
  ) throws -> ModelWriters {
    let current = history.versions[history.current]
    guard newVersion, let bundle = history.bundlePath else {
      let path = current.model.path ?? model
      let writer = try AtomicFileWriter(path: path, unchangedSince: snapshot, activity: "renamed")
      writer.write(bytes)
      return ModelWriters(writers: [writer], done: "\(path): renamed \(property) to \(newName)\n")
    }
    let folder = "\(bundle)/\(versionName).xcdatamodel"
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>_XCCurrentVersionName</key>
      \t<string>\(versionName).xcdatamodel</string>
      </dict>
      </plist>

      """
    // `.xccurrentversion` is opened first (a read-only one is refused before anything is made)
    // and replaced after the new version's contents are in; the version folder is removed again
    // if the group fails (left there, the newest version would count as the current one).
    let currentVersion = try AtomicFileWriter(path: bundle + "/.xccurrentversion")
    currentVersion.write(Array(plist.utf8))
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    } catch {
      currentVersion.discard()
      throw error
    }
    do {
      let contents = try AtomicFileWriter(path: folder + "/contents", existing: .keep)
      contents.write(bytes)
      return ModelWriters(
        writers: [contents, currentVersion], madeFolder: folder,
        done: "\(folder): new current version with \(property) renamed to \(newName)\n")
    } catch {
      currentVersion.discard()
      rmdir(folder)
      throw error
    }
  }

  /// `Tasks 5` after `Tasks` ... `Tasks 4`: the bundle's name (as Xcode names a new version;
  /// the first version's name for a lone model) and the next free number.
  static func nextVersionName(_ history: ModelHistory) -> String {
    let base =
      history.bundlePath.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
      ?? history.versions[0].name
    var number = history.versions.count + 1
    while history.index(named: "\(base) \(number)") != nil { number += 1 }
    return "\(base) \(number)"
  }

  /// Whether two histories are of the same model (the same bundle, or the same file).
  static func sameModel(_ one: ModelHistory, _ other: ModelHistory) -> Bool {
    if let first = one.bundlePath, let second = other.bundlePath { return AtomicFile.sameFile(first, second) }
    guard let first = one.versions[one.current].model.path,
      let second = other.versions[other.current].model.path
    else { return false }
    return AtomicFile.sameFile(first, second)
  }
}
