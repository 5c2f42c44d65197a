import Foundation
import OutlineCore
import OutlineJSON
import OutlineWorkspace

/// The outline files under a folder (sorted paths), as `outline-lint` finds them.
public typealias OutlineSearch =
  @Sendable (_ folder: String, _ configurations: ConfigurationFinder) -> [String]

/// `workspace/diagnostic`: every outline in the workspace folders, open or
/// not, with the diagnostics `outline-lint` reports for that folder; an
/// open document as the editor has it, a closed one as it is on disk; and
/// each `.outline.json` with problems (OC100) that governs one of them, once.
/// Streamed as partial results when the client gives a token, with
/// work-done progress after 200 ms, and cancellable between files.
struct WorkspaceDiagnosticsFeature: Sendable {
  let mapper: PositionMapper
  let folders: [String]
  let open: [Snapshot]
  /// Reads closed files and shares the open documents' models and configurations.
  let store: DocumentStore
  /// The store's generation when the request came (its models and configurations).
  let generation: Int
  let findOutlines: OutlineSearch?
  /// Closed files' reports sent in one partial result.
  static let batch = 32

  /// The `WorkspaceDiagnosticReport`, each document's items written as JSON
  /// text by ``DiagnosticsFeature/json(_:mapper:)`` (no `Codable` diagnostics made).
  func run(_ params: LSP.WorkspaceDiagnosticParams, context: RequestContext) throws -> LSPAny {
    let previous = Dictionary(
      params.previousResultIds.map { ($0.uri, $0.value) }, uniquingKeysWith: { _, last in last })
    let openByPath = Dictionary(
      open.compactMap { snapshot in snapshot.path.map { (Self.standardized($0), snapshot) } },
      uniquingKeysWith: { first, _ in first })
    // Every file once: the folders' files in order, then open documents outside them.
    var paths: [String] = []
    var seen: Set<String> = []
    for folder in folders {
      try context.cancellation.check()
      for path in findOutlines?(folder, store.configurations) ?? []
      where seen.insert(Self.standardized(path)).inserted {
        paths.append(path)
      }
    }
    let outside = open.filter { snapshot in
      snapshot.path.map { !seen.contains(Self.standardized($0)) } ?? true
    }

    let progress = context.progress(token: params.workDoneToken, title: "Checking outlines")
    var items: [JSONValue] = []
    func flush(force: Bool) {
      guard let token = params.partialResultToken, !items.isEmpty, force || items.count >= Self.batch else {
        return
      }
      // `ProgressParams<WorkspaceDiagnosticReport>`'s members, in its order.
      context.notify("$/progress", ["token": token.value, "value": ["items": .array(items)]])
      items.removeAll()
    }
    let total = paths.count + outside.count
    // Each configuration with problems, reported once before the first outline it governs (as
    // `outline-lint` prints it); an open one is reported among the open documents, as the editor has it.
    var configurations = ConfigurationReports(open: Set(open.map(\.uri)))
    for (index, path) in paths.enumerated() {
      try context.cancellation.check()
      progress.report(
        index, of: total, message: "\(index)/\(total) \(URL(fileURLWithPath: path).lastPathComponent)")
      if let item = configurationReport(for: path, &configurations, previous: previous) { items.append(item) }
      if let snapshot = openByPath[Self.standardized(path)] {
        items.append(report(snapshot, previous: previous))
      } else if let item = closedReport(path, previous: previous) {
        items.append(item)
      }
      flush(force: false)
    }
    for snapshot in outside {
      try context.cancellation.check()
      if snapshot.isOutlineDocument,
        let item = configurationReport(for: snapshot.path, &configurations, previous: previous)
      {
        items.append(item)
      }
      items.append(report(snapshot, previous: previous))
    }
    flush(force: true)
    progress.end("\(total) outlines")
    // With partial results everything went in `$/progress`, and the reply is empty.
    return LSPAny(["items": .array(items)])
  }

  /// An open document's report, `unchanged` when the client has this snapshot's.
  private func report(_ snapshot: Snapshot, previous: [String: String]) -> JSONValue {
    let items =
      previous[snapshot.uri] == snapshot.resultId ? nil : DiagnosticsFeature.json(snapshot, mapper: mapper)
    return Self.report(
      resultId: snapshot.resultId, uri: snapshot.uri, version: snapshot.version, items: items)
  }

  /// A `WorkspaceDocumentDiagnosticReport`, its members in its order: full
  /// with `items`, unchanged without; `version` is written `null` for a closed file.
  private static func report(resultId: String, uri: String, version: Int?, items: JSONValue?) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("kind", items == nil ? "unchanged" : "full"), ("resultId", .string(resultId)), ("uri", .string(uri)),
      ("version", version.map(JSONValue.int) ?? .null),
    ]
    if let items { members.append(("items", items)) }
    return .object(members)
  }

  /// A closed file's report, read only when it changed since the client's
  /// `resultId` (its stamp and the models' generation); nil when it cannot be read.
  private func closedReport(_ path: String, previous: [String: String]) -> JSONValue? {
    let uri = URL(fileURLWithPath: path).absoluteString
    let resultId = Self.diskResultId(path, generation: generation)
    if previous[uri] == resultId {
      return Self.report(resultId: resultId, uri: uri, version: nil, items: nil)
    }
    guard let snapshot = try? store.closedFile(path) else { return nil }
    return Self.report(
      resultId: resultId, uri: uri, version: nil,
      items: DiagnosticsFeature.json(snapshot, mapper: mapper, open: false))
  }

  /// The configurations reported so far, and the open documents' URIs.
  struct ConfigurationReports {
    let open: Set<String>
    var reported: Set<String> = []
  }

  /// The report of the configuration governing the document at `path` (nil: an unsaved buffer),
  /// when it has problems, was not reported yet and is not open; `unchanged` when the client has
  /// this one (its file's stamp and the models' generation).
  private func configurationReport(
    for path: String?, _ reports: inout ConfigurationReports, previous: [String: String]
  ) -> JSONValue? {
    guard let configuration = store.configurations.configuration(for: path ?? "./-"),
      !configuration.diagnostics.isEmpty, reports.reported.insert(configuration.path).inserted
    else { return nil }
    let uri = ConfigurationDiagnostics.uri(of: configuration)
    guard !reports.open.contains(uri) else { return nil }
    let resultId = Self.diskResultId(configuration.path, generation: generation)
    let items = previous[uri] == resultId ? nil : ConfigurationDiagnostics.json(configuration, mapper: mapper)
    return Self.report(resultId: resultId, uri: uri, version: nil, items: items)
  }

  /// The `resultId` of a file as it is on disk: its stamp and the models' generation.
  static func diskResultId(_ path: String, generation: Int) -> String {
    let stamp = FileStamp(path)
    return "disk:\(generation):\(stamp.seconds).\(stamp.nanoseconds):\(stamp.size):\(stamp.inode)"
  }

  static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
