import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

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
        whole.withByteView(range, body)
        return true
      }
      return FileChunks.readViews(descriptor: descriptor, range: range, body)
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
      let feed = { (chunk: ByteView) in
        output.comparison.input(chunk)
        digest?.add(chunk)
        parse(chunk)
      }
      if let whole {
        Self.slices(of: whole, feed)
        return
      }
      do {
        try FileChunks.readViews(descriptor: descriptor, name: InputFile.quoted(path), limit: limit, feed)
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
        _ = FileChunks.readViews(descriptor: descriptor, range: 0..<size, body)
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
        guard FileChunks.readViews(descriptor: descriptor, range: 0..<size, { old.append(contentsOf: $0) })
        else {
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

  // MARK: Shared

  /// The path as messages show it: standard input as `<stdin>`, or as the name given for it.
  var shownPath: String {
    path == "-" ? stdinFilename ?? "<stdin>" : TextFormat.displayedPath(path)
  }

  /// Prints the unified diff from `old` to the formatted text `new` (with `range` of it
  /// replaced by the version recording, when there is one) under `name`: `.changed`, or
  /// `.unchanged` when the two are equal.
  static func printDiff(
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
  static func versionRecording(
    _ checked: DocumentCheck, _ formatter: OutlineConvert.Formatter, _ versions: DocumentVersions,
    feed: ((ByteView) -> Void) -> Void
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
  static func check(
    path: String?, size: Int?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, sink: @escaping (ByteView) -> Void,
    feed: (_ parse: (ByteView) -> Void) -> Void
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
  func refusal(_ checked: DocumentCheck) -> Outcome? {
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
  func blocker(in checked: DocumentCheck) -> Diagnostic? {
    (checked.diagnostics + checked.silencedErrors).first {
      $0.code == .notWellFormed || $0.code == .doctypePresent || $0.code == .textInObject
        || $0.code == .valueTooLarge
    }
  }

  func report(_ blocker: Diagnostic, at position: SourcePosition) {
    Terminal.error(
      "cannot format \(shownPath):\(position): \(blocker.code): \(blocker.message)"
    )
  }

  /// Hands `bytes` to `body` in 1 MiB slices, as they would come from disk.
  static func slices(of bytes: [UInt8], _ body: (ByteView) -> Void) {
    bytes.withByteView { all in
      var start = 0
      repeat {
        let end = min(all.count, start + (1 << 20))
        body(all.extracting(start..<end))
        start = end
      } while start < all.count
    }
  }
}
