// The one file of this module that names the platform's C library (Glibc,
// Musl or Darwin); every other file uses what it exports and the wrappers below.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif
