import OutlineCore
import Testing

@testable import OutlineXML

/// Ranges are the file's bytes whatever encoding the declaration names: an ASCII declaration
/// is read as UTF-8 (libxml2 would switch to a decoder of its own and count from after the
/// declaration), and encodings libxml2 would transcode are refused before it reads a byte.
@Suite struct DeclaredEncodingTests {
  static func lines(_ bytes: [UInt8]) -> [String] {
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder)
    return recorder.lines
  }

  @Test(arguments: ["US-ASCII", "ascii", "UTF-8", "utf8"])
  func anASCIIOrUTF8DeclarationKeepsTheFilesRanges(encoding: String) {
    let body = "\n<outline version=\"1\">\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n"
    let declared = Self.lines(Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\(body)".utf8))
    let start = declared.first { $0.hasPrefix("start Item") }
    #expect(start == "start Item tag=<Item title=\"a\" order=\"0\"/> empty [title=a order=0]")
    #expect(!declared.contains { $0.hasPrefix("error") })
  }

  @Test func anEBCDICFileIsRefused() {
    // `<?xml version="1.0"?><a/>` in EBCDIC (code page 37).
    let bytes: [UInt8] = [
      0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40, 0xA5, 0x85, 0x99, 0xA2, 0x89, 0x96, 0x95, 0x7E, 0x7F, 0xF1,
      0x4B, 0xF0, 0x7F, 0x6F, 0x6E, 0x4C, 0x81, 0x61, 0x6E,
    ]
    let lines = Self.lines(bytes)
    #expect(
      lines == ["error@0 The file is EBCDIC (it starts with '<?xm' in EBCDIC); outline files are UTF-8"])
  }

  /// A byte that is not ASCII in a file that declares ASCII stops the parse there, as a
  /// decoder of that encoding would: everything before it is reported as usual.
  @Test(arguments: [1, 7, 1 << 20])
  func aByteThatIsNotASCIIContradictsTheDeclaration(chunkSize: Int) {
    let text =
      "<?xml version=\"1.0\" encoding=\"us-ascii\"?>\n<outline version=\"1\">\n  <Item title=\"a\" order=\"0\"/>\n"
      + "  <Item title=\"caf\u{E9}\" order=\"1\"/>\n</outline>\n"
    let bytes = Array(text.utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder, chunkSize: chunkSize)
    let offset = bytes.firstIndex(of: 0xC3)!
    #expect(recorder.lines.contains("start Item tag=<Item title=\"a\" order=\"0\"/> empty [title=a order=0]"))
    #expect(
      recorder.lines.last
        == "error@\(offset) The file declares us-ascii, but this byte (0xC3) is not ASCII; outline files are UTF-8: declare encoding=\"UTF-8\""
    )
    #expect(!recorder.lines.contains { $0.contains("caf") })
  }
}
