import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Time linear in the input on the shapes that trap quadratic code (issue 14,
/// item 6): a document written on one line with a problem in every item. Each
/// test takes the CPU time of the same work at n and 4n items: linear work takes about 4x,
/// quadratic 16x; the bound, 8x, leaves room for a noisy machine. The bounds
/// against other tools are in Benchmarks/shapes.
@Suite(.serialized) struct LinearShapeTests {
  /// `items` items on one line: 7 in 10 repeat order 0 (a related location each), the others have none.
  static func oneLine(_ items: Int) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><outline version=\"1\">"
      + (0..<items).map { $0 % 10 < 7 ? "<Item order=\"0\"/>" : "<Item/>" }.joined() + "</outline>\n"
  }

  /// The least CPU time (user + system) of `rounds` runs of `tool` with `arguments` in
  /// `folder`, as the shell that ran it counts its child's (`times`): other work on the machine
  /// (tests run in parallel) does not count, as it did in wall time. Also the last run's output.
  static func cpuSeconds(
    rounds: Int, _ tool: String, _ arguments: [String], in folder: URL
  ) throws -> (seconds: Double, output: CLI.Output) {
    var best = Double.infinity
    var last: CLI.Output?
    for _ in 0..<rounds {
      let script = "\"$@\" > out.txt 2>&1; status=$?; times; exit $status"
      let run = try CLI.program(
        "/bin/sh", ["-c", script, "sh", CLI.products.appendingPathComponent(tool).path] + arguments,
        in: folder)
      // `times`: the shell's user and system time, then its children's ("0m0.120s 0m0.010s").
      let children = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
      let seconds = children.split(separator: " ").compactMap { field -> Double? in
        guard let minutes = field.split(separator: "m").first.flatMap({ Double($0) }),
          let rest = field.split(separator: "m").last?.dropLast(), let secs = Double(rest)
        else { return nil }
        return minutes * 60 + secs
      }
      #expect(seconds.count == 2, "times printed \(run.stdout)")
      best = min(best, seconds.reduce(0, +))
      let stdout = (try? String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8)) ?? ""
      last = CLI.Output(status: run.status, stdout: stdout, stderr: "")
    }
    return (best, last!)
  }

  @Test(arguments: ["text", "sarif"])
  func lintOfOneLineIsLinear(format: String) throws {
    let folder = try CLI.temporaryFolder()
    // Large enough that the CPU time, counted in hundredths of a second, is mostly the work.
    try CLI.write(["small.outline": Self.oneLine(20_000), "large.outline": Self.oneLine(80_000)], in: folder)
    let small = try Self.cpuSeconds(
      rounds: 2, "outline-lint", ["--format", format, "small.outline"], in: folder)
    let large = try Self.cpuSeconds(
      rounds: 2, "outline-lint", ["--format", format, "large.outline"], in: folder)
    #expect(large.output.status == 1)
    #expect(large.output.stdout.split(separator: "\n").count > 80_000)
    #expect(large.output.stdout.count > 4 * small.output.stdout.count * 9 / 10)
    #expect(
      large.seconds < 8 * max(small.seconds, 0.01), "n: \(small.seconds) s, 4n: \(large.seconds) s of CPU")
  }

  /// The server on a document written on one line: every diagnostic and
  /// symbol at its place (the time is bounded by OutlineCoreTests'
  /// `rangesToTheEndOfALongLineAreLinear` and by Benchmarks/shapes).
  @Test func serverPositionsOnOneLine() throws {
    let items = 3_000
    let uri = "file:///tmp/linear-one-line.outline"
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, Self.oneLine(items))
    let published = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    #expect(published.count == items - 1)
    // Where the last item starts, counted as the document was written.
    let prefix = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><outline version=\"1\">".utf16.count
    let last = items - 1
    let column = prefix + (0..<last).reduce(0) { $0 + ($1 % 10 < 7 ? 17 : 7) } + 1
    #expect(published.contains { $0["range"]?["start"]?["character"]?.intValue == column })
    let symbols = client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]])
    let ranges = symbols?["result"]?.arrayValue ?? []
    #expect(ranges.count == items)
    #expect(ranges.last?["range"]?["start"]?["character"]?.intValue == column - 1)
    _ = client.close()
  }
}

/// One line per diagnostic (issue 14, item 10): whatever libxml2 says, every
/// line of text and GitHub output parses (a text diagnostic's related places follow on
/// indented `note:` lines).
@Suite struct OneLinePerDiagnosticTests {
  /// Inputs whose libxml2 messages span lines or quote control characters.
  static let inputs: [String: [UInt8]] = [
    // "Input is not proper UTF-8, indicate encoding !\nBytes: 0xFF ..."
    "bytes.outline": Array(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n  <Item title=\"a".utf8)
      + [0xFF, 0xFE] + Array("\" order=\"0\"/>\n</outline>\n".utf8),
    "control.outline": Array(
      "<?xml version=\"1.0\"?>\n<outline version=\"1\">\u{1}\u{1B}<Item/>\n</outline>\n".utf8),
    "mismatch.outline": Array("<outline version=\"1\">\n<Item order=\"0\">\n</Itm>\n</outline>\n".utf8),
    "charref.outline": Array("<outline version=\"1\" title=\"&#1;&#x1B;\">\n</outline>\n".utf8),
  ]

  @Test(arguments: ["text", "github"])
  func everyLineParses(format: String) throws {
    let folder = try CLI.temporaryFolder()
    for (name, bytes) in Self.inputs {
      try Data(bytes).write(to: folder.appendingPathComponent(name))
    }
    let output = try CLI.run(
      "outline-lint", ["--quiet", "--format", format] + Self.inputs.keys.sorted(), in: folder)
    #expect(output.status == 1)
    let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count >= Self.inputs.count)
    let grammar =
      format == "text"
      ? /(?:  )?[a-z]+\.outline:[0-9]+:[0-9]+: (?:(?:error|warning|information|hint)\[O[LMC][0-9]{3}\]|note): [^\n\r\x{0}-\x{8}\x{A}-\x{1F}\x{7F}]+/
      : /::(?:error|warning|notice) file=[a-z]+\.outline,line=[0-9]+,col=[0-9]+,endLine=[0-9]+,endColumn=[0-9]+,title=O[LMC][0-9]{3}::[^\n\r\x{0}-\x{8}\x{A}-\x{1F}\x{7F}]+/
    for line in lines {
      #expect(line.wholeMatch(of: grammar) != nil, "\(line)")
    }
    // The encoding error is there, as one line.
    #expect(output.stdout.contains("indicate encoding ! Bytes: 0xFF"))
  }
}
