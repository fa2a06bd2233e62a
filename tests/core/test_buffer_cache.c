/* test_buffer_cache.c — freed large tensor buffers are reused (alloc.h's
 * block cache): an eager loop making and dropping a 256x256 result gets the
 * same memory back instead of new pages from the system each call, the
 * cache never keeps more than its bound, a miss gives cached memory back
 * before asking for more, and what a reused buffer computes or reads as is
 * what a fresh one gives. Under AddressSanitizer the cache is off (so a use
 * after free is still caught): there the tests check it keeps nothing. */
#include "check.h"

#include "alloc.h"
#include "op_test.h"
#include "tensor.h"

#ifdef __SANITIZE_ADDRESS__
#define CACHE_ON 0
#else
#define CACHE_ON 1
#endif

static mf_tensor *f32(int rank, const int64_t *shape) {
  mf_tensor *t = NULL;
  mf_error err;
  if (mf_tensor_new(MF_FLOAT32, rank, shape, &t, &err) != MF_OK) return NULL;
  return t;
}

static void test_reuse(void) {
  mf_block_cache_drain();
  size_t live = mf_live_bytes();
  mf_tensor *t = f32(2, DIMS(256, 256));
  void *p = t->buf->data;
  mf_tensor_release(t);
  CHECK(mf_live_bytes() == live); /* a cached block is not a live buffer */
  CHECK(mf_block_cache_bytes() == (CACHE_ON ? (size_t)256 * 1024 : 0));
  /* Same byte size, other shape and dtype: the same block. */
  mf_tensor *u = NULL;
  CHECK_OK(mf_tensor_new(MF_INT32, 1, DIMS(65536), &u, NULL));
  CHECK((u->buf->data == p) == CACHE_ON);
  CHECK(((uintptr_t)u->buf->data & 63) == 0);
  CHECK(mf_block_cache_bytes() == 0);
  CHECK(mf_live_bytes() == live + (size_t)256 * 1024);
  mf_tensor_release(u);
  mf_block_cache_drain();
  CHECK(mf_block_cache_bytes() == 0);
}

/* Small buffers stay with malloc: only blocks of MF_BLOCK_CACHE_MIN bytes
 * or more are kept. */
static void test_small_not_kept(void) {
  mf_block_cache_drain();
  mf_tensor *t = f32(1, DIMS((int64_t)(MF_BLOCK_CACHE_MIN / 4) - 16));
  mf_tensor_release(t);
  CHECK(mf_block_cache_bytes() == 0);
}

static void test_bounded(void) {
  enum { N = 2 * MF_BLOCK_CACHE_SLOTS };
  mf_tensor *t[N];
  /* Many blocks of the smallest kept size: bounded by the slot count. */
  mf_block_cache_drain();
  for (int i = 0; i < N; i++) t[i] = f32(1, DIMS((int64_t)MF_BLOCK_CACHE_MIN / 4));
  for (int i = 0; i < N; i++) mf_tensor_release(t[i]);
  CHECK(mf_block_cache_bytes() ==
        (CACHE_ON ? (size_t)MF_BLOCK_CACHE_SLOTS * MF_BLOCK_CACHE_MIN : 0));
  /* Many 1 MiB blocks: bounded in bytes. */
  mf_block_cache_drain();
  for (int i = 0; i < 40; i++) t[i] = f32(1, DIMS(1 << 18));
  for (int i = 0; i < 40; i++) mf_tensor_release(t[i]);
  CHECK(mf_block_cache_bytes() <= MF_BLOCK_CACHE_BYTES);
  CHECK(CACHE_ON ? mf_block_cache_bytes() >= MF_BLOCK_CACHE_BYTES / 2 : mf_block_cache_bytes() == 0);
  /* A block larger than the whole bound is never kept. */
  mf_block_cache_drain();
  mf_tensor *big = f32(1, DIMS((int64_t)(MF_BLOCK_CACHE_BYTES / 4) + 1024));
  mf_tensor_release(big);
  CHECK(mf_block_cache_bytes() == 0);
}

/* A size the cache does not have first frees at least as many cached bytes
 * as it asks for, oldest first: the cache never adds to a peak. */
static void test_miss_gives_back(void) {
  mf_block_cache_drain();
  mf_tensor *t[4];
  for (int i = 0; i < 4; i++) t[i] = f32(1, DIMS(1 << 18)); /* 1 MiB */
  for (int i = 0; i < 4; i++) mf_tensor_release(t[i]);
  CHECK(mf_block_cache_bytes() == (CACHE_ON ? (size_t)4 << 20 : 0));
  mf_tensor *two = f32(1, DIMS(1 << 19)); /* 2 MiB: a miss */
  CHECK(two != NULL);
  CHECK(mf_block_cache_bytes() == (CACHE_ON ? (size_t)2 << 20 : 0));
  CHECK(mf_block_cache_bytes() == (CACHE_ON ? (size_t)2 << 20 : 0));
  mf_tensor_release(two);
  mf_block_cache_drain();
}

/* Of several free blocks of a size, the one whose last tensor was made
 * latest comes back first, whatever order they were freed in: its data
 * was written last, so it is the likeliest still in the processor's cache
 * (Lua's collector frees a loop's dead results together, newest first). */
static void test_warmest_first(void) {
  for (int order = 0; order < 2; order++) {
    mf_block_cache_drain();
    mf_tensor *t[3];
    for (int i = 0; i < 3; i++) t[i] = f32(2, DIMS(256, 256));
    void *latest = t[2]->buf->data;
    for (int i = 0; i < 3; i++) mf_tensor_release(t[order ? 2 - i : i]);
    mf_tensor *u = f32(2, DIMS(256, 256));
    CHECK((u->buf->data == latest) == CACHE_ON);
    /* v, made after u from a cached block, is now the latest made. */
    mf_tensor *v = f32(2, DIMS(256, 256));
    void *vdata = v->buf->data;
    mf_tensor_release(v);
    mf_tensor_release(u);
    mf_tensor *w = f32(2, DIMS(256, 256));
    CHECK((w->buf->data == vdata) == CACHE_ON);
    mf_tensor_release(w);
  }
  mf_block_cache_drain();
}

/* A reused buffer holds the last user's data: every constructor that
 * promises contents must still give them. */
static void test_contents_as_fresh(void) {
  mf_block_cache_drain();
  int64_t n = 256;
  mf_tensor *junk = f32(2, DIMS(n, n));
  for (int64_t i = 0; i < n * n; i++) MF_DATA(junk, float)[i] = 1e30f;
  mf_tensor_release(junk);
  mf_tensor *z = NULL;
  CHECK_OK(mf_tensor_zeros(MF_FLOAT32, 2, DIMS(n, n), &z, NULL));
  int nonzero = 0;
  for (int64_t i = 0; i < n * n; i++) nonzero += MF_DATA(z, float)[i] != 0.0f;
  CHECK(nonzero == 0);
  /* Strings start empty (16-byte elements: 256 KiB is 16384 of them). */
  for (int64_t i = 0; i < n * n; i++) MF_DATA(z, float)[i] = 3.0f;
  mf_tensor_release(z);
  mf_tensor *s = NULL;
  CHECK_OK(mf_tensor_new(MF_STRING, 1, DIMS(n * n * 4 / (int64_t)sizeof(mf_string)), &s, NULL));
  int set = 0;
  for (int64_t i = 0; i < s->size; i++) set += MF_DATA(s, mf_string)[i].ptr != NULL;
  CHECK(set == 0);
  mf_tensor_release(s); /* frees no junk pointer */

  /* A matrix product written into a reused buffer: the same as into a
   * fresh one (beta = 0 ignores what the buffer held). */
  mf_tensor *a = f32(2, DIMS(n, n)), *b = f32(2, DIMS(n, n));
  for (int64_t i = 0; i < n * n; i++) {
    MF_DATA(a, float)[i] = (float)(i % 7) - 3.0f;
    MF_DATA(b, float)[i] = (float)(i % 5) * 0.5f;
  }
  mf_tensor *ab[] = {a, b}, *c1 = NULL, *c2 = NULL;
  mf_error err;
  mf_block_cache_drain();
  CHECK_OK(run_op("MatMul", 2, ab, NULL, 1, &c1, &err));
  junk = f32(2, DIMS(n, n));
  for (int64_t i = 0; i < n * n; i++) MF_DATA(junk, float)[i] = -7.0f;
  void *reused = junk->buf->data;
  mf_tensor_release(junk);
  CHECK_OK(run_op("MatMul", 2, ab, NULL, 1, &c2, &err));
  CHECK((c2->buf->data == reused) == CACHE_ON);
  CHECK(memcmp(mf_tensor_data(c1), mf_tensor_data(c2), (size_t)(n * n) * sizeof(float)) == 0);
  mf_tensor_release(a);
  mf_tensor_release(b);
  mf_tensor_release(c1);
  mf_tensor_release(c2);
  mf_block_cache_drain();
}

/* A cached block counts as an allocation and can be the injected failure,
 * as malloc's can: the tensor fails cleanly and the block stays cached. */
static void test_injected_failure(void) {
  mf_block_cache_drain();
  mf_tensor_release(f32(2, DIMS(256, 256)));
  size_t cached = mf_block_cache_bytes();
  int64_t before = mf_alloc_count();
  mf_tensor *t = f32(2, DIMS(256, 256));
  CHECK(mf_alloc_count() > before);
  mf_tensor_release(t);
  mf_alloc_fail_after(3, 0); /* the tensor struct, its header, then the data: fails */
  mf_tensor *u = NULL;
  mf_error err;
  mf_status s = mf_tensor_new(MF_FLOAT32, 2, DIMS(256, 256), &u, &err);
  CHECK(mf_alloc_failed());
  mf_alloc_fail_after(0, 0);
  CHECK(s == MF_ERR_RESOURCE_EXHAUSTED);
  CHECK(u == NULL);
  CHECK(mf_block_cache_bytes() == cached);
  mf_block_cache_drain();
}

/* Freed graphs trim the heap; the cache goes back with it. */
static void test_trim_drains(void) {
  mf_block_cache_drain();
  mf_tensor_release(f32(2, DIMS(256, 256)));
  CHECK(mf_block_cache_bytes() == (CACHE_ON ? (size_t)256 * 1024 : 0));
  mf_alloc_freed_graph((size_t)1 << 20);
  CHECK(mf_block_cache_bytes() == 0);
}

static void test_no_leaks(void) {
  mf_block_cache_drain();
  CHECK(mf_live_bytes() == 0);
  CHECK(mf_live_buffers() == 0);
}

int main(void) {
  RUN(test_reuse);
  RUN(test_small_not_kept);
  RUN(test_bounded);
  RUN(test_miss_gives_back);
  RUN(test_warmest_first);
  RUN(test_contents_as_fresh);
  RUN(test_injected_failure);
  RUN(test_trim_drains);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
