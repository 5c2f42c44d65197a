import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

/// `outline fmt [--check] PATH...`: the canonical layout (SPEC §6).
struct FmtCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Rewrite .outline files in the canonical layout (comments kept).",
    discussion: """
      Two-space indent, one object per line, attributes xml:id first then in model order, \
      values escaped as &amp; &lt; &quot;. A file that does not parse (or holds text inside \
      objects) is refused and left untouched. Writes are atomic. - formats standard input to \
      standard output. With no PATH, the current folder. --diff changes nothing and prints \
      what would change as a unified diff.

      Exit status: 0 done (with --check or --diff: nothing would change), 1 a file was \
      refused (with --check or --diff: a file would change), 2 usage or I/O trouble.
      """)

  @Flag(help: "Change nothing; list the files that would change and exit 1 if any would.")
  var check = false

  @Flag(
    help:
      "Change nothing; print what would change as a unified diff (diff -u, patch -p0) and exit 1 if anything would."
  )
  var diff = false

  @Option(help: ArgumentHelp("Order attributes by this model, whatever the files say.", valueName: "path"))
  var model: String?

  @OptionGroup var configuration: ConfigurationOptions

  @Flag(
    help:
      "Follow symbolic links to folders (and to files outside a searched folder); each folder is searched once."
  )
  var follow = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  @Option(
    help: ArgumentHelp(
      "The path standard input stands for: its configuration and model are found from it, and messages name it (implies - when no PATH is given).",
      valueName: "path"))
  var stdinFilename: String?

  @Argument(
    help: "Files, folders (searched for *.outline) or - for standard input (default: the current folder).")
  var paths: [String] = []

  func validate() throws {
    if let problem = StandardInput.usageProblem(paths: paths, stdinFilename: stdinFilename) {
      throw ValidationError(problem)
    }
  }

  func run() throws {
    let configurations = ConfigurationFinder(
      limit: maxSize?.bytes ?? InputFile.defaultLimit,
      choice: ConfigurationFinder.Choice(configuration.config, isolated: configuration.isolated))
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    var troubled = false
    var refused = false
    var changed = false
    var written = 0
    let versions = DocumentVersions(configurations: configurations, models: models, modelOverride: model)
    let reads = check || diff
    let files = FileCollector.collect(
      paths.isEmpty ? StandardInput.defaultPaths(stdinFilename: stdinFilename) : paths,
      configurations: configurations,
      follow: follow, oncePerFile: !reads
    ) { trouble in
      Terminal.error(trouble.message)
      troubled = true
    }
    for path in files {
      let run = FmtRun(
        path: path, check: reads, diff: diff, stdinFilename: stdinFilename, modelOverride: model,
        limit: configurations.inputLimit(for: path, maxSize: maxSize))
      switch run.format(configurations: configurations, models: models, versions: versions) {
      case .unchanged: break
      case .written: written += 1
      case .changed: changed = true
      case .refused: refused = true
      case .trouble: troubled = true
      }
    }
    // Only what was really written is counted.
    if !reads && written > 0 {
      Terminal.write("formatted \(written) file\(written == 1 ? "" : "s")\n", to: 2)
    }
    if troubled { throw ExitCode(2) }
    if refused || (reads && changed) { throw ExitCode(1) }
  }
}

/// Formatting one file, or standard input, as it streams: the input is read in chunks and
/// parsed once, the validator and the formatter hearing the same events; the formatted bytes are
/// compared with the input as they come and, from the first difference, written to a temporary
/// file beside the original (the equal start copied from the input), which replaces it only if
/// the check allows; standard input's formatted text waits in a spool until then. Memory does
/// not grow with the document.
struct FmtRun {
  let path: String
  /// Nothing is written: the files that would change are listed (or their diffs printed).
  let check: Bool
  /// What would change is printed as a unified diff instead of the file's name.
  let diff: Bool
  /// The path standard input stands for, if one was given: its configuration and model are
  /// found from it, and messages name it.
  var stdinFilename: String? = nil
  let modelOverride: String?
  let limit: Int

  enum Outcome { case unchanged, written, changed, refused, trouble }

  /// Files smaller than this are read whole first, so the lost-update check can compare their
  /// bytes; larger ones stream from disk, and the check compares a digest of what streamed by
  /// (``StreamDigest``) with the file read again, when a change could hide in its stamps.
  static let heldBytes = 16 << 20

  func format(configurations: ConfigurationFinder, models: ModelCache, versions: DocumentVersions) -> Outcome
  {
    path == "-"
      ? formatStandardInput(configurations: configurations, models: models, versions: versions)
      : formatFile(configurations: configurations, models: models, versions: versions)
  }

  // MARK: Files

  private func formatFile(configurations: ConfigurationFinder, models: ModelCache, versions: DocumentVersions)
    -> Outcome
  {
    var info = stat()
    let small = stat(path, &info) != 0 || Int(info.st_size) < Self.heldBytes
    // Taken before reading: a write after it shows in the file's stamp (or in its bytes: held
    // for a file read whole, digested for one that streams).
    let digest = small ? nil : StreamDigest()
    let snapshot = digest.flatMap { FileSnapshot.take(path)?.digesting($0) } ?? FileSnapshot.take(path)
    var whole: [UInt8]?
    let descriptor: Int32
    do {
      if small {
        whole = try FileInput.read(path, limit: limit)
        descriptor = -1
      } else {
        descriptor = try InputFile.open(path)
      }
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    defer { if descriptor >= 0 { close(descriptor) } }
    // The snapshot with what was read: the bytes held, or the digest of those streamed.
    let read = whole.map { snapshot?.holding($0) } ?? snapshot
    let output = FileOutput(path: path, writes: !check, snapshot: read) { range, body in
      if let whole {
        whole.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        return true
      }
      return FileOutput.read(descriptor, range, body)
    }
    // A refused or failed file removes its temporary file now: the formatter's thread may still
    // hold the output when the command ends (a no-op after a commit).
    defer { output.discard() }
    var failure: ReadError?
    var size: Int? = whole?.count
    if size == nil {
      var opened = stat()
      size = fstat(descriptor, &opened) == 0 ? Int(opened.st_size) : nil
    }
    // With --diff the formatted text is kept, to be set beside the input's.
    let kept = diff ? Spool() : nil
    let (checked, formatter) = Self.check(
      path: path, size: size, modelOverride: modelOverride, configurations: configurations, models: models,
      sink: { bytes in
        output.formatted(bytes)
        kept?.append(bytes)
      }
    ) { parse in
      let feed = { (chunk: UnsafeBufferPointer<UInt8>) in
        output.comparison.input(chunk)
        digest?.add(chunk)
        parse(chunk)
      }
      if let whole {
        Self.slices(of: whole, feed)
        return
      }
      do {
        try FileChunks.read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit, feed)
      } catch let error as ReadError {
        failure = error
      } catch {}
    }
    if let failure {
      Terminal.error(failure.description)
      return .trouble
    }
    if let outcome = refusal(checked) {
      // A file cut short or rewritten while it was read is refused for what was read, and a
      // position in it may lie past the file's new end: say what happened instead.
      if let read, !read.isUnchanged(at: path) {
        Terminal.error("\(InputFile.quoted(path)) changed while being formatted; run again")
        return .trouble
      }
      if outcome == .refused, let blocker = blocker(in: checked) {
        let position: SourcePosition
        if let whole {
          position = SourceText(bytes: whole).position(of: blocker.range.start, unit: .scalar)
        } else {
          position = FileLines(indexingWhenAsked: path).linePosition(of: blocker.range.start, unit: .scalar)
        }
        report(blocker, at: position)
      }
      return outcome
    }
    let recording = Self.versionRecording(checked, formatter, versions) { body in
      if let whole {
        Self.slices(of: whole, body)
      } else if let size {
        _ = FileOutput.read(descriptor, 0..<size, body)
      }
    }
    if let (range, opening) = recording {
      output.replace(range, with: opening)
    }
    guard output.changed else { return .unchanged }
    if let kept {
      var old = whole ?? []
      if whole == nil, let size {
        old.reserveCapacity(size)
        guard FileOutput.read(descriptor, 0..<size, { old.append(contentsOf: $0) }) else {
          Terminal.error("cannot read \(InputFile.quoted(path)) again to show its diff")
          return .trouble
        }
      }
      return Self.printDiff(old: old, new: kept, replacing: recording, name: shownPath)
    }
    if check {
      Terminal.write("\(TextFormat.displayedPath(path))\n")
      return .changed
    }
    do {
      try output.commit()
      return .written
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
  }

  // MARK: Standard input

  private func formatStandardInput(
    configurations: ConfigurationFinder, models: ModelCache, versions: DocumentVersions
  ) -> Outcome {
    // Standard input that is a regular file (`< file`) is read back where a message points;
    // a pipe's bytes are kept in a spool for that.
    var info = stat()
    let start = lseek(0, 0, SEEK_CUR)
    let seekable = fstat(0, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && start >= 0
    let kept = seekable ? nil : Spool()
    var lines = LineIndex()
    let formatted = Spool()
    // With --check, the formatted text is only compared with the input as both stream by, as a
    // file's is; --diff keeps it, with the input, to show the difference.
    let comparison = check && !diff ? StreamComparison() : nil
    let input = diff && seekable ? Spool() : kept
    var failure: ReadError?
    let (checked, formatter) = Self.check(
      path: stdinFilename, size: seekable ? Int(info.st_size) - Int(start) : nil,
      modelOverride: modelOverride,
      configurations: configurations, models: models,
      sink: { comparison?.output($0) ?? formatted.append($0) }
    ) { parse in
      do {
        try FileChunks.read(descriptor: 0, name: "standard input", limit: limit) { chunk in
          comparison?.input(chunk)
          if let kept {
            lines.append(chunk)
            kept.append(chunk)
          } else {
            input?.append(chunk)
          }
          parse(chunk)
        }
      } catch let error as ReadError {
        failure = error
      } catch {}
    }
    if let failure {
      Terminal.error(failure.description)
      return .trouble
    }
    if let outcome = refusal(checked) {
      if outcome == .refused, let blocker = blocker(in: checked) {
        let read: @Sendable (Range<Int>) -> [UInt8]
        if let kept {
          read = { kept.bytes(in: $0) }
        } else {
          read = { range in
            var bytes: [UInt8] = []
            FileOutput.read(0, (range.lowerBound + Int(start))..<(range.upperBound + Int(start))) {
              bytes.append(contentsOf: $0)
            }
            return bytes
          }
          let end = Int(info.st_size)
          var offset = Int(start)
          while offset < end {
            let next = min(end, offset + (1 << 20))
            FileOutput.read(0, offset..<next) { lines.append($0) }
            offset = next
          }
        }
        report(
          blocker,
          at: StreamedLines(lines: lines, read: read).linePosition(of: blocker.range.start, unit: .scalar))
      }
      return outcome
    }
    let replacement = Self.versionRecording(checked, formatter, versions) { body in
      if let kept {
        var offset = 0
        while offset < kept.count {
          let next = min(kept.count, offset + (1 << 20))
          kept.bytes(in: offset..<next).withUnsafeBufferPointer(body)
          offset = next
        }
      } else if seekable {
        _ = FileOutput.read(0, Int(start)..<Int(info.st_size), body)
      }
    }
    if diff, let input {
      return Self.printDiff(
        old: input.bytes(in: 0..<input.count), new: formatted, replacing: replacement, name: shownPath)
    }
    if let comparison {
      // As for a file: the name of what would change, and nothing else.
      guard replacement != nil || !comparison.equal else { return .unchanged }
      Terminal.write("\(shownPath)\n")
      return .changed
    }
    if let code = formatted.write(to: 1, replacing: replacement?.0, with: replacement?.1 ?? []) {
      Terminal.error("cannot write standard output: \(String(cString: strerror(code)))")
      return .trouble
    }
    return .unchanged
  }

  // MARK: Shared

  /// The path as messages show it: standard input as `<stdin>`, or as the name given for it.
  private var shownPath: String {
    path == "-" ? stdinFilename ?? "<stdin>" : TextFormat.displayedPath(path)
  }

  /// Prints the unified diff from `old` to the formatted text `new` (with `range` of it
  /// replaced by the version recording, when there is one) under `name`: `.changed`, or
  /// `.unchanged` when the two are equal.
  private static func printDiff(
    old: [UInt8], new: Spool, replacing recording: (Range<Int>, [UInt8])?, name: String
  )
    -> Outcome
  {
    var formatted = new.bytes(in: 0..<new.count)
    if let (range, opening) = recording { formatted.replaceSubrange(range, with: opening) }
    let text = LineDiff.unified(old, formatted, oldName: name, newName: name)
    guard !text.isEmpty else { return .unchanged }
    Terminal.write(text)
    return .changed
  }

  /// The root's opening tag rewritten to record the model version, and the range it replaces in
  /// the formatted text: a document that fits the version of a versioned model it was checked
  /// with says so. Nil when there is nothing to record.
  /// A document with errors against that version is validated against every version of its
  /// model again, from the text `feed` hands out, to record the one it fits with no errors.
  private static func versionRecording(
    _ checked: DocumentCheck, _ formatter: OutlineConvert.Formatter, _ versions: DocumentVersions,
    feed: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> (Range<Int>, [UInt8])? {
    // A root that records a version already is left as it is (no inference).
    guard let root = formatter.rootStartTag, RootProbe.recordingEdit(version: "", in: root) != nil,
      let version = versions.versionToRecord(for: checked, feed: feed),
      let edit = RootProbe.recordingEdit(version: version, in: root), let range = formatter.rootOpening,
      let opening = formatter.rootOpening(editedBy: edit)
    else { return nil }
    return (range, opening)
  }

  /// Checks the document `feed` hands out, formatting it alongside into `sink`.
  private static func check(
    path: String?, size: Int?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void,
    feed: (_ parse: (UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> (DocumentCheck, OutlineConvert.Formatter) {
    // One parse: the formatter hears the validator's events; its output is used only if the check allows.
    var made: OutlineConvert.Formatter?
    let checked = DocumentCheck.run(
      path: path, size: size, modelOverride: modelOverride, configurations: configurations, models: models,
      alongside: { validator in
        let formatter = OutlineConvert.Formatter.streaming(model: { validator.model }, sink: sink)
        made = formatter
        return formatter
      }, feed: feed)
    made!.finish()
    return (checked, made!)
  }

  /// Whether the check forbids writing: configuration trouble (the layout follows the model,
  /// which a broken configuration may have chosen), or a document that cannot be formatted.
  private func refusal(_ checked: DocumentCheck) -> Outcome? {
    if ConfigurationProblems.report(checked.configuration) { return .trouble }
    // A model `--model` or the configuration names that cannot be read is trouble of the run
    // (exit 2), as in lint: the layout would follow no model, and `--check` would pass.
    if let unreadable = checked.unreadableNamedModel {
      Terminal.error(
        "cannot format \(shownPath): \(unreadable.message)")
      return .trouble
    }
    return blocker(in: checked) == nil ? nil : .refused
  }

  /// What stops formatting, turned off by a rule or a comment or not: the layout would drop
  /// the text inside an object or the DOCTYPE, and cannot write what it cannot read.
  private func blocker(in checked: DocumentCheck) -> Diagnostic? {
    (checked.diagnostics + checked.silencedErrors).first {
      $0.code == .notWellFormed || $0.code == .doctypePresent || $0.code == .textInObject
        || $0.code == .valueTooLarge
    }
  }

  private func report(_ blocker: Diagnostic, at position: SourcePosition) {
    Terminal.error(
      "cannot format \(shownPath):\(position): \(blocker.code): \(blocker.message)"
    )
  }

  /// Hands `bytes` to `body` in 1 MiB slices, as they would come from disk.
  static func slices(of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    bytes.withUnsafeBufferPointer { all in
      var start = 0
      repeat {
        let end = min(all.count, start + (1 << 20))
        body(UnsafeBufferPointer(rebasing: all[start..<end]))
        start = end
      } while start < all.count
    }
  }
}

/// Where a file's formatted text goes: compared with the input as both stream by, and written
/// to a temporary file only from the first difference (with the equal start copied from the
/// input), so an unchanged file is never written and `--check` writes nothing.
final class FileOutput: @unchecked Sendable {
  let comparison = StreamComparison()
  private let path: String
  private let writes: Bool
  private let snapshot: FileSnapshot?
  /// Reads a range of the input, handing it over in pieces.
  private let input: (Range<Int>, (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
  private var writer: AtomicFileWriter?
  private var failure: WriteError?
  private var started = false
  private var replaced = false

  init(
    path: String, writes: Bool, snapshot: FileSnapshot?,
    input: @escaping (Range<Int>, (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
  ) {
    self.path = path
    self.writes = writes
    self.snapshot = snapshot
    self.input = input
  }

  /// The next formatted bytes (on the formatter's thread).
  func formatted(_ bytes: UnsafeBufferPointer<UInt8>) {
    if started {
      writer?.write(bytes)
      return
    }
    comparison.output(bytes)
    guard comparison.differs else { return }
    // With --check nothing is written: the answer is known.
    if writes { start() } else { started = true }
  }

  /// Opens the temporary file and writes into it what was formatted so far.
  private func start() {
    started = true
    let (equal, rest) = comparison.takeDivergence()
    do {
      writer = try AtomicFileWriter(path: path, unchangedSince: snapshot, activity: "formatted")
    } catch {
      failure = error
      return
    }
    guard input(0..<equal, { self.writer?.write($0) }) else {
      failure = WriteError(
        description: "cannot write \(Excerpt.quotedPath(path)): it could not be read again; not changed")
      writer = nil
      return
    }
    rest.withUnsafeBufferPointer { writer?.write($0) }
  }

  /// Whether the formatted text differs from the input (once both ended).
  var changed: Bool { replaced || !comparison.equal }

  /// Replaces `range` of the formatted text with `bytes` (once both ended).
  func replace(_ range: Range<Int>, with bytes: [UInt8]) {
    replaced = true
    guard writes else { return }
    if !started { start() }
    writer?.splice(range, with: bytes)
  }

  /// Removes the temporary file, if one was started: nothing is written.
  func discard() { writer?.discard() }

  /// Makes the formatted text appear at the path.
  func commit() throws(WriteError) {
    if !started { start() }
    if let failure { throw failure }
    try writer?.commit()
  }

  /// Reads `range` of `descriptor` with `pread`, handing it to `body` in pieces; whether all of it was read.
  @discardableResult
  static func read(_ descriptor: Int32, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    -> Bool
  {
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(1, range.count)))
    var offset = range.lowerBound
    while offset < range.upperBound {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, min($0.count, range.upperBound - offset), off_t(offset))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
      offset += count
    }
    return true
  }
}
