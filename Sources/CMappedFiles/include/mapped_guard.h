#ifndef OUTLINE_MAPPED_GUARD_H
#define OUTLINE_MAPPED_GUARD_H
#include <stddef.h>

/* A file mapped for reading can shrink while it is read (another program
 * truncates it and writes it again in place); reading a page past its new end
 * then raises SIGBUS, which would end the process. While a mapping is guarded,
 * such a page is replaced by a page of zeros and the guard remembers it: the
 * reader goes on, sees bytes that are not the file's, and its owner asks
 * `outline_mapped_guard_hit` before trusting anything it read. A SIGBUS
 * anywhere else goes to the handler that was there before (or ends the
 * process, as it would have). */

/* Guards the `length` bytes at `base`; returns the guard's number, or -1 when
 * none is free (the mapping is then read unguarded) or the handler could not
 * be installed. */
int outline_mapped_guard_add(const void *base, size_t length);

/* Whether a page of the guard's mapping was past the file's end when read. */
int outline_mapped_guard_hit(int guard);

/* Ends the guard (before the mapping is unmapped). */
void outline_mapped_guard_remove(int guard);

#endif
