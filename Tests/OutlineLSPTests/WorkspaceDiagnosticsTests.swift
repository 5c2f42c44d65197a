import Foundation
import OutlineJSON
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineLSP

@Suite struct WorkspaceDiagnosticsTests {
  /// Every `*.outline` under `folder` (the binary passes outline-lint's own search).
  static let search: OutlineSearch = { folder, _ in
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var found: [String] = []
    while let name = enumerator?.nextObject() as? String {
      if name.hasSuffix(".outline") { found.append(folder + "/" + name) }
    }
    return found.sorted()
  }

  static func folder(_ count: Int) throws -> URL {
    let folder = Scratch.url("ws")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for index in 0..<count {
      try Data("<outline>\n  <Item title=\"\(index)\" order=\"\(index % 3)\"/>\n</outline>\n".utf8).write(
        to: folder.appendingPathComponent("f\(index).outline"))
    }
    return folder
  }

  func feature(_ folder: URL, store: DocumentStore) -> WorkspaceDiagnosticsFeature {
    WorkspaceDiagnosticsFeature(
      mapper: PositionMapper(unit: .utf16), folders: [folder.path], open: Array(store.documents.values),
      store: store,
      generation: store.generation, findOutlines: Self.search)
  }

  @Test func partialResultsCarryEveryReportAndTheReplyIsEmpty() throws {
    let folder = try Self.folder(70)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let sent = Sent()
    let context = RequestContext(cancellation: CancellationFlag(), notify: { sent.append($0, $1) })
    let reply = try feature(folder, store: store).report(
      LSP.WorkspaceDiagnosticParams(previousResultIds: [], partialResultToken: LSPAny("t")), context: context)
    #expect(reply.items.isEmpty)
    let parts = try sent.messages.map {
      try JSONValueCoding.decode(
        LSP.ProgressParams<LSP.WorkspaceDiagnosticReport>.self, from: JSONValue.parse($0.1.serializedBytes()))
    }
    #expect(parts.count == 3)  // 32 + 32 + 6
    let items = parts.flatMap(\.value.items)
    #expect(items.count == 70)
    // Files whose order is not 0 report OL402.
    #expect(items.filter { $0.items?.isEmpty == false }.count == 70 - 24)
  }

  @Test func aCancelledRequestStops() throws {
    let folder = try Self.folder(3)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cancellation = CancellationFlag()
    cancellation.cancel()
    #expect(throws: RequestCancelled.self) {
      try feature(folder, store: DocumentStore()).run(
        LSP.WorkspaceDiagnosticParams(previousResultIds: []),
        context: RequestContext(cancellation: cancellation, notify: { _, _ in }))
    }
  }

  @Test func aModelChangeChangesEveryResultId() throws {
    let folder = try Self.folder(2)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let first = try feature(folder, store: store).report(.init(previousResultIds: []), context: .detached)
    let previous = first.items.map { LSP.PreviousResultId(uri: $0.uri, value: $0.resultId!) }
    let same = try feature(folder, store: store).report(
      .init(previousResultIds: previous), context: .detached)
    #expect(same.items.map(\.kind) == [.unchanged, .unchanged])
    store.dependenciesChanged()
    let after = try feature(folder, store: store).report(
      .init(previousResultIds: previous), context: .detached)
    #expect(after.items.map(\.kind) == [.full, .full])
  }

  @Test func pullDiagnosticsAnswerUnchangedForTheSameSnapshot() throws {
    let store = DocumentStore()
    let snapshot = store.open(uri: "file:///tmp/x.outline", text: "<outline><Item order=\"1\"/></outline>\n")
    let feature = DiagnosticsFeature(mapper: PositionMapper(unit: .utf16))
    let first = try feature.report(snapshot, .init(textDocument: .init(uri: snapshot.uri)))
    #expect(first.kind == .full && first.items?.map(\.code) == ["OL402"])
    let second = try feature.report(
      snapshot, .init(textDocument: .init(uri: snapshot.uri), previousResultId: first.resultId))
    #expect(second.kind == .unchanged && second.items == nil && second.resultId == first.resultId)
    store.dependenciesChanged()
    let third = try feature.report(
      store[snapshot.uri]!, .init(textDocument: .init(uri: snapshot.uri), previousResultId: first.resultId))
    #expect(third.kind == .full)
  }

  @Test func progressBeginsOnlyAfterTheDelay() {
    let sent = Sent()
    let quick = WorkDoneProgressReporter(
      token: LSPAny("w"), title: "t", delay: 60, notify: { sent.append($0, $1) })
    quick.report(1, of: 2, message: "a")
    quick.end()
    #expect(sent.messages.isEmpty)
    let slow = WorkDoneProgressReporter(
      token: LSPAny("w"), title: "t", delay: 0, notify: { sent.append($0, $1) })
    slow.report(1, of: 2, message: "a")
    slow.end()
    #expect(sent.messages.map { $0.1["value"]?["kind"] } == ["begin", "end"])
    #expect(sent.messages.first?.1["value"]?["percentage"] == 50)
  }
}

/// Notifications a test context sent.
final class Sent: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [(String, JSONValue)] = []

  func append(_ method: String, _ params: JSONValue) {
    lock.lock()
    list.append((method, params))
    lock.unlock()
  }

  var messages: [(String, JSONValue)] {
    lock.lock()
    defer { lock.unlock() }
    return list
  }
}
