import CMappedFiles
import Foundation
import OutlineCore

/// Maps a file read-only, for forward passes over inputs of any size: the
/// pages a reader has passed are handed back (`MADV_DONTNEED`), so resident
/// memory stays small however large the file is.
///
/// Another program may change the file while it is mapped. A read past its new end, when it
/// shrinks, would raise SIGBUS and end the process; the mapping is guarded instead
/// (`mapped_guard.h`: such a page reads as zeros), and the buffer's
/// ``ByteBuffer/changedWhileRead()`` tells of it, or of any change to the file's size or
/// modification time since it was mapped. Whoever reads the bytes asks it before trusting
/// what it read.
public enum MappedFile {
  /// The bytes of the regular file at `path`, refused when larger than `limit`
  /// (or not a regular file: nothing else is opened in a way that could block).
  public static func map(_ path: String, limit: Int = InputFile.defaultLimit) throws(ReadError) -> ByteBuffer
  {
    let descriptor = try InputFile.open(path)
    var keep = false
    defer { if !keep { close(descriptor) } }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw ReadError(path: path, errno: errno) }
    let size = Int(info.st_size)
    if size > limit { throw InputFile.tooLarge(InputFile.quoted(path), limit: limit) }
    if size == 0 {
      // Nothing to map (a file that grows meanwhile is read as it is then, within the limit).
      return ByteBuffer(
        copying: try InputFile.read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit))
    }
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
      throw ReadError(
        description:
          "cannot map \(Excerpt.quotedPath(path)): \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
    }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let base = UnsafeRawPointer(address).assumingMemoryBound(to: UInt8.self)
    let guardNumber = outline_mapped_guard_add(address, size)
    let mapped = FileStatus(info)
    keep = true
    return ByteBuffer(
      buffer: UnsafeBufferPointer(start: base, count: size),
      release: {
        outline_mapped_guard_remove(guardNumber)
        munmap(address, size)
        close(descriptor)
      },
      discard: { offset in
        let length = (min(offset, size) / page) * page
        if length > 0 { madvise(address, length, Int32(MADV_DONTNEED)) }
      },
      change: {
        if outline_mapped_guard_hit(guardNumber) != 0 {
          return "it was cut short while it was read (another program changed it)"
        }
        guard let now = FileStatus.of(descriptor: descriptor) else { return nil }
        return now.sameWriteStamp(as: mapped)
          ? nil : "it changed while it was read (another program wrote to it)"
      })
  }
}
