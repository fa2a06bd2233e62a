#include "profile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"

static _Thread_local mf_profile *installed;

void mf_profile_install(mf_profile *p) { installed = p; }
mf_profile *mf_profile_installed(void) { return installed; }

int64_t mf_profile_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static size_t slot_of(const mf_graph *g, int node, int cap) {
  uint64_t h = (uint64_t)(uintptr_t)g * 0x9E3779B97F4A7C15ull ^ (uint64_t)node * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h >> 17) & (size_t)(cap - 1);
}

static mf_status grow(mf_profile *p, mf_error *err) {
  int cap = p->cap ? p->cap * 2 : 256;
  mf_profile_entry *e = mf_calloc((size_t)cap, sizeof *e);
  if (!e) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory while profiling");
  for (int i = 0; i < p->cap; i++) {
    if (!p->e[i].g) continue;
    size_t j = slot_of(p->e[i].g, p->e[i].node, cap);
    while (e[j].g) j = (j + 1) & (size_t)(cap - 1);
    e[j] = p->e[i];
  }
  free(p->e);
  p->e = e;
  p->cap = cap;
  return MF_OK;
}

mf_status mf_profile_record(mf_profile *p, const mf_graph *g, int node, int64_t self_ns,
                            int64_t total_ns, int64_t bytes, mf_error *err) {
  if ((p->n + 1) * 2 > p->cap) MF_TRY(grow(p, err));
  size_t j = slot_of(g, node, p->cap);
  while (p->e[j].g && !(p->e[j].g == g && p->e[j].node == node)) j = (j + 1) & (size_t)(p->cap - 1);
  mf_profile_entry *e = &p->e[j];
  if (!e->g) {
    /* Held until the profile is cleared: names are read after the runs. */
    mf_graph_retain((mf_graph *)g);
    e->g = g;
    e->node = node;
    e->depth = p->depth;
    p->n++;
  }
  e->calls++;
  e->self_ns += self_ns;
  e->total_ns += total_ns;
  e->bytes += bytes;
  return MF_OK;
}

void mf_profile_clear(mf_profile *p) {
  for (int i = 0; i < p->cap; i++)
    if (p->e[i].g) mf_graph_release((mf_graph *)p->e[i].g);
  free(p->e);
  memset(p, 0, sizeof *p);
}
