import Foundation
import TestSupport
import Testing

/// A folder of many small files, as `Benchmarks/run` lints it: every file
/// found (and only those), in order, the same with one job or several, a
/// configuration applying to its whole subtree.
@Suite struct ManyFilesTests {
  static func tree() throws -> URL {
    let folder = try CLI.temporaryFolder()
    var files: [String: String] = [
      ".outline.json": #"{"exclude": ["d1/skipped/*.outline"]}"#,
      "d1/skipped/s.outline": "<outline version=\"1\"><Item order=\"5\"/></outline>\n",
      "d0/notes.txt": "not an outline\n",
      "d0/bad.outline": "<outline version=\"1\"><Item order=\"0\"/><Item order=\"0\"/></outline>\n",
    ]
    for number in 0..<60 {
      let path = "d\(number % 3)/e\(number % 5)/f\(number).outline"
      files[path] = "<outline version=\"1\"><Item order=\"0\" title=\"\(number)\"/></outline>\n"
    }
    try CLI.write(files, in: folder)
    // A folder whose name looks like a file's is searched, not read.
    try CLI.write(["d2/folder.outline/inner.outline": "<outline version=\"1\"/>\n"], in: folder)
    return folder
  }

  @Test func everyFileOfANestedTreeOnceInOrderWhateverTheJobs() throws {
    let folder = try Self.tree()
    var outputs: [String] = []
    for jobs in ["1", "2", "7"] {
      let run = try CLI.run("outline-lint", ["--format", "json", "--jobs", jobs, "."], in: folder)
      #expect(run.status == 1, "\(run.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      let files = (document?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
      #expect(files.count == 62, "\(files)")
      #expect(files == files.sorted())
      #expect(files.contains("d2/folder.outline/inner.outline"))
      #expect(!files.contains { $0.contains("skipped") || $0.hasSuffix(".txt") })
      outputs.append(run.stdout)
    }
    #expect(Set(outputs).count == 1)
  }

  @Test func theConfigurationAppliesThroughSpellingsOfTheSameFolder() throws {
    let folder = try Self.tree()
    // The excluded file named explicitly is read; reached through `..`, the same configuration applies.
    let run = try CLI.run(
      "outline-lint", ["d0/../d1/skipped/s.outline", "d1/skipped/../skipped/s.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout.contains("d0/../d1/skipped/s.outline:1:"))
    #expect(run.stdout.contains("d1/skipped/../skipped/s.outline:1:"))
  }
}
