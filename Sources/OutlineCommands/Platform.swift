// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports and the wrappers below.

import OutlineFiles

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
/// cannot be read. A name that is not UTF-8 cannot be carried as a path: it goes to `notUTF8`
/// as its bytes instead, with its `d_type`.
func folderEntries(_ path: String, notUTF8: (_ name: [UInt8], _ type: UInt8) -> Void = { _, _ in }) -> [(
  name: String, type: UInt8, inode: UInt64
)]? {
  SystemNames.folderEntries(path, notUTF8: notUTF8)
}

/// What `lstat` says of `path`, given as bytes (a link not followed), or nil when nothing is there.
func fileStatus(bytes path: [UInt8]) -> stat? { SystemNames.linkStatus(bytes: path) }

/// Whether a file (of any kind, a link not followed) is named by `path`, given as bytes.
func fileExists(bytes path: [UInt8]) -> Bool { fileStatus(bytes: path) != nil }

/// Whether `path`, given as bytes, names a folder (a link not followed).
func isFolder(bytes path: [UInt8]) -> Bool {
  fileStatus(bytes: path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
}

/// The command line's arguments as the process was given them, bytes that are not UTF-8
/// included (`CommandLine.arguments` holds U+FFFD in their place).
func rawArguments() -> [[UInt8]] { SystemNames.arguments() }

/// The working folder's absolute path as its bytes, a name that is not UTF-8 included (Foundation's
/// `currentDirectoryPath` holds U+FFFD in its place), or nil when it cannot be known (removed
/// while running: `getcwd` fails, or gives Linux's `(unreachable)` path, which is not absolute).
func workingFolderBytes() -> [UInt8]? {
  var size = 4096
  while size <= 1 << 20 {
    var buffer = [CChar](repeating: 0, count: size)
    if getcwd(&buffer, size) != nil {
      let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      return bytes.first == UInt8(ascii: "/") ? bytes : nil
    }
    guard errno == ERANGE else { return nil }
    size *= 2
  }
  return nil
}

/// `d_type` of a regular file and of a folder.
let folderEntryRegular = UInt8(DT_REG)
let folderEntryFolder = UInt8(DT_DIR)
