import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineModel
import OutlineWorkspace

/// `outline model rename MODEL Entity.property newName [PATH...] [--new-version]`.
struct ModelRenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rename",
    abstract: "Rename an attribute or relationship in a model and in every outline that uses it.",
    discussion: """
      The property is renamed in the model's current version with renamingIdentifier set to \
      the old name (so Core Data's lightweight migration and outline migrate follow it), its \
      inverse's inverseName and uniqueness constraints renamed too; with --new-version, in a new \
      version of the bundle made current instead. Every .outline file under PATH whose model is \
      this one and that is written for its current version is renamed to match (with \
      --new-version, migrated to the new version). Nothing is written unless every file can be.

      Exit status: 0 renamed, 1 the rename or a file was refused, 2 usage or I/O trouble.
      """)

  @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
  var model: String

  @Argument(help: ArgumentHelp("The property to rename.", valueName: "Entity.property"))
  var property: String

  @Argument(help: "Its new name.")
  var newName: String

  @Argument(help: "Files or folders (searched for *.outline) to rename it in.")
  var paths: [String] = []

  @Flag(help: "Make the change in a new version of the bundle, made current.")
  var newVersion = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func validate() throws {
    let parts = property.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      throw ValidationError("Name the property as Entity.property, not '\(property)'.")
    }
  }

  func run() throws {
    let parts = property.split(separator: ".").map(String.init)
    let limit = maxSize?.bytes ?? InputFile.defaultLimit
    let history: ModelHistory
    do {
      history = try ModelLocator.history(path: model, limit: limit)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
    let current = history.versions[history.current]
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
      Terminal.error("--new-version needs a .xcdatamodeld bundle, not '\(model)'")
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
    let configurations = ConfigurationFinder(limit: limit)
    let versions = DocumentVersions(
      configurations: configurations, models: ModelCache(limit: limit), modelOverride: nil)
    var pending: [(path: String, writer: AtomicFileWriter)] = []
    var failed = false
    var troubled = false
    let files =
      paths.isEmpty
      ? []
      : FileCollector.collect(paths, configurations: configurations, oncePerFile: true) { trouble in
        Terminal.error(trouble.message)
        troubled = true
      }
    for path in files {
      guard let root = try? DocumentVersions.rootAttributes(path: path),
        case .success(let documentHistory) = versions.history(for: path, modelAttribute: root["model"]),
        Self.sameModel(documentHistory, history)
      else { continue }
      if let recorded = root["modelVersion"], recorded != current.name { continue }
      do {
        let bytes = try FileInput.read(path, limit: configurations.inputLimit(for: path, maxSize: maxSize))
        let writer = try AtomicFileWriter(
          path: path, unchangedSince: FileSnapshot.take(path)?.holding(bytes), activity: "renamed")
        let outcome = Migration.run(plan: plan) { feed in
          bytes.withUnsafeBufferPointer { feed($0) }
        } write: {
          writer.write($0)
        }
        if let refusal = outcome.refusal(allowDataLoss: false) {
          Terminal.error("\(path): not renamed: \(refusal)")
          failed = true
        } else if outcome.changed {
          pending.append((path, writer))
        }
      } catch {
        Terminal.error("\(error)")
        troubled = true
      }
    }
    if troubled { throw ExitCode(2) }
    if failed { throw ExitCode(1) }
    do {
      try writeModel(renamedBytes, history: history, versionName: versionName)
      for (path, writer) in pending {
        try writer.commit()
        Terminal.write("\(TextFormat.displayedPath(path)): renamed \(property) to \(newName)\n", to: 2)
      }
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
  }

  /// Writes the renamed model: over the current version, or as a new version made current.
  private func writeModel(_ bytes: [UInt8], history: ModelHistory, versionName: String) throws {
    let current = history.versions[history.current]
    guard newVersion, let bundle = history.bundlePath else {
      try AtomicFile.write(bytes, to: current.model.path ?? model, activity: "renamed")
      Terminal.write("\(current.model.path ?? model): renamed \(property) to \(newName)\n", to: 2)
      return
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
    // All or nothing: `.xccurrentversion` is opened first (a read-only one is refused before
    // anything is made), and a version folder made is removed again if what follows fails (left
    // there, the newest version would count as the current one).
    let currentVersion = try AtomicFileWriter(path: bundle + "/.xccurrentversion")
    currentVersion.write(Array(plist.utf8))
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    do {
      try AtomicFile.write(bytes, to: folder + "/contents", existing: .keep)
      try currentVersion.commit()
    } catch {
      unlink(folder + "/contents")
      rmdir(folder)
      throw error
    }
    Terminal.write("\(folder): new current version with \(property) renamed to \(newName)\n", to: 2)
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
