import Foundation
import TestSupport
import Testing

/// Real OPML files are not outline files, but the linter must take every one
/// (malformed, other encodings, HTML) with a diagnostic and never a crash.
@Suite(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
struct CorpusOPMLLintTests {
  static let corpus = Corpus.folder("opml")

  @Test func everyCorpusOPMLFileGetsDiagnosticsNotACrash() throws {
    let names = Corpus.names(in: "opml")
    let paths = names.sorted().map { Self.corpus.appendingPathComponent($0).path }
    #expect(paths.count >= 30)
    let run = try CLI.run("outline-lint", ["--format", "json"] + paths)
    #expect(run.status == 1, "\(run.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    let files = document["files"] as! [[String: Any]]
    #expect(files.count == paths.count)
    for file in files {
      let codes = (file["diagnostics"] as! [[String: Any]]).map { $0["code"] as! String }
      // Each is reported as not an outline (OL101) or not well-formed / not UTF-8 (OL100).
      #expect(codes.contains("OL101") || codes.contains("OL100"), "\(file["path"]!): \(codes)")
    }
  }
}
