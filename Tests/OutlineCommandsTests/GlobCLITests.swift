import Foundation
import TestSupport
import Testing

/// The globs of `.outline.json` match characters, not bytes (Configuration.md: "`?` one
/// character other than `/`"), in `exclude` and in `models`; a name that is not UTF-8 is
/// matched by its characters and stray bytes, so `exclude` passes over it too.
@Suite struct GlobCLITests {
  static let document = "<outline><Item order=\"1\"/></outline>"

  @Test func aQuestionMarkExcludesAOneCharacterName() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        ".outline.json": #"{"exclude": ["?.outline"]}"#, "é.outline": Self.document,
        "a.outline": Self.document,
      ],
      in: folder)
    let one = try CLI.run("outline-lint", ["--quiet", "."], in: folder)
    #expect(one.status == 0, "\(one.stdout)")
    #expect(one.stdout.isEmpty)
    try CLI.write([".outline.json": #"{"exclude": ["??.outline"]}"#], in: folder)
    let two = try CLI.run("outline-lint", ["."], in: folder)
    #expect(two.status == 1)
    #expect(two.stdout.contains("é.outline:1:"), "\(two.stdout)")
    #expect(two.stdout.contains("a.outline:1:"), "\(two.stdout)")
  }

  @Test func anExcludedNameThatIsNotUTF8IsPassedOver() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": "<outline><Item order=\"0\"/></outline>"], in: folder)
    let drafts = folder.appendingPathComponent("drafts")
    try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
    // `drafts/\xE9.outline`: é in ISO-8859-1, one byte that is not UTF-8.
    let name = Array(drafts.path.utf8) + Array("/".utf8) + [0xE9] + Array(".outline".utf8) + [0]
    let fd = name.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
    }
    try #require(fd >= 0)
    close(fd)
    for glob in ["drafts/**", "drafts/?.outline", "drafts/*.outline"] {
      try CLI.write([".outline.json": #"{"exclude": ["\#(glob)"]}"#], in: folder)
      let run = try CLI.run("outline-lint", ["."], in: folder)
      #expect(run.status == 0, "\(glob): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(glob)")
    }
    // Not excluded, it is said to be unreadable, as before.
    try CLI.write([".outline.json": #"{"exclude": ["drafts/??.outline"]}"#], in: folder)
    let run = try CLI.run("outline-lint", ["."], in: folder)
    #expect(run.status == 2)
    #expect(run.stderr.contains(#"drafts/\xE9.outline': file names that are not UTF-8 are not supported"#))
  }
}
