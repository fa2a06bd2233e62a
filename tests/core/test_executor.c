/* test_executor.c — the executor's buffer reuse, and which nodes it runs
 * without inference. A value that dies at an elementwise op is lent to the
 * pool so the op may write its output into it; that is only sound when
 * output element i sits where the input's element i is, so the lent buffer
 * must hold exactly the input (offset 0, whole buffer), of the output's
 * byte size and dtype width. Each graph here is run through a plan and
 * compared with the same ops run eagerly. */
#include "check.h"

#include "op_test.h"
#include "graph_test.h"

#include "executor.h"
#include "graph.h"

static bool same_bits(const mf_tensor *a, const mf_tensor *b) {
  if (!a || !b || a->dtype != b->dtype || !mf_shape_equal(a->rank, a->shape, b->rank, b->shape))
    return false;
  return memcmp(mf_tensor_data(a), mf_tensor_data(b), (size_t)a->size * mf_dtype_size(a->dtype)) ==
         0;
}

/* Runs the one-output graph g on feeds and checks its result is `want`
 * (stolen). */
static void check_run(mf_graph *g, int nfeeds, mf_tensor *const *feeds, mf_tensor *want) {
  mf_tensor *got = NULL;
  mf_error err;
  mf_status s = run(g, nfeeds, feeds, &got, &err);
  if (s != MF_OK) printf("#   run: %s\n", err.message);
  CHECK(s == MF_OK);
  CHECK(same_bits(got, want));
  mf_tensor_release(got);
  mf_tensor_release(want);
}

/* greater_equal(a * 3, b), a [4] int32, b [4, 1] int32: a*3 dies at a
 * GreaterEqual whose bool [4, 4] output has its byte size (16) but not its
 * width; writing the output over it clobbered values still to be read. */
static void test_narrower_output_not_written_over_input(void) {
  mf_graph *g = new_graph();
  ref a = input(g, MF_INT32, 1, DIMS(4), NULL);
  ref b = input(g, MF_INT32, 2, DIMS(4, 1), NULL);
  double three = 3;
  ref m = op2(g, "Mul", a, cnst(g, make_tensor(MF_INT32, 0, NULL, &three)));
  outputs(g, 1, REFS(op2(g, "GreaterEqual", m, b)));
  mf_tensor *fa = make_tensor(MF_INT32, 1, DIMS(4), (double[]){1, 2, 3, 4});
  mf_tensor *fb = make_tensor(MF_INT32, 2, DIMS(4, 1), (double[]){3, 6, 9, 12});
  double want[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) want[i * 4 + j] = 3.0 * (j + 1) >= 3.0 * (i + 1);
  check_run(g, 2, (mf_tensor *[]){fa, fb}, make_tensor(MF_BOOL, 2, DIMS(4, 4), want));
  mf_tensor_release(fa);
  mf_tensor_release(fb);
  mf_graph_release(g);
}

/* A float64 [2] (16 bytes) dying at a Less broadcast to bool [8, 2] (16
 * bytes): same byte size, an eighth of the width. */
static void test_wider_input_not_reused_for_narrower_elements(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT64, 1, DIMS(2), NULL);
  ref y = input(g, MF_FLOAT64, 2, DIMS(8, 1), NULL);
  ref s = op2(g, "AddV2", x, x);
  outputs(g, 1, REFS(op2(g, "Less", s, y)));
  const double ys[8] = {1, 3, 4, 5, 0, 2, 9, 3.5};
  mf_tensor *fx = make_tensor(MF_FLOAT64, 1, DIMS(2), (double[]){1, 2});
  mf_tensor *fy = make_tensor(MF_FLOAT64, 2, DIMS(8, 1), ys);
  double want[16];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 2; j++) want[i * 2 + j] = 2.0 * (j + 1) < ys[i];
  check_run(g, 2, (mf_tensor *[]){fx, fy}, make_tensor(MF_BOOL, 2, DIMS(8, 2), want));
  mf_tensor_release(fx);
  mf_tensor_release(fy);
  mf_graph_release(g);
}

/* A view that is the only holder of a larger buffer: t = x * x [8] dies
 * at Slice, whose output (t[0:4], a view) dies at an AddV2 broadcast to
 * [2, 4] -- the buffer's byte size and width, but element i of the output
 * is not where element i of the input is. */
static void test_partial_view_not_lent(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_INT32, 1, DIMS(8), NULL);
  ref y = input(g, MF_INT32, 2, DIMS(2, 4), NULL);
  ref t = op2(g, "Mul", x, x);
  ref begin = cnst(g, make_tensor(MF_INT32, 1, DIMS(1), (double[]){0}));
  ref size = cnst(g, make_tensor(MF_INT32, 1, DIMS(1), (double[]){4}));
  ref v = add_op(g, "Slice", 3, REFS(t, begin, size), NULL);
  outputs(g, 1, REFS(op2(g, "AddV2", v, y)));
  mf_tensor *fx = make_tensor(MF_INT32, 1, DIMS(8), (double[]){1, 2, 3, 4, 5, 6, 7, 8});
  mf_tensor *fy = make_tensor(MF_INT32, 2, DIMS(2, 4), (double[]){10, 20, 30, 40, 50, 60, 70, 80});
  double want[8] = {11, 24, 39, 56, 51, 64, 79, 96};
  check_run(g, 2, (mf_tensor *[]){fx, fy}, make_tensor(MF_INT32, 2, DIMS(2, 4), want));
  mf_tensor_release(fx);
  mf_tensor_release(fy);
  mf_graph_release(g);
}

/* The pool itself: a lent buffer goes only to an output of the same width
 * and byte size; an owned (dead) buffer to any output of its byte size. */
static void test_pool_lends_by_width(void) {
  mf_buffer_pool *p = mf_buffer_pool_new();
  mf_tensor *in = make_tensor(MF_INT32, 1, DIMS(4), NULL);
  mf_buffer *buf = in->buf;
  CHECK(mf_buffer_pool_lend(p, in));
  mf_tensor *o = NULL;
  CHECK_OK(mf_tensor_new_pooled(p, MF_BOOL, 1, DIMS(16), &o, NULL));
  CHECK(o && o->buf != buf);
  mf_tensor_release(o);
  CHECK_OK(mf_tensor_new_pooled(p, MF_FLOAT32, 1, DIMS(4), &o, NULL));
  CHECK(o && o->buf == buf);
  mf_tensor_release(o);
  mf_buffer_pool_unlend(p);
  mf_tensor_release(in);
  mf_buffer_pool_free(p);
}

/* A plan's Const values are taken once, when it is planned: each run
 * then runs only the other kernels (the cached call of `v + 1` ran its
 * Const every time). The values are still right on every run, also a Const
 * that is itself an output, and a graph whose value dies into an
 * elementwise op's output leaves the Const untouched. */
static void test_consts_run_once_per_plan(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  double one = 1, two = 2;
  ref c1 = cnst(g, make_tensor(MF_FLOAT32, 0, NULL, &one));
  ref c2 = cnst(g, make_tensor(MF_FLOAT32, 0, NULL, &two));
  outputs(g, 2, REFS(op2(g, "AddV2", op2(g, "Mul", x, c2), c1), c1));
  for (int r = 0; r < 4; r++) {
    double v = r;
    mf_tensor *fx = make_tensor(MF_FLOAT32, 0, NULL, &v);
    mf_tensor *outs[2] = {NULL, NULL};
    mf_error err;
    int64_t before = mf_executor_kernels_run();
    CHECK_OK(run(g, 1, (mf_tensor *[]){fx}, outs, &err));
    int64_t ran = mf_executor_kernels_run() - before;
    if (r > 0 && ran != 4) printf("#   run %d ran %lld kernels, want 4 (Mul, AddV2, 2 Identity)\n", r, (long long)ran);
    CHECK(r == 0 || ran == 4);
    CHECK(outs[0] && mf_tensor_get_f64(outs[0], 0) == 2.0 * r + 1);
    CHECK(outs[1] && mf_tensor_get_f64(outs[1], 0) == 1.0);
    mf_tensor_release(outs[0]);
    mf_tensor_release(outs[1]);
    mf_tensor_release(fx);
  }
  mf_graph_release(g);
}

/* A node whose shapes are static but whose inference reads a value the
 * trace did not know is not planned: inference checks that value on each
 * run. A slice of a (2, 4) Const of static size (2, 2) from a begin built
 * of a fed scalar read past its input when planned (begin 3 was never
 * checked); it must fail with TF's message. */
static void test_unknown_values_are_checked(void) {
  mf_graph *g = new_graph();
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  double zero = 0, two[2] = {2, 2}, vals[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  ref begin = add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, &zero))), NULL);
  ref sl = add_op(g, "Slice", 3,
                  REFS(cnst(g, make_tensor(MF_FLOAT32, 2, DIMS(2, 4), vals)), begin,
                       cnst(g, make_tensor(MF_INT32, 1, DIMS(2), two))),
                  NULL);
  CHECK(spec_is(&g->nodes[sl.node].out_specs[0], 2, DIMS(2, 2)));
  outputs(g, 1, REFS(sl));
  for (int r = 0; r < 2; r++) {
    double b = r == 0 ? 0 : 3;
    mf_tensor *fb = make_tensor(MF_INT32, 0, NULL, &b);
    mf_tensor *out = NULL;
    mf_error err;
    mf_status s = run(g, 1, &fb, &out, &err);
    CHECK(r == 0 ? s == MF_OK && out && mf_tensor_get_f64(out, 3) == 5.0
                 : s == MF_ERR_INVALID_ARGUMENT && strstr(err.message, "Expected begin[0] in [0, 2]"));
    mf_tensor_release(out);
    mf_tensor_release(fb);
  }
  mf_graph_release(g);
}

int main(void) {
  RUN(test_consts_run_once_per_plan);
  RUN(test_unknown_values_are_checked);
  RUN(test_narrower_output_not_written_over_input);
  RUN(test_wider_input_not_reused_for_narrower_elements);
  RUN(test_partial_view_not_lent);
  RUN(test_pool_lends_by_width);
  return CHECK_DONE();
}
