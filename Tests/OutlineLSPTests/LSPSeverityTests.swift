import OutlineCore
import OutlineJSON
import Testing

/// The server says each severity with LSP's `DiagnosticSeverity` numbers
/// (1 error, 2 warning, 3 information, 4 hint), which `Severity` itself does not carry.
@Suite struct LSPSeverityTests {
  static let lspNumbers: [Severity: Int] = [.error: 1, .warning: 2, .information: 3, .hint: 4]

  @Test func publishedSeveritiesAreLSPNumbers() async throws {
    let uri = "file:///tmp/lsp-severity.outline"
    let text = """
      <outline>
        <Item title="A" order="0">
          <Item title="A1" order="0"/>
          <Item title="A2" order="0"/>
        </Item>
        <Item title="C" order="2"/>
        <Item title="B" order="1"/>
      </outline>

      """
    let client = ServerClient()
    _ = await client.initialize()
    client.open(uri, text)
    let published = await client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    var seen: Set<Severity> = []
    for diagnostic in published {
      let code = try #require(diagnostic["code"]?.stringValue)
      let severity = DiagnosticCode(rawValue: code).defaultSeverity
      seen.insert(severity)
      #expect(diagnostic["severity"] == .int(try #require(Self.lspNumbers[severity])), "\(code)")
    }
    #expect(seen.isSuperset(of: [.error, .hint]), "\(published)")
    #expect(await client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(await client.close() == 0)
  }
}
