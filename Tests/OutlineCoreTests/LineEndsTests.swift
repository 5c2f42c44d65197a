import OutlineCore
import Testing

/// Lines end at `\n`, `\r\n` and a lone `\r` (XML's line ends, and the
/// Language Server Protocol's): the index finds them however the text
/// arrives (whole, in chunks split anywhere, edited in place).
@Suite struct LineEndsTests {
  static func starts(_ index: LineIndex) -> [Int] {
    (0..<index.lineCount).map { index.start(ofLine: $0) }
  }

  @Test func everyKindOfLineEndStartsALine() {
    let text = Array("a\rb\r\nc\nd\r".utf8)
    let index = LineIndex(text)
    #expect(Self.starts(index) == [0, 2, 5, 7, 9])
    #expect(index.lineCount == 5)
    text.withUnsafeBufferPointer { buffer in
      #expect(index.contentEnd(ofLine: 0, in: buffer) == 1)
      #expect(index.contentEnd(ofLine: 1, in: buffer) == 3)
      #expect(index.contentEnd(ofLine: 3, in: buffer) == 8)
      #expect(index.contentEnd(ofLine: 4, in: buffer) == 9)
    }
    #expect(Self.starts(LineIndex(Array("\r\r\n\r".utf8))) == [0, 1, 3, 4])
    let source = SourceText("<a>\r<b/>\r</a>")
    #expect(source.position(of: 5, unit: .utf16) == SourcePosition(line: 1, column: 1))
    #expect(source.lineText(2) == "</a>")
  }

  /// Texts of `\r`, `\n` and `x`: every text of up to seven bytes.
  static let texts: [[UInt8]] = {
    var texts: [[UInt8]] = [[]]
    var last: [[UInt8]] = [[]]
    for _ in 0..<7 {
      last = last.flatMap { text in [0x0D, 0x0A, 0x78].map { text + [$0] } }
      texts += last
    }
    return texts
  }()

  @Test func chunksSplitAnywhereGiveTheLinesOfOnePass() {
    for text in Self.texts {
      let whole = LineIndex(text)
      for split in 0...text.count {
        var chunked = LineIndex()
        text.withUnsafeBufferPointer { buffer in
          chunked.append(UnsafeBufferPointer(rebasing: buffer[..<split]))
          chunked.append(UnsafeBufferPointer(rebasing: buffer[split...]))
        }
        #expect(chunked == whole, "\(text) split at \(split)")
      }
    }
  }

  /// An edit can join a `\r` and a `\n` into one line end, or part them.
  @Test func editsGiveTheLinesOfTheTextIndexedAfresh() {
    let insertions: [[UInt8]] = [[], [0x0A], [0x0D], [0x0D, 0x0A], [0x78], [0x0A, 0x0D], [0x78, 0x0D]]
    for text in Self.texts where text.count <= 5 {
      for start in 0...text.count {
        for end in start...text.count {
          for inserted in insertions {
            var source = SourceText(bytes: text)
            source.replace(TextRange(start: start, end: end), with: inserted)
            let expected = Array(text[..<start]) + inserted + Array(text[end...])
            #expect(source == SourceText(bytes: expected), "\(text) [\(start), \(end)) <- \(inserted)")
          }
        }
      }
    }
  }

  /// `normalized` writes each line end the index finds as one `ending`, whatever its kind, and
  /// leaves every other byte.
  @Test func normalizedWritesEveryLineEndAsOne() {
    for text in Self.texts {
      for ending in [[0x0A], [0x0D, 0x0A], [0x0D]] as [[UInt8]] {
        let normalized = LineEnds.normalized(text, to: ending)
        // Each line's `x`s, then `ending` where the line has a line end.
        let expected = LineEnds.lines(text).flatMap { line -> [UInt8] in
          let ended = !line.isEmpty && text[line.upperBound - 1] != 0x78
          return text[line].filter { $0 == 0x78 } + (ended ? ending : [])
        }
        #expect(normalized == expected, "\(text) to \(ending)")
      }
    }
    #expect(LineEnds.normalized(Array("<!-- a\r\nb\rc\nd -->".utf8)) == Array("<!-- a\nb\nc\nd -->".utf8))
  }

  @Test func theHelpersAgreeWithTheIndex() {
    for text in Self.texts {
      let index = LineIndex(text)
      let starts = Set(Self.starts(index))
      for offset in 0...text.count {
        #expect(LineEnds.startsLine(text, at: offset) == starts.contains(offset), "\(text) at \(offset)")
      }
      let lines = LineEnds.lines(text)
      #expect(lines.map(\.lowerBound) == Self.starts(index), "\(text)")
      #expect(lines.last?.upperBound == text.count)
    }
    #expect(LineEnds.first(in: Array("a\r\nb\n".utf8)) == [0x0D, 0x0A])
    #expect(LineEnds.first(in: Array("a\rb\n".utf8)) == [0x0D])
    #expect(LineEnds.first(in: Array("a\nb\r\n".utf8)) == [0x0A])
    #expect(LineEnds.first(in: Array("ab".utf8)) == [0x0A])
    #expect(LineEnds.converting(Array("a\nb\n".utf8), to: [0x0D]) == Array("a\rb\r".utf8))
    // A `\r\n` copied as it stood (a comment's) stays one line end, to CRLF or to CR.
    #expect(
      LineEnds.converting(Array("a\n<!-- x\r\ny -->\n".utf8), to: [0x0D, 0x0A])
        == Array("a\r\n<!-- x\r\ny -->\r\n".utf8))
    #expect(
      LineEnds.converting(Array("a\n<!-- x\r\ny -->\n".utf8), to: [0x0D])
        == Array("a\r<!-- x\r\ny -->\r".utf8))
    #expect(LineEnds.length(Array("\r\n".utf8), at: 0) == 2)
    #expect(LineEnds.length(Array("\r\r".utf8), at: 0) == 1)
  }
}
