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

/* What the parser's SAX callbacks share (libxml2's user data): the Swift
 * parser that owns it, the context, and where the white space libxml2 handed
 * over last, in place, ends (a document offset, or -1; the parser finds the
 * next tag's `<` there). Most character data calls are the white space
 * between tags: `outline_sax_characters` answers them here, without a call
 * into Swift, and hands the rest to `characters`. */
typedef struct outline_sax_state {
  void *owner;
  xmlParserCtxtPtr context;
  long textEnd;
  void (*characters)(void *owner, const xmlChar *characters, int length);
} outline_sax_state;

/* Whether the `length` bytes at `bytes` are all below 0x21 (in character data
 * libxml2 accepts, XML white space), eight at a time: the high bit of a byte of
 * `(word | 0x80...) - 0x21...` is set where its low seven bits are 0x21 or
 * more, and a byte of 0x80 or more is no space. */
static inline int outline_is_space_run(const unsigned char *bytes, int length) {
  const unsigned long long highs = 0x8080808080808080ULL, bound = 0x2121212121212121ULL;
  int index = 0;
  unsigned long long word;
  if (length < 8) {
    for (; index < length; index++)
      if (bytes[index] > 0x20) return 0;
    return 1;
  }
  for (; index + 8 <= length; index += 8) {
    __builtin_memcpy(&word, bytes + index, 8);
    if ((((word | highs) - bound) | word) & highs) return 0;
  }
  if (index == length) return 1;
  __builtin_memcpy(&word, bytes + length - 8, 8);
  return !((((word | highs) - bound) | word) & highs);
}

static inline void outline_sax_characters(void *user, const xmlChar *characters, int length) {
  outline_sax_state *state = (outline_sax_state *)user;
  xmlParserInputPtr input = state->context != NULL ? state->context->input : NULL;
  if (input != NULL && input->base != NULL && characters >= input->base && characters + length <= input->end &&
      outline_is_space_run(characters, length)) {
    state->textEnd = (long)input->consumed + (long)(characters - input->base) + length;
    return;
  }
  state->characters(state->owner, characters, length);
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
