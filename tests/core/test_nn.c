/* test_nn.c — Softmax, LogSoftmax, the softmax cross-entropies, BiasAdd and
 * BiasAddGrad: values against naive double loops, stability with large
 * logits, TF's error messages, inference with unknown shapes. */
#include "check.h"
#include "op_test.h"

/* Naive softmax of row r (length n) of t, element j; log of it when lg. */
static double naive_softmax(const mf_tensor *t, int64_t r, int64_t n, int64_t j, bool lg) {
  double mx = -INFINITY, sum = 0;
  for (int64_t k = 0; k < n; k++) mx = fmax(mx, mf_tensor_get_f64(t, r * n + k));
  for (int64_t k = 0; k < n; k++) sum += exp(mf_tensor_get_f64(t, r * n + k) - mx);
  double x = mf_tensor_get_f64(t, r * n + j) - mx;
  return lg ? x - log(sum) : exp(x) / sum;
}

static void test_softmax_values(void) {
  unsigned seed = 3;
  for (int dt = 0; dt < 2; dt++) {
    mf_dtype d = dt ? MF_FLOAT64 : MF_FLOAT32;
    double tol = dt ? 1e-12 : 1e-6;
    mf_tensor *x = random_tensor(d, 3, DIMS(2, 3, 7), &seed);
    for (int64_t i = 0; i < x->size; i++) mf_tensor_set_f64(x, i, 5 * mf_tensor_get_f64(x, i));
    for (int lg = 0; lg < 2; lg++) {
      mf_tensor *y = NULL;
      mf_error err;
      CHECK(run_op(lg ? "LogSoftmax" : "Softmax", 1, &x, NULL, 1, &y, &err) == MF_OK);
      CHECK(shape_is(y, 3, DIMS(2, 3, 7)) && y->dtype == d);
      for (int64_t r = 0; y && r < 6; r++) {
        double sum = 0;
        for (int64_t j = 0; j < 7; j++) {
          double v = mf_tensor_get_f64(y, r * 7 + j);
          CHECK_NEAR(v, naive_softmax(x, r, 7, j, lg), tol);
          sum += lg ? exp(v) : v;
        }
        CHECK_NEAR(sum, 1.0, 10 * tol);
      }
      mf_tensor_release(y);
    }
    mf_tensor_release(x);
  }
}

static void test_softmax_stable(void) {
  mf_tensor *x = make_tensor(MF_FLOAT32, 2, DIMS(2, 2), (double[]){1000, 1001, -1000, -1e30});
  mf_tensor *y = NULL, *ly = NULL;
  mf_error err;
  CHECK(run_op("Softmax", 1, &x, NULL, 1, &y, &err) == MF_OK);
  CHECK(run_op("LogSoftmax", 1, &x, NULL, 1, &ly, &err) == MF_OK);
  double e = 1 / (1 + exp(1.0));
  CHECK_NEAR(mf_tensor_get_f64(y, 0), e, 1e-6);
  CHECK_NEAR(mf_tensor_get_f64(y, 1), 1 - e, 1e-6);
  CHECK(mf_tensor_get_f64(y, 2) == 1 && mf_tensor_get_f64(y, 3) == 0);
  CHECK_NEAR(mf_tensor_get_f64(ly, 0), log(e), 1e-5);
  CHECK(mf_tensor_get_f64(ly, 2) == 0);
  mf_tensor_release(x);
  mf_tensor_release(y);
  mf_tensor_release(ly);
}

static void test_softmax_errors_and_infer(void) {
  mf_error err;
  mf_tensor *i = make_tensor(MF_INT32, 1, DIMS(3), NULL), *s = make_tensor(MF_FLOAT32, 0, NULL, NULL);
  mf_tensor *y = NULL;
  CHECK(run_op("Softmax", 1, &i, NULL, 1, &y, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(run_op("Softmax", 1, &s, NULL, 1, &y, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "logits must have >= 1 dimension"));
  mf_tensor_release(i);
  mf_tensor_release(s);
  mf_spec in = spec_of(MF_FLOAT32, 2, DIMS(-1, 4)), out[2];
  int n;
  CHECK(infer_op("LogSoftmax", 1, &in, NULL, out, 2, &n, &err) == MF_OK);
  CHECK(n == 1 && spec_is(&out[0], 2, DIMS(-1, 4)));
  in = spec_of(MF_FLOAT64, -1, NULL);
  CHECK(infer_op("Softmax", 1, &in, NULL, out, 2, &n, &err) == MF_OK && out[0].rank == -1);
  /* an empty class axis is fine */
  mf_tensor *e = make_tensor(MF_FLOAT32, 2, DIMS(3, 0), NULL);
  CHECK(run_op("Softmax", 1, &e, NULL, 1, &y, &err) == MF_OK && shape_is(y, 2, DIMS(3, 0)));
  mf_tensor_release(y);
  mf_tensor_release(e);
}

/* Checks loss and backprop of a cross-entropy against the definition, for
 * features [b, n] and dense labels (row stride lr, column stride lc). */
static void check_xent(const mf_tensor *f, const mf_tensor *labels, int64_t lr, int64_t lc,
                       const mf_tensor *loss, const mf_tensor *back, double tol) {
  int64_t b = f->shape[0], n = f->shape[1];
  for (int64_t r = 0; r < b; r++) {
    double want = 0;
    for (int64_t j = 0; j < n; j++) {
      double y = mf_tensor_get_f64(labels, r * lr + j * lc);
      want -= y * naive_softmax(f, r, n, j, true);
      CHECK_NEAR(mf_tensor_get_f64(back, r * n + j), naive_softmax(f, r, n, j, false) - y, tol);
    }
    CHECK_NEAR(mf_tensor_get_f64(loss, r), want, tol);
  }
}

static void test_xent(void) {
  mf_tensor *in[2] = {make_tensor(MF_FLOAT32, 2, DIMS(2, 3), (double[]){1, 2, 3, 1, 1, 1}),
                      make_tensor(MF_FLOAT32, 2, DIMS(2, 3), (double[]){0, 0, 1, .5, .5, 0})};
  mf_tensor *out[2] = {0};
  mf_error err;
  CHECK(run_op("SoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) == MF_OK);
  CHECK(shape_is(out[0], 1, DIMS(2)) && shape_is(out[1], 2, DIMS(2, 3)));
  /* TF: [0.40760595, 1.0986123] */
  CHECK_NEAR(mf_tensor_get_f64(out[0], 0), 0.40760595, 1e-6);
  CHECK_NEAR(mf_tensor_get_f64(out[0], 1), 1.0986123, 1e-6);
  check_xent(in[0], in[1], 3, 1, out[0], out[1], 1e-6);
  for (int i = 0; i < 2; i++) mf_tensor_release(out[i]), mf_tensor_release(in[i]);

  /* labels [3] broadcast against features [2, 3] */
  unsigned seed = 11;
  in[0] = random_tensor(MF_FLOAT64, 2, DIMS(2, 3), &seed);
  in[1] = make_tensor(MF_FLOAT64, 1, DIMS(3), (double[]){.2, .3, .5});
  CHECK(run_op("SoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) == MF_OK);
  CHECK(shape_is(out[1], 2, DIMS(2, 3)));
  if (out[0] && out[1]) check_xent(in[0], in[1], 0, 1, out[0], out[1], 1e-12);
  for (int i = 0; i < 2; i++) mf_tensor_release(out[i]), mf_tensor_release(in[i]);
}

static void test_xent_errors_and_infer(void) {
  mf_error err;
  mf_spec out[2];
  int n;
  mf_spec bad[2] = {spec_of(MF_FLOAT32, 2, DIMS(2, 3)), spec_of(MF_FLOAT32, 2, DIMS(3, 3))};
  CHECK(infer_op("SoftmaxCrossEntropyWithLogits", 2, bad, NULL, out, 2, &n, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message,
               "logits and labels must be broadcastable: logits_size=[2,3] labels_size=[3,3]"));
  mf_spec r3[2] = {spec_of(MF_FLOAT32, 3, DIMS(2, 3, 4)), spec_of(MF_FLOAT32, 3, DIMS(2, 3, 4))};
  CHECK(infer_op("SoftmaxCrossEntropyWithLogits", 2, r3, NULL, out, 2, &n, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "2-dimensional"));
  mf_spec mixed[2] = {spec_of(MF_FLOAT32, 2, DIMS(2, 3)), spec_of(MF_FLOAT64, 2, DIMS(2, 3))};
  CHECK(infer_op("SoftmaxCrossEntropyWithLogits", 2, mixed, NULL, out, 2, &n, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_spec unk[2] = {spec_of(MF_FLOAT32, 2, DIMS(-1, 10)), spec_of(MF_FLOAT32, 2, DIMS(-1, -1))};
  CHECK(infer_op("SoftmaxCrossEntropyWithLogits", 2, unk, NULL, out, 2, &n, &err) == MF_OK);
  CHECK(n == 2 && spec_is(&out[0], 1, DIMS(-1)) && spec_is(&out[1], 2, DIMS(-1, 10)));
  mf_spec unr[2] = {spec_of(MF_FLOAT32, -1, NULL), spec_of(MF_FLOAT32, 2, DIMS(4, 10))};
  CHECK(infer_op("SoftmaxCrossEntropyWithLogits", 2, unr, NULL, out, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&out[0], 1, DIMS(-1)) && spec_is(&out[1], 2, DIMS(-1, -1)));
}

static void test_sparse_xent(void) {
  unsigned seed = 5;
  for (int lt = 0; lt < 2; lt++) {
    mf_tensor *in[2] = {random_tensor(MF_FLOAT32, 2, DIMS(3, 4), &seed),
                        make_tensor(lt ? MF_INT64 : MF_INT32, 1, DIMS(3), (double[]){2, 0, 3})};
    mf_tensor *onehot = make_tensor(MF_FLOAT32, 2, DIMS(3, 4),
                                    (double[]){0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1});
    mf_tensor *out[2] = {0};
    mf_error err;
    CHECK(run_op("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) == MF_OK);
    CHECK(shape_is(out[0], 1, DIMS(3)) && shape_is(out[1], 2, DIMS(3, 4)));
    if (out[0] && out[1]) check_xent(in[0], onehot, 4, 1, out[0], out[1], 1e-6);
    for (int i = 0; i < 2; i++) mf_tensor_release(out[i]), mf_tensor_release(in[i]);
    mf_tensor_release(onehot);
  }
}

static void test_sparse_xent_errors(void) {
  mf_error err;
  mf_tensor *out[2] = {0};
  mf_tensor *in[2] = {make_tensor(MF_FLOAT32, 2, DIMS(2, 3), NULL),
                      make_tensor(MF_INT32, 1, DIMS(2), (double[]){1, 5})};
  CHECK(run_op("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strncmp(err.message,
                "Received a label value of 5 which is outside the valid range of [0, 3).",
                strlen("Received a label value of 5 which is outside the valid range of [0, 3).")) == 0);
  CHECK(strstr(err.message, "Label values: 1 5"));
  mf_tensor_set_i64(in[1], 1, -1);
  CHECK(run_op("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "label value of -1"));
  mf_tensor_release(in[1]);
  in[1] = make_tensor(MF_INT32, 1, DIMS(3), NULL);
  CHECK(run_op("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "must have the same first dimension, got logits shape [2,3] and "
                            "labels shape [3]"));
  mf_tensor_release(in[1]);
  in[1] = make_tensor(MF_FLOAT32, 1, DIMS(2), NULL);
  CHECK(run_op("SparseSoftmaxCrossEntropyWithLogits", 2, in, NULL, 2, out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  for (int i = 0; i < 2; i++) mf_tensor_release(in[i]);
  mf_spec specs[2] = {spec_of(MF_FLOAT32, 2, DIMS(-1, 7)), spec_of(MF_INT64, -1, NULL)};
  mf_spec o[2];
  int n;
  CHECK(infer_op("SparseSoftmaxCrossEntropyWithLogits", 2, specs, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 1, DIMS(-1)) && spec_is(&o[1], 2, DIMS(-1, 7)));
  specs[0] = spec_of(MF_FLOAT32, 3, DIMS(1, 2, 3));
  CHECK(infer_op("SparseSoftmaxCrossEntropyWithLogits", 2, specs, NULL, o, 2, &n, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "logits must be 2-D, but got shape [1,2,3]"));
}

static void test_bias_add(void) {
  mf_error err;
  mf_tensor *in[2] = {make_tensor(MF_FLOAT32, 2, DIMS(2, 3), (double[]){1, 2, 3, 4, 5, 6}),
                      make_tensor(MF_FLOAT32, 1, DIMS(3), (double[]){10, 20, 30})};
  mf_tensor *y = NULL, *g = NULL;
  CHECK(run_op("BiasAdd", 2, in, NULL, 1, &y, &err) == MF_OK);
  mf_tensor *want = make_tensor(MF_FLOAT32, 2, DIMS(2, 3), (double[]){11, 22, 33, 14, 25, 36});
  CHECK(max_abs_diff(y, want) == 0);
  CHECK(run_op("BiasAddGrad", 1, &in[0], NULL, 1, &g, &err) == MF_OK);
  mf_tensor *gw = make_tensor(MF_FLOAT32, 1, DIMS(3), (double[]){5, 7, 9});
  CHECK(shape_is(g, 1, DIMS(3)) && max_abs_diff(g, gw) == 0);
  for (int i = 0; i < 2; i++) mf_tensor_release(in[i]);
  mf_tensor_release(y), mf_tensor_release(g), mf_tensor_release(want), mf_tensor_release(gw);

  /* rank 4, int32, NHWC and NCHW */
  unsigned seed = 9;
  mf_tensor *v = random_tensor(MF_INT32, 4, DIMS(2, 3, 4, 5), &seed);
  for (int64_t i = 0; i < v->size; i++) mf_tensor_set_i64(v, i, i % 17 - 8);
  for (int nchw = 0; nchw < 2; nchw++) {
    int64_t ch = nchw ? 3 : 5;
    mf_tensor *b = make_tensor(MF_INT32, 1, DIMS(ch), NULL);
    for (int64_t i = 0; i < ch; i++) mf_tensor_set_i64(b, i, 100 * (i + 1));
    mf_attrs at;
    mf_attrs_init(&at);
    mf_attrs_set_string(&at, "data_format", nchw ? "NCHW" : "NHWC", NULL);
    CHECK(run_op("BiasAdd", 2, (mf_tensor *[]){v, b}, &at, 1, &y, &err) == MF_OK);
    CHECK(run_op("BiasAddGrad", 1, &v, &at, 1, &g, &err) == MF_OK);
    CHECK(shape_is(g, 1, DIMS(ch)));
    int64_t sums[5] = {0};
    for (int64_t i = 0; y && g && i < v->size; i++) {
      int64_t c = nchw ? (i / 20) % 3 : i % 5;
      CHECK(mf_tensor_get_i64(y, i) == mf_tensor_get_i64(v, i) + 100 * (c + 1));
      sums[c] += mf_tensor_get_i64(v, i);
    }
    for (int64_t c = 0; g && c < ch; c++) CHECK(mf_tensor_get_i64(g, c) == sums[c]);
    mf_tensor_release(y), mf_tensor_release(g), mf_tensor_release(b);
    mf_attrs_free(&at);
  }
  mf_tensor_release(v);
}

static void test_bias_add_errors_and_infer(void) {
  mf_error err;
  mf_spec o[2];
  int n;
  mf_spec bad[2] = {spec_of(MF_FLOAT32, 2, DIMS(2, 4)), spec_of(MF_FLOAT32, 1, DIMS(3))};
  CHECK(infer_op("BiasAdd", 2, bad, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Must provide as many biases as the last dimension of the input "
                            "tensor: [3] vs. [2,4]"));
  mf_spec vec[2] = {spec_of(MF_FLOAT32, 1, DIMS(3)), spec_of(MF_FLOAT32, 1, DIMS(3))};
  CHECK(infer_op("BiasAdd", 2, vec, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Input tensor must be at least 2D: [3]"));
  mf_spec b2[2] = {spec_of(MF_FLOAT32, 2, DIMS(2, 3)), spec_of(MF_FLOAT32, 2, DIMS(1, 3))};
  CHECK(infer_op("BiasAdd", 2, b2, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Biases must be 1D: [1,3]"));
  mf_spec unk[2] = {spec_of(MF_FLOAT32, 3, DIMS(-1, 5, -1)), spec_of(MF_FLOAT32, 1, DIMS(8))};
  CHECK(infer_op("BiasAdd", 2, unk, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 3, DIMS(-1, 5, 8)));
  mf_spec unr = spec_of(MF_FLOAT32, -1, NULL);
  CHECK(infer_op("BiasAddGrad", 1, &unr, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 1, DIMS(-1)));
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "data_format", "HWNC", NULL);
  CHECK(infer_op("BiasAdd", 2, unk, &at, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_free(&at);
}

int main(void) {
  RUN(test_softmax_values);
  RUN(test_softmax_stable);
  RUN(test_softmax_errors_and_infer);
  RUN(test_xent);
  RUN(test_xent_errors_and_infer);
  RUN(test_sparse_xent);
  RUN(test_sparse_xent_errors);
  RUN(test_bias_add);
  RUN(test_bias_add_errors_and_infer);
  return CHECK_DONE();
}
