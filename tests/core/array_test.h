/* array_test.h — extras for the array-op tests (test_shape.c, test_index.c,
 * test_reduce.c) on top of op_test.h: tensors that are released together
 * at the end of a test, one-line op calls, inference with some input
 * values known (a Const axis while tracing), and checks of values and of
 * TF's error text. Include after check.h and op_test.h. */
#ifndef MF_ARRAY_TEST_H
#define MF_ARRAY_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op.h"

#define VALS(...) ((const double[]){__VA_ARGS__})
#define STRS(...) ((const char *const[]){__VA_ARGS__})
#define INS(...) ((mf_tensor *const[]){__VA_ARGS__})

/* Every tensor a test makes is kept here and released by release_all(). */
static mf_tensor *kept[4096];
static int nkept;

static inline mf_tensor *keep(mf_tensor *t) {
  if (t && nkept < (int)(sizeof kept / sizeof kept[0])) kept[nkept++] = t;
  return t;
}

static inline void release_all(void) {
  while (nkept > 0) mf_tensor_release(kept[--nkept]);
}

static inline mf_tensor *tens(mf_dtype dt, int rank, const int64_t *shape, const double *vals) {
  return keep(make_tensor(dt, rank, shape, vals));
}
static inline mf_tensor *scalar(mf_dtype dt, double v) { return tens(dt, 0, NULL, &v); }
static inline mf_tensor *strs(int rank, const int64_t *shape, const char *const *vals) {
  return keep(make_strings(rank, shape, vals));
}
/* An int32 vector (the usual axis/shape argument). */
static inline mf_tensor *ivec(int n, const double *vals) {
  int64_t len = n;
  return tens(MF_INT32, 1, &len, vals);
}

/* Output `which` of an eager call, kept; NULL (and the error printed as a
 * TAP comment) on failure. */
static inline mf_tensor *run_out(const char *op, int nin, mf_tensor *const *in,
                                 const mf_attrs *attrs, int which) {
  mf_tensor *out[64] = {0};
  mf_error err;
  mf_status s = run_op(op, nin, in, attrs, 64, out, &err);
  if (s != MF_OK) printf("#   %s failed: %s: %s\n", op, mf_status_name(s), err.message);
  for (int i = 0; i < 64; i++) {
    if (i == which)
      keep(out[i]);
    else
      mf_tensor_release(out[i]);
  }
  return s == MF_OK ? out[which] : NULL;
}
static inline mf_tensor *run1(const char *op, int nin, mf_tensor *const *in,
                              const mf_attrs *attrs) {
  return run_out(op, nin, in, attrs, 0);
}

/* True when the eager call fails with `want` and a message containing
 * `text`; otherwise says what happened as a TAP comment. */
static inline bool fails(const char *op, int nin, mf_tensor *const *in, const mf_attrs *attrs,
                         mf_status want, const char *text) {
  mf_tensor *out[64] = {0};
  mf_error err;
  mf_status s = run_op(op, nin, in, attrs, 64, out, &err);
  for (int i = 0; i < 64; i++) mf_tensor_release(out[i]);
  if (s == want && strstr(err.message, text)) return true;
  printf("#   %s: wanted %s containing \"%s\", got %s: %s\n", op, mf_status_name(want), text,
         mf_status_name(s), s == MF_OK ? "" : err.message);
  return false;
}

/* Inference with some input values known (vals[i] NULL: unknown). Spec 0
 * goes to *out; the statically known value of output 0, if any, to *value
 * (kept). */
static inline mf_status infer_vals(const char *name, int nin, const mf_spec *specs,
                                   mf_tensor *const *vals, const mf_attrs *attrs, mf_spec *out,
                                   mf_tensor **value, mf_error *err) {
  const mf_op_def *op = mf_op_lookup(name);
  if (!op) return mf_error_set(err, MF_ERR_NOT_FOUND, "no op %s", name);
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, vals, attrs);
  mf_error_clear(err);
  mf_status s = mf_op_infer(&c, err);
  if (s == MF_OK && c.nout > 0) {
    *out = c.out_specs[0];
    if (value) {
      *value = keep(c.out_values[0]);
      c.out_values[0] = NULL;
    }
  } else if (s != MF_OK) {
    printf("#   infer %s failed: %s\n", name, err->message);
  }
  mf_op_call_free(&c);
  return s;
}

/* dtype, shape and values: exact for integers and bools, 1e-6 relative for
 * floats; NaN matches NaN. */
static inline bool values_are(const mf_tensor *t, mf_dtype dt, int rank, const int64_t *shape,
                              const double *vals) {
  if (!t || t->dtype != dt || !mf_shape_equal(t->rank, t->shape, rank, shape)) {
    char got[128] = "(none)";
    if (t) mf_shape_format(t->rank, t->shape, got, sizeof got);
    printf("#   got %s %s\n", t ? mf_dtype_name(t->dtype) : "", got);
    return false;
  }
  for (int64_t i = 0; i < t->size; i++) {
    double g = mf_tensor_get_f64(t, i), w = vals[i];
    bool ok = g == w || (mf_dtype_is_float(dt) &&
                                (isnan(w) ? isnan(g) : fabs(g - w) <= 1e-6 * fmax(1, fabs(w))));
    if (!ok) {
      printf("#   element %lld: got %.9g, want %.9g\n", (long long)i, g, w);
      return false;
    }
  }
  return true;
}

static inline bool strings_are(const mf_tensor *t, int rank, const int64_t *shape,
                               const char *const *vals) {
  if (!t || t->dtype != MF_STRING || !mf_shape_equal(t->rank, t->shape, rank, shape)) return false;
  const mf_string *s = MF_DATA(t, mf_string);
  for (int64_t i = 0; i < t->size; i++)
    if (!s[i].ptr || s[i].len != strlen(vals[i]) || memcmp(s[i].ptr, vals[i], s[i].len) != 0) {
      printf("#   element %lld: got '%s', want '%s'\n", (long long)i, s[i].ptr ? s[i].ptr : "(null)",
             vals[i]);
      return false;
    }
  return true;
}

/* One-attribute lists as values (ints and bools own nothing, so copies are
 * free); add more with mf_attrs_set_*. */
#define ONE_ATTR(FN, T, SET)                         \
  static inline mf_attrs FN(const char *name, T v) { \
    mf_attrs a;                                      \
    mf_attrs_init(&a);                               \
    SET(&a, name, v, NULL);                          \
    return a;                                        \
  }
ONE_ATTR(attr_int, int64_t, mf_attrs_set_int)
ONE_ATTR(attr_bool, bool, mf_attrs_set_bool)
ONE_ATTR(attr_type, mf_dtype, mf_attrs_set_type)
#undef ONE_ATTR
static inline mf_attrs attr_ints(const char *name, int n, const int64_t *v) {
  mf_attrs a;
  mf_attrs_init(&a);
  mf_attrs_set_ints(&a, name, n, v, NULL);
  return a;
}

#endif
