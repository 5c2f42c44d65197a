import Foundation
import OutlineCore
import OutlineWorkspace

/// The outline files under a folder (sorted paths), as `outline-lint` finds them.
public typealias OutlineSearch =
  @Sendable (_ folder: String, _ configurations: ConfigurationFinder) -> [String]

/// `workspace/diagnostic`: every outline in the workspace folders, open or
/// not, with the diagnostics `outline-lint` reports for that folder; an
/// open document as the editor has it, a closed one as it is on disk.
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

  func run(_ params: LSP.WorkspaceDiagnosticParams, context: RequestContext) throws
    -> LSP.WorkspaceDiagnosticReport
  {
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
    var items: [LSP.WorkspaceDocumentDiagnosticReport] = []
    func flush(force: Bool) {
      guard let token = params.partialResultToken, !items.isEmpty, force || items.count >= Self.batch else {
        return
      }
      context.partialResult(token: token, LSP.WorkspaceDiagnosticReport(items: items))
      items.removeAll()
    }
    let total = paths.count + outside.count
    for (index, path) in paths.enumerated() {
      try context.cancellation.check()
      progress.report(
        index, of: total, message: "\(index)/\(total) \(URL(fileURLWithPath: path).lastPathComponent)")
      if let snapshot = openByPath[Self.standardized(path)] {
        items.append(report(snapshot, previous: previous))
      } else if let item = closedReport(path, previous: previous) {
        items.append(item)
      }
      flush(force: false)
    }
    for snapshot in outside {
      try context.cancellation.check()
      items.append(report(snapshot, previous: previous))
    }
    flush(force: true)
    progress.end("\(total) outlines")
    // With partial results everything went in `$/progress`, and the reply is empty.
    return LSP.WorkspaceDiagnosticReport(items: items)
  }

  /// An open document's report, `unchanged` when the client has this snapshot's.
  private func report(_ snapshot: Snapshot, previous: [String: String])
    -> LSP.WorkspaceDocumentDiagnosticReport
  {
    if previous[snapshot.uri] == snapshot.resultId {
      return .init(
        kind: .unchanged, resultId: snapshot.resultId, uri: snapshot.uri, version: snapshot.version,
        items: nil)
    }
    return .init(
      kind: .full, resultId: snapshot.resultId, uri: snapshot.uri, version: snapshot.version,
      items: DiagnosticsFeature.render(snapshot, mapper: mapper))
  }

  /// A closed file's report, read only when it changed since the client's
  /// `resultId` (its stamp and the models' generation); nil when it cannot be read.
  private func closedReport(_ path: String, previous: [String: String]) -> LSP
    .WorkspaceDocumentDiagnosticReport?
  {
    let uri = URL(fileURLWithPath: path).absoluteString
    let stamp = FileStamp(path)
    let resultId = "disk:\(generation):\(stamp.seconds).\(stamp.nanoseconds):\(stamp.size):\(stamp.inode)"
    if previous[uri] == resultId {
      return .init(kind: .unchanged, resultId: resultId, uri: uri, version: nil, items: nil)
    }
    guard let snapshot = try? store.closedFile(path) else { return nil }
    return .init(
      kind: .full, resultId: resultId, uri: uri, version: nil,
      items: DiagnosticsFeature.render(snapshot, mapper: mapper))
  }

  static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
