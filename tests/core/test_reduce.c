/* test_reduce.c — reductions and arg-extrema (ops_reduce.c): every reducer
 * and dtype, negative and duplicate axes, keep_dims, empty axis lists,
 * zero-size inputs (identities), integer wrap-around and mean, float32
 * accuracy, NaN, a rank-8 walk against a brute-force reference, inference
 * while tracing, and TF's error text. */
#include "check.h"
#include "op_test.h"
#include "array_test.h"

static mf_attrs keep_attr;

static mf_tensor *reduce(const char *op, mf_tensor *x, mf_tensor *axes, bool keep_dims) {
  return run1(op, 2, INS(x, axes), keep_dims ? &keep_attr : NULL);
}

static void test_sum(void) {
  mf_tensor *x = tens(MF_FLOAT32, 2, DIMS(2, 3), VALS(1, 2, 3, 4, 5, 6));
  CHECK(values_are(reduce("Sum", x, scalar(MF_INT32, 0), false), MF_FLOAT32, 1, DIMS(3),
                   VALS(5, 7, 9)));
  CHECK(values_are(reduce("Sum", x, scalar(MF_INT64, -1), false), MF_FLOAT32, 1, DIMS(2),
                   VALS(6, 15)));
  CHECK(values_are(reduce("Sum", x, ivec(2, VALS(0, 1)), false), MF_FLOAT32, 0, NULL, VALS(21)));
  CHECK(values_are(reduce("Sum", x, ivec(2, VALS(-1, 0)), true), MF_FLOAT32, 2, DIMS(1, 1),
                   VALS(21)));
  CHECK(values_are(reduce("Sum", x, ivec(1, VALS(-2)), true), MF_FLOAT32, 2, DIMS(1, 3),
                   VALS(5, 7, 9)));
  mf_tensor *same = reduce("Sum", x, ivec(0, NULL), false);
  CHECK(values_are(same, MF_FLOAT32, 2, DIMS(2, 3), VALS(1, 2, 3, 4, 5, 6)) && same->buf == x->buf);
  CHECK(values_are(reduce("Sum", scalar(MF_INT64, 9), ivec(0, NULL), false), MF_INT64, 0, NULL,
                   VALS(9)));
  CHECK(values_are(reduce("Sum", tens(MF_FLOAT64, 3, DIMS(2, 3, 2), VALS(1, 2, 3, 4, 5, 6, 7, 8, 9,
                                                                          10, 11, 12)),
                          scalar(MF_INT32, 1), false),
                   MF_FLOAT64, 2, DIMS(2, 2), VALS(9, 12, 27, 30)));
  CHECK(values_are(reduce("Sum", tens(MF_INT32, 3, DIMS(2, 3, 2), VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                                        11, 12)),
                          ivec(2, VALS(0, 2)), false),
                   MF_INT32, 1, DIMS(3), VALS(1 + 2 + 7 + 8, 3 + 4 + 9 + 10, 5 + 6 + 11 + 12)));
  /* Integer sums wrap as TF's do. */
  CHECK(values_are(reduce("Sum", tens(MF_INT32, 1, DIMS(2), VALS(INT32_MAX, 1)), scalar(MF_INT32, 0),
                          false),
                   MF_INT32, 0, NULL, VALS(INT32_MIN)));
  /* Zero-size: the reduced axis sums to 0, a kept one stays empty. */
  mf_tensor *z = tens(MF_FLOAT32, 2, DIMS(0, 3), NULL);
  CHECK(values_are(reduce("Sum", z, scalar(MF_INT32, 0), false), MF_FLOAT32, 1, DIMS(3),
                   VALS(0, 0, 0)));
  CHECK(values_are(reduce("Sum", z, scalar(MF_INT32, 1), false), MF_FLOAT32, 1, DIMS(0), NULL));
  release_all();
}

static void test_float32_accuracy(void) {
  int64_t n = 1000000;
  mf_tensor *x = tens(MF_FLOAT32, 1, &n, NULL);
  for (int64_t i = 0; i < n; i++) MF_DATA(x, float)[i] = 0.1f;
  mf_tensor *s = reduce("Sum", x, scalar(MF_INT32, 0), false);
  /* A float accumulator drifts to ~100958; double stays at 1e6 * 0.1f. */
  CHECK(s && fabs(mf_tensor_get_f64(s, 0) - 100000.0) < 0.02);
  mf_tensor *m = reduce("Mean", x, scalar(MF_INT32, 0), false);
  CHECK(m && fabs(mf_tensor_get_f64(m, 0) - 0.1) < 1e-7);
  release_all();
}

static void test_mean(void) {
  CHECK(values_are(reduce("Mean", tens(MF_FLOAT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4)), ivec(0, NULL),
                          false),
                   MF_FLOAT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4)));
  CHECK(values_are(reduce("Mean", tens(MF_FLOAT64, 2, DIMS(2, 2), VALS(1, 2, 3, 4)),
                          ivec(2, VALS(0, 1)), false),
                   MF_FLOAT64, 0, NULL, VALS(2.5)));
  /* Integer mean is integer division (truncating), of a 64-bit sum. */
  CHECK(values_are(reduce("Mean", tens(MF_INT32, 2, DIMS(2, 2), VALS(1, 2, -3, 0)),
                          scalar(MF_INT32, 1), false),
                   MF_INT32, 1, DIMS(2), VALS(1, -1)));
  CHECK(values_are(reduce("Mean", tens(MF_INT32, 1, DIMS(3), VALS(1 << 30, 1 << 30, 1 << 30)),
                          scalar(MF_INT32, 0), false),
                   MF_INT32, 0, NULL, VALS(1 << 30)));
  CHECK(values_are(reduce("Mean", tens(MF_INT64, 1, DIMS(4), VALS(1, 2, 3, 5)), scalar(MF_INT32, 0),
                          true),
                   MF_INT64, 1, DIMS(1), VALS(2)));
  CHECK(values_are(reduce("Mean", tens(MF_FLOAT32, 1, DIMS(0), NULL), scalar(MF_INT32, 0), false),
                   MF_FLOAT32, 0, NULL, VALS(NAN)));
  CHECK(values_are(reduce("Mean", tens(MF_INT32, 1, DIMS(0), NULL), scalar(MF_INT32, 0), false),
                   MF_INT32, 0, NULL, VALS(0)));
  release_all();
}

static void test_max_min_prod(void) {
  mf_tensor *x = tens(MF_INT32, 2, DIMS(2, 3), VALS(3, -1, 4, 1, 5, -9));
  CHECK(values_are(reduce("Max", x, scalar(MF_INT32, 1), false), MF_INT32, 1, DIMS(2), VALS(4, 5)));
  CHECK(values_are(reduce("Min", x, scalar(MF_INT32, 0), true), MF_INT32, 2, DIMS(1, 3),
                   VALS(1, -1, -9)));
  CHECK(values_are(reduce("Prod", x, scalar(MF_INT32, 1), false), MF_INT32, 1, DIMS(2),
                   VALS(-12, -45)));
  mf_tensor *f = tens(MF_FLOAT32, 1, DIMS(4), VALS(1, NAN, 7, -2));
  CHECK(values_are(reduce("Max", f, scalar(MF_INT32, 0), false), MF_FLOAT32, 0, NULL, VALS(NAN)));
  CHECK(values_are(reduce("Min", f, scalar(MF_INT32, 0), false), MF_FLOAT32, 0, NULL, VALS(NAN)));
  CHECK(values_are(reduce("Max", tens(MF_FLOAT64, 1, DIMS(3), VALS(-5, -7, -6)), scalar(MF_INT32, 0),
                          false),
                   MF_FLOAT64, 0, NULL, VALS(-5)));
  CHECK(values_are(reduce("Prod", tens(MF_FLOAT32, 1, DIMS(4), VALS(1, 2, 3, 4)), scalar(MF_INT32, 0),
                          false),
                   MF_FLOAT32, 0, NULL, VALS(24)));
  CHECK(values_are(reduce("Prod", tens(MF_INT64, 1, DIMS(2), VALS(4294967296.0, 4294967296.0)),
                          scalar(MF_INT32, 0), false),
                   MF_INT64, 0, NULL, VALS(0))); /* 2^64 wraps to 0 */
  /* Over nothing: the identities TF returns. */
  mf_tensor *ef = tens(MF_FLOAT32, 2, DIMS(2, 0), NULL), *ei = tens(MF_INT32, 2, DIMS(2, 0), NULL);
  mf_tensor *el = tens(MF_INT64, 1, DIMS(0), NULL);
  CHECK(values_are(reduce("Max", ef, scalar(MF_INT32, 1), false), MF_FLOAT32, 1, DIMS(2),
                   VALS(-INFINITY, -INFINITY)));
  CHECK(values_are(reduce("Min", ef, scalar(MF_INT32, 1), false), MF_FLOAT32, 1, DIMS(2),
                   VALS(INFINITY, INFINITY)));
  CHECK(values_are(reduce("Max", ei, scalar(MF_INT32, 1), false), MF_INT32, 1, DIMS(2),
                   VALS(INT32_MIN, INT32_MIN)));
  CHECK(values_are(reduce("Min", ei, scalar(MF_INT32, 1), false), MF_INT32, 1, DIMS(2),
                   VALS(INT32_MAX, INT32_MAX)));
  mf_tensor *mx = reduce("Max", el, scalar(MF_INT32, 0), false);
  CHECK(mx && mx->dtype == MF_INT64 && MF_DATA(mx, int64_t)[0] == INT64_MIN);
  CHECK(values_are(reduce("Prod", ef, scalar(MF_INT32, 1), false), MF_FLOAT32, 1, DIMS(2),
                   VALS(1, 1)));
  release_all();
}

static void test_any_all(void) {
  mf_tensor *b = tens(MF_BOOL, 2, DIMS(2, 2), VALS(1, 0, 0, 0));
  CHECK(values_are(reduce("Any", b, scalar(MF_INT32, 1), false), MF_BOOL, 1, DIMS(2), VALS(1, 0)));
  CHECK(values_are(reduce("All", b, scalar(MF_INT32, 0), true), MF_BOOL, 2, DIMS(1, 2), VALS(0, 0)));
  CHECK(values_are(reduce("All", tens(MF_BOOL, 1, DIMS(3), VALS(1, 1, 1)), scalar(MF_INT32, 0), false),
                   MF_BOOL, 0, NULL, VALS(1)));
  mf_tensor *e = tens(MF_BOOL, 1, DIMS(0), NULL);
  CHECK(values_are(reduce("All", e, scalar(MF_INT32, 0), false), MF_BOOL, 0, NULL, VALS(1)));
  CHECK(values_are(reduce("Any", e, scalar(MF_INT32, 0), false), MF_BOOL, 0, NULL, VALS(0)));
  CHECK(fails("Any", 2, INS(tens(MF_FLOAT32, 1, DIMS(1), NULL), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "bool"));
  CHECK(mf_op_lookup("Any")->flags & MF_OP_NO_GRADIENT);
  CHECK(!(mf_op_lookup("Sum")->flags & MF_OP_NO_GRADIENT));
  release_all();
}

static void test_errors_and_inference(void) {
  mf_tensor *x = tens(MF_FLOAT32, 2, DIMS(2, 3), NULL);
  CHECK(fails("Sum", 2, INS(x, scalar(MF_INT32, 2)), NULL, MF_ERR_INVALID_ARGUMENT,
              "Invalid reduction dimension (2 for input with 2 dimension(s)"));
  CHECK(fails("Max", 2, INS(x, scalar(MF_INT32, -3)), NULL, MF_ERR_INVALID_ARGUMENT,
              "Invalid reduction dimension (-3 for input with 2 dimension(s)"));
  CHECK(fails("Mean", 2, INS(x, ivec(2, VALS(0, -2))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Invalid reduction arguments: Axes contains duplicate dimension: 0"));
  CHECK(fails("Sum", 2, INS(x, scalar(MF_FLOAT32, 0)), NULL, MF_ERR_INVALID_ARGUMENT,
              "int32 or int64"));
  CHECK(fails("Sum", 2, INS(strs(1, DIMS(1), STRS("a")), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "numeric"));
  CHECK(fails("Sum", 2, INS(scalar(MF_FLOAT32, 1), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Invalid reduction dimension (0 for input with 0 dimension(s)"));

  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_FLOAT32, 3, DIMS(-1, 4, 5)), sa = spec_of(MF_INT32, 1, DIMS(1));
  CHECK_OK(infer_vals("Sum", 2, (mf_spec[]){sx, sa}, INS(NULL, ivec(1, VALS(1))), NULL, &out, NULL,
                      &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 5)));
  CHECK_OK(infer_vals("Sum", 2, (mf_spec[]){sx, sa}, INS(NULL, ivec(1, VALS(-1))), &keep_attr, &out,
                      NULL, &err));
  CHECK(spec_is(&out, 3, DIMS(-1, 4, 1)));
  CHECK_OK(infer_vals("Sum", 2, (mf_spec[]){sx, sa}, INS(NULL, NULL), &keep_attr, &out, NULL, &err));
  CHECK(spec_is(&out, 3, DIMS(-1, -1, -1)));
  CHECK_OK(infer_vals("Sum", 2, (mf_spec[]){sx, sa}, INS(NULL, NULL), NULL, &out, NULL, &err));
  CHECK(out.rank == -1);
  mf_spec su = {.dtype = MF_FLOAT32, .rank = -1};
  CHECK_OK(infer_vals("Max", 2, (mf_spec[]){su, sa}, INS(NULL, ivec(1, VALS(0))), NULL, &out, NULL,
                      &err));
  CHECK(out.rank == -1);
  release_all();
}

/* Sum over axes {1, 3, 4, 6} of a random rank-8 tensor, checked against
 * a brute-force loop over every element. */
static void test_rank8_walk(void) {
  const int64_t shape[MF_MAX_RANK] = {2, 3, 1, 2, 3, 2, 2, 3};
  const bool red[MF_MAX_RANK] = {false, true, false, true, true, false, true, false};
  unsigned seed = 7;
  mf_tensor *x = keep(random_tensor(MF_FLOAT64, MF_MAX_RANK, shape, &seed));
  mf_tensor *s = reduce("Sum", x, ivec(4, VALS(1, -5, 4, 6)), true);
  mf_tensor *p = reduce("Prod", x, ivec(4, VALS(1, 3, 4, -2)), false);
  CHECK(s && p && s->size == 2 * 2 * 3 && p->size == s->size);
  double want_s[12] = {0}, want_p[12];
  for (int i = 0; i < 12; i++) want_p[i] = 1;
  int64_t idx[MF_MAX_RANK] = {0};
  for (int64_t i = 0; x && i < x->size; i++) {
    int64_t o = 0;
    for (int d = 0; d < MF_MAX_RANK; d++)
      if (!red[d]) o = o * shape[d] + idx[d];
    want_s[o] += mf_tensor_get_f64(x, i);
    want_p[o] *= mf_tensor_get_f64(x, i);
    for (int d = MF_MAX_RANK - 1; d >= 0 && ++idx[d] == shape[d]; d--) idx[d] = 0;
  }
  for (int i = 0; s && p && i < 12; i++) {
    CHECK_NEAR(mf_tensor_get_f64(s, i), want_s[i], 1e-12);
    CHECK_NEAR(mf_tensor_get_f64(p, i), want_p[i], 1e-12);
  }
  CHECK(s && s->rank == 8 && s->shape[1] == 1 && s->shape[7] == 3);
  release_all();
}

static void test_argmax(void) {
  mf_tensor *x = tens(MF_FLOAT32, 2, DIMS(2, 3), VALS(1, 5, 3, 7, 2, 7));
  CHECK(values_are(run1("ArgMax", 2, INS(x, scalar(MF_INT32, 1)), NULL), MF_INT64, 1, DIMS(2),
                   VALS(1, 0)));
  CHECK(values_are(run1("ArgMax", 2, INS(x, scalar(MF_INT64, -2)), NULL), MF_INT64, 1, DIMS(3),
                   VALS(1, 0, 1)));
  CHECK(values_are(run1("ArgMin", 2, INS(x, scalar(MF_INT32, 1)), NULL), MF_INT64, 1, DIMS(2),
                   VALS(0, 1)));
  mf_attrs i32 = attr_type("output_type", MF_INT32);
  CHECK(values_are(run1("ArgMin", 2, INS(tens(MF_INT64, 1, DIMS(4), VALS(4, -2, 9, -2)),
                                         scalar(MF_INT32, 0)),
                        &i32),
                   MF_INT32, 0, NULL, VALS(1)));
  CHECK(values_are(run1("ArgMax", 2, INS(tens(MF_FLOAT64, 1, DIMS(3), VALS(1, NAN, 2)),
                                         scalar(MF_INT32, 0)),
                        NULL),
                   MF_INT64, 0, NULL, VALS(1)));
  CHECK(values_are(run1("ArgMax", 2, INS(tens(MF_BOOL, 1, DIMS(3), VALS(0, 1, 1)), scalar(MF_INT32, 0)),
                        NULL),
                   MF_INT64, 0, NULL, VALS(1)));
  CHECK(values_are(run1("ArgMax", 2, INS(tens(MF_INT32, 2, DIMS(0, 2), NULL), scalar(MF_INT32, 1)),
                        NULL),
                   MF_INT64, 1, DIMS(0), NULL));
  CHECK(fails("ArgMax", 2, INS(scalar(MF_FLOAT32, 1), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Expected dimension in the range [0, 0), but got 0"));
  CHECK(fails("ArgMax", 2, INS(x, scalar(MF_INT32, 2)), NULL, MF_ERR_INVALID_ARGUMENT,
              "Expected dimension in the range [-2, 2), but got 2"));
  CHECK(fails("ArgMin", 2, INS(tens(MF_FLOAT32, 2, DIMS(2, 0), NULL), scalar(MF_INT32, 1)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Reduction axis 1 is empty in shape [2,0]"));
  CHECK(fails("ArgMax", 2, INS(strs(1, DIMS(1), STRS("a")), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "numeric or bool"));
  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_FLOAT32, 2, DIMS(-1, 10)), sa = spec_of(MF_INT32, 0, NULL);
  CHECK_OK(infer_vals("ArgMax", 2, (mf_spec[]){sx, sa}, INS(NULL, scalar(MF_INT32, -1)), NULL, &out,
                      NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)) && out.dtype == MF_INT64);
  CHECK_OK(infer_vals("ArgMax", 2, (mf_spec[]){sx, sa}, INS(NULL, NULL), &i32, &out, NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)) && out.dtype == MF_INT32);
  CHECK(mf_op_lookup("ArgMax")->flags & MF_OP_NO_GRADIENT);
  release_all();
}

static void test_no_leaks(void) { CHECK(mf_live_bytes() == 0); }

int main(void) {
  keep_attr = attr_bool("keep_dims", true);
  RUN(test_sum);
  RUN(test_float32_accuracy);
  RUN(test_mean);
  RUN(test_max_min_prod);
  RUN(test_any_all);
  RUN(test_errors_and_inference);
  RUN(test_rank8_walk);
  RUN(test_argmax);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
