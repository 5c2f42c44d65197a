import Foundation
import OutlineCore
import OutlineEditing
import OutlineFiles
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineWorkspace

/// One version of an open document, with its analysis computed once, on
/// first use, by whichever thread needs it first.
final class Snapshot: @unchecked Sendable {
  let uri: String
  let version: Int
  private(set) var source: SourceText
  /// The file path when the URI is a `file:` URI.
  let path: String?

  /// Whether the document is an outline (XML, or its JSON form) that gets outline diagnostics:
  /// not a model file, a bundle's `.xccurrentversion`, the configuration `.outline.json`, or
  /// another XML file an editor sent along (`pom.xml`, with a setup that sends every XML file).
  /// A document with no path (an unsaved buffer) or no extension is one.
  var isOutlineDocument: Bool {
    guard let path else { return true }
    if ModelReferences.isModelFile(path) { return false }
    let name = (path as NSString).lastPathComponent
    if name == ".outline.json" || name == ".xccurrentversion" { return false }
    let fileExtension = (name as NSString).pathExtension
    return fileExtension == "outline" || fileExtension == "json" || fileExtension.isEmpty
  }
  /// Whether the document is a configuration file, `.outline.json`.
  var isConfiguration: Bool {
    path.map { ($0 as NSString).lastPathComponent == Configuration.fileName } ?? false
  }

  /// For a configuration file, the configuration its text says (its problems in this text).
  var ownConfiguration: Configuration? {
    guard isConfiguration, let path else { return nil }
    return Configuration(path: path, source: source)
  }

  /// Unique among the snapshots of this process: a new text or a new
  /// analysis of the same text (a model changed) has a new one.
  let serial = Snapshot.serials.next()
  private let lock = NSLock()
  private var cached: DocumentCheck?
  /// The previous version's analysis and the one change since, to analyze
  /// this version from (``TitleEdit``, ``AttributeEdit``, ``MarkupEdit``) when the change allows.
  private var carried: DocumentCheck?
  private var change: AppliedChange?
  /// The directory of the ids of `cached`'s and `carried`'s trees, when an edit made one.
  private var ids: IDDirectory?
  private var carriedIDs: IDDirectory?
  private let analyze: @Sendable (SourceText, String?) -> DocumentCheck
  /// The editor's settings `analyze` applies, for diagnostics found without it.
  let settings: EditorSettings
  /// The model histories `analyze` reads (nil: none read).
  let histories: ModelHistoryCache?
  /// Whether `source` is the editor's text: false once a change could not be applied (the text is
  /// then the last one the server was sure of), until a change gives the whole text again.
  let inSync: Bool

  init(
    uri: String, version: Int, source: SourceText, settings: EditorSettings,
    histories: ModelHistoryCache? = nil, inSync: Bool = true,
    analyze: @escaping @Sendable (SourceText, String?) -> DocumentCheck
  ) {
    self.uri = uri
    self.version = version
    self.inSync = inSync
    self.source = source
    self.path = Snapshot.path(of: uri)
    self.settings = settings
    self.histories = histories
    self.analyze = analyze
  }

  /// The model version `outline fmt` would record on the root of this version: the one it was
  /// validated against, when it fits it with no error and its model has several versions, else
  /// the one it fits with no errors (only when its root records none).
  var versionToRecord: String? {
    guard let histories else { return nil }
    let analysis = self.analysis
    if let version = analysis.versionToRecord(histories: histories) { return version }
    guard analysis.versionStatus?.isRecorded == false else { return nil }
    let bytes = source.bytes
    return analysis.versionToRecord(history: { histories.history(forModelAt: $0) }) { body in
      bytes.withByteView { body($0) }
    }
  }

  /// Diagnostics, tree and model of this version.
  var analysis: DocumentCheck {
    lock.lock()
    defer { lock.unlock() }
    if let cached { return cached }
    if let change, carried != nil {
      defer {
        carried = nil
        carriedIDs = nil
      }
      var directory = carriedIDs
      let rules = settings.rules(carried!.configuration)
      if TitleEdit.apply(change, to: &carried!, source: source)
        || AttributeEdit.apply(change, to: &carried!, source: source, rules: rules, ids: &directory)
        || MarkupEdit.apply(change, to: &carried!, source: source, rules: rules, ids: &directory)
      {
        cached = carried
        ids = directory
        return carried!
      }
    }
    let result = analyze(source, path)
    cached = result
    return result
  }

  /// A new version with `text`, sharing nothing but the identity; with
  /// `change` and `previous`, the analysis of the version it was edited from.
  func replacing(
    version: Int, source: SourceText, inSync: Bool = true, change: AppliedChange? = nil,
    previous: (DocumentCheck, IDDirectory?)? = nil
  ) -> Snapshot {
    let snapshot = Snapshot(
      uri: uri, version: version, source: source, settings: settings, histories: histories, inSync: inSync,
      analyze: analyze)
    snapshot.change = change
    snapshot.carried = change == nil ? nil : previous?.0
    snapshot.carriedIDs = change == nil ? nil : previous?.1
    return snapshot
  }

  /// Hands its analysis, if made, over to the next version (as ``surrenderSource()``).
  fileprivate func surrenderAnalysis() -> (DocumentCheck, IDDirectory?)? {
    lock.lock()
    defer { lock.unlock() }
    guard let analysis = cached else { return nil }
    cached = nil
    defer { ids = nil }
    return (analysis, ids)
  }

  /// Hands its text over to the next version, so that version edits the
  /// bytes in place; only for a snapshot nothing else holds, which is not read again.
  fileprivate func surrenderSource() -> SourceText {
    let text = source
    source = SourceText(bytes: [])
    return text
  }

  /// The pull diagnostics' `resultId`: the same while this snapshot stands.
  var resultId: String { "open:\(serial)" }

  private static let serials = SerialCounter()

  static func path(of uri: String) -> String? {
    guard uri.hasPrefix("file://"), let url = URL(string: uri) else { return nil }
    return url.path
  }
}

/// The open documents and what their analysis reads from disk (models and
/// configurations, cached): the in-process API the features and their tests
/// use. Not thread-safe by itself: the server touches it on its state queue
/// only, and features read the immutable ``Snapshot``s it hands out.
final class DocumentStore: @unchecked Sendable {
  private(set) var documents: [String: Snapshot] = [:]
  /// Counts the times models or configurations changed (part of a closed file's `resultId`).
  private(set) var generation = 0
  /// The editor's settings, merged with each document's configuration file.
  var settings = EditorSettings()
  let configurations = ConfigurationFinder()
  let models = ModelCache()
  /// The versions of the bundles models belong to (OL108, the root's hover, migrations).
  let histories = ModelHistoryCache()

  init() {}

  /// The open document at `uri`.
  subscript(uri: String) -> Snapshot? { documents[uri] }

  /// Opens (or reopens) `uri` with `text`; returns its first snapshot.
  @discardableResult
  func open(uri: String, version: Int = 0, text: [UInt8]) -> Snapshot {
    let snapshot = Snapshot(
      uri: uri, version: version, source: SourceText(bytes: text), settings: settings, histories: histories,
      analyze: analyzer())
    documents[uri] = snapshot
    return snapshot
  }

  /// Opens `uri` with `text`.
  @discardableResult
  func open(uri: String, version: Int = 0, text: String) -> Snapshot {
    open(uri: uri, version: version, text: Array(text.utf8))
  }

  /// What a `didChange` did to its document.
  struct ChangeOutcome {
    /// The document's new version.
    let snapshot: Snapshot
    /// How many ranges ended before they started (applied as the range between their positions).
    var reversedRanges = 0
    /// Why the server lost the editor's text with this change (nil: it did not lose it now).
    var lost: String?
  }

  /// Applies content changes to an open document; nil when it is not open.
  func change(
    uri: String, version: Int?, changes: [LSP.TextDocumentContentChangeEvent], mapper: PositionMapper
  )
    -> Snapshot?
  {
    change(uri: uri, version: version, read: changes.map { .event($0) }, mapper: mapper)?.snapshot
  }

  /// Applies content changes as read from `didChange` to an open document; nil when it is not open.
  /// Every range that decodes is applied (``PositionMapper/changeRange(_:in:)``); a change that
  /// could not be read leaves the document out of sync (``Snapshot/inSync``): its text stays the
  /// last one known, later ranged changes are skipped, and a change with the whole text puts it
  /// back in sync.
  func change(
    uri: String, version: Int?, read changes: [LSP.ContentChange], mapper: PositionMapper
  ) -> ChangeOutcome? {
    guard var document = documents.removeValue(forKey: uri) else { return nil }
    // The store's is the only reference once no request or analysis reads
    // the old version: its bytes are then edited in place, not copied.
    let alone = isKnownUniquelyReferenced(&document)
    var source = alone ? document.surrenderSource() : document.source
    var inSync = document.inSync
    let applied = ContentChanges.apply(changes, to: &source, inSync: &inSync, mapper: mapper)
    // One range changed in a text known before and after: the previous analysis may carry over
    // (its tree moved, not copied). It is taken even while a request or a publication still
    // holds the old version (as right after the open's diagnostics): such a reader keeps what it
    // already read, and one that asks again analyzes anew.
    var change: AppliedChange?
    if document.inSync, inSync, changes.count == 1, applied.changes.count == 1,
      case .event(let event) = changes[0], event.range != nil
    {
      change = applied.changes.first
    }
    let snapshot = document.replacing(
      version: version ?? document.version + 1, source: source, inSync: inSync, change: change,
      previous: change != nil ? document.surrenderAnalysis() : nil)
    documents[uri] = snapshot
    return ChangeOutcome(
      snapshot: snapshot, reversedRanges: applied.reversed, lost: applied.lost)
  }

  /// Forgets `uri`.
  func close(uri: String) {
    documents[uri] = nil
  }

  /// A model or configuration changed on disk: forget the cached ones and
  /// give every open document a fresh snapshot (same text and version) to analyze again.
  func dependenciesChanged() {
    models.invalidate()
    histories.invalidate()
    configurations.invalidate()
    generation += 1
    for (uri, snapshot) in documents {
      documents[uri] = Snapshot(
        uri: uri, version: snapshot.version, source: snapshot.source, settings: settings,
        histories: histories, inSync: snapshot.inSync, analyze: analyzer())
    }
  }

  /// A snapshot of the file at `path` as it is on disk (a document not
  /// open), read within the size limit `outline-lint` uses; not kept.
  func closedFile(_ path: String, buildTree: Bool = false) throws(ReadError) -> Snapshot {
    let limit = configurations.configuration(for: path)?.maxSize ?? InputFile.defaultLimit
    let bytes = try InputFile.read(path, limit: limit)
    return Snapshot(
      uri: URL(fileURLWithPath: path).absoluteString, version: 0, source: SourceText(bytes: bytes),
      settings: settings, histories: histories, analyze: analyzer(buildTree: buildTree))
  }

  private func analyzer(buildTree: Bool = true) -> @Sendable (SourceText, String?) -> DocumentCheck {
    let configurations = self.configurations
    let models = self.models
    let histories = self.histories
    let settings = self.settings
    return { source, path in
      if let path, DocumentCheck.isJSONForm(path) {
        let bytes = ByteBuffer(copying: source.bytes)
        var check = DocumentCheck.runJSON(
          bytes, path: path, modelOverride: nil, configurations: configurations, models: models)
        check.checkVersion(histories: histories, json: bytes)
        return settings.apply(to: check)
      }
      var check = DocumentCheck.run(
        source, path: path, modelOverride: nil, configurations: configurations, models: models,
        buildTree: buildTree)
      check.checkVersion(histories: histories, source: source)
      return settings.apply(to: check)
    }
  }
}

/// Applies `textDocument/didChange` content changes in order.
enum ContentChanges {
  /// Applies `changes` (incremental ranges or whole texts) to `source` in place and returns each
  /// range replaced, how many ranges were reversed, and why the text was lost (the first change
  /// that could not be read while `inSync`). Out of sync, ranged changes are skipped: their text
  /// is not known.
  static func apply(
    _ changes: [LSP.ContentChange], to source: inout SourceText, inSync: inout Bool, mapper: PositionMapper
  ) -> (changes: [AppliedChange], reversed: Int, lost: String?) {
    var applied: [AppliedChange] = []
    var reversed = 0
    var lost: String?
    for (index, change) in changes.enumerated() {
      switch change {
      case .unreadable(let reason):
        if inSync, lost == nil { lost = "change \(index + 1) of \(changes.count): \(reason)" }
        inSync = false
      case .event(let event):
        guard let rangeValue = event.range else {
          applied.append(
            AppliedChange(range: TextRange(start: 0, end: event.text.bytes.count), removed: source.bytes))
          source = SourceText(bytes: event.text.bytes)
          inSync = true
          continue
        }
        guard inSync else { continue }
        let (range, wasReversed) = mapper.changeRange(rangeValue, in: source)
        if wasReversed { reversed += 1 }
        let removed = Array(source.bytes[range.start..<range.end])
        source.replace(range, with: event.text.bytes)
        applied.append(
          AppliedChange(
            range: TextRange(start: range.start, end: range.start + event.text.bytes.count), removed: removed)
        )
      }
    }
    return (applied, reversed, lost)
  }
}

/// Hands out increasing numbers to any thread.
final class SerialCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var last = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    last += 1
    return last
  }
}

/// The server's analysis is what an edit carries to the next version.
extension DocumentCheck: CarriedAnalysis {}
