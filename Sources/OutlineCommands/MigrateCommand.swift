import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineJSON
import OutlineMigration
import OutlineModel
import OutlineWorkspace

/// `outline migrate FILE... [--to VERSION]`: moves documents to another version of their model.
struct MigrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract:
      "Move .outline files (and .json files in the JSON form) to another version of their model (default: the current one).",
    discussion: """
      Each file goes from the version its root's modelVersion names (else the one it fits \
      best) to the target along the bundle's versions: renames follow renamingIdentifiers, new \
      required values take the model's default or --set, removed values are dropped only with \
      --allow-data-loss (each listed as path:line:col: dropped ...), a to-many that became \
      to-one keeps its one id, a new order attribute is numbered, and the siblings left by \
      dropped objects or merged into one group are renumbered 0..n-1 in their order (listed \
      as path:line:col: renumbered ...). The result must validate \
      against the target with no errors, or nothing is written. The file streams from disk; \
      writes are atomic; a second run changes nothing.

      Exit status: 0 done (with --check: nothing pending), 1 a file could not be migrated \
      (with --check: a migration is pending), 2 usage or I/O trouble.
      """)

  @Argument(help: "Files or folders (searched for *.outline); a .json file is in the JSON form.")
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

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Option(help: "Output format of the report on standard output: text or json.")
  var format: Format = .text

  func validate() throws {
    for value in values {
      guard let equals = value.firstIndex(of: "="), value[..<equals].contains(".") else {
        throw ValidationError("--set takes Entity.attribute=value, not \(Excerpt.quoted(value)).")
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
    var reports: [JSONValue] = []
    let files = FileCollector.collect(
      paths, configurations: configurations, follow: false, oncePerFile: !check
    ) { trouble in
      Terminal.error(trouble.message)
      troubled = true
    }
    for path in files {
      let limit = configurations.inputLimit(for: path, maxSize: maxSize)
      var report = MigrationReport(path: path)
      let result = migrate(path, versions: versions, limit: limit, report: &report)
      if format == .json { reports.append(report.json(result: result)) } else { Terminal.write(report.text) }
      switch result {
      case .unchanged: break
      case .written: written += 1
      case .pending: pending = true
      case .refused: refused = true
      case .trouble: troubled = true
      }
    }
    if format == .json {
      Terminal.write(JSONValue.object([("files", .array(reports))]).serialized(indent: 2) + "\n")
    }
    if !check && written > 0 { Terminal.write("migrated \(counted(written, "file"))\n", to: 2) }
    if troubled { throw ExitCode(2) }
    if refused || (check && pending) { throw ExitCode(1) }
  }

  enum FileResult: String { case unchanged, written, pending, refused, trouble }

  private func migrate(_ path: String, versions: DocumentVersions, limit: Int, report: inout MigrationReport)
    -> FileResult
  {
    let root: [String: String]
    // A document in the JSON form is read mapped, after a snapshot that shows a later write.
    var json: (bytes: ByteBuffer, snapshot: FileSnapshot?)?
    do {
      if DocumentCheck.isJSONForm(path) {
        let snapshot = FileSnapshot.take(path)
        let bytes = try MappedFile.map(path, limit: limit)
        // The bytes as read, to tell a same-stamp change: held when small, else digested.
        if bytes.view.count < 16 << 20 {
          json = (bytes, snapshot?.holding(bytes.view.array))
        } else {
          let digest = StreamDigest()
          digest.add(bytes.view)
          json = (bytes, snapshot?.digesting(digest))
        }
        guard let found = JSONFormVersions.root(bytes) else {
          Terminal.error("\(path): not migrated: it is not a JSON object")
          return .refused
        }
        root = found.attributes
      } else {
        guard let found = try DocumentVersions.rootAttributes(path: path) else {
          Terminal.error("\(path): not migrated: it has no root element")
          return .refused
        }
        root = found
      }
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
          "\(path): its model has no version \(Excerpt.quoted(to)) (it has \(history.names.map { Excerpt.quoted($0) }.joined(separator: ", ")))"
        )
        return .trouble
      }
      target = index
    }
    var readFailure: ReadError?
    let (source, inferred) = Migration.sourceVersion(rootAttributes: root, history: history, target: target) {
      if let json { return JSONFormVersions.infer(json.bytes, history: history) }
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
    if let named = root["modelVersion"], history.index(named: named) == nil {
      // Said, not silently replaced: the version migrate goes from is the one the document fits.
      Terminal.error(
        "\(TextFormat.displayedPath(path)): names model version \(Excerpt.quoted(named)), which the model does not have (\(history.names.map { Excerpt.quoted($0) }.joined(separator: ", "))); it fits \(Excerpt.quoted(sourceName))"
      )
    }
    guard source <= target else {
      Terminal.error(
        "\(path): not migrated: it is for \(Excerpt.quoted(sourceName)), newer than \(Excerpt.quoted(targetName)); migrate does not go back"
      )
      return .refused
    }
    var plan = MigrationPlan(history: history, from: source, to: target, settings: settings)
    let unknown = MigrationPlan.unknownSettings(settings, in: plan.target)
    if !unknown.isEmpty {
      Terminal.error(
        "\(path): not migrated: --set names no property of an entity of \(Excerpt.quoted(targetName)): \(unknown.joined(separator: ", "))"
      )
      return .refused
    }
    // A model of one version has nothing to migrate: its documents need not name it.
    plan.recordsVersion = history.versions.count > 1
    let step =
      "from \(Excerpt.quoted(sourceName))\(inferred ? " (inferred)" : "") to \(Excerpt.quoted(targetName))"
    report.step = (sourceName, targetName, inferred)
    if let json {
      return migrateJSON(
        path, bytes: json.bytes, snapshot: json.snapshot, plan: plan, step: step, report: &report)
    }

    // Taken before reading: a write after it shows in the file's stamp (or in its bytes: held
    // for a file read whole; digested for a large one, which streams from disk and is never held).
    let small = fileSize(path) < 16 << 20
    let digest = small ? nil : StreamDigest()
    let snapshot = digest.flatMap { FileSnapshot.take(path)?.digesting($0) } ?? FileSnapshot.take(path)
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
    // Whatever stops the file from being written removes the temporary file now, not when the
    // last reference goes (a no-op after a commit, which keeps a temporary file it must).
    defer { writer?.discard() }
    var failure: ReadError?
    let outcome = Migration.run(plan: plan) { feed in
      if let whole {
        whole.withByteView { all in
          var start = 0
          while start < all.count {
            let end = min(all.count, start + (1 << 20))
            feed(all.extracting(start..<end))
            start = end
          }
        }
        return
      }
      do {
        try FileChunks.readViews(path, limit: limit) {
          digest?.add($0)
          feed($0)
        }
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
    report.list(outcome, limit: limit)
    // Nothing to change (a document already at the target): its own problems are the linter's.
    if outcome.changesNothing { return .unchanged }
    if let refusal = outcome.refusal(allowDataLoss: allowDataLoss) {
      report.refusal = refusal
      Terminal.error("\(path): not migrated \(step): \(refusal)")
      return .refused
    }
    guard outcome.changed else { return .unchanged }
    if check {
      report.text += "\(path): migration pending \(step)\n"
      return .pending
    }
    do {
      try writer?.commit()
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    Terminal.write("\(TextFormat.displayedPath(path)): migrated \(step)\n", to: 2)
    return .written
  }

  private func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : Int.max
  }

}

/// What `outline migrate` says about one file: what it dropped and renumbered, where, in text or JSON.
struct MigrationReport {
  var path: String
  /// The versions, older and target, and whether the older one was inferred.
  var step: (from: String, to: String, inferred: Bool)?
  var dropped: [(line: Int, column: Int, what: String)] = []
  var renumbered: [(line: Int, column: Int, parent: String, count: Int)] = []
  var refusal: String?
  /// The text report: `path:line:col: dropped ...`, `path:line:col: renumbered ...`, `path: migration pending ...`.
  var text = ""

  init(path: String) { self.path = path }

  /// Positions what the migration dropped and renumbered (columns count characters), reading the file's lines again.
  /// `locate`, for the JSON form, maps the offsets (into its XML) to JSON offsets and paths, which the text names.
  mutating func list(
    _ outcome: MigrationOutcome, limit: Int, locate: (([Int]) -> [Int: (path: String, offset: Int)])? = nil
  ) {
    guard !outcome.dropped.isEmpty || !outcome.renumbered.isEmpty else { return }
    let offsets = outcome.dropped.map(\.offset) + outcome.renumbered.map(\.offset)
    let located = locate?(offsets)
    let positions = Self.positions(
      of: located.map { found in offsets.map { found[$0]?.offset ?? 0 } } ?? offsets, path: path, limit: limit
    )
    func position(_ offset: Int) -> (Int, Int, String) {
      guard let located else {
        let found = positions[offset] ?? (1, 1)
        return (found.line, found.column, "")
      }
      let at = located[offset] ?? (path: "$", offset: 0)
      let found = positions[at.offset] ?? (1, 1)
      return (found.line, found.column, " (at \(at.path))")
    }
    let shown = TextFormat.displayedPath(path)
    for item in outcome.dropped {
      let (line, column, at) = position(item.offset)
      dropped.append((line, column, item.what))
      text += "\(shown):\(line):\(column): dropped \(item.what)\(at)\n"
    }
    for item in outcome.renumbered {
      let (line, column, at) = position(item.offset)
      renumbered.append((line, column, item.parent, item.count))
      text +=
        "\(shown):\(line):\(column): renumbered \(counted(item.count, "child", plural: "children")) of \(item.parent)\(at)\n"
    }
  }

  /// The 1-based line and column (in Unicode scalars) of each of `offsets` in the file at
  /// `path`, read once in chunks: memory holds the offsets, not an index of every line.
  static func positions(of offsets: [Int], path: String, limit: Int) -> [Int: (line: Int, column: Int)] {
    let wanted = Array(Set(offsets)).sorted()
    var found: [Int: (line: Int, column: Int)] = [:]
    var next = 0
    var line = 0
    var lineStart = 0
    // The scalars of the current line in earlier chunks.
    var carried = 0
    var chunkStart = 0
    func scalars(_ bytes: ByteView, _ from: Int, _ to: Int) -> Int {
      ColumnCounter.count(unit: .scalar, in: bytes, from: from, to: max(from, to))
    }
    // The last byte of the next line end at or after `index` (`\n`, the `\n` of a `\r\n`, or a
    // lone `\r`), or the chunk's end.
    func lineEnd(_ chunk: ByteView, from index: Int) -> Int {
      let lf = chunk.firstIndex(of: 0x0A, from: index) ?? chunk.count
      let cr =
        index < lf ? chunk.extracting(index..<lf).firstIndex(of: 0x0D, from: 0).map { index + $0 } ?? lf : lf
      if cr == lf || cr + 1 == chunk.count { return cr }
      return chunk[cr + 1] == 0x0A ? cr + 1 : cr
    }
    // A `\r` ended the last chunk: a `\n` first in this one is part of its line end.
    var endedWithCR = false
    try? FileChunks.readViews(path, limit: limit) { chunk in
      guard !chunk.isEmpty, next < wanted.count else {
        chunkStart += chunk.count
        return
      }
      var index = 0
      if endedWithCR && chunk[0] == 0x0A {
        lineStart = chunkStart + 1
        index = 1
      }
      endedWithCR = chunk[chunk.count - 1] == 0x0D
      while true {
        let newline = lineEnd(chunk, from: index)
        let from = max(0, lineStart - chunkStart)
        let before = lineStart >= chunkStart ? 0 : carried
        while next < wanted.count && wanted[next] < chunkStart + min(newline + 1, chunk.count) {
          found[wanted[next]] = (line + 1, before + scalars(chunk, from, wanted[next] - chunkStart) + 1)
          next += 1
        }
        if newline == chunk.count {
          carried = before + scalars(chunk, from, chunk.count)
          break
        }
        line += 1
        lineStart = chunkStart + newline + 1
        index = newline + 1
      }
      chunkStart += chunk.count
    }
    return found
  }

  /// The JSON object of the file: its path, versions, status, refusal, dropped and renumbered lists.
  func json(result: MigrateCommand.FileResult) -> JSONValue {
    [
      "path": .string(path), "from": step.map { .string($0.from) } ?? .null,
      "to": step.map { .string($0.to) } ?? .null, "inferred": .bool(step?.inferred ?? false),
      "status": .string(result.rawValue), "refusal": refusal.map { .string($0) } ?? .null,
      "dropped": .array(
        dropped.map {
          ["line": .number(String($0.line)), "column": .number(String($0.column)), "what": .string($0.what)]
        }),
      "renumbered": .array(
        renumbered.map {
          [
            "line": .number(String($0.line)), "column": .number(String($0.column)),
            "parent": .string($0.parent),
            "count": .number(String($0.count)),
          ]
        }),
    ]
  }
}
