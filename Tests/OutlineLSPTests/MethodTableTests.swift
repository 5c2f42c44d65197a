import Foundation
import OutlineJSON
import Testing

@testable import OutlineLSP

/// The method table is the capability table: every method served is
/// advertised, and everything advertised is served.
@Suite struct MethodTableTests {
  static let baseProtocol: Set<String> = [
    "initialize", "initialized", "shutdown", "exit", "$/cancelRequest", "$/setTrace",
  ]

  static func advertised(_ routes: [Route]) throws -> JSONValue {
    try JSONValueCoding.encode(MethodTable.capabilities(of: routes, positionEncoding: nil))
  }

  @Test func everyMethodIsListedOnce() {
    let methods = MethodTable.routes.map(\.method)
    #expect(Set(methods).count == methods.count)
    #expect(MethodTable.byMethod.count == methods.count)
  }

  @Test func onlyTheBaseProtocolGoesUnadvertised() {
    let unadvertised = MethodTable.routes.filter {
      if case .baseProtocol = $0.advertisement { return true }
      return false
    }
    #expect(Set(unadvertised.map(\.method)) == Self.baseProtocol)
  }

  /// Each method outside the base protocol advertises something of its
  /// own, on its own (`didOpen` and `didClose` both set `openClose`, as LSP
  /// pairs them), or registers it dynamically.
  @Test func everyServedMethodIsAdvertised() throws {
    for route in MethodTable.routes {
      switch route.advertisement {
      case .baseProtocol: continue
      case .capability:
        #expect(try Self.advertised([route]) != .object([]), "\(route.method) advertises nothing")
      case .registration(let register):
        var client = LSP.ClientCapabilities()
        #expect(register(client) == nil, "\(route.method) registers for a client that cannot")
        client.workspace = .init(
          didChangeWatchedFiles: .init(dynamicRegistration: true),
          didChangeConfiguration: .init(dynamicRegistration: true))
        #expect(register(client)?.method == route.method, "\(route.method) registers something else")
      }
    }
  }

  /// Nothing is advertised but by a route: with no routes, the capabilities are empty.
  @Test func nothingIsAdvertisedWithoutAMethod() throws {
    #expect(try Self.advertised([]) == .object([]))
    let encoding = try JSONValueCoding.encode(MethodTable.capabilities(of: [], positionEncoding: "utf-16"))
    #expect(encoding == ["positionEncoding": "utf-16"])
  }

  @Test func everyAdvertisedProviderHasARequest() throws {
    // The capability keys the table advertises, each with the requests that set it.
    let requests = MethodTable.routes.filter(\.isRequest)
    guard case .object(let keys) = try Self.advertised(MethodTable.routes) else {
      Issue.record("capabilities are not an object")
      return
    }
    for (key, _) in keys where key.hasSuffix("Provider") {
      let setters = try requests.filter { route in
        guard case .capability = route.advertisement else { return false }
        return try Self.advertised([route])[key] != nil
      }
      #expect(!setters.isEmpty, "\(key) is advertised by no request")
    }
  }

  @Test func watchersAreRegisteredWhenTheClientCanRegisterThem() throws {
    var client = LSP.ClientCapabilities()
    #expect(WatchedFiles.registration(client) == nil)
    client.workspace = .init(didChangeWatchedFiles: .init(dynamicRegistration: true))
    let registration = try #require(WatchedFiles.registration(client))
    #expect(registration.method == "workspace/didChangeWatchedFiles")
    let options = try JSONValueCoding.decode(
      LSP.DidChangeWatchedFilesRegistrationOptions.self,
      from: try #require(registration.registerOptions).value)
    #expect(options.watchers.map(\.globPattern).contains("**/*.xcdatamodel/contents"))
    #expect(options.watchers.map(\.globPattern).contains("**/.outline.json"))
  }
}

/// Documentation/LanguageServer.md names every method the table serves.
@Suite struct MethodDocumentationTests {
  @Test func everyMethodIsDocumented() throws {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Documentation/LanguageServer.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    for route in MethodTable.routes {
      #expect(text.contains("`\(route.method)`"), "\(route.method) is not in LanguageServer.md")
    }
  }
}
