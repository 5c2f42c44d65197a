import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineFiles

/// The pieces `fmt` streams through: the spool, the comparison of input and output as both
/// stream by, and a writer's splice.
@Suite struct StreamingOutputTests {
  static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
  }

  /// What `spool.write(to:...)` writes, read back from a temporary file.
  static func written(_ spool: Spool, replacing range: Range<Int>? = nil, with bytes: [UInt8] = []) throws
    -> [UInt8]
  {
    let file = try #require(FileDescriptorIO.anonymousTemporaryFile(prefix: "spool-test"))
    defer { close(file) }
    #expect(spool.write(to: file, replacing: range, with: bytes) == nil)
    lseek(file, 0, SEEK_SET)
    var result: [UInt8] = []
    try FileChunks.read(descriptor: file, name: "test") { result.append(contentsOf: $0) }
    return result
  }

  @Test(arguments: [1 << 20, 100, 1])
  func spoolGivesBackWhatWasAppendedInMemoryOrSpilled(memoryLimit: Int) throws {
    let data = Self.bytes(300_000)
    let spool = Spool(memoryLimit: memoryLimit)
    var start = 0
    for size in [1, 7, 4096, 65_536, 100_000] + Array(repeating: 50_000, count: 5) where start < data.count {
      let end = min(data.count, start + size)
      data.withUnsafeBufferPointer { spool.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
      start = end
    }
    #expect(spool.count == data.count)
    #expect(spool.bytes(in: 0..<data.count) == data)
    #expect(spool.bytes(in: 99..<150_123) == Array(data[99..<150_123]))
    #expect(spool.bytes(in: 299_990..<400_000) == Array(data[299_990...]))
    #expect(try Self.written(spool) == data)
    let replaced = try Self.written(spool, replacing: 40..<60, with: Array("root".utf8))
    #expect(replaced == Array(data[..<40]) + Array("root".utf8) + Array(data[60...]))
  }

  /// Hands `input` and `output` to a comparison in pieces of the given sizes, alternately.
  static func compare(_ input: [UInt8], _ output: [UInt8], inputPiece: Int, outputPiece: Int)
    -> StreamComparison
  {
    let comparison = StreamComparison()
    var (i, o) = (0, 0)
    while i < input.count || o < output.count {
      if i < input.count {
        let end = min(input.count, i + inputPiece)
        input.withUnsafeBufferPointer { comparison.input(UnsafeBufferPointer(rebasing: $0[i..<end])) }
        i = end
      }
      if o < output.count {
        let end = min(output.count, o + outputPiece)
        output.withUnsafeBufferPointer { comparison.output(UnsafeBufferPointer(rebasing: $0[o..<end])) }
        o = end
      }
    }
    return comparison
  }

  @Test(arguments: [(1, 1), (1000, 7), (7, 1000), (65_536, 65_536), (3, 100_000)])
  func comparisonFindsTheFirstDifferenceAtAnyPace(pieces: (Int, Int)) {
    let input = Self.bytes(20_000)
    #expect(Self.compare(input, input, inputPiece: pieces.0, outputPiece: pieces.1).equal)

    var output = input
    output[12_345] ^= 0xFF
    output += Array("tail".utf8)
    let differing = Self.compare(input, output, inputPiece: pieces.0, outputPiece: pieces.1)
    #expect(differing.differs && !differing.equal)
    let divergence = differing.takeDivergence()
    #expect(divergence.equal == 12_345)
    // The output after the common start, as much of it as was handed over (all of it here).
    #expect(divergence.output == Array(output[12_345...]))

    // One the start of the other: found once both ended.
    let longer = Self.compare(input, input + [1, 2, 3], inputPiece: pieces.0, outputPiece: pieces.1)
    #expect(!longer.equal)
    #expect(longer.takeDivergence() == (20_000, [1, 2, 3]))
    let shorter = Self.compare(input, Array(input[..<19_000]), inputPiece: pieces.0, outputPiece: pieces.1)
    #expect(!shorter.equal)
    let cut = shorter.takeDivergence()
    #expect(cut.equal == 19_000 && cut.output.isEmpty)
  }

  @Test func comparisonHoldsOnlyWhatTheOtherStreamHasNotReached() {
    // Equal streams far apart in pace: the comparison still ends equal, from both sides.
    let input = Self.bytes(5 << 20)
    let comparison = StreamComparison()
    input.withUnsafeBufferPointer { all in
      for start in stride(from: 0, to: all.count, by: 1 << 20) {
        comparison.input(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + (1 << 20))]))
        for piece in stride(from: start, to: min(all.count, start + (1 << 20)), by: 1 << 18) {
          comparison.output(UnsafeBufferPointer(rebasing: all[piece..<min(all.count, piece + (1 << 18))]))
        }
      }
    }
    #expect(comparison.equal && !comparison.differs)
  }

  @Test func spliceReplacesBytesAlreadyWritten() throws {
    let folder = Scratch.path("splice")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/doc.outline"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let body = Self.bytes(3 << 20)
    let writer = try AtomicFileWriter(path: path)
    writer.write(Array("<root a=\"1\">".utf8))
    writer.write(body)
    writer.splice(5..<11, with: Array(" a=\"1\" b=\"2\"".utf8))
    try writer.commit()
    let result = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(result == Array("<root a=\"1\" b=\"2\">".utf8) + body)
    // The first temporary file is gone with the second.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["doc.outline"])
  }
}
