#ifndef OUTLINE_SHA256_BLOCKS_H
#define OUTLINE_SHA256_BLOCKS_H
#include <stddef.h>
#include <stdint.h>

/* SHA-256's block function on the processor's SHA extensions, for
 * OutlineFiles' SHA256Digest (which falls back to its own Swift when they are
 * missing). */

/* Whether this processor has the SHA extensions (x86-64 with SHA, SSSE3 and
 * SSE4.1); 0 elsewhere. */
int outline_sha256_hardware(void);

/* Folds the `blocks` 64-byte blocks at `data` into the eight words of `state`.
 * Only when outline_sha256_hardware() said 1. */
void outline_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
