import Foundation
import TestSupport
import Testing

/// A file in UTF-16 or UTF-32 without a byte order mark is named for what it looks like, at
/// its first NUL byte: a UTF-16LE file's first byte is `<`, its second the NUL.
@Suite struct WideEncodingCLITests {
  @Test func aFileWithoutAByteOrderMarkIsNamedForItsEncoding() throws {
    let folder = try CLI.temporaryFolder()
    let text = "<outline><Item order=\"0\"/></outline>\n"
    let cases: [(String, String.Encoding, String)] = [
      ("le.outline", .utf16LittleEndian, ":1:2: error[OL100]: The file looks like UTF-16 little-endian"),
      ("be.outline", .utf16BigEndian, ":1:1: error[OL100]: The file looks like UTF-16 big-endian"),
      ("le32.outline", .utf32LittleEndian, ":1:2: error[OL100]: The file looks like UTF-32 little-endian"),
    ]
    for (name, encoding, expected) in cases {
      try #require(text.data(using: encoding)).write(to: folder.appendingPathComponent(name))
      let run = try CLI.run("outline-lint", [name], in: folder)
      #expect(run.status == 1, "\(run.stderr)")
      #expect(run.stdout.contains(name + expected), "\(run.stdout)")
      #expect(run.stdout.contains("outline files are UTF-8"), "\(run.stdout)")
    }
  }
}
