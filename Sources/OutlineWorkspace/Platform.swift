// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports and the wrappers below.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// The time of the coarse real-time clock, which file times are taken from (the precise one
/// where there is no coarse clock).
func coarseRealTime() -> timespec {
  var time = timespec()
  #if canImport(Darwin)
    clock_gettime(CLOCK_REALTIME, &time)
  #else
    clock_gettime(CLOCK_REALTIME_COARSE, &time)
  #endif
  return time
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
