/* source_pool.c — interned node sources: strings and records in bump
 * blocks, found through two open-addressing tables (strings by content,
 * records by their interned strings' addresses and line). */
#include "source_pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

typedef struct block {
  struct block *next;
  size_t used, size;
  max_align_t data[]; /* `size` bytes */
} block;

typedef struct slot {
  uint64_t hash;
  void *item; /* a string or a record; NULL: empty */
} slot;

typedef struct table {
  slot *slots;
  size_t cap, used; /* cap: 0 or a power of two */
} table;

struct mf_source_pool {
  long refcount;
  block *blocks;
  size_t bytes;
  table strings, records;
  /* Records interned lately, by line: a trace's ops come from a few lines,
   * run again and again by the user's loops, and one compare finds them. */
  const mf_node_source *recent[8];
  const mf_node_source *last; /* the record interned last (its chunk is the next's) */
};

/* Blocks hold the strings of a few dozen lines' sources: one for a small
 * function, a handful for a long one. */
enum { BLOCK_BYTES = 4096 };

mf_source_pool *mf_source_pool_new(void) {
  mf_source_pool *p = mf_calloc(1, sizeof *p);
  if (p) p->refcount = 1;
  return p;
}

/* Counted atomically: a copy made on one thread may share the pool of a
 * graph another thread releases. Interning stays the builder's alone (a
 * graph is built, and its sources filled, on one thread). */
void mf_source_pool_retain(mf_source_pool *p) { __atomic_add_fetch(&p->refcount, 1, __ATOMIC_RELAXED); }

void mf_source_pool_release(mf_source_pool *p) {
  if (!p || __atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) > 0) return;
  for (block *b = p->blocks, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(p->strings.slots);
  free(p->records.slots);
  free(p);
}

size_t mf_source_pool_bytes(const mf_source_pool *p) { return p ? p->bytes : 0; }

static void *pool_alloc(mf_source_pool *p, size_t n, size_t align) {
  block *b = p->blocks;
  size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
  if (!b || at + n > b->size) {
    size_t size = n > BLOCK_BYTES ? n : BLOCK_BYTES;
    b = mf_malloc(sizeof *b + size);
    if (!b) return NULL;
    b->next = p->blocks;
    b->used = 0;
    b->size = size;
    p->blocks = b;
    p->bytes += sizeof *b + size;
    at = 0;
  }
  b->used = at + n;
  return (char *)b->data + at;
}

/* The slot for hash h where `same` finds the item or the empty slot to
 * fill; the table is never full (grown at 3/4). */
static slot *probe(table *t, uint64_t h, int (*same)(const void *item, const void *key), const void *key) {
  size_t mask = t->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    slot *s = &t->slots[i];
    if (!s->item || (s->hash == h && same(s->item, key))) return s;
  }
}

static int grow(mf_source_pool *p, table *t) {
  if (t->cap && (t->used + 1) * 4 <= t->cap * 3) return 1;
  size_t cap = t->cap ? t->cap * 2 : 64;
  slot *slots = mf_calloc(cap, sizeof *slots);
  if (!slots) return 0;
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->slots[i].item) continue;
    size_t j = t->slots[i].hash & (cap - 1);
    while (slots[j].item) j = (j + 1) & (cap - 1);
    slots[j] = t->slots[i];
  }
  p->bytes += (cap - t->cap) * sizeof *slots;
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return 1;
}

static int same_string(const void *item, const void *key) { return strcmp(item, key) == 0; }

static const char *intern_string(mf_source_pool *p, const char *s) {
  uint64_t h = 1469598103934665603ull;
  size_t n = 0;
  for (; s[n]; n++) h = (h ^ (unsigned char)s[n]) * 1099511628211ull;
  if (!grow(p, &p->strings)) return NULL;
  slot *sl = probe(&p->strings, h, same_string, s);
  if (sl->item) return sl->item;
  char *copy = pool_alloc(p, n + 1, 1);
  if (!copy) return NULL;
  memcpy(copy, s, n + 1);
  sl->hash = h;
  sl->item = copy;
  p->strings.used++;
  return copy;
}

/* Records compare by their strings' addresses: interned strings are equal
 * exactly when their addresses are. */
static int same_record(const void *item, const void *key) {
  const mf_node_source *a = item, *b = key;
  return a->chunk == b->chunk && a->line == b->line && a->text == b->text && a->name == b->name;
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x9e3779b97f4a7c15ull; }

static int same_text(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

const mf_node_source *mf_source_pool_intern(mf_source_pool *p, const char *chunk, int line,
                                            const char *text, const char *name) {
  if (!chunk) chunk = "?";
  const mf_node_source **recent = &p->recent[(unsigned)line % 8];
  const mf_node_source *r0 = *recent;
  if (r0 && r0->line == line && same_text(r0->text, text) && same_text(r0->name, name) &&
      strcmp(r0->chunk, chunk) == 0)
    return r0;
  /* The last record's chunk is this one's far more often than not, and
   * comparing it costs less than hashing the name again. */
  const mf_node_source *last = p->last;
  const char *same_chunk = last && strcmp(last->chunk, chunk) == 0 ? last->chunk : NULL;
  mf_node_source key = {same_chunk ? same_chunk : intern_string(p, chunk), line, NULL, NULL};
  if (!key.chunk || (text && !(key.text = intern_string(p, text))) ||
      (name && !(key.name = intern_string(p, name))))
    return NULL;
  uint64_t h = mix(mix(mix(mix(0, (uintptr_t)key.chunk), (uint64_t)line), (uintptr_t)key.text),
                   (uintptr_t)key.name);
  h ^= h >> 29;
  if (!grow(p, &p->records)) return NULL;
  slot *sl = probe(&p->records, h, same_record, &key);
  if (sl->item) return p->last = *recent = sl->item;
  mf_node_source *r = pool_alloc(p, sizeof *r, _Alignof(mf_node_source));
  if (!r) return NULL;
  *r = key;
  sl->hash = h;
  sl->item = r;
  p->records.used++;
  return p->last = *recent = r;
}
