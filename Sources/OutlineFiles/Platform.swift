// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports and the wrappers below.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// open(2) for read-only use, callable from types that have an `open` of their own.
func platformOpen(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}

/// read(2), callable from types that have a `read` of their own.
func platformRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// The last modification time in a `stat` result (the field is named apart on each platform).
func modificationTime(_ info: stat) -> timespec {
  #if canImport(Darwin)
    info.st_mtimespec
  #else
    info.st_mtim
  #endif
}

/// The last status change time in a `stat` result.
func statusChangeTime(_ info: stat) -> timespec {
  #if canImport(Darwin)
    info.st_ctimespec
  #else
    info.st_ctim
  #endif
}
