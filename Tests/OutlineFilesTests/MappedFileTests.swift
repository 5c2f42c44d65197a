import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineFiles

/// A mapped file another program changes while it is read: a page past its new end reads as
/// zeros instead of ending the process with SIGBUS, and the buffer says the file changed.
@Suite struct MappedFileTests {
  static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

  static func file(bytes count: Int) throws -> String {
    let path = Scratch.path("mapped", suffix: ".json")
    try Data(repeating: UInt8(ascii: "a"), count: count).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aPagePastTheEndOfAFileCutShortReadsAsZeros() throws {
    let path = try Self.file(bytes: 8 * Self.page + 100)
    let bytes = try MappedFile.map(path)
    #expect(bytes.changedWhileRead() == nil)
    #expect(bytes.view[5 * Self.page] == UInt8(ascii: "a"))
    #expect(truncate(path, 100) == 0)
    // Without the guard, this read ends the test process with SIGBUS.
    #expect(bytes.view[7 * Self.page + 3] == 0)
    #expect(bytes.view[8 * Self.page + 99] == 0)
    #expect(bytes.changedWhileRead()?.contains("cut short while it was read") == true)
  }

  @Test func aWriteInPlaceIsToldByTheFilesStamp() throws {
    let path = try Self.file(bytes: 3 * Self.page)
    let bytes = try MappedFile.map(path)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seek(toOffset: UInt64(Self.page))
    try handle.write(contentsOf: Data("changed".utf8))
    try handle.close()
    // The clock the file system stamps with may not have moved yet: a later stamp, as a
    // write a moment later has.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: path)
    #expect(bytes.changedWhileRead()?.contains("changed while it was read") == true)
  }

  @Test func guardsAreReusedAfterTheirMappingsEnd() throws {
    let path = try Self.file(bytes: 4 * Self.page)
    // More mappings, one after another, than there are guards at once.
    for _ in 0..<200 {
      let bytes = try MappedFile.map(path)
      #expect(bytes.view[Self.page] == UInt8(ascii: "a"))
    }
    let bytes = try MappedFile.map(path)
    #expect(truncate(path, 10) == 0)
    #expect(bytes.view[3 * Self.page] == 0)
    #expect(bytes.changedWhileRead() != nil)
  }

  @Test func anUnchangedFileReadsAsItIs() throws {
    let path = try Self.file(bytes: 2 * Self.page + 7)
    let bytes = try MappedFile.map(path)
    #expect(bytes.view.allSatisfy { $0 == UInt8(ascii: "a") })
    #expect(bytes.changedWhileRead() == nil)
  }
}
