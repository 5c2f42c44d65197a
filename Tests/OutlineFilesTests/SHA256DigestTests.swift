import Foundation
import TestSupport
import Testing

@testable import OutlineFiles

/// The lint cache's hash: SHA-256 as FIPS 180-4 defines it, however the bytes come.
@Suite struct SHA256DigestTests {
  func hex(_ text: String) -> String { SHA256Digest.hex(SHA256Digest.of(Array(text.utf8))) }

  @Test func theStandardsExamples() {
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(String(repeating: "a", count: 100_000))
        == "6d1cf22d7cc09b085dfc25ee1a1f3ae0265804c607bc2074ad253bcc82fd81ee")
  }

  /// Lengths on each side of where the padding takes a second block.
  @Test func lengthsAroundTheBlock() {
    let expected = [
      55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
      56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
      57: "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6",
      63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
      64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
      65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
      119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
      120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
      128: "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e",
    ]
    for (count, digest) in expected {
      #expect(hex(String(repeating: "a", count: count)) == digest, "\(count) bytes")
    }
  }

  @Test func piecesGiveWhatTheWholeGives() throws {
    try Property.check("SHA-256 of pieces", cases: 60) { random, _ in
      let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      var pieces = SHA256Digest()
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + Int.random(in: 1...70, using: &random))
        pieces.add(Array(bytes[start..<end]))
        start = end
      }
      let whole = SHA256Digest.of(bytes)
      var software = SHA256Digest(software: true)
      software.add(bytes)
      guard software.finish() == whole else { return "the processor's instructions and Swift disagree" }
      // Finishing leaves the digest as it was: finishing again, or after more bytes, still agrees.
      guard pieces.finish() == whole, pieces.finish() == whole else {
        return "\(bytes.count) bytes in pieces"
      }
      pieces.add([1])
      return pieces.finish() == SHA256Digest.of(bytes + [1]) ? nil : "more after finishing"
    }
  }
}

/// A model bundle's digest: its names and bytes, never its times.
@Suite struct TreeDigestTests {
  @Test func changesWithContentAndNamesNotWithTimes() throws {
    let folder = Scratch.path("tree")
    try FileManager.default.createDirectory(
      atPath: folder + "/A.xcdatamodel", withIntermediateDirectories: true)
    try Data("<model/>".utf8).write(to: URL(fileURLWithPath: folder + "/A.xcdatamodel/contents"))
    let first = TreeDigest.of(folder)
    #expect(TreeDigest.of(folder) == first)
    var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, folder + "/A.xcdatamodel/contents", &times, 0) == 0)
    #expect(TreeDigest.of(folder) == first, "a new modification time is the same content")
    try Data("<model />".utf8).write(to: URL(fileURLWithPath: folder + "/A.xcdatamodel/contents"))
    let edited = TreeDigest.of(folder)
    #expect(edited != first)
    try Data(".".utf8).write(to: URL(fileURLWithPath: folder + "/.xccurrentversion"))
    #expect(TreeDigest.of(folder) != edited, "a file added")
    #expect(TreeDigest.of(folder + "/missing") != TreeDigest.of(folder + "/A.xcdatamodel"))
  }

  @Test func aLinkCycleEnds() throws {
    let folder = Scratch.path("cycle")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(symlink(folder, folder + "/loop") == 0)
    let digest = TreeDigest.of(folder)
    #expect(digest.count == 32)
  }
}
