import Foundation
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// `textDocument/documentSymbol` with a partialResultToken: the symbols go
/// out in `$/progress` batches of whole subtrees, and joined they are the
/// unstreamed result, byte for byte.
@Suite struct SymbolsStreamingTests {
  let session = Session()

  /// The notifications a request sends, in order.
  final class Sent: @unchecked Sendable {
    let lock = NSLock()
    var notifications: [(String, JSONValue)] = []

    /// A request's context whose notifications are kept here.
    func context() -> RequestContext {
      RequestContext(cancellation: CancellationFlag()) { method, params in
        self.lock.lock()
        self.notifications.append((method, params))
        self.lock.unlock()
      }
    }
  }

  @Test func batchesJoinedAreTheWholeResult() throws {
    // 3,000 parents of one child: the batches grow (1,024 items, then 4,096, then the rest).
    let (snapshot, _) = session.open(GeneratedOutline.twoLevels(parents: 3000, children: 1))
    let feature = SymbolsFeature(mapper: session.mapper)
    let sent = Sent()
    let context = sent.context()
    let reply = try feature.symbols(snapshot, streamingOn: LSPAny("t"), context: context)
    #expect(reply.value.serializedBytes() == Array("[]".utf8))
    #expect(sent.notifications.count == 3)
    var joined: [UInt8] = Array("[".utf8)
    for (index, (method, params)) in sent.notifications.enumerated() {
      #expect(method == "$/progress")
      #expect(params["token"] == "t")
      let batch = params["value"]?.serializedBytes() ?? []
      #expect(batch.first == UInt8(ascii: "[") && batch.last == UInt8(ascii: "]"))
      if index > 0 { joined.append(UInt8(ascii: ",")) }
      joined += batch.dropFirst().dropLast()
    }
    joined.append(UInt8(ascii: "]"))
    #expect(joined == feature.symbols(snapshot).value.serializedBytes())
  }

  @Test func withoutATokenOrSymbolsNothingIsStreamed() throws {
    let feature = SymbolsFeature(mapper: session.mapper)
    let sent = Sent()
    let context = sent.context()
    let (snapshot, _) = session.open(GeneratedOutline.twoLevels(parents: 3, children: 2))
    let whole = try feature.symbols(snapshot, streamingOn: nil, context: context)
    #expect(whole.value.serializedBytes() == feature.symbols(snapshot).value.serializedBytes())
    let (empty, _) = session.open("<outline>\n</outline>\n")
    let none = try feature.symbols(empty, streamingOn: LSPAny("t"), context: context)
    #expect(none.value.serializedBytes() == Array("[]".utf8))
    #expect(sent.notifications.isEmpty)
  }

  @Test func aCancelledRequestStops() {
    let (snapshot, _) = session.open(GeneratedOutline.twoLevels(parents: 10, children: 1))
    let flag = CancellationFlag()
    flag.cancel()
    let context = RequestContext(cancellation: flag) { _, _ in }
    #expect(throws: RequestCancelled.self) {
      try SymbolsFeature(mapper: session.mapper).symbols(snapshot, streamingOn: LSPAny("t"), context: context)
    }
  }
}
