/* op_test.h — helpers for the C op tests: tensors from C arrays, one call
 * through the registry's call path (infer + kernel, as eager execution
 * does), and inference alone with unknown input values (as tracing does).
 * Include after check.h. */
#ifndef MF_OP_TEST_H
#define MF_OP_TEST_H

#include <stdlib.h>
#include <string.h>

#include "op.h"

#define DIMS(...) ((const int64_t[]){__VA_ARGS__})

/* Every op definition, for tests that call one directly. */
#define MF_OP(name) extern const mf_op_def mf_op_##name;
#include "ops.def"
#undef MF_OP

/* A tensor of dtype dt and the given shape, filled from vals (converted);
 * vals NULL leaves it zeroed. Returns a new reference (NULL on failure). */
static inline mf_tensor *make_tensor(mf_dtype dt, int rank, const int64_t *shape,
                                     const double *vals) {
  mf_tensor *t = NULL;
  if (mf_tensor_zeros(dt, rank, shape, &t, NULL) != MF_OK) return NULL;
  for (int64_t i = 0; vals && i < t->size; i++) mf_tensor_set_f64(t, i, vals[i]);
  return t;
}

static inline mf_tensor *make_strings(int rank, const int64_t *shape, const char *const *vals) {
  mf_tensor *t = NULL;
  if (mf_tensor_new(MF_STRING, rank, shape, &t, NULL) != MF_OK) return NULL;
  for (int64_t i = 0; i < t->size; i++)
    mf_string_set(&MF_DATA(t, mf_string)[i], vals[i], strlen(vals[i]), NULL);
  return t;
}

/* Runs op `name` eagerly; fills out[0..nout) with new references (NULL past
 * the op's outputs). On failure returns the status with err filled. */
static inline mf_status run_op(const char *name, int nin, mf_tensor *const *in,
                               const mf_attrs *attrs, int nout, mf_tensor **out, mf_error *err) {
  const mf_op_def *op = mf_op_lookup(name);
  if (!op) return mf_error_set(err, MF_ERR_NOT_FOUND, "no op %s", name);
  mf_spec specs[16];
  for (int i = 0; i < nin; i++) mf_spec_of_tensor(in[i], &specs[i]);
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, in, attrs);
  mf_error_clear(err);
  mf_status s = mf_op_execute(&c, err);
  for (int i = 0; i < nout; i++)
    out[i] = s == MF_OK && i < c.nout ? mf_op_call_take_output(&c, i) : NULL;
  mf_op_call_free(&c);
  return s;
}

/* Runs inference only, with every input value unknown (as while tracing);
 * copies up to `cap` output specs and sets *nout. */
static inline mf_status infer_op(const char *name, int nin, const mf_spec *specs,
                                 const mf_attrs *attrs, mf_spec *out, int cap, int *nout,
                                 mf_error *err) {
  const mf_op_def *op = mf_op_lookup(name);
  if (!op) return mf_error_set(err, MF_ERR_NOT_FOUND, "no op %s", name);
  mf_tensor *none[16] = {0};
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, none, attrs);
  mf_error_clear(err);
  mf_status s = mf_op_infer(&c, err);
  *nout = c.nout;
  for (int i = 0; s == MF_OK && i < c.nout && i < cap; i++) out[i] = c.out_specs[i];
  mf_op_call_free(&c);
  return s;
}

/* A spec with the given dtype and dims (-1 unknown); rank -1 for unknown. */
static inline mf_spec spec_of(mf_dtype dt, int rank, const int64_t *shape) {
  mf_spec s = {.dtype = dt, .rank = rank};
  for (int i = 0; i < rank; i++) s.shape[i] = shape[i];
  return s;
}

static inline bool spec_is(const mf_spec *s, int rank, const int64_t *shape) {
  if (s->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (s->shape[i] != shape[i]) return false;
  return true;
}

static inline bool shape_is(const mf_tensor *t, int rank, const int64_t *shape) {
  return t && mf_shape_equal(t->rank, t->shape, rank, shape);
}

/* Largest |a[i] - b[i]| over n elements of two numeric tensors. */
static inline double max_abs_diff(const mf_tensor *a, const mf_tensor *b) {
  if (!a || !b || a->size != b->size) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < a->size; i++) {
    double d = fabs(mf_tensor_get_f64(a, i) - mf_tensor_get_f64(b, i));
    if (!(d <= m)) m = d; /* NaN propagates */
  }
  return m;
}

/* Deterministic pseudo-random values in [-1, 1) for test inputs. */
static inline double test_rand(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xFFFF) / 32768.0 - 1.0;
}

static inline mf_tensor *random_tensor(mf_dtype dt, int rank, const int64_t *shape,
                                       unsigned *state) {
  mf_tensor *t = make_tensor(dt, rank, shape, NULL);
  for (int64_t i = 0; t && i < t->size; i++) mf_tensor_set_f64(t, i, test_rand(state));
  return t;
}

#endif
