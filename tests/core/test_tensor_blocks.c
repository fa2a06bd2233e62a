/* test_tensor_blocks.c — small tensors live in one block (struct, buffer
 * header and data) and small blocks are kept on per-thread free lists
 * (tensor.c). The parts of a block end at different times: a view keeps
 * the buffer after its tensor is gone, an executor pool keeps the buffer or
 * the struct of a recycled value. Each order must keep the data intact and
 * leak nothing (live_buffers; run.sh runs C tests under ASan's leak
 * checker too). */
#include "check.h"

#include <string.h>

#include "tensor.h"

static mf_tensor *vec(int64_t n, float first) {
  mf_tensor *t = NULL;
  CHECK_OK(mf_tensor_new(MF_FLOAT32, 1, &n, &t, NULL));
  for (int64_t i = 0; t && i < n; i++) MF_DATA(t, float)[i] = first + (float)i;
  return t;
}

/* A view outlives the small tensor it was made from, and the reverse. */
static void test_view_outlives_tensor(void) {
  size_t live = mf_live_buffers();
  mf_tensor *t = vec(16, 1.0f);
  int64_t four = 4;
  mf_tensor *v = NULL;
  CHECK_OK(mf_tensor_view(t, 1, &four, 12, &v, NULL));
  mf_tensor_release(t);
  /* More small tensors reuse freed blocks: none may be t's. */
  mf_tensor *others[8];
  for (int i = 0; i < 8; i++) others[i] = vec(16, 100.0f);
  for (int i = 0; i < 4; i++) CHECK(MF_DATA(v, float)[i] == 13.0f + (float)i);
  for (int i = 0; i < 8; i++) mf_tensor_release(others[i]);
  mf_tensor_release(v);
  t = vec(3, 5.0f);
  CHECK_OK(mf_tensor_view(t, 1, (int64_t[]){1}, 2, &v, NULL));
  mf_tensor_release(v);
  CHECK(MF_DATA(t, float)[2] == 7.0f);
  mf_tensor_release(t);
  CHECK(mf_live_buffers() == live);
}

/* A pool keeps a small value's buffer and its struct apart, and hands
 * both out again. */
static void test_pool_splits_block(void) {
  size_t live = mf_live_buffers();
  mf_buffer_pool *p = mf_buffer_pool_new();
  CHECK(p != NULL);
  mf_tensor *t = vec(16, 0.0f);
  mf_buffer_pool_recycle(p, t);
  int64_t n = 16;
  mf_tensor *u = NULL, *w = NULL;
  CHECK_OK(mf_tensor_new_pooled(p, MF_FLOAT32, 1, &n, &u, NULL));
  int64_t m = 2;
  CHECK_OK(mf_tensor_new_pooled(p, MF_FLOAT32, 1, &m, &w, NULL));
  for (int i = 0; i < 16; i++) MF_DATA(u, float)[i] = (float)i;
  MF_DATA(w, float)[0] = 7.0f;
  MF_DATA(w, float)[1] = 8.0f;
  mf_tensor_release(w);
  for (int i = 0; i < 16; i++) CHECK(MF_DATA(u, float)[i] == (float)i);
  mf_buffer_pool_recycle(p, u);
  mf_buffer_pool_free(p);
  CHECK(mf_live_buffers() == live);
}

/* Small string tensors start empty (zeroed) even from a reused block. */
static void test_small_strings_zeroed(void) {
  mf_tensor *s = NULL;
  for (int round = 0; round < 3; round++) {
    mf_tensor *f = vec(16, 1.0f);
    mf_tensor_release(f);
    int64_t n = 4;
    CHECK_OK(mf_tensor_new(MF_STRING, 1, &n, &s, NULL));
    for (int i = 0; s && i < 4; i++) CHECK(MF_DATA(s, mf_string)[i].ptr == NULL);
    CHECK_OK(mf_string_set(&MF_DATA(s, mf_string)[1], "ab", 2, NULL));
    mf_tensor_release(s);
  }
}

/* Sizes on both sides of the one-block limit keep their values. */
static void test_sizes(void) {
  for (int64_t n = 0; n <= 40; n++) {
    mf_tensor *t = vec(n, 2.0f);
    mf_tensor *c = NULL;
    CHECK_OK(mf_tensor_copy(t, &c, NULL));
    for (int64_t i = 0; i < n; i++) CHECK(MF_DATA(c, float)[i] == 2.0f + (float)i);
    mf_tensor_release(t);
    mf_tensor_release(c);
  }
  mf_tensor *d = NULL;
  CHECK_OK(mf_tensor_scalar_f64(MF_FLOAT64, 0.25, &d, NULL));
  CHECK(*MF_DATA(d, double) == 0.25);
  mf_tensor_release(d);
}

int main(void) {
  RUN(test_view_outlives_tensor);
  RUN(test_pool_splits_block);
  RUN(test_small_strings_zeroed);
  RUN(test_sizes);
  return CHECK_DONE();
}
