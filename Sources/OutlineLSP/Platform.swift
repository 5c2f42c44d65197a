// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// The last modification time in a `stat` result (the field is named apart on each platform).
func modificationTime(_ info: stat) -> timespec {
  #if canImport(Darwin)
    info.st_mtimespec
  #else
    info.st_mtim
  #endif
}
