/* test_linalg.c — MatMul and BatchMatMulV2 against naive loops, their
 * errors, and their shape inference with unknown dims. */
#include "check.h"
#include "op_test.h"

/* Naive a (m x k, or k x m when ta) times b, in double. */
static double naive_at(const mf_tensor *a, bool ta, const mf_tensor *b, bool tb, int64_t i,
                       int64_t j, int64_t k, int64_t aoff, int64_t boff) {
  int64_t acols = a->shape[a->rank - 1], bcols = b->shape[b->rank - 1];
  double s = 0;
  for (int64_t p = 0; p < k; p++)
    s += mf_tensor_get_f64(a, aoff + (ta ? p * acols + i : i * acols + p)) *
         mf_tensor_get_f64(b, boff + (tb ? j * bcols + p : p * bcols + j));
  return s;
}

static void matmul_case(mf_dtype dt, bool ta, bool tb, int64_t m, int64_t k, int64_t n,
                        double tol) {
  unsigned seed = (unsigned)(m * 131 + k * 7 + n + ta * 3 + tb * 5);
  mf_tensor *in[2] = {random_tensor(dt, 2, ta ? DIMS(k, m) : DIMS(m, k), &seed),
                      random_tensor(dt, 2, tb ? DIMS(n, k) : DIMS(k, n), &seed)};
  if (mf_dtype_is_integer(dt))
    for (int t = 0; t < 2; t++)
      for (int64_t i = 0; i < in[t]->size; i++)
        mf_tensor_set_i64(in[t], i, (int64_t)(test_rand(&seed) * 10));
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_bool(&at, "transpose_a", ta, NULL);
  mf_attrs_set_bool(&at, "transpose_b", tb, NULL);
  mf_tensor *out = NULL;
  mf_error err;
  CHECK(run_op("MatMul", 2, in, &at, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 2, DIMS(m, n)));
  double worst = 0;
  for (int64_t i = 0; out && i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double d = fabs(mf_tensor_get_f64(out, i * n + j) - naive_at(in[0], ta, in[1], tb, i, j, k, 0, 0));
      if (d > worst) worst = d;
    }
  CHECK(worst <= tol);
  if (worst > tol) printf("#   %s ta=%d tb=%d: max error %g\n", mf_dtype_name(dt), ta, tb, worst);
  CHECK(!out || out->dtype == dt);
  mf_tensor_release(out);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
  mf_attrs_free(&at);
}

static void test_matmul_transposes(void) {
  for (int t = 0; t < 4; t++) {
    matmul_case(MF_FLOAT32, t & 1, t & 2, 5, 7, 3, 1e-5);
    matmul_case(MF_FLOAT64, t & 1, t & 2, 4, 9, 6, 1e-12);
    matmul_case(MF_INT32, t & 1, t & 2, 3, 5, 4, 0);
    matmul_case(MF_INT64, t & 1, t & 2, 6, 2, 5, 0);
  }
}

static void test_matmul_large(void) {
  matmul_case(MF_FLOAT32, false, false, 300, 257, 129, 1e-3);
  matmul_case(MF_FLOAT64, true, true, 64, 300, 70, 1e-10);
}

static void test_matmul_known_values(void) {
  mf_tensor *in[2] = {make_tensor(MF_FLOAT32, 2, DIMS(2, 2), (double[]){1, 2, 3, 4}),
                      make_tensor(MF_FLOAT32, 2, DIMS(2, 2), (double[]){5, 6, 7, 8})};
  mf_tensor *out = NULL;
  mf_error err;
  CHECK(run_op("MatMul", 2, in, NULL, 1, &out, &err) == MF_OK);
  mf_tensor *want = make_tensor(MF_FLOAT32, 2, DIMS(2, 2), (double[]){19, 22, 43, 50});
  CHECK(max_abs_diff(out, want) == 0);
  mf_tensor_release(want);
  mf_tensor_release(out);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
}

static void test_matmul_empty_inner(void) {
  mf_tensor *in[2] = {make_tensor(MF_FLOAT32, 2, DIMS(2, 0), NULL),
                      make_tensor(MF_FLOAT32, 2, DIMS(0, 3), NULL)};
  mf_tensor *out = NULL;
  mf_error err;
  CHECK(run_op("MatMul", 2, in, NULL, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 2, DIMS(2, 3)));
  for (int64_t i = 0; out && i < out->size; i++) CHECK(mf_tensor_get_f64(out, i) == 0);
  mf_tensor_release(out);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
}

static void test_matmul_errors(void) {
  mf_error err;
  mf_tensor *out = NULL;
  mf_tensor *a = make_tensor(MF_FLOAT32, 2, DIMS(2, 3), NULL);
  mf_tensor *b = make_tensor(MF_FLOAT32, 2, DIMS(2, 2), NULL);
  mf_tensor *v = make_tensor(MF_FLOAT32, 1, DIMS(3), NULL);
  mf_tensor *i = make_tensor(MF_INT32, 2, DIMS(3, 2), NULL);
  mf_tensor *s = make_tensor(MF_BOOL, 2, DIMS(3, 2), NULL);
  CHECK(run_op("MatMul", 2, (mf_tensor *[]){a, b}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message,
               "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2] [Op:MatMul]") == 0);
  CHECK(run_op("MatMul", 2, (mf_tensor *[]){a, v}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "In[1] is not a matrix. Instead it has shape [3]") != NULL);
  CHECK(run_op("MatMul", 2, (mf_tensor *[]){a, i}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(run_op("MatMul", 2, (mf_tensor *[]){s, s}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(run_op("MatMul", 1, (mf_tensor *[]){a}, NULL, 1, &out, &err) == MF_ERR_TYPE);
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_bool(&at, "transpose_b", true, NULL);
  CHECK(run_op("MatMul", 2, (mf_tensor *[]){a, b}, &at, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_attrs_free(&at);
  mf_tensor_release(a);
  mf_tensor_release(b);
  mf_tensor_release(v);
  mf_tensor_release(i);
  mf_tensor_release(s);
}

static void test_matmul_infer_unknown(void) {
  mf_error err;
  mf_spec out[2];
  int nout;
  mf_spec in[2] = {spec_of(MF_FLOAT32, 2, DIMS(-1, 3)), spec_of(MF_FLOAT32, 2, DIMS(3, -1))};
  CHECK(infer_op("MatMul", 2, in, NULL, out, 2, &nout, &err) == MF_OK);
  CHECK(nout == 1 && spec_is(&out[0], 2, DIMS(-1, -1)) && out[0].dtype == MF_FLOAT32);
  mf_spec unk[2] = {spec_of(MF_FLOAT32, -1, NULL), spec_of(MF_FLOAT32, 2, DIMS(4, 5))};
  CHECK(infer_op("MatMul", 2, unk, NULL, out, 2, &nout, &err) == MF_OK);
  CHECK(spec_is(&out[0], 2, DIMS(-1, 5)));
  mf_spec bad[2] = {spec_of(MF_FLOAT32, 2, DIMS(-1, 3)), spec_of(MF_FLOAT32, 2, DIMS(4, -1))};
  CHECK(infer_op("MatMul", 2, bad, NULL, out, 2, &nout, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message,
               "Matrix size-incompatible: In[0]: [?,3], In[1]: [4,?] [Op:MatMul]") == 0);
}

static void test_batch_matmul_broadcast(void) {
  unsigned seed = 7;
  for (int adj = 0; adj < 4; adj++) {
    bool ax = adj & 1, ay = adj & 2;
    int64_t m = 3, k = 4, n = 5;
    mf_tensor *in[2] = {random_tensor(MF_FLOAT64, 4, ax ? DIMS(2, 1, k, m) : DIMS(2, 1, m, k), &seed),
                        random_tensor(MF_FLOAT64, 3, ay ? DIMS(3, n, k) : DIMS(3, k, n), &seed)};
    mf_attrs at;
    mf_attrs_init(&at);
    mf_attrs_set_bool(&at, "adj_x", ax, NULL);
    mf_attrs_set_bool(&at, "adj_y", ay, NULL);
    mf_tensor *out = NULL;
    mf_error err;
    CHECK(run_op("BatchMatMulV2", 2, in, &at, 1, &out, &err) == MF_OK);
    CHECK(shape_is(out, 4, DIMS(2, 3, m, n)));
    double worst = 0;
    for (int64_t b0 = 0; out && b0 < 2; b0++)
      for (int64_t b1 = 0; b1 < 3; b1++)
        for (int64_t i = 0; i < m; i++)
          for (int64_t j = 0; j < n; j++) {
            double want = naive_at(in[0], ax, in[1], ay, i, j, k, b0 * m * k, b1 * k * n);
            double got = mf_tensor_get_f64(out, ((b0 * 3 + b1) * m + i) * n + j);
            if (fabs(want - got) > worst) worst = fabs(want - got);
          }
    CHECK(worst < 1e-12);
    mf_tensor_release(out);
    mf_tensor_release(in[0]);
    mf_tensor_release(in[1]);
    mf_attrs_free(&at);
  }
}

static void test_batch_matmul_rank2_and_ints(void) {
  mf_tensor *in[2] = {make_tensor(MF_INT32, 2, DIMS(2, 2), (double[]){1, 2, 3, 4}),
                      make_tensor(MF_INT32, 3, DIMS(2, 2, 1), (double[]){1, 1, 2, -1})};
  mf_tensor *out = NULL;
  mf_error err;
  CHECK(run_op("BatchMatMulV2", 2, in, NULL, 1, &out, &err) == MF_OK);
  mf_tensor *want = make_tensor(MF_INT32, 3, DIMS(2, 2, 1), (double[]){3, 7, 0, 2});
  CHECK(shape_is(out, 3, DIMS(2, 2, 1)) && max_abs_diff(out, want) == 0);
  mf_tensor_release(want);
  mf_tensor_release(out);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
}

static void test_batch_matmul_errors_and_infer(void) {
  mf_error err;
  mf_spec out[2];
  int nout;
  mf_spec bad_batch[2] = {spec_of(MF_FLOAT32, 3, DIMS(2, 2, 3)),
                          spec_of(MF_FLOAT32, 3, DIMS(3, 3, 4))};
  CHECK(infer_op("BatchMatMulV2", 2, bad_batch, NULL, out, 2, &nout, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "must have compatible batch dimensions: [2,2,3] vs. [3,3,4]"));
  mf_spec bad_k[2] = {spec_of(MF_FLOAT32, 3, DIMS(2, 3, 4)), spec_of(MF_FLOAT32, 3, DIMS(2, 5, 6))};
  CHECK(infer_op("BatchMatMulV2", 2, bad_k, NULL, out, 2, &nout, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Matrix size-incompatible: In[0]: [2,3,4], In[1]: [2,5,6]"));
  mf_spec vec[2] = {spec_of(MF_FLOAT32, 1, DIMS(3)), spec_of(MF_FLOAT32, 2, DIMS(3, 3))};
  CHECK(infer_op("BatchMatMulV2", 2, vec, NULL, out, 2, &nout, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "In[0] ndims must be >= 2: 1"));
  mf_spec unk[2] = {spec_of(MF_FLOAT32, 3, DIMS(-1, -1, 4)), spec_of(MF_FLOAT32, 4, DIMS(7, 1, 4, -1))};
  CHECK(infer_op("BatchMatMulV2", 2, unk, NULL, out, 2, &nout, &err) == MF_OK);
  CHECK(spec_is(&out[0], 4, DIMS(7, -1, -1, -1)));
  mf_spec unr[2] = {spec_of(MF_FLOAT32, -1, NULL), spec_of(MF_FLOAT32, 2, DIMS(4, 5))};
  CHECK(infer_op("BatchMatMulV2", 2, unr, NULL, out, 2, &nout, &err) == MF_OK);
  CHECK(out[0].rank == -1);
}

int main(void) {
  RUN(test_matmul_known_values);
  RUN(test_matmul_transposes);
  RUN(test_matmul_large);
  RUN(test_matmul_empty_inner);
  RUN(test_matmul_errors);
  RUN(test_matmul_infer_unknown);
  RUN(test_batch_matmul_broadcast);
  RUN(test_batch_matmul_rank2_and_ints);
  RUN(test_batch_matmul_errors_and_infer);
  return CHECK_DONE();
}
