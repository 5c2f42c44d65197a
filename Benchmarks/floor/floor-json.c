/* The XML -> JSON floor: the least work writing the JSON form allows, in C.
 *
 *   cc -O2 floor-json.c $(pkg-config --cflags --libs libxml-2.0) -o floor-json
 *   floor-json FILE.outline OUT.json
 *
 * libxml2's SAX2 push parser (the options and 256 KiB reads of outline)
 * reads the file; each element is written as it starts, as
 * Documentation/JSONForm.md lays the form out (one object a line, arrays
 * opened at the end of their object's line, closed on a line of their own),
 * for the default model that Benchmarks/generate.py files use: entity Item
 * with `order` (Integer 64) and `title` (String) in that model order, children
 * in `children`. The output goes to a temporary file beside OUT, flushed and
 * renamed over it, as `outline convert` writes. The output is byte for byte
 * that of `outline convert` on such files (Benchmarks/run checks it).
 *
 * What it leaves out, being a floor: other models and entities, reordering
 * children whose `order` differs from their place in the file (it stops
 * with exit 1 instead), and the validation convert does before writing.
 */
#include <fcntl.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out = -1;
static char buffer[1 << 20];
static size_t used;

static void flush(void) {
  size_t done = 0;
  while (done < used) {
    ssize_t n = write(out, buffer + done, used - done);
    if (n <= 0) { perror("write"); exit(2); }
    done += (size_t)n;
  }
  used = 0;
}

static inline void put(const void *bytes, size_t count) {
  const char *from = bytes;
  while (used + count > sizeof buffer) {
    size_t part = sizeof buffer - used;
    memcpy(buffer + used, from, part);
    used += part;
    from += part;
    count -= part;
    flush();
  }
  memcpy(buffer + used, from, count);
  used += count;
}

#define PUT(literal) put(literal, sizeof literal - 1)

/* A value as a JSON string. libxml2 hands attribute values over decoded,
 * except that `&` comes as the reference "&#38;" (it does not replace
 * entities), which is turned back into `&` here. */
static void string(const xmlChar *value, const xmlChar *end) {
  static const char hex[] = "0123456789abcdef";
  PUT("\"");
  const xmlChar *run = value;
  for (const xmlChar *p = value; p < end; p++) {
    xmlChar c = *p;
    if (c >= 0x20 && c != '"' && c != '\\' && c != '&') continue;
    put(run, (size_t)(p - run));
    if (c == '&') {
      if (end - p >= 5 && memcmp(p, "&#38;", 5) == 0) p += 4;
      PUT("&");
    } else if (c == '"') PUT("\\\"");
    else if (c == '\\') PUT("\\\\");
    else if (c == '\n') PUT("\\n");
    else if (c == '\r') PUT("\\r");
    else if (c == '\t') PUT("\\t");
    else { char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]}; put(e, 6); }
    run = p + 1;
  }
  put(run, (size_t)(end - run));
  PUT("\"");
}

/* Per open element: how many children were written so far. */
static size_t *children, depth, capacity;

static const xmlChar *find(const xmlChar **attributes, int count, const char *name, int xmlPrefix,
                           const xmlChar **end) {
  for (int i = 0; i < count; i++) {
    const xmlChar **a = attributes + 5 * i;
    if ((a[1] != NULL) == xmlPrefix && strcmp((const char *)a[0], name) == 0) { *end = a[4]; return a[3]; }
  }
  return NULL;
}

static void start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                  int nbNamespaces, const xmlChar **namespaces, int nbAttributes, int nbDefaulted,
                  const xmlChar **attributes) {
  (void)ctx; (void)name; (void)prefix; (void)uri; (void)nbNamespaces; (void)namespaces; (void)nbDefaulted;
  const xmlChar *end;
  if (depth == capacity) {
    capacity = capacity ? capacity * 2 : 64;
    children = realloc(children, capacity * sizeof *children);
  }
  if (depth == 0) {
    PUT("{\"@outline\":1");
    const xmlChar *model = find(attributes, nbAttributes, "model", 0, &end);
    if (model) { PUT(",\"@model\":"); string(model, end); }
    PUT(",\"@entity\":\"Item\"");
  } else {
    size_t index = children[depth - 1]++;
    if (index == 0) PUT(",\"children\":[\n"); else PUT(",\n");
    PUT("{\"@entity\":\"Item\"");
    const xmlChar *id = find(attributes, nbAttributes, "id", 1, &end);
    if (id) { PUT(",\"@id\":"); string(id, end); }
    const xmlChar *order = find(attributes, nbAttributes, "order", 0, &end);
    if (!order) { fprintf(stderr, "floor-json: an item without an order\n"); exit(1); }
    size_t k = 0;
    for (const xmlChar *p = order; p < end; p++) k = k * 10 + (size_t)(*p - '0');
    if (k != index) { fprintf(stderr, "floor-json: children out of order (not handled)\n"); exit(1); }
    char digits[24];
    size_t at = sizeof digits;
    do { digits[--at] = (char)('0' + k % 10); k /= 10; } while (k);
    PUT(",\"order\":");
    put(digits + at, sizeof digits - at);
  }
  const xmlChar *title = find(attributes, nbAttributes, "title", 0, &end);
  if (title) { PUT(",\"title\":"); string(title, end); }
  children[depth++] = 0;
}

static void finish(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
  (void)ctx; (void)name; (void)prefix; (void)uri;
  if (children[--depth]) PUT("\n]");
  PUT("}");
}

static int failed;
static void error(void *ctx, xmlErrorPtr e) { (void)ctx; (void)e; failed = 1; }

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: floor-json FILE.outline OUT.json\n"); return 2; }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) { perror(argv[1]); return 2; }
  size_t length = strlen(argv[2]);
  char *temporary = malloc(length + 16);
  snprintf(temporary, length + 16, "%s.floor-tmp", argv[2]);
  out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0) { perror(temporary); return 2; }
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof sax);
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = start;
  sax.endElementNs = finish;
  sax.serror = error;
  static char input[1 << 18];
  xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
  xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_HUGE);
  ssize_t n;
  while ((n = read(fd, input, sizeof input)) > 0 && !failed) xmlParseChunk(context, input, (int)n, 0);
  xmlParseChunk(context, NULL, 0, 1);
  close(fd);
  xmlFreeParserCtxt(context);
  if (failed) { unlink(temporary); fprintf(stderr, "floor-json: not well-formed\n"); return 1; }
  PUT("\n");
  flush();
  if (fsync(out) != 0 || close(out) != 0 || rename(temporary, argv[2]) != 0) { perror(argv[2]); return 2; }
  return 0;
}
