import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

/// The doors through which the modules without raw memory read what the system holds: a
/// folder's entries and the arguments as bytes, and a file's chunks and ranges as views.
@Suite struct SystemNamesTests {
  @Test func aFoldersEntriesComeWithTheirKindAndANameThatIsNotUTF8Apart() throws {
    let folder = try Scratch.folder("names").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/a.outline"))
    try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
    // A name with a byte that is not UTF-8 (Latin-1 e-acute).
    let raw = Array(folder.utf8) + Array("/caf".utf8) + [0xE9] + Array(".outline".utf8) + [0]
    let made = open(raw.map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY, 0o644)
    #expect(made >= 0)
    close(made)
    defer { unlink(raw.map { CChar(bitPattern: $0) }) }
    var apart: [(name: [UInt8], type: UInt8)] = []
    let entries = try #require(SystemNames.folderEntries(folder) { apart.append(($0, $1)) })
    let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
    #expect(Set(byName.keys) == ["a.outline", "sub"])
    #expect(byName["a.outline"]?.type == UInt8(DT_REG))
    #expect(byName["sub"]?.type == UInt8(DT_DIR))
    #expect(byName["a.outline"]?.inode != 0)
    #expect(apart.map(\.name) == [Array("caf".utf8) + [0xE9] + Array(".outline".utf8)])
    #expect(SystemNames.folderEntries(folder + "/missing") == nil)
  }

  @Test func aPathGivenAsBytesIsLookedAtWithoutFollowingALink() throws {
    let folder = try Scratch.folder("status").path
    let name = Array(folder.utf8) + Array("/caf".utf8) + [0xE9]
    let made = open((name + [0]).map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY, 0o644)
    #expect(made >= 0)
    close(made)
    defer { unlink((name + [0]).map { CChar(bitPattern: $0) }) }
    #expect(try #require(SystemNames.linkStatus(bytes: name)).st_mode & S_IFMT == S_IFREG)
    #expect(symlink(folder + "/nowhere", folder + "/link") == 0)
    #expect(
      try #require(SystemNames.linkStatus(bytes: Array((folder + "/link").utf8))).st_mode & S_IFMT == S_IFLNK)
    #expect(SystemNames.linkStatus(bytes: Array((folder + "/nowhere").utf8)) == nil)
  }

  @Test func theArgumentsAreTheProcesssOwn() {
    let arguments = SystemNames.arguments()
    #expect(arguments.count == CommandLine.arguments.count)
    #expect(arguments.first.map { String(decoding: $0, as: UTF8.self) } == CommandLine.arguments.first)
  }

  @Test func aRangeIsReadInViewsAndTheOffsetStays() throws {
    let path = Scratch.path("range")
    let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    #expect(lseek(descriptor, 5, SEEK_SET) == 5)
    for range in [0..<3000, 17..<2999, 100..<100] {
      var read: [UInt8] = []
      #expect(FileChunks.readViews(descriptor: descriptor, range: range) { read.append(contentsOf: $0) })
      #expect(read == Array(bytes[range]))
    }
    #expect(lseek(descriptor, 0, SEEK_CUR) == 5)
    // Past the end: not all of it could be read.
    #expect(!FileChunks.readViews(descriptor: descriptor, range: 2990..<3010) { _ in })
  }

  @Test func aPrefixIsReadUntilTheReaderHasEnough() throws {
    let path = Scratch.path("prefix")
    let bytes = Array(repeating: UInt8(ascii: "a"), count: 10_000)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var chunks: [Int] = []
    FileChunks.readPrefix(descriptor: descriptor, chunkBytes: 4096) { chunk in
      chunks.append(chunk.count)
      return chunks.count < 2
    }
    #expect(chunks == [4096, 4096])
    // On from where it stopped, to the end.
    var rest = 0
    FileChunks.readPrefix(descriptor: descriptor, chunkBytes: 4096) { chunk in
      rest += chunk.count
      return true
    }
    #expect(rest == 10_000 - 8192)
  }
}
