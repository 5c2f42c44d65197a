#ifndef OUTLINE_CLIBXML2_SHIM_H
#define OUTLINE_CLIBXML2_SHIM_H
#include <stddef.h>
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so its headers pull in the system ICU
 * headers, whose UErrorCode differs from the one Foundation's _FoundationICU
 * module defines; a module that imports both then fails to build, depending on
 * build order. The toolchain uses no ICU-specific libxml2 API (only pointers to
 * encoding handlers cross into Swift), so the ICU parts are left out here. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#include <libxml/uri.h>

/* The last `byte` in the `count` bytes at `start`, or NULL: the parser finds
 * a tag's `<` from the `>` libxml2 stands on. glibc's memrchr is vectorized;
 * elsewhere a plain loop. */
#if defined(__linux__)
/* glibc's memrchr, declared here rather than through _GNU_SOURCE: defining
 * that macro in this module changes glibc's struct definitions (fd_set) and
 * clashes with the SwiftGlibc module on a fresh build. */
extern void *memrchr(const void *s, int c, size_t n);
#endif
static inline const unsigned char *outline_last_byte(const unsigned char *start, int byte, size_t count) {
#if defined(__linux__)
  return (const unsigned char *)memrchr(start, byte, count);
#else
  while (count > 0) {
    count--;
    if (start[count] == (unsigned char)byte) return start + count;
  }
  return NULL;
#endif
}

/* Asks the processor to bring the cache line at `address` in ahead of a
 * read: the event pipeline's consumer reads the tags the parser's core read
 * into memory, a few tags ahead of its scan. */
static inline void outline_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address, 0, 3);
#endif
}

/* Asks the processor to bring the cache line at `address` in ahead of a
 * write: the validator's id table is larger than the caches on a large file,
 * and a slot fetched ahead of time costs no wait when it is written. */
static inline void outline_prefetch_for_write(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address, 1, 3);
#endif
}

/* A counter one thread may bump while others read it, without a lock: the
 * configuration finder's generation, which a thread compares with the one its
 * kept answer was found in (C11 atomics; Swift's need macOS 15). */
static inline long outline_atomic_load(const long *value) {
  return __atomic_load_n(value, __ATOMIC_ACQUIRE);
}
static inline void outline_atomic_increment(long *value) {
  __atomic_add_fetch(value, 1, __ATOMIC_ACQ_REL);
}
#endif
