/* The lint floor: the least work linting an .outline file allows, in C.
 *
 *   cc -O2 floor-lint.c $(pkg-config --cflags --libs libxml-2.0) -o floor-lint
 *   floor-lint FILE      prints the items and the problems; exit 1 when any
 *
 * libxml2's SAX2 push parser (the same parser, options and 256 KiB reads as
 * outline-lint: no DTD, no network, XML_PARSE_HUGE so a deep chain parses)
 * checks well-formedness; for every <Item> the program reads its `order`,
 * and at each end tag checks that its children's orders are exactly
 * 0..n-1 in any file order (no gap, no duplicate, none missing): n distinct
 * orders all below n. One
 * thread, no diagnostics text beyond a count: a floor, not a linter.
 */
#include <fcntl.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The children seen so far under one open element. */
typedef struct {
  unsigned char *seen; /* seen[k]: an order k was given */
  size_t capacity;
  size_t count;        /* children */
  size_t high;         /* the highest order seen, plus one */
  int bad;             /* a duplicate, a missing order or one out of range */
} Level;

static Level *levels;
static size_t depth, levelCapacity;
static unsigned long items, problems;

static Level *push_level(void) {
  if (depth == levelCapacity) {
    size_t old = levelCapacity;
    levelCapacity = levelCapacity ? levelCapacity * 2 : 64;
    levels = realloc(levels, levelCapacity * sizeof *levels);
    memset(levels + old, 0, (levelCapacity - old) * sizeof *levels);
  }
  Level *level = &levels[depth++];
  level->count = 0;
  level->high = 0;
  level->bad = 0;
  return level;
}

static void child(Level *parent, const xmlChar *value, const xmlChar *end) {
  parent->count++;
  if (!value) { parent->bad = 1; return; }
  size_t k = 0;
  const xmlChar *p = value;
  if (p < end && *p == '+') p++;
  if (p == end || end - p > 12) { parent->bad = 1; return; }
  for (; p < end; p++) {
    if (*p < '0' || *p > '9') { parent->bad = 1; return; }
    k = k * 10 + (*p - '0');
  }
  if (k >= parent->capacity) {
    size_t old = parent->capacity, size = old ? old : 16;
    while (size <= k) size *= 2;
    parent->seen = realloc(parent->seen, size);
    memset(parent->seen + old, 0, size - old);
    parent->capacity = size;
  }
  if (parent->seen[k]) parent->bad = 1;
  parent->seen[k] = 1;
  if (k >= parent->high) parent->high = k + 1;
}

static void start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                  int nbNamespaces, const xmlChar **namespaces, int nbAttributes, int nbDefaulted,
                  const xmlChar **attributes) {
  (void)ctx; (void)prefix; (void)uri; (void)nbNamespaces; (void)namespaces; (void)nbDefaulted;
  if (depth > 0 && strcmp((const char *)name, "Item") == 0) {
    items++;
    const xmlChar *value = NULL, *end = NULL;
    for (int i = 0; i < nbAttributes; i++) {
      const xmlChar **a = attributes + 5 * i;
      if (a[1] == NULL && strcmp((const char *)a[0], "order") == 0) { value = a[3]; end = a[4]; }
    }
    child(&levels[depth - 1], value, end);
  }
  push_level();
}

static void end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
  (void)ctx; (void)name; (void)prefix; (void)uri;
  Level *level = &levels[--depth];
  /* n distinct orders below n are exactly 0..n-1. */
  if (level->bad || level->high != level->count) problems++;
  if (level->high) memset(level->seen, 0, level->high);
}

static void error(void *ctx, xmlErrorPtr e) { (void)ctx; (void)e; problems++; }

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: floor-lint FILE\n"); return 2; }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) { perror(argv[1]); return 2; }
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof sax);
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = start;
  sax.endElementNs = end;
  sax.serror = error;
  static char buffer[1 << 18];
  xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
  xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_HUGE);
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) xmlParseChunk(context, buffer, (int)n, 0);
  xmlParseChunk(context, NULL, 0, 1);
  close(fd);
  xmlFreeParserCtxt(context);
  printf("%lu items, %lu problems\n", items, problems);
  return problems ? 1 : 0;
}
