import ArgumentParser
import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineWorkspace

/// `outline migrate FILE... [--to VERSION]`: moves documents to another version of their model.
struct MigrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Move .outline files to another version of their model (default: the current one).",
    discussion: """
      Each file goes from the version its root's modelVersion names (else the one it fits \
      best) to the target along the bundle's versions: renames follow renamingIdentifiers, new \
      required values take the model's default or --set, removed values are dropped only with \
      --allow-data-loss (each listed as path:line:col: dropped ...), a to-many that became \
      to-one keeps its one id, a new order attribute is numbered. The result must validate \
      against the target with no errors, or nothing is written. The file streams from disk; \
      writes are atomic; a second run changes nothing.

      Exit status: 0 done (with --check: nothing pending), 1 a file could not be migrated \
      (with --check: a migration is pending), 2 usage or I/O trouble.
      """)

  @Argument(help: "Files or folders (searched for *.outline).")
  var paths: [String]

  @Option(
    help: ArgumentHelp("The version to migrate to, by name (default: the current one).", valueName: "version")
  )
  var to: String?

  @Flag(help: "Change nothing; list what would change and exit 1 if a migration is pending.")
  var check = false

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "A value for objects lacking a new or newly required attribute with no default (repeatable).",
      valueName: "Entity.attribute=value"))
  var values: [String] = []

  @Flag(help: "Drop the values of removed attributes, relationships and entities (each is listed).")
  var allowDataLoss = false

  @Option(
    help: ArgumentHelp("Use this model (a .xcdatamodeld bundle), whatever the files say.", valueName: "path"))
  var model: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func validate() throws {
    for value in values {
      guard let equals = value.firstIndex(of: "="), value[..<equals].contains(".") else {
        throw ValidationError("--set takes Entity.attribute=value, not '\(value)'.")
      }
    }
    if paths.contains("-") {
      throw ValidationError("migrate rewrites files in place; it does not read standard input.")
    }
  }

  var settings: MigrationSettings {
    var given: [String: String] = [:]
    for value in values {
      let equals = value.firstIndex(of: "=")!
      given[String(value[..<equals])] = String(value[value.index(after: equals)...])
    }
    return MigrationSettings(values: given, allowDataLoss: allowDataLoss)
  }

  func run() throws {
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let versions = DocumentVersions(configurations: configurations, models: models, modelOverride: model)
    var troubled = false
    var refused = false
    var pending = false
    var written = 0
    let files = FileCollector.collect(paths, configurations: configurations, follow: false) { _, message in
      Terminal.error(message)
      troubled = true
    }
    for path in files {
      switch migrate(path, versions: versions, limit: configurations.inputLimit(for: path, maxSize: maxSize))
      {
      case .unchanged: break
      case .written: written += 1
      case .pending: pending = true
      case .refused: refused = true
      case .trouble: troubled = true
      }
    }
    if !check && written > 0 { Terminal.write("migrated \(counted(written, "file"))\n", to: 2) }
    if troubled { throw ExitCode(2) }
    if refused || (check && pending) { throw ExitCode(1) }
  }

  enum FileResult { case unchanged, written, pending, refused, trouble }

  private func migrate(_ path: String, versions: DocumentVersions, limit: Int) -> FileResult {
    let root: [String: String]
    do {
      guard let found = try DocumentVersions.rootAttributes(path: path) else {
        Terminal.error("\(path): not migrated: it has no root element")
        return .refused
      }
      root = found
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    let history: ModelHistory
    switch versions.history(for: path, modelAttribute: root["model"]) {
    case .success(let found): history = found
    case .failure(let error):
      Terminal.error("\(path): \(error.description)")
      return .trouble
    }
    var target = history.current
    if let to {
      guard let index = history.index(named: to) else {
        Terminal.error(
          "\(path): its model has no version '\(to)' (it has \(history.names.map { "'\($0)'" }.joined(separator: ", ")))"
        )
        return .trouble
      }
      target = index
    }
    var readFailure: ReadError?
    let (source, inferred) = Migration.sourceVersion(rootAttributes: root, history: history) {
      do {
        return try DocumentVersions.infer(path: path, history: history, limit: limit)
      } catch let error as ReadError {
        readFailure = error
      } catch {}
      return VersionInference.Result(version: history.current, errors: [])
    }
    if let readFailure {
      Terminal.error(readFailure.description)
      return .trouble
    }
    let sourceName = history.versions[source].name
    let targetName = history.versions[target].name
    guard source <= target else {
      Terminal.error(
        "\(path): not migrated: it is for '\(sourceName)', newer than '\(targetName)'; migrate does not go back"
      )
      return .refused
    }
    var plan = MigrationPlan(history: history, from: source, to: target, settings: settings)
    // A model of one version has nothing to migrate: its documents need not name it.
    plan.recordsVersion = history.versions.count > 1
    let step = "from '\(sourceName)'\(inferred ? " (inferred)" : "") to '\(targetName)'"

    // Taken before reading: a write after it shows in the file's stamp (or, for a file read
    // whole, in its bytes). Large files stream from disk and are never held.
    let small = fileSize(path) < 16 << 20
    if !small { waitUntilSettled(path) }
    let snapshot = FileSnapshot.take(path)
    var whole: [UInt8]?
    if small {
      do {
        whole = try FileInput.read(path, limit: limit)
      } catch {
        Terminal.error(error.description)
        return .trouble
      }
    }
    let writer: AtomicFileWriter?
    do {
      writer =
        check
        ? nil
        : try AtomicFileWriter(
          path: path, unchangedSince: whole.flatMap { snapshot?.holding($0) } ?? snapshot,
          activity: "migrated")
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    var failure: ReadError?
    let outcome = Migration.run(plan: plan) { feed in
      if let whole {
        whole.withUnsafeBufferPointer { all in
          var start = 0
          while start < all.count {
            let end = min(all.count, start + (1 << 20))
            feed(UnsafeBufferPointer(rebasing: all[start..<end]))
            start = end
          }
        }
        return
      }
      do {
        try FileChunks.read(path, limit: limit) { feed($0) }
      } catch let error as ReadError {
        failure = error
      } catch {}
    } write: { bytes in
      writer?.write(bytes)
    }
    if let failure {
      Terminal.error(failure.description)
      return .trouble
    }
    report(outcome.dropped, in: path, limit: limit)
    if let refusal = outcome.refusal(allowDataLoss: allowDataLoss) {
      Terminal.error("\(path): not migrated \(step): \(refusal)")
      return .refused
    }
    guard outcome.changed else { return .unchanged }
    if check {
      Terminal.write("\(path): migration pending \(step)\n")
      return .pending
    }
    do {
      try writer?.commit()
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    Terminal.write("\(path): migrated \(step)\n", to: 2)
    return .written
  }

  /// A streamed file is never held, so the writer can only compare its stamps, which
  /// hide a change made within their 2-second window: a file changed in the last
  /// 3 seconds is given the time to age past it before it is read.
  private func waitUntilSettled(_ path: String) {
    guard
      let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    else { return }
    let age = Date().timeIntervalSince(modified)
    if age < 3 { Thread.sleep(forTimeInterval: 3 - age) }
  }

  private func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : Int.max
  }

  /// `path:line:col: dropped ...` for each dropped value (columns count characters).
  private func report(_ dropped: [Dropped], in path: String, limit: Int) {
    guard !dropped.isEmpty else { return }
    var lines = LineIndex()
    try? FileChunks.read(path, limit: limit) { lines.append($0) }
    let file = FileLines(path: path, lines: lines)
    var text = ""
    for item in dropped {
      text += "\(path):\(file.linePosition(of: item.offset, unit: .scalar)): dropped \(item.what)\n"
    }
    Terminal.write(text)
  }
}
