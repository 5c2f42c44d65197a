// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports and the wrappers below.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// exit(3), callable where a command's own `exit` would be found first.
func platformExit(_ code: Int32) -> Never {
  exit(code)
}

/// The entries of the folder at `path` (without `.` and `..`) with their
/// `d_type` (`folderEntryRegular`, `folderEntryFolder`, or another value when the
/// file system does not say or it is something else) and inode number, or nil when it
/// cannot be read.
func folderEntries(_ path: String, notUTF8: (_ escaped: String, _ bytes: [UInt8]) -> Void = { _, _ in }) -> [(
  name: String, type: UInt8, inode: UInt64
)]? {
  guard let folder = opendir(path) else { return nil }
  defer { closedir(folder) }
  var entries: [(name: String, type: UInt8, inode: UInt64)] = []
  while let entry = readdir(folder) {
    let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
      String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
    }
    guard let name else {
      // A name that is not UTF-8 cannot be carried as a path here: said, not passed over.
      let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      let escaped = String(
        decoding: bytes.flatMap {
          $0 < 0x80 ? [$0] : Array("\\x\(String($0, radix: 16, uppercase: true))".utf8)
        },
        as: UTF8.self)
      notUTF8(escaped, bytes)
      continue
    }
    if name == "." || name == ".." { continue }
    entries.append((name, entry.pointee.d_type, UInt64(entry.pointee.d_ino)))
  }
  return entries
}

/// `d_type` of a regular file and of a folder.
let folderEntryRegular = UInt8(DT_REG)
let folderEntryFolder = UInt8(DT_DIR)
