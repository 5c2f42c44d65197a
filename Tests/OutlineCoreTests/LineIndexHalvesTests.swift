import OutlineCore
import Testing

/// A text of 8 MiB or more is indexed in two halves on two cores: the line
/// starts are those of one pass, wherever the middle falls (on a `\n`, just
/// after one, inside a `\r\n`), with lines ending in `\n`, `\r\n` and `\r`.
@Suite struct LineIndexHalvesTests {
  @Test(arguments: [-2, -1, 0, 1, 2], [false, true])
  func halvesGiveTheLinesOfOnePass(shift: Int, crlfAtTheMiddle: Bool) {
    var text: [UInt8] = []
    var line = 0
    while text.count < (8 << 20) + 64 {
      text +=
        Array("<Item title=\"\(line)\" order=\"\(line % 7)\"/>".utf8)
        + (line % 3 == 0 ? [0x0D, 0x0A] : line % 3 == 1 ? [0x0A] : [0x0D])
      line += 1
    }
    // A newline at the middle, moved by `shift`.
    let middle = (text.count / 2) + shift
    text[middle] = 0x0A
    // Or a `\r\n` split by it: one line end, not two.
    if crlfAtTheMiddle { text[middle - 1] = 0x0D }
    let index = LineIndex(text)
    var onePass = LineIndex()
    text.withUnsafeBufferPointer { onePass.append($0) }
    #expect(index == onePass)
    #expect(index.byteCount == text.count)
    #expect(index.lineCount == LineEnds.lines(text).count)
    #expect(index.start(ofLine: index.line(containing: middle + 1)) == middle + 1)
  }
}
