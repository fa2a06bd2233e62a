/* test_overflow.c — integer arithmetic wraps (two's complement), as
 * TensorFlow's integer kernels do, and is computed without C's undefined
 * signed overflow: built with SANITIZE=1, UBSan stops this test at the
 * first overflowing signed operation. Variables' assign_add/assign_sub and
 * the elementwise ops, at the edges of int32 and int64. */
#include "check.h"

#include "op_test.h"

#include "variable.h"

static mf_tensor *i32(int32_t v) {
  mf_tensor *t = NULL;
  mf_tensor_scalar_i64(MF_INT32, v, &t, NULL);
  return t;
}

static mf_tensor *i64(int64_t v) {
  mf_tensor *t = NULL;
  mf_tensor_scalar_i64(MF_INT64, v, &t, NULL);
  return t;
}

/* A resource handle owning a new variable holding init (stolen). */
static mf_tensor *handle(mf_tensor *init, mf_variable **var) {
  mf_tensor *h = NULL;
  CHECK_OK(mf_variable_new("v", init, true, var, NULL));
  mf_tensor_release(init);
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 0, NULL, &h, NULL));
  *MF_DATA(h, mf_variable *) = *var;
  return h;
}

/* Runs op(handle, value) (value stolen); the variable's value after. */
static int64_t assign(const char *op, mf_tensor *h, mf_variable *v, mf_tensor *value) {
  mf_error err;
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "dtype", value->dtype, NULL);
  mf_status s = run_op(op, 2, (mf_tensor *[]){h, value}, &as, 0, NULL, &err);
  if (s != MF_OK) printf("#   %s: %s\n", op, err.message);
  CHECK(s == MF_OK);
  mf_attrs_free(&as);
  mf_tensor_release(value);
  return mf_tensor_get_i64(v->value, 0);
}

static void test_assign_add_wraps(void) {
  mf_variable *v;
  mf_tensor *h = handle(i32(INT32_MAX), &v);
  CHECK(assign("AssignAddVariableOp", h, v, i32(1)) == INT32_MIN);
  CHECK(assign("AssignSubVariableOp", h, v, i32(1)) == INT32_MAX);
  CHECK(assign("AssignSubVariableOp", h, v, i32(-2)) == INT32_MIN + 1);
  mf_tensor_release(h);
  h = handle(i64(INT64_MAX), &v);
  CHECK(assign("AssignAddVariableOp", h, v, i64(1)) == INT64_MIN);
  CHECK(assign("AssignSubVariableOp", h, v, i64(1)) == INT64_MAX);
  mf_tensor_release(h);
}

/* op(a, b) on int32 scalars. */
static int64_t binary32(const char *op, int32_t a, int32_t b) {
  mf_error err;
  mf_tensor *x = i32(a), *y = i32(b), *out = NULL;
  mf_status s = run_op(op, 2, (mf_tensor *[]){x, y}, NULL, 1, &out, &err);
  if (s != MF_OK) printf("#   %s: %s\n", op, err.message);
  int64_t r = s == MF_OK ? mf_tensor_get_i64(out, 0) : -1;
  mf_tensor_release(x);
  mf_tensor_release(y);
  mf_tensor_release(out);
  return r;
}

static int64_t binary64(const char *op, int64_t a, int64_t b) {
  mf_error err;
  mf_tensor *x = i64(a), *y = i64(b), *out = NULL;
  mf_status s = run_op(op, 2, (mf_tensor *[]){x, y}, NULL, 1, &out, &err);
  if (s != MF_OK) printf("#   %s: %s\n", op, err.message);
  int64_t r = s == MF_OK ? mf_tensor_get_i64(out, 0) : -1;
  mf_tensor_release(x);
  mf_tensor_release(y);
  mf_tensor_release(out);
  return r;
}

static int64_t unary32(const char *op, int32_t a) {
  mf_error err;
  mf_tensor *x = i32(a), *out = NULL;
  mf_status s = run_op(op, 1, &x, NULL, 1, &out, &err);
  int64_t r = s == MF_OK ? mf_tensor_get_i64(out, 0) : -1;
  mf_tensor_release(x);
  mf_tensor_release(out);
  return r;
}

static void test_elementwise_wraps(void) {
  CHECK(binary32("AddV2", INT32_MAX, 1) == INT32_MIN);
  CHECK(binary32("Sub", INT32_MIN, 1) == INT32_MAX);
  CHECK(binary32("Mul", INT32_MAX, 2) == -2);
  CHECK(binary32("Mul", 65536, 65536) == 0);
  CHECK(binary32("Pow", 3, 40) == (int32_t)12157665459056928801ull);
  CHECK(binary32("FloorDiv", INT32_MIN, -1) == INT32_MIN);
  CHECK(binary32("FloorMod", INT32_MIN, -1) == 0);
  CHECK(binary64("AddV2", INT64_MAX, 1) == INT64_MIN);
  CHECK(binary64("Sub", INT64_MIN, 1) == INT64_MAX);
  CHECK(binary64("Mul", INT64_MIN, -1) == INT64_MIN);
  CHECK(binary64("FloorDiv", INT64_MIN, -1) == INT64_MIN);
  CHECK(unary32("Neg", INT32_MIN) == INT32_MIN);
  CHECK(unary32("Abs", INT32_MIN) == INT32_MIN);
  CHECK(unary32("Square", 65536) == 0);
}

int main(void) {
  RUN(test_assign_add_wraps);
  RUN(test_elementwise_wraps);
  return CHECK_DONE();
}
