import Foundation
import OutlineCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps a file read-only, for forward passes over inputs of any size: the
/// pages a reader has passed are handed back (`MADV_DONTNEED`), so resident
/// memory stays small however large the file is.
public enum MappedFile {
  /// The bytes of the file at `path`.
  public static func map(_ path: String) throws(ReadError) -> ByteBuffer {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw ReadError(
        description: "cannot read '\(path)': \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw ReadError(
        description: "cannot read '\(path)': \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
    }
    let size = Int(info.st_size)
    if size == 0 || (info.st_mode & S_IFMT) != S_IFREG {
      // Empty files and pipes: read them as they are.
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ReadError(description: "cannot read '\(path)'")
      }
      return ByteBuffer(copying: [UInt8](data))
    }
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
      throw ReadError(
        description: "cannot map '\(path)': \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
    }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let base = UnsafeRawPointer(address).assumingMemoryBound(to: UInt8.self)
    return ByteBuffer(
      buffer: UnsafeBufferPointer(start: base, count: size),
      release: { munmap(address, size) },
      discard: { offset in
        let length = (min(offset, size) / page) * page
        if length > 0 { madvise(address, length, Int32(MADV_DONTNEED)) }
      })
  }
}
