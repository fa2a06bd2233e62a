/* test_steady_alloc.c — a cached graph call allocates nothing in steady
 * state. Every malloc/calloc/realloc/posix_memalign/aligned_alloc of the
 * process is counted (interposed here; under ASan through its allocator
 * hooks), a traced graph's plan is run a few times to warm up (planning,
 * the buffer pool filling, fused programs compiled), then N more times.
 *
 * "Steady state" excludes exactly what the caller is handed and keeps:
 * each returned output tensor (its struct, its buffer's header and its
 * data: at most three allocations per output). The caller releases the outputs between calls,
 * as a loop calling a function does. Everything else — slots, scratch,
 * intermediates, op calls, fused programs — must come from memory the plan
 * already holds. */
#include "check.h"

#include <stdlib.h>

#include "op_test.h"
#include "array_test.h"
#include "graph_test.h"

#include "executor.h"
#include "passes.h"
#include "variable.h"

static volatile long allocs;

#if defined(__SANITIZE_ADDRESS__)
/* From ASan's runtime (sanitizer/allocator_interface.h, not always installed). */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                               void (*free_hook)(const volatile void *));
/* Under ASan only the calling thread counts: its interceptors allocate on
 * the pool's worker threads as they wait and wake (the plain build counts
 * every thread and sees 0 there). */
static _Thread_local int counting;
static void on_malloc(const volatile void *p, size_t n) {
  (void)p;
  (void)n;
  if (counting) __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
}
static void on_free(const volatile void *p) { (void)p; }
static void install(void) {
  counting = 1;
  __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}
#else
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *malloc(size_t n) {
  __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
  __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
  __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return __libc_realloc(p, n);
}
int posix_memalign(void **out, size_t align, size_t n) {
  __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  void *p = __libc_memalign(align, n);
  if (!p) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
void *aligned_alloc(size_t align, size_t n) {
  __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return __libc_memalign(align, n);
}
static void install(void) {}
#endif

static mf_tensor *filled(int64_t n) {
  mf_tensor *t = NULL;
  mf_tensor_new(MF_FLOAT32, 1, &n, &t, NULL);
  for (int64_t i = 0; i < n; i++) mf_tensor_set_f64(t, i, (double)i / (double)n - 0.5);
  return t;
}

static ref fconst(mf_graph *g, double v) { return cnst(g, scalar(MF_FLOAT32, v)); }

/* The benchmark's chain: x * 1.0001, + 0.5, tanh, repeated. */
static mf_graph *chain(int64_t n, int ops) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, &n, NULL);
  for (int i = 1; i <= ops; i++) {
    if (i % 3 == 1)
      x = op2(g, "Mul", x, fconst(g, 1.0001));
    else if (i % 3 == 2)
      x = op2(g, "AddV2", x, fconst(g, 0.5));
    else
      x = op1(g, "Tanh", x);
  }
  outputs(g, 1, REFS(x));
  return g;
}

/* Allocations per call beyond the outputs' own, over `calls` calls after
 * warm-up. Input 0 is filled with n values; `more` (borrowed) feeds the
 * other inputs. */
static long steady_allocs_fed(mf_graph *g, int64_t n, int nmore, mf_tensor *const *more) {
  mf_tensor *feeds[4];
  mf_tensor *x = filled(n);
  const mf_spec *in = &g->nodes[g->inputs[0]].out_specs[0];
  x->rank = in->rank;
  for (int d = 0; d < in->rank; d++) x->shape[d] = in->shape[d];
  feeds[0] = x;
  for (int i = 0; i < nmore; i++) feeds[1 + i] = more[i];
  int nfeeds = 1 + nmore;
  mf_tensor *out[1];
  mf_error err;
  for (int i = 0; i < 3; i++) {
    CHECK(run(g, nfeeds, feeds, out, &err) == MF_OK);
    mf_tensor_release(out[0]);
  }
  enum { CALLS = 20 };
  long extra = 0;
  for (int i = 0; i < CALLS; i++) {
    long before = __atomic_load_n(&allocs, __ATOMIC_RELAXED);
    mf_status s = run(g, nfeeds, feeds, out, &err);
    long made = __atomic_load_n(&allocs, __ATOMIC_RELAXED) - before;
    CHECK(s == MF_OK);
    /* The output handed over: its struct, buffer header and data. */
    if (made > 3) extra += made - 3;
    mf_tensor_release(out[0]);
  }
  mf_tensor_release(x);
  return extra;
}

static long steady_allocs(mf_graph *g, int64_t n) { return steady_allocs_fed(g, n, 0, NULL); }

static void test_unfused_chain_steady(void) {
  const int64_t sizes[] = {16, 4096};
  for (int k = 0; k < 2; k++) {
    mf_graph *g = chain(sizes[k], 30);
    long extra = steady_allocs(g, sizes[k]);
    if (extra) printf("#   unfused, %lld elements: %ld extra allocations\n", (long long)sizes[k], extra);
    CHECK(extra == 0);
    mf_graph_release(g);
  }
}

static void test_fused_chain_steady(void) {
  const int64_t sizes[] = {16, 1025, 100000};
  for (int k = 0; k < 3; k++) {
    mf_graph *g = chain(sizes[k], 30), *o = NULL;
    mf_pass_stats st;
    memset(&st, 0, sizeof st);
    CHECK_OK(mf_pass_fuse_elementwise(g, &o, &st, NULL));
    CHECK(o && count_op(o, "FusedElementwise") == 1);
    long extra = steady_allocs(o, sizes[k]);
    if (extra) printf("#   fused, %lld elements: %ld extra allocations\n", (long long)sizes[k], extra);
    CHECK(extra == 0);
    mf_graph_release(o);
    mf_graph_release(g);
  }
}

/* Three MatMuls and a Tanh between them: BLAS outputs come from the pool
 * too (x is n x n, so every product has one size). */
static void test_matmul_chain_steady(void) {
  const int64_t n = 48, sq[2] = {n, n};
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, sq, NULL);
  mf_tensor *w = filled(n * n);
  w->rank = 2;
  w->shape[0] = w->shape[1] = n;
  ref wr = cnst(g, w);
  for (int i = 0; i < 3; i++) x = op1(g, "Tanh", op2(g, "MatMul", x, wr));
  outputs(g, 1, REFS(x));
  long extra = steady_allocs(g, n * n);
  if (extra) printf("#   matmul chain: %ld extra allocations\n", extra);
  CHECK(extra == 0);
  mf_graph_release(g);
}

/* A training step: a product with a variable's value, a gradient of it and
 * the variable's update (w -= 0.01 * x^T tanh(x w)). The update goes into
 * the variable's own buffer, which nothing else holds once the step's
 * reads have died: it allocates nothing either. */
static void test_training_step_steady(void) {
  const int64_t n = 48, sq[2] = {n, n};
  mf_tensor *init = filled(n * n), *handle = NULL;
  init->rank = 2;
  init->shape[0] = init->shape[1] = n;
  mf_variable *w;
  CHECK_OK(mf_variable_new("w", init, true, &w, NULL));
  mf_tensor_release(init);
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 0, NULL, &handle, NULL));
  *MF_DATA(handle, mf_variable *) = w; /* the handle owns w's reference */
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, sq, NULL);
  ref wh = input(g, MF_RESOURCE, 0, NULL, handle);
  ref h = op1(g, "Tanh", op2(g, "MatMul", x, add_op(g, "ReadVariableOp", 1, REFS(wh), NULL)));
  mf_attrs ta;
  mf_attrs_init(&ta);
  mf_attrs_set_bool(&ta, "transpose_a", true, NULL);
  ref grad = add_op(g, "MatMul", 2, REFS(x, h), &ta);
  mf_attrs_free(&ta);
  add_op(g, "AssignSubVariableOp", 2, REFS(wh, op2(g, "Mul", grad, fconst(g, 0.01))), NULL);
  outputs(g, 1, REFS(h));
  const mf_tensor *before = w->value;
  long extra = steady_allocs_fed(g, n * n, 1, &handle);
  if (extra) printf("#   training step: %ld extra allocations\n", extra);
  CHECK(extra == 0);
  CHECK(w->value == before); /* updated where it was */
  mf_graph_release(g);
  mf_tensor_release(handle);
}

int main(void) {
  install();
  RUN(test_unfused_chain_steady);
  RUN(test_fused_chain_steady);
  RUN(test_matmul_chain_steady);
  RUN(test_training_step_steady);
  return CHECK_DONE();
}
