/* test_elementwise.c — the elementwise ops (ops_elementwise.c) and the
 * broadcasting helpers (broadcast.c): values per op and dtype, broadcasting
 * against a naive reference, inference with unknown shapes, and the errors
 * TF raises (dtype mismatch, incompatible shapes, integer division by zero,
 * unsupported casts). */
#include <stdint.h>
#include <stdlib.h>

#include "broadcast.h"
#include "check.h"
#include "op.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define VALS(...) ((const double[]){__VA_ARGS__})

static mf_error err;

extern const mf_op_def mf_op_AddV2;

/* ---- helpers ---- */

static mf_tensor *mk(mf_dtype dt, int rank, const int64_t *shape, const double *v) {
  mf_tensor *t = NULL;
  if (mf_tensor_new(dt, rank, shape, &t, &err) != MF_OK) {
    printf("# mk: %s\n", err.message);
    exit(1);
  }
  for (int64_t i = 0; v && i < t->size; i++) mf_tensor_set_f64(t, i, v[i]);
  return t;
}

static mf_tensor *mk_i64(mf_dtype dt, int rank, const int64_t *shape, const int64_t *v) {
  mf_tensor *t = mk(dt, rank, shape, NULL);
  for (int64_t i = 0; i < t->size; i++) mf_tensor_set_i64(t, i, v[i]);
  return t;
}

static mf_tensor *scalar(mf_dtype dt, double v) { return mk(dt, 0, NULL, &v); }

static mf_tensor *mk_strings(int rank, const int64_t *shape, const char *const *v) {
  mf_tensor *t = mk(MF_STRING, rank, shape, NULL);
  for (int64_t i = 0; i < t->size; i++)
    mf_string_set(&MF_DATA(t, mf_string)[i], v[i], strlen(v[i]), &err);
  return t;
}

/* Runs op `name` eagerly; outputs are new references. */
static mf_status run(const char *name, int nin, mf_tensor **in, const mf_attrs *attrs, int nout,
                     mf_tensor **out) {
  mf_error_clear(&err);
  const mf_op_def *op = mf_op_lookup(name);
  if (!op) return mf_error_set(&err, MF_ERR_NOT_FOUND, "no op %s", name);
  mf_spec specs[4];
  for (int i = 0; i < nin; i++) mf_spec_of_tensor(in[i], &specs[i]);
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, in, attrs);
  mf_status s = mf_op_execute(&c, &err);
  for (int i = 0; s == MF_OK && i < nout; i++) out[i] = mf_op_call_take_output(&c, i);
  mf_op_call_free(&c);
  return s;
}

/* Runs a one-output op on inputs it releases; NULL (and a note) on error. */
static mf_tensor *op_n(const char *name, int nin, mf_tensor **in) {
  mf_tensor *out = NULL;
  if (run(name, nin, in, NULL, 1, &out) != MF_OK) {
    printf("#   %s failed: %s\n", name, err.message);
    out = NULL;
  }
  for (int i = 0; i < nin; i++) mf_tensor_release(in[i]);
  return out;
}
static mf_tensor *op1(const char *name, mf_tensor *x) { return op_n(name, 1, (mf_tensor *[]){x}); }
static mf_tensor *op2(const char *name, mf_tensor *x, mf_tensor *y) {
  return op_n(name, 2, (mf_tensor *[]){x, y});
}

/* The error an op gives for inputs it releases: its status, message in err. */
static mf_status op_error(const char *name, int nin, mf_tensor **in, const mf_attrs *attrs) {
  mf_tensor *out[2] = {NULL, NULL};
  mf_status s = run(name, nin, in, attrs, 1, out);
  mf_tensor_release(out[0]);
  for (int i = 0; i < nin; i++) mf_tensor_release(in[i]);
  return s;
}

static bool same_value(double got, double want, double tol) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  return fabs(got - want) <= tol * (1 + fabs(want));
}

/* Checks t's dtype, shape and values (relative tolerance tol), then
 * releases it. */
#define EXPECT(t, dt, rank, shape, vals, tol) expect_at(__LINE__, t, dt, rank, shape, vals, tol)
static void expect_at(int line, mf_tensor *t, mf_dtype dt, int rank, const int64_t *shape,
                      const double *want, double tol) {
  if (!t) {
    printf("#   line %d: no tensor\n", line);
    check_current_failed = 1;
    return;
  }
  bool ok = t->dtype == dt && mf_shape_equal(t->rank, t->shape, rank, shape);
  for (int64_t i = 0; ok && i < t->size; i++)
    if (!same_value(mf_tensor_get_f64(t, i), want[i], tol)) {
      printf("#   line %d: element %lld is %.17g, want %.17g\n", line, (long long)i,
             mf_tensor_get_f64(t, i), want[i]);
      ok = false;
    }
  if (!ok) {
    char s[64];
    mf_shape_format(t->rank, t->shape, s, sizeof s);
    printf("#   line %d: got %s %s\n", line, mf_dtype_name(t->dtype), s);
    check_current_failed = 1;
  }
  mf_tensor_release(t);
}

#define EXPECT_ERROR(status, want_status, want_msg)                                          \
  do {                                                                                       \
    mf_status s_ = (status);                                                                 \
    CHECK(s_ == (want_status));                                                              \
    if (strcmp(err.message, want_msg) != 0) {                                                \
      printf("#   line %d: message '%s'\n#   want '%s'\n", __LINE__, err.message, want_msg); \
      check_current_failed = 1;                                                              \
    }                                                                                        \
  } while (0)

static const mf_dtype float_dtypes[] = {MF_FLOAT32, MF_FLOAT64};
static const mf_dtype numeric_dtypes[] = {MF_FLOAT32, MF_FLOAT64, MF_INT32, MF_INT64};
static double tol_of(mf_dtype dt) { return dt == MF_FLOAT32 ? 1e-6 : dt == MF_FLOAT64 ? 1e-14 : 0; }

/* ---- unary ---- */

static double ref_rsqrt(double x) { return 1 / sqrt(x); }
static double ref_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double ref_recip(double x) { return 1 / x; }
static double ref_neg(double x) { return -x; }
static double ref_square(double x) { return x * x; }
static double ref_relu(double x) { return x < 0 ? 0 : x; }

static void test_unary_float(void) {
  static const struct {
    const char *op;
    double (*ref)(double);
    bool negatives; /* defined for negative inputs */
  } ops[] = {
      {"Sqrt", sqrt, false},    {"Rsqrt", ref_rsqrt, false}, {"Exp", exp, true},
      {"Log", log, false},      {"Log1p", log1p, false},     {"Sin", sin, true},
      {"Cos", cos, true},       {"Tanh", tanh, true},        {"Sigmoid", ref_sigmoid, true},
      {"Floor", floor, true},   {"Ceil", ceil, true},        {"Reciprocal", ref_recip, true},
      {"Neg", ref_neg, true},   {"Abs", fabs, true},         {"Square", ref_square, true},
      {"Relu", ref_relu, true},
  };
  const double pos[] = {0.25, 1.0, 2.5, 7.75, 1e-3, 30.0};
  const double any[] = {-3.5, -0.75, 0.0, 0.6, 2.25, -30.0};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    for (int d = 0; d < 2; d++) {
      mf_dtype dt = float_dtypes[d];
      const double *in = ops[k].negatives ? any : pos;
      double want[6];
      for (int i = 0; i < 6; i++) want[i] = ops[k].ref(dt == MF_FLOAT32 ? (float)in[i] : in[i]);
      EXPECT(op1(ops[k].op, mk(dt, 2, SHAPE(2, 3), in)), dt, 2, SHAPE(2, 3), want, tol_of(dt));
    }
  /* Sigmoid saturates without overflow; log/sqrt of bad input are NaN / -inf. */
  EXPECT(op1("Sigmoid", mk(MF_FLOAT32, 1, SHAPE(3), VALS(-200, 0, 200))), MF_FLOAT32, 1, SHAPE(3),
         VALS(0, 0.5, 1), 1e-7);
  EXPECT(op1("Log", mk(MF_FLOAT64, 1, SHAPE(2), VALS(0, -1))), MF_FLOAT64, 1, SHAPE(2),
         VALS(-INFINITY, NAN), 0);
  EXPECT(op1("Sqrt", mk(MF_FLOAT32, 1, SHAPE(1), VALS(-4))), MF_FLOAT32, 1, SHAPE(1), VALS(NAN), 0);
}

static void test_unary_int(void) {
  for (int d = 2; d < 4; d++) {
    mf_dtype dt = numeric_dtypes[d];
    const double *in = VALS(-7, -1, 0, 3, 100);
    EXPECT(op1("Neg", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), VALS(7, 1, 0, -3, -100), 0);
    EXPECT(op1("Abs", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), VALS(7, 1, 0, 3, 100), 0);
    EXPECT(op1("Sign", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), VALS(-1, -1, 0, 1, 1), 0);
    EXPECT(op1("Square", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), VALS(49, 1, 0, 9, 10000), 0);
    EXPECT(op1("Relu", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), VALS(0, 0, 0, 3, 100), 0);
    EXPECT(op1("Round", mk(dt, 1, SHAPE(5), in)), dt, 1, SHAPE(5), in, 0);
  }
  /* The minimum negates to itself (wraps) instead of being undefined. */
  mf_tensor *m = op1("Neg", mk_i64(MF_INT32, 1, SHAPE(1), (const int64_t[]){INT32_MIN}));
  CHECK(m && MF_DATA(m, int32_t)[0] == INT32_MIN);
  mf_tensor_release(m);
  m = op1("Abs", mk_i64(MF_INT64, 1, SHAPE(1), (const int64_t[]){INT64_MIN}));
  CHECK(m && MF_DATA(m, int64_t)[0] == INT64_MIN);
  mf_tensor_release(m);
  m = op1("Square", mk_i64(MF_INT32, 1, SHAPE(1), (const int64_t[]){65536}));
  CHECK(m && MF_DATA(m, int32_t)[0] == 0);
  mf_tensor_release(m);
}

static void test_unary_special(void) {
  /* Banker's rounding, as TF's Round. */
  EXPECT(op1("Round", mk(MF_FLOAT32, 1, SHAPE(8), VALS(0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, -2.6))),
         MF_FLOAT32, 1, SHAPE(8), VALS(0, 2, 2, 0, -2, 2, 3, -3), 0);
  EXPECT(op1("Sign", mk(MF_FLOAT64, 1, SHAPE(4), VALS(-2.5, 0, 3, NAN))), MF_FLOAT64, 1, SHAPE(4),
         VALS(-1, 0, 1, NAN), 0);
  mf_tensor *a = op1("Abs", mk(MF_FLOAT32, 1, SHAPE(1), VALS(-0.0)));
  CHECK(a && !signbit(MF_DATA(a, float)[0]));
  mf_tensor_release(a);
  EXPECT(op1("LogicalNot", mk(MF_BOOL, 1, SHAPE(2), VALS(1, 0))), MF_BOOL, 1, SHAPE(2), VALS(0, 1),
         0);
  /* Scalars and empty tensors. */
  EXPECT(op1("Exp", scalar(MF_FLOAT64, 1)), MF_FLOAT64, 0, NULL, VALS(M_E), 1e-15);
  EXPECT(op1("Neg", mk(MF_INT32, 2, SHAPE(0, 3), NULL)), MF_INT32, 2, SHAPE(0, 3), NULL, 0);
}

static void test_unary_dtype_errors(void) {
  EXPECT_ERROR(op_error("Sqrt", 1, (mf_tensor *[]){scalar(MF_INT32, 4)}, NULL),
               MF_ERR_INVALID_ARGUMENT,
               "Sqrt expects a float32 or float64 tensor for input #0(zero-based), got int32 "
               "[Op:Sqrt]");
  EXPECT_ERROR(op_error("Neg", 1, (mf_tensor *[]){scalar(MF_BOOL, 1)}, NULL),
               MF_ERR_INVALID_ARGUMENT,
               "Neg expects a float32, float64, int32 or int64 tensor for input #0(zero-based), "
               "got bool [Op:Neg]");
  EXPECT_ERROR(op_error("LogicalNot", 1, (mf_tensor *[]){scalar(MF_FLOAT32, 1)}, NULL),
               MF_ERR_INVALID_ARGUMENT,
               "LogicalNot expects a bool tensor for input #0(zero-based), got float32 "
               "[Op:LogicalNot]");
  mf_tensor *s = mk_strings(0, NULL, (const char *[]){"a"});
  CHECK(op_error("Abs", 1, &s, NULL) == MF_ERR_INVALID_ARGUMENT);
}

/* ---- binary ---- */

static void test_binary_values(void) {
  const double *x = VALS(7, -7, 6, -6, 0, 5), *y = VALS(2, 2, -4, -4, 3, 1);
  for (int d = 0; d < 4; d++) {
    mf_dtype dt = numeric_dtypes[d];
#define BIN(op, ...)                                                               \
  EXPECT(op2(op, mk(dt, 1, SHAPE(6), x), mk(dt, 1, SHAPE(6), y)), dt, 1, SHAPE(6), \
         VALS(__VA_ARGS__), tol_of(dt))
    BIN("AddV2", 9, -5, 2, -10, 3, 6);
    BIN("Sub", 5, -9, 10, -2, -3, 4);
    BIN("Mul", 14, -14, -24, 24, 0, 5);
    BIN("FloorDiv", 3, -4, -2, 1, 0, 5);
    BIN("FloorMod", 1, 1, -2, -2, 0, 0);
    BIN("Maximum", 7, 2, 6, -4, 3, 5);
    BIN("Minimum", 2, -7, -4, -6, 0, 1);
#undef BIN
  }
  for (int d = 0; d < 2; d++) {
    mf_dtype dt = float_dtypes[d];
    EXPECT(op2("RealDiv", mk(dt, 1, SHAPE(3), VALS(1, -3, 1)), mk(dt, 1, SHAPE(3), VALS(4, 2, 0))),
           dt, 1, SHAPE(3), VALS(0.25, -1.5, INFINITY), 0);
    /* Python's float // and %: the remainder takes the divisor's sign. */
    EXPECT(op2("FloorDiv", mk(dt, 1, SHAPE(4), VALS(7.5, -7.5, 7.5, -7.5)),
               mk(dt, 1, SHAPE(4), VALS(2, 2, -2, -2))),
           dt, 1, SHAPE(4), VALS(3, -4, -4, 3), 0);
    EXPECT(op2("FloorMod", mk(dt, 1, SHAPE(4), VALS(7.5, -7.5, 7.5, -7.5)),
               mk(dt, 1, SHAPE(4), VALS(2, 2, -2, -2))),
           dt, 1, SHAPE(4), VALS(1.5, 0.5, -0.5, -1.5), 0);
    EXPECT(op2("Pow", mk(dt, 1, SHAPE(3), VALS(2, 9, -2)), mk(dt, 1, SHAPE(3), VALS(10, 0.5, -1))),
           dt, 1, SHAPE(3), VALS(1024, 3, -0.5), tol_of(dt));
    EXPECT(op2("Maximum", mk(dt, 1, SHAPE(2), VALS(NAN, 1)), mk(dt, 1, SHAPE(2), VALS(1, NAN))), dt,
           1, SHAPE(2), VALS(NAN, NAN), 0);
    EXPECT(op2("Minimum", mk(dt, 1, SHAPE(2), VALS(NAN, 1)), mk(dt, 1, SHAPE(2), VALS(1, NAN))), dt,
           1, SHAPE(2), VALS(NAN, NAN), 0);
  }
  /* Integer powers by squaring, wrapping on overflow; x^0 is 1. */
  EXPECT(op2("Pow", mk(MF_INT64, 1, SHAPE(4), VALS(2, -3, 0, 7)),
             mk(MF_INT64, 1, SHAPE(4), VALS(40, 3, 0, 1))),
         MF_INT64, 1, SHAPE(4), VALS(1099511627776.0, -27, 1, 7), 0);
  mf_tensor *w = op2("Pow", scalar(MF_INT32, 2), scalar(MF_INT32, 32));
  CHECK(w && MF_DATA(w, int32_t)[0] == 0);
  mf_tensor_release(w);
  /* Integer overflow wraps as in TF. */
  w = op2("AddV2", mk_i64(MF_INT32, 1, SHAPE(1), (const int64_t[]){INT32_MAX}),
          scalar(MF_INT32, 1));
  CHECK(w && MF_DATA(w, int32_t)[0] == INT32_MIN);
  mf_tensor_release(w);
}

static void test_integer_division(void) {
  /* The minimum divided by -1 is defined (wraps), never a trap. */
  for (int d = 2; d < 4; d++) {
    mf_dtype dt = numeric_dtypes[d];
    int64_t min = dt == MF_INT32 ? INT32_MIN : INT64_MIN;
    mf_tensor *q = op2("FloorDiv", mk_i64(dt, 1, SHAPE(2), (const int64_t[]){min, min}),
                       mk_i64(dt, 1, SHAPE(2), (const int64_t[]){-1, 1}));
    CHECK(q && mf_tensor_get_i64(q, 0) == min && mf_tensor_get_i64(q, 1) == min);
    mf_tensor_release(q);
    EXPECT(op2("FloorMod", mk_i64(dt, 1, SHAPE(2), (const int64_t[]){min, -7}), scalar(dt, -1)), dt,
           1, SHAPE(2), VALS(0, 0), 0);
    EXPECT_ERROR(op_error("FloorDiv", 2,
                          (mf_tensor *[]){mk(dt, 1, SHAPE(3), VALS(1, 2, 3)),
                                          mk(dt, 1, SHAPE(3), VALS(1, 0, 1))},
                          NULL),
                 MF_ERR_INVALID_ARGUMENT, "Integer division by zero [Op:FloorDiv]");
    EXPECT_ERROR(op_error("FloorMod", 2,
                          (mf_tensor *[]){mk(dt, 1, SHAPE(3), VALS(1, 2, 3)), scalar(dt, 0)}, NULL),
                 MF_ERR_INVALID_ARGUMENT, "Integer division by zero [Op:FloorMod]");
    EXPECT_ERROR(
        op_error("Pow", 2, (mf_tensor *[]){scalar(dt, 2), mk(dt, 1, SHAPE(2), VALS(1, -1))}, NULL),
        MF_ERR_INVALID_ARGUMENT, "Integers to negative integer powers are not allowed [Op:Pow]");
  }
  /* An empty result divides nothing, so a zero divisor is no error. */
  EXPECT(op2("FloorDiv", mk(MF_INT32, 2, SHAPE(0, 1), NULL), scalar(MF_INT32, 0)), MF_INT32, 2,
         SHAPE(0, 1), NULL, 0);
  /* Float division by zero follows IEEE. */
  EXPECT(op2("FloorDiv", mk(MF_FLOAT32, 1, SHAPE(2), VALS(1, -1)), scalar(MF_FLOAT32, 0)),
         MF_FLOAT32, 1, SHAPE(2), VALS(INFINITY, -INFINITY), 0);
}

static void test_comparisons(void) {
  const double *x = VALS(1, 2, 3), *y = VALS(2, 2, 2);
  for (int d = 0; d < 4; d++) {
    mf_dtype dt = numeric_dtypes[d];
#define CMP(op, ...)                                                                    \
  EXPECT(op2(op, mk(dt, 1, SHAPE(3), x), mk(dt, 1, SHAPE(3), y)), MF_BOOL, 1, SHAPE(3), \
         VALS(__VA_ARGS__), 0)
    CMP("Equal", 0, 1, 0);
    CMP("NotEqual", 1, 0, 1);
    CMP("Less", 1, 0, 0);
    CMP("LessEqual", 1, 1, 0);
    CMP("Greater", 0, 0, 1);
    CMP("GreaterEqual", 0, 1, 1);
#undef CMP
  }
  EXPECT(op2("Equal", mk(MF_FLOAT32, 1, SHAPE(2), VALS(NAN, 1)),
             mk(MF_FLOAT32, 1, SHAPE(2), VALS(NAN, 1))),
         MF_BOOL, 1, SHAPE(2), VALS(0, 1), 0);
  EXPECT(op2("Equal", mk(MF_BOOL, 1, SHAPE(4), VALS(0, 0, 1, 1)),
             mk(MF_BOOL, 1, SHAPE(4), VALS(0, 1, 0, 1))),
         MF_BOOL, 1, SHAPE(4), VALS(1, 0, 0, 1), 0);
  EXPECT(op2("NotEqual", mk(MF_BOOL, 1, SHAPE(2), VALS(0, 1)), scalar(MF_BOOL, 1)), MF_BOOL, 1,
         SHAPE(2), VALS(1, 0), 0);
  EXPECT(op2("LogicalAnd", mk(MF_BOOL, 1, SHAPE(4), VALS(0, 0, 1, 1)),
             mk(MF_BOOL, 1, SHAPE(4), VALS(0, 1, 0, 1))),
         MF_BOOL, 1, SHAPE(4), VALS(0, 0, 0, 1), 0);
  EXPECT(op2("LogicalOr", mk(MF_BOOL, 2, SHAPE(2, 1), VALS(0, 1)),
             mk(MF_BOOL, 1, SHAPE(2), VALS(0, 1))),
         MF_BOOL, 2, SHAPE(2, 2), VALS(0, 1, 1, 1), 0);
  /* Strings: equality by bytes (embedded NULs included), with broadcasting. */
  mf_tensor *s = mk_strings(1, SHAPE(4), (const char *[]){"ab", "", "abc", "b"});
  mf_string_set(&MF_DATA(s, mf_string)[3], "b\0x", 3, &err);
  mf_tensor *t = mk_strings(0, NULL, (const char *[]){"ab"});
  mf_tensor_retain(s);
  mf_tensor_retain(t);
  EXPECT(op2("Equal", s, t), MF_BOOL, 1, SHAPE(4), VALS(1, 0, 0, 0), 0);
  EXPECT(op2("NotEqual", t, s), MF_BOOL, 1, SHAPE(4), VALS(0, 1, 1, 1), 0);
  EXPECT(op2("Equal", mk_strings(1, SHAPE(2), (const char *[]){"", "x"}),
             mk_strings(1, SHAPE(2), (const char *[]){"", "x"})),
         MF_BOOL, 1, SHAPE(2), VALS(1, 1), 0);
  EXPECT_ERROR(op_error("Less", 2,
                        (mf_tensor *[]){mk_strings(0, NULL, (const char *[]){"a"}),
                                        mk_strings(0, NULL, (const char *[]){"b"})},
                        NULL),
               MF_ERR_INVALID_ARGUMENT,
               "Less expects a float32, float64, int32 or int64 tensor for input #0(zero-based), "
               "got string [Op:Less]");
  EXPECT_ERROR(
      op_error("LogicalAnd", 2, (mf_tensor *[]){scalar(MF_INT32, 1), scalar(MF_INT32, 1)}, NULL),
      MF_ERR_INVALID_ARGUMENT,
      "LogicalAnd expects a bool tensor for input #0(zero-based), got int32 "
      "[Op:LogicalAnd]");
}

static void test_string_concat(void) {
  mf_tensor *x = mk_strings(2, SHAPE(2, 1), (const char *[]){"a", ""});
  mf_tensor *y = mk_strings(1, SHAPE(3), (const char *[]){"x", "", "yz"});
  mf_tensor *z = op2("AddV2", x, y);
  CHECK(z && z->dtype == MF_STRING && z->rank == 2 && z->shape[0] == 2 && z->shape[1] == 3);
  const char *want[] = {"ax", "a", "ayz", "x", "", "yz"};
  for (int i = 0; z && i < 6; i++) {
    const mf_string *s = &MF_DATA(z, mf_string)[i];
    CHECK(s->len == strlen(want[i]) && memcmp(s->ptr, want[i], s->len) == 0 && s->ptr[s->len] == 0);
  }
  mf_tensor_release(z);
  CHECK(op_error("Sub", 2,
                 (mf_tensor *[]){mk_strings(0, NULL, (const char *[]){"a"}),
                                 mk_strings(0, NULL, (const char *[]){"b"})},
                 NULL) == MF_ERR_INVALID_ARGUMENT);
}

static void test_broadcast_cases(void) {
  /* [2,3] + [3] */
  EXPECT(op2("AddV2", mk(MF_FLOAT32, 2, SHAPE(2, 3), VALS(1, 2, 3, 4, 5, 6)),
             mk(MF_FLOAT32, 1, SHAPE(3), VALS(10, 20, 30))),
         MF_FLOAT32, 2, SHAPE(2, 3), VALS(11, 22, 33, 14, 25, 36), 0);
  /* [2,1] - [1,3] */
  EXPECT(op2("Sub", mk(MF_INT32, 2, SHAPE(2, 1), VALS(10, 20)),
             mk(MF_INT32, 2, SHAPE(1, 3), VALS(1, 2, 3))),
         MF_INT32, 2, SHAPE(2, 3), VALS(9, 8, 7, 19, 18, 17), 0);
  /* scalar with tensor, both ways, and scalar with scalar */
  EXPECT(op2("Sub", scalar(MF_FLOAT64, 1), mk(MF_FLOAT64, 1, SHAPE(3), VALS(1, 2, 3))), MF_FLOAT64,
         1, SHAPE(3), VALS(0, -1, -2), 0);
  EXPECT(op2("Sub", mk(MF_INT64, 2, SHAPE(1, 2), VALS(1, 2)), scalar(MF_INT64, 5)), MF_INT64, 2,
         SHAPE(1, 2), VALS(-4, -3), 0);
  EXPECT(op2("Mul", scalar(MF_INT32, 6), scalar(MF_INT32, 7)), MF_INT32, 0, NULL, VALS(42), 0);
  /* [3,1] with a rank-1 [1]: a size-1 output dim keeps its place */
  EXPECT(
      op2("Mul", mk(MF_INT32, 2, SHAPE(3, 1), VALS(1, 2, 3)), mk(MF_INT32, 1, SHAPE(1), VALS(2))),
      MF_INT32, 2, SHAPE(3, 1), VALS(2, 4, 6), 0);
  /* zero-size: [0,3] + [3], [2,0] + [2,1], [0] + scalar */
  EXPECT(op2("AddV2", mk(MF_FLOAT32, 2, SHAPE(0, 3), NULL),
             mk(MF_FLOAT32, 1, SHAPE(3), VALS(1, 2, 3))),
         MF_FLOAT32, 2, SHAPE(0, 3), NULL, 0);
  EXPECT(op2("Less", mk(MF_INT32, 2, SHAPE(2, 0), NULL), mk(MF_INT32, 2, SHAPE(2, 1), VALS(1, 2))),
         MF_BOOL, 2, SHAPE(2, 0), NULL, 0);
  EXPECT(op2("AddV2", mk(MF_INT64, 1, SHAPE(0), NULL), scalar(MF_INT64, 1)), MF_INT64, 1, SHAPE(0),
         NULL, 0);
  /* [1] + [0]: a 1 broadcasts to an empty dim */
  EXPECT(op2("AddV2", mk(MF_INT64, 1, SHAPE(1), VALS(1)), mk(MF_INT64, 1, SHAPE(0), NULL)),
         MF_INT64, 1, SHAPE(0), NULL, 0);
}

/* Random shapes up to rank 4 against a naive index-math reference. */
static double naive_get(const mf_tensor *t, int rank, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->rank; i++) {
    int64_t d = idx[rank - t->rank + i];
    off = off * t->shape[i] + (t->shape[i] == 1 ? 0 : d);
  }
  return mf_tensor_get_f64(t, off);
}

static void test_broadcast_random(void) {
  srand(12345);
  int failures = 0;
  for (int iter = 0; iter < 400; iter++) {
    int rank = rand() % 5;
    int64_t out_shape[4], sa[4], sb[4];
    for (int i = 0; i < rank; i++) out_shape[i] = 1 + rand() % 4;
    int ra = rand() % (rank + 1), rb = rank;
    if (rand() % 2) {
      rb = ra;
      ra = rank;
    }
    for (int i = 0; i < ra; i++) sa[i] = rand() % 3 ? out_shape[rank - ra + i] : 1;
    for (int i = 0; i < rb; i++) sb[i] = rand() % 3 ? out_shape[rank - rb + i] : 1;
    double va[256], vb[256];
    for (int i = 0; i < 256; i++) {
      va[i] = rand() % 1000;
      vb[i] = rand() % 1000;
    }
    mf_tensor *a = mk(MF_FLOAT64, ra, sa, va), *b = mk(MF_FLOAT64, rb, sb, vb);
    /* one reference each for Sub, SelectV2 and the check */
    for (int i = 0; i < 2; i++) {
      mf_tensor_retain(a);
      mf_tensor_retain(b);
    }
    mf_tensor *z = op2("Sub", a, b);
    mf_tensor *s = mk(MF_BOOL, rb, sb, vb);
    mf_tensor_retain(s);
    mf_tensor *sel = op_n("SelectV2", 3, (mf_tensor *[]){s, a, b});
    if (!z || !sel) {
      failures++;
    } else {
      int64_t idx[4] = {0, 0, 0, 0};
      for (int64_t k = 0; k < z->size; k++) {
        double want = naive_get(a, z->rank, idx) - naive_get(b, z->rank, idx);
        double want_sel = naive_get(s, z->rank, idx) != 0 ? naive_get(a, z->rank, idx)
                                                          : naive_get(b, z->rank, idx);
        if (mf_tensor_get_f64(z, k) != want || mf_tensor_get_f64(sel, k) != want_sel) failures++;
        for (int d = z->rank - 1; d >= 0 && ++idx[d] == z->shape[d]; d--) idx[d] = 0;
      }
    }
    mf_tensor_release(z);
    mf_tensor_release(sel);
    mf_tensor_release(a);
    mf_tensor_release(b);
    mf_tensor_release(s);
  }
  CHECK(failures == 0);
}

static void test_bcast_plan(void) {
  mf_bcast b;
  /* same shapes: one run over everything */
  mf_bcast_init(&b, 3, SHAPE(2, 3, 4), 2, (const int[]){3, 3},
                (const int64_t *const[]){SHAPE(2, 3, 4), SHAPE(2, 3, 4)});
  CHECK(b.runs == 1 && b.run == 24 && b.step[0] == 1 && b.step[1] == 1);
  /* scalar and tensor: one run, the scalar repeated */
  mf_bcast_init(&b, 2, SHAPE(5, 6), 2, (const int[]){0, 2},
                (const int64_t *const[]){NULL, SHAPE(5, 6)});
  CHECK(b.runs == 1 && b.run == 30 && b.step[0] == 0 && b.step[1] == 1);
  /* [4,5] + [4,1]: runs of 5, the column repeated within each */
  mf_bcast_init(&b, 2, SHAPE(4, 5), 2, (const int[]){2, 2},
                (const int64_t *const[]){SHAPE(4, 5), SHAPE(4, 1)});
  CHECK(b.runs == 4 && b.run == 5 && b.step[0] == 1 && b.step[1] == 0);
  mf_bcast_next(&b);
  CHECK(b.offset[0] == 5 && b.offset[1] == 1);
  /* size-1 dims drop out: [2,1,3] with [1,1,3] */
  mf_bcast_init(&b, 3, SHAPE(2, 1, 3), 2, (const int[]){3, 3},
                (const int64_t *const[]){SHAPE(2, 1, 3), SHAPE(1, 1, 3)});
  CHECK(b.runs == 2 && b.run == 3 && b.step[1] == 1);
  mf_bcast_next(&b);
  CHECK(b.offset[0] == 3 && b.offset[1] == 0);
  /* empty output: no runs */
  mf_bcast_init(&b, 2, SHAPE(3, 0), 1, (const int[]){2}, (const int64_t *const[]){SHAPE(3, 0)});
  CHECK(b.runs == 0);
}

static void test_binary_errors(void) {
  EXPECT_ERROR(op_error("AddV2", 2,
                        (mf_tensor *[]){mk(MF_FLOAT32, 2, SHAPE(2, 3), VALS(1, 2, 3, 4, 5, 6)),
                                        mk(MF_FLOAT32, 1, SHAPE(4), VALS(1, 2, 3, 4))},
                        NULL),
               MF_ERR_INVALID_ARGUMENT, "Incompatible shapes: [2,3] vs. [4] [Op:AddV2]");
  EXPECT_ERROR(
      op_error("AddV2", 2, (mf_tensor *[]){scalar(MF_FLOAT32, 1), scalar(MF_INT32, 1)}, NULL),
      MF_ERR_INVALID_ARGUMENT,
      "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but "
      "is a int32 tensor [Op:AddV2]");
  EXPECT_ERROR(
      op_error("RealDiv", 2, (mf_tensor *[]){scalar(MF_INT32, 1), scalar(MF_INT32, 2)}, NULL),
      MF_ERR_INVALID_ARGUMENT,
      "RealDiv expects a float32 or float64 tensor for input #0(zero-based), got int32 "
      "[Op:RealDiv]");
  EXPECT_ERROR(
      op_error("Equal", 2, (mf_tensor *[]){scalar(MF_BOOL, 1), scalar(MF_FLOAT32, 1)}, NULL),
      MF_ERR_INVALID_ARGUMENT,
      "cannot compute Equal as input #1(zero-based) was expected to be a bool tensor but "
      "is a float tensor [Op:Equal]"); /* TF's DataTypeString names float32 "float" */
  CHECK(op_error("AddV2", 1, (mf_tensor *[]){scalar(MF_FLOAT32, 1)}, NULL) == MF_ERR_TYPE);
}

/* Inference with unknown dims (-1) and unknown rank (-1), as tracing runs it. */
static mf_status infer(const char *name, int nin, const mf_spec *specs, mf_spec *out) {
  mf_error_clear(&err);
  mf_tensor *none[4] = {NULL, NULL, NULL, NULL};
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup(name), nin, specs, none, NULL);
  mf_status s = mf_op_infer(&c, &err);
  if (s == MF_OK) *out = c.out_specs[0];
  mf_op_call_free(&c);
  return s;
}

#define SPEC(dt, r, ...) ((mf_spec){.dtype = dt, .rank = r, .shape = {__VA_ARGS__}})

static bool spec_is(const mf_spec *s, mf_dtype dt, int rank, const int64_t *shape) {
  return s->dtype == dt && s->rank == rank &&
         (rank < 0 || mf_shape_equal(rank, s->shape, rank, shape));
}

static void test_infer_unknown(void) {
  mf_spec o;
  CHECK(infer("AddV2", 2, (mf_spec[]){SPEC(MF_FLOAT32, 2, -1, 3), SPEC(MF_FLOAT32, 1, 3)}, &o) ==
        MF_OK);
  CHECK(spec_is(&o, MF_FLOAT32, 2, SHAPE(-1, 3)));
  CHECK(infer("Mul", 2, (mf_spec[]){SPEC(MF_INT32, 1, -1), SPEC(MF_INT32, 1, 5)}, &o) == MF_OK);
  CHECK(spec_is(&o, MF_INT32, 1, SHAPE(5)));
  CHECK(infer("Mul", 2, (mf_spec[]){SPEC(MF_INT32, 1, -1), SPEC(MF_INT32, 1, 1)}, &o) == MF_OK);
  CHECK(spec_is(&o, MF_INT32, 1, SHAPE(-1)));
  CHECK(infer("Mul", 2, (mf_spec[]){SPEC(MF_INT32, 1, -1), SPEC(MF_INT32, 2, 4, 0)}, &o) == MF_OK);
  CHECK(spec_is(&o, MF_INT32, 2, SHAPE(4, 0)));
  CHECK(infer("Less", 2, (mf_spec[]){SPEC(MF_FLOAT64, -1), SPEC(MF_FLOAT64, 1, 3)}, &o) == MF_OK);
  CHECK(spec_is(&o, MF_BOOL, -1, NULL));
  CHECK(infer("Sqrt", 1, (mf_spec[]){SPEC(MF_FLOAT32, -1)}, &o) == MF_OK);
  CHECK(spec_is(&o, MF_FLOAT32, -1, NULL));
  EXPECT_ERROR(infer("Sub", 2, (mf_spec[]){SPEC(MF_FLOAT32, 2, -1, 3), SPEC(MF_FLOAT32, 1, 4)}, &o),
               MF_ERR_INVALID_ARGUMENT, "Incompatible shapes: [?,3] vs. [4] [Op:Sub]");
  CHECK(infer("SelectV2", 3,
              (mf_spec[]){SPEC(MF_BOOL, 2, -1, 1), SPEC(MF_INT64, 1, 3), SPEC(MF_INT64, 0)},
              &o) == MF_OK);
  CHECK(spec_is(&o, MF_INT64, 2, SHAPE(-1, 3)));
  mf_attrs attrs;
  mf_attrs_init(&attrs);
  mf_attrs_set_type(&attrs, "DstT", MF_INT64, &err);
  mf_op_call c;
  mf_spec in = SPEC(MF_FLOAT32, 2, -1, 2);
  mf_op_call_init(&c, mf_op_lookup("Cast"), 1, &in, (mf_tensor *[]){NULL}, &attrs);
  CHECK(mf_op_infer(&c, &err) == MF_OK && spec_is(&c.out_specs[0], MF_INT64, 2, SHAPE(-1, 2)));
  mf_op_call_free(&c);
  mf_attrs_free(&attrs);
  /* the broadcast helper alone, with an alias of its output */
  int r = 2;
  int64_t s[MF_MAX_RANK] = {3, 1};
  CHECK(mf_broadcast_shape(r, s, 3, SHAPE(2, 1, 4), &r, s, NULL, NULL) == MF_OK);
  CHECK(r == 3 && s[0] == 2 && s[1] == 3 && s[2] == 4);
  CHECK(mf_broadcast_shape(1, SHAPE(2), 1, SHAPE(3), &r, s, NULL, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "Incompatible shapes: [2] vs. [3]") == 0);
}

/* ---- SelectV2 ---- */

static void test_select(void) {
  mf_tensor *cond = mk(MF_BOOL, 1, SHAPE(3), VALS(1, 0, 1));
  EXPECT(op_n("SelectV2", 3,
              (mf_tensor *[]){cond, mk(MF_FLOAT32, 1, SHAPE(3), VALS(1, 2, 3)),
                              mk(MF_FLOAT32, 1, SHAPE(3), VALS(-1, -2, -3))}),
         MF_FLOAT32, 1, SHAPE(3), VALS(1, -2, 3), 0);
  /* scalar condition picks a whole operand; scalar else repeats */
  EXPECT(op_n("SelectV2", 3,
              (mf_tensor *[]){scalar(MF_BOOL, 0), mk(MF_INT32, 1, SHAPE(2), VALS(1, 2)),
                              scalar(MF_INT32, 9)}),
         MF_INT32, 1, SHAPE(2), VALS(9, 9), 0);
  EXPECT(op_n("SelectV2", 3,
              (mf_tensor *[]){scalar(MF_BOOL, 1), mk(MF_INT32, 1, SHAPE(2), VALS(1, 2)),
                              scalar(MF_INT32, 9)}),
         MF_INT32, 1, SHAPE(2), VALS(1, 2), 0);
  /* three-way: [2,1] condition, [1,3] then, scalar else */
  EXPECT(op_n("SelectV2", 3,
              (mf_tensor *[]){mk(MF_BOOL, 2, SHAPE(2, 1), VALS(1, 0)),
                              mk(MF_INT64, 2, SHAPE(1, 3), VALS(1, 2, 3)), scalar(MF_INT64, 0)}),
         MF_INT64, 2, SHAPE(2, 3), VALS(1, 2, 3, 0, 0, 0), 0);
  mf_tensor *s = op_n("SelectV2", 3,
                      (mf_tensor *[]){mk(MF_BOOL, 1, SHAPE(2), VALS(0, 1)),
                                      mk_strings(0, NULL, (const char *[]){"yes"}),
                                      mk_strings(1, SHAPE(2), (const char *[]){"n0", "n1"})});
  CHECK(s && s->dtype == MF_STRING && s->size == 2 &&
        strcmp(MF_DATA(s, mf_string)[0].ptr, "n0") == 0 &&
        strcmp(MF_DATA(s, mf_string)[1].ptr, "yes") == 0);
  mf_tensor_release(s);
  EXPECT_ERROR(
      op_error("SelectV2", 3,
               (mf_tensor *[]){mk(MF_BOOL, 1, SHAPE(2), VALS(0, 1)),
                               mk(MF_FLOAT32, 1, SHAPE(3), VALS(1, 2, 3)), scalar(MF_FLOAT32, 0)},
               NULL),
      MF_ERR_INVALID_ARGUMENT,
      "condition [2], then [3], and else [] must be broadcastable [Op:SelectV2]");
  EXPECT_ERROR(op_error("SelectV2", 3,
                        (mf_tensor *[]){scalar(MF_BOOL, 1), mk(MF_INT32, 1, SHAPE(2), VALS(1, 2)),
                                        mk(MF_INT32, 1, SHAPE(3), VALS(1, 2, 3))},
                        NULL),
               MF_ERR_INVALID_ARGUMENT,
               "then [2] and else [3] must be broadcastable [Op:SelectV2]");
  EXPECT_ERROR(
      op_error("SelectV2", 3,
               (mf_tensor *[]){scalar(MF_INT32, 1), scalar(MF_FLOAT32, 1), scalar(MF_FLOAT32, 0)},
               NULL),
      MF_ERR_INVALID_ARGUMENT,
      "SelectV2 expects a bool tensor for input #0(zero-based), got int32 [Op:SelectV2]");
  CHECK(op_error("SelectV2", 3,
                 (mf_tensor *[]){scalar(MF_BOOL, 1), scalar(MF_FLOAT32, 1), scalar(MF_INT32, 0)},
                 NULL) == MF_ERR_INVALID_ARGUMENT);
}

/* ---- gradient helpers ---- */

static void test_gradient_helpers(void) {
  EXPECT(op2("ReluGrad", mk(MF_FLOAT32, 1, SHAPE(3), VALS(5, 6, 7)),
             mk(MF_FLOAT32, 1, SHAPE(3), VALS(-1, 0, 2))),
         MF_FLOAT32, 1, SHAPE(3), VALS(0, 0, 7), 0);
  EXPECT(op2("ReluGrad", mk(MF_INT32, 1, SHAPE(2), VALS(5, 6)),
             mk(MF_INT32, 1, SHAPE(2), VALS(1, -1))),
         MF_INT32, 1, SHAPE(2), VALS(5, 0), 0);
  for (int d = 0; d < 2; d++) {
    mf_dtype dt = float_dtypes[d];
    const double *y = VALS(0.5, 0.25, 2), *dy = VALS(2, 4, 1);
    EXPECT(op2("TanhGrad", mk(dt, 1, SHAPE(3), y), mk(dt, 1, SHAPE(3), dy)), dt, 1, SHAPE(3),
           VALS(1.5, 3.75, -3), tol_of(dt));
    EXPECT(op2("SigmoidGrad", mk(dt, 1, SHAPE(3), y), mk(dt, 1, SHAPE(3), dy)), dt, 1, SHAPE(3),
           VALS(0.5, 0.75, -2), tol_of(dt));
    EXPECT(op2("SqrtGrad", mk(dt, 1, SHAPE(3), y), mk(dt, 1, SHAPE(3), dy)), dt, 1, SHAPE(3),
           VALS(2, 8, 0.25), tol_of(dt));
    EXPECT(op2("RsqrtGrad", mk(dt, 1, SHAPE(3), y), mk(dt, 1, SHAPE(3), dy)), dt, 1, SHAPE(3),
           VALS(-0.125, -0.03125, -4), tol_of(dt));
  }
  CHECK(op_error("TanhGrad", 2, (mf_tensor *[]){scalar(MF_INT32, 1), scalar(MF_INT32, 1)}, NULL) ==
        MF_ERR_INVALID_ARGUMENT);
}

/* TF's bcast_test.cc cases: grad_x_reduce_idx and grad_y_reduce_idx. */
static void bga_case(mf_dtype dt, int n0, const double *s0, int n1, const double *s1, int k0,
                     const double *r0, int k1, const double *r1) {
  mf_tensor *out[2] = {NULL, NULL};
  mf_tensor *in[2] = {mk(dt, 1, (const int64_t[]){n0}, s0), mk(dt, 1, (const int64_t[]){n1}, s1)};
  CHECK(run("BroadcastGradientArgs", 2, in, NULL, 2, out) == MF_OK);
  EXPECT(out[0], dt, 1, (const int64_t[]){k0}, r0, 0);
  EXPECT(out[1], dt, 1, (const int64_t[]){k1}, r1, 0);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
}

static void test_broadcast_gradient_args(void) {
  bga_case(MF_INT32, 5, VALS(11, 7, 5, 3, 2), 5, VALS(11, 7, 5, 3, 2), 0, NULL, 0, NULL);
  bga_case(MF_INT32, 2, VALS(1, 1), 0, NULL, 2, VALS(0, 1), 2, VALS(0, 1));
  bga_case(MF_INT32, 1, VALS(1), 2, VALS(1, 1), 2, VALS(0, 1), 2, VALS(0, 1));
  bga_case(MF_INT64, 5, VALS(11, 7, 5, 3, 2), 1, VALS(1), 0, NULL, 5, VALS(0, 1, 2, 3, 4));
  bga_case(MF_INT32, 6, VALS(11, 7, 5, 3, 2, 1), 1, VALS(1), 1, VALS(5), 6, VALS(0, 1, 2, 3, 4, 5));
  bga_case(MF_INT32, 2, VALS(2, 1), 2, VALS(1, 3), 1, VALS(1), 1, VALS(0));
  bga_case(MF_INT32, 2, VALS(2, 3), 1, VALS(3), 0, NULL, 1, VALS(0));
  bga_case(MF_INT32, 2, VALS(0, 3), 2, VALS(1, 3), 0, NULL, 1, VALS(0));
  EXPECT_ERROR(op_error("BroadcastGradientArgs", 2,
                        (mf_tensor *[]){mk(MF_INT32, 1, SHAPE(2), VALS(2, 3)),
                                        mk(MF_INT32, 1, SHAPE(1), VALS(4))},
                        NULL),
               MF_ERR_INVALID_ARGUMENT,
               "Incompatible shapes: [2,3] vs. [4] [Op:BroadcastGradientArgs]");
  /* Unknown values while tracing: vectors of unknown length. */
  mf_spec o;
  CHECK(infer("BroadcastGradientArgs", 2, (mf_spec[]){SPEC(MF_INT32, 1, -1), SPEC(MF_INT32, 1, 2)},
              &o) == MF_OK);
  CHECK(spec_is(&o, MF_INT32, 1, SHAPE(-1)));
  CHECK(infer("BroadcastGradientArgs", 2,
              (mf_spec[]){SPEC(MF_FLOAT32, 1, 2), SPEC(MF_FLOAT32, 1, 2)},
              &o) == MF_ERR_INVALID_ARGUMENT);
  /* Known values while tracing fold to known outputs. */
  mf_tensor *in[2] = {mk(MF_INT32, 1, SHAPE(2), VALS(4, 3)), mk(MF_INT32, 1, SHAPE(1), VALS(1))};
  mf_spec specs[2];
  mf_spec_of_tensor(in[0], &specs[0]);
  mf_spec_of_tensor(in[1], &specs[1]);
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup("BroadcastGradientArgs"), 2, specs, in, NULL);
  CHECK(mf_op_infer(&c, &err) == MF_OK);
  CHECK(c.out_values[0] && c.out_values[1] && spec_is(&c.out_specs[1], MF_INT32, 1, SHAPE(2)));
  mf_op_call_free(&c);
  mf_tensor_release(in[0]);
  mf_tensor_release(in[1]);
}

/* ---- Cast ---- */

static mf_tensor *cast(mf_tensor *x, mf_dtype to) {
  mf_attrs attrs;
  mf_attrs_init(&attrs);
  mf_attrs_set_type(&attrs, "DstT", to, &err);
  mf_tensor *out = NULL;
  if (run("Cast", 1, &x, &attrs, 1, &out) != MF_OK) {
    printf("#   Cast failed: %s\n", err.message);
    out = NULL;
  }
  mf_attrs_free(&attrs);
  mf_tensor_release(x);
  return out;
}

static void test_cast(void) {
  /* float -> int truncates toward zero; NaN and out-of-range values give
   * the minimum integer, as TF's static_cast on x86 (cvttss2si's
   * "integer indefinite") and NumPy */
  EXPECT(cast(mk(MF_FLOAT32, 1, SHAPE(8), VALS(2.7, -2.7, 0.5, NAN, 1e20, -1e20, 3e9, INFINITY)),
              MF_INT32),
         MF_INT32, 1, SHAPE(8), VALS(2, -2, 0, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN),
         0);
  EXPECT(cast(mk(MF_FLOAT64, 1, SHAPE(5), VALS(2147483647.9, 2147483648.0, -2147483648.9,
                                               -2147483649.0, -INFINITY)), MF_INT32),
         MF_INT32, 1, SHAPE(5), VALS(INT32_MAX, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN), 0);
  mf_tensor *t = cast(mk(MF_FLOAT64, 1, SHAPE(5), VALS(1e300, -1e300, -9.5, NAN, 0x1p63)), MF_INT64);
  CHECK(t && MF_DATA(t, int64_t)[0] == INT64_MIN && MF_DATA(t, int64_t)[1] == INT64_MIN &&
        MF_DATA(t, int64_t)[2] == -9 && MF_DATA(t, int64_t)[3] == INT64_MIN &&
        MF_DATA(t, int64_t)[4] == INT64_MIN);
  mf_tensor_release(t);
  t = cast(mk(MF_FLOAT32, 1, SHAPE(2), VALS(0x1.fffffep62, -0x1p63)), MF_INT64);
  CHECK(t && MF_DATA(t, int64_t)[0] == (int64_t)0x1.fffffep62 && MF_DATA(t, int64_t)[1] == INT64_MIN);
  mf_tensor_release(t);
  /* int64 -> int32 wraps, as TF's static_cast */
  t = cast(mk_i64(MF_INT64, 1, SHAPE(2), (const int64_t[]){4294967297LL, -5}), MF_INT32);
  CHECK(t && MF_DATA(t, int32_t)[0] == 1 && MF_DATA(t, int32_t)[1] == -5);
  mf_tensor_release(t);
  /* to bool is != 0; from bool is 0/1 */
  EXPECT(cast(mk(MF_INT32, 1, SHAPE(3), VALS(0, -3, 7)), MF_BOOL), MF_BOOL, 1, SHAPE(3),
         VALS(0, 1, 1), 0);
  EXPECT(cast(mk(MF_FLOAT64, 1, SHAPE(3), VALS(0, 0.1, NAN)), MF_BOOL), MF_BOOL, 1, SHAPE(3),
         VALS(0, 1, 1), 0);
  EXPECT(cast(mk(MF_BOOL, 1, SHAPE(2), VALS(1, 0)), MF_FLOAT32), MF_FLOAT32, 1, SHAPE(2),
         VALS(1, 0), 0);
  EXPECT(cast(mk(MF_BOOL, 1, SHAPE(2), VALS(1, 0)), MF_INT64), MF_INT64, 1, SHAPE(2), VALS(1, 0),
         0);
  EXPECT(cast(mk(MF_FLOAT64, 1, SHAPE(2), VALS(0.1, 1e40)), MF_FLOAT32), MF_FLOAT32, 1, SHAPE(2),
         VALS((float)0.1, INFINITY), 0);
  EXPECT(cast(mk(MF_INT32, 2, SHAPE(1, 2), VALS(-3, 16777217)), MF_FLOAT64), MF_FLOAT64, 2,
         SHAPE(1, 2), VALS(-3, 16777217), 0);
  EXPECT(cast(mk(MF_INT32, 1, SHAPE(0), NULL), MF_FLOAT32), MF_FLOAT32, 1, SHAPE(0), NULL, 0);
  EXPECT(cast(scalar(MF_FLOAT32, -0.9), MF_INT32), MF_INT32, 0, NULL, VALS(0), 0);
  /* same dtype: the input itself */
  mf_tensor *x = mk(MF_FLOAT32, 1, SHAPE(2), VALS(1, 2));
  mf_tensor_retain(x);
  t = cast(x, MF_FLOAT32);
  CHECK(t == x);
  mf_tensor_release(t);
  mf_tensor_release(x);
  /* strings do not cast */
  mf_attrs attrs;
  mf_attrs_init(&attrs);
  mf_attrs_set_type(&attrs, "DstT", MF_FLOAT32, &err);
  EXPECT_ERROR(
      op_error("Cast", 1, (mf_tensor *[]){mk_strings(0, NULL, (const char *[]){"1"})}, &attrs),
      MF_ERR_UNIMPLEMENTED, "Cast string to float32 is not supported [Op:Cast]");
  mf_attrs_free(&attrs);
  mf_attrs_init(&attrs);
  mf_attrs_set_type(&attrs, "DstT", MF_STRING, &err);
  EXPECT_ERROR(op_error("Cast", 1, (mf_tensor *[]){scalar(MF_INT32, 1)}, &attrs),
               MF_ERR_UNIMPLEMENTED, "Cast int32 to string is not supported [Op:Cast]");
  mf_attrs_free(&attrs);
  CHECK(op_error("Cast", 1, (mf_tensor *[]){scalar(MF_INT32, 1)}, NULL) == MF_ERR_INVALID_ARGUMENT);
}

/* ---- registry entries ---- */

static void test_op_defs(void) {
  static const char *const unary[] = {"Neg",   "Abs",        "Sign",    "Square",     "Sqrt",
                                      "Rsqrt", "Exp",        "Log",     "Log1p",      "Sin",
                                      "Cos",   "Tanh",       "Sigmoid", "Round",      "Floor",
                                      "Ceil",  "Reciprocal", "Relu",    "LogicalNot", "Cast"};
  static const char *const binary[] = {
      "AddV2",     "Sub",     "Mul",          "RealDiv",    "FloorDiv", "FloorMod",
      "Pow",       "Maximum", "Minimum",      "Equal",      "NotEqual", "Less",
      "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr"};
  for (size_t i = 0; i < sizeof unary / sizeof *unary; i++) {
    const mf_op_def *op = mf_op_lookup(unary[i]);
    CHECK(op && op->min_inputs == 1 && op->max_inputs == 1 && strcmp(op->input_names, "x") == 0 &&
          op->doc && (op->flags & MF_OP_ELEMENTWISE));
  }
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) {
    const mf_op_def *op = mf_op_lookup(binary[i]);
    CHECK(op && op->min_inputs == 2 && op->max_inputs == 2 && strcmp(op->input_names, "x,y") == 0 &&
          op->doc && (op->flags & MF_OP_ELEMENTWISE));
  }
  CHECK(mf_op_lookup("AddV2") == &mf_op_AddV2);
  CHECK(mf_op_lookup("Less")->flags & MF_OP_NO_GRADIENT);
  CHECK(mf_op_lookup("Floor")->flags & MF_OP_NO_GRADIENT);
  CHECK(!(mf_op_lookup("Mul")->flags & MF_OP_NO_GRADIENT));
  CHECK(!(mf_op_lookup("Cast")->flags & MF_OP_NO_GRADIENT));
  CHECK(strcmp(mf_op_lookup("SelectV2")->input_names, "condition,t,e") == 0);
  CHECK(strcmp(mf_op_lookup("ReluGrad")->input_names, "gradients,features") == 0);
}

/* A long run through every loop shape, so tight loops see tails. */
static void test_long_runs(void) {
  enum { N = 1003 };
  double *v = malloc(N * sizeof *v), *want = malloc(N * sizeof *want);
  for (int i = 0; i < N; i++) v[i] = i - 500;
  for (int i = 0; i < N; i++) want[i] = v[i] * 3;
  EXPECT(op2("Mul", mk(MF_FLOAT32, 1, SHAPE(N), v), scalar(MF_FLOAT32, 3)), MF_FLOAT32, 1, SHAPE(N),
         want, 0);
  EXPECT(op2("Mul", scalar(MF_INT64, 3), mk(MF_INT64, 1, SHAPE(N), v)), MF_INT64, 1, SHAPE(N), want,
         0);
  for (int i = 0; i < N; i++) want[i] = v[i] + v[i];
  EXPECT(op2("AddV2", mk(MF_INT32, 1, SHAPE(N), v), mk(MF_INT32, 1, SHAPE(N), v)), MF_INT32, 1,
         SHAPE(N), want, 0);
  for (int i = 0; i < N; i++) want[i] = v[i] > 0 ? v[i] : 0;
  EXPECT(op1("Relu", mk(MF_FLOAT64, 1, SHAPE(N), v)), MF_FLOAT64, 1, SHAPE(N), want, 0);
  free(v);
  free(want);
}

int main(void) {
  RUN(test_unary_float);
  RUN(test_unary_int);
  RUN(test_unary_special);
  RUN(test_unary_dtype_errors);
  RUN(test_binary_values);
  RUN(test_integer_division);
  RUN(test_comparisons);
  RUN(test_string_concat);
  RUN(test_broadcast_cases);
  RUN(test_broadcast_random);
  RUN(test_bcast_plan);
  RUN(test_binary_errors);
  RUN(test_infer_unknown);
  RUN(test_select);
  RUN(test_gradient_helpers);
  RUN(test_broadcast_gradient_args);
  RUN(test_cast);
  RUN(test_op_defs);
  RUN(test_long_runs);
  return CHECK_DONE();
}
