import Foundation
import Testing

@testable import OutlineLSP

/// Every method the server serves is documented in LanguageServer.md.
@Suite struct MethodDocumentationTests {
  @Test func everyMethodServedIsDocumented() throws {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Documentation/LanguageServer.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    for route in MethodTable.routes {
      #expect(text.contains("`\(route.method)`"), "\(route.method) is served but not in LanguageServer.md")
    }
  }
}
