#include "array_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "variable.h"

mf_status mf_op_fail(const mf_op_call *c, mf_error *err, mf_status st, const char *fmt, ...) {
  char msg[MF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return mf_error_set(err, st, "%s [Op:%s]", msg, c->op->name);
}

void mf_strides_of(int rank, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
}

/* One run of the walk: n elements, strides ds/ss, by dtype. */
static mf_status copy_run(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, mf_dtype dt,
                          mf_error *err) {
  if (dt == MF_STRING) {
    mf_string *dp = (mf_string *)d;
    const mf_string *sp = (const mf_string *)s;
    for (int64_t j = 0; j < n; j++)
      MF_TRY(mf_string_set(&dp[j * ds], sp[j * ss].ptr, sp[j * ss].len, err));
    return MF_OK;
  }
  if (dt == MF_RESOURCE) {
    mf_variable **dp = (mf_variable **)d;
    mf_variable *const *sp = (mf_variable *const *)s;
    for (int64_t j = 0; j < n; j++) {
      mf_variable *old = dp[j * ds];
      dp[j * ds] = sp[j * ss];
      if (dp[j * ds]) mf_variable_retain(dp[j * ds]);
      mf_variable_release(old);
    }
    return MF_OK;
  }
  if (dt == MF_VARIANT) {
    mf_variant **dp = (mf_variant **)d;
    mf_variant *const *sp = (mf_variant *const *)s;
    for (int64_t j = 0; j < n; j++) {
      mf_variant *old = dp[j * ds];
      dp[j * ds] = sp[j * ss];
      mf_variant_retain(dp[j * ds]);
      mf_variant_release(old);
    }
    return MF_OK;
  }
  size_t es = mf_dtype_size(dt);
  if (ds == 1 && ss == 1) {
    memcpy(d, s, (size_t)n * es);
    return MF_OK;
  }
  /* Plain numbers are moved as same-sized unsigned words: no float
   * canonicalisation, and one loop per element width instead of per dtype. */
#define RUN(T)                                                 \
  {                                                            \
    T *dp = (T *)d;                                            \
    const T *sp = (const T *)s;                                \
    for (int64_t j = 0; j < n; j++) dp[j * ds] = sp[j * ss];   \
  }                                                            \
  break;
  switch (es) {
    case 1: RUN(uint8_t)
    case 2: RUN(uint16_t)
    case 4: RUN(uint32_t)
    case 8: RUN(uint64_t)
    default:
      for (int64_t j = 0; j < n; j++) memcpy(d + j * ds * (int64_t)es, s + j * ss * (int64_t)es, es);
  }
#undef RUN
  return MF_OK;
}

mf_status mf_copy_strided(mf_tensor *dst, int64_t dst_off, const int64_t *dst_strides,
                          const mf_tensor *src, int64_t src_off, const int64_t *src_strides,
                          int rank, const int64_t *shape, mf_error *err) {
  /* Drop size-1 dimensions and merge neighbours that are contiguous on both
   * sides, so the inner run is as long as the layouts allow (a concat of
   * row blocks becomes one memcpy per block). */
  int64_t n[MF_COPY_MAX_DIMS], ds[MF_COPY_MAX_DIMS], ss[MF_COPY_MAX_DIMS];
  int r = 0;
  for (int i = 0; i < rank; i++) {
    if (shape[i] == 0) return MF_OK;
    if (shape[i] == 1) continue;
    if (r > 0 && ds[r - 1] == dst_strides[i] * shape[i] && ss[r - 1] == src_strides[i] * shape[i]) {
      n[r - 1] *= shape[i];
      ds[r - 1] = dst_strides[i];
      ss[r - 1] = src_strides[i];
      continue;
    }
    n[r] = shape[i];
    ds[r] = dst_strides[i];
    ss[r] = src_strides[i];
    r++;
  }
  /* The walk below always has two dimensions of its own: pad with size 1. */
  while (r < 2) {
    memmove(&n[1], &n[0], (size_t)r * sizeof *n);
    memmove(&ds[1], &ds[0], (size_t)r * sizeof *ds);
    memmove(&ss[1], &ss[0], (size_t)r * sizeof *ss);
    n[0] = 1;
    ds[0] = ss[0] = 0;
    r++;
  }
  /* When one side is contiguous along the outer of the last two dimensions
   * and strided along the inner (a transpose), rows of the inner run would
   * touch a new cache line per element: walk those two in square tiles. */
  int64_t n0 = n[r - 2], n1 = n[r - 1], ds0 = ds[r - 2], ds1 = ds[r - 1], ss0 = ss[r - 2],
          ss1 = ss[r - 1];
  bool tile = (ss0 == 1 && ss1 != 1) || (ds0 == 1 && ds1 != 1);
  int64_t tb = tile ? 32 : n1;
  int64_t es = (int64_t)mf_dtype_size(dst->dtype);
  char *dbase = mf_tensor_data(dst);
  const char *sbase = mf_tensor_data(src);
  int64_t idx[MF_COPY_MAX_DIMS] = {0};
  int64_t d = dst_off, s = src_off;
  for (;;) {
    for (int64_t i0 = 0; i0 < n0; i0 += tb)
      for (int64_t j0 = 0; j0 < n1; j0 += tb)
        for (int64_t i = i0; i < n0 && i < i0 + tb; i++)
          MF_TRY(copy_run(dbase + (d + i * ds0 + j0 * ds1) * es, ds1,
                          sbase + (s + i * ss0 + j0 * ss1) * es, ss1,
                          n1 - j0 < tb ? n1 - j0 : tb, dst->dtype, err));
    int k = r - 3;
    for (; k >= 0; k--) {
      d += ds[k];
      s += ss[k];
      if (++idx[k] < n[k]) break;
      d -= ds[k] * n[k];
      s -= ss[k] * n[k];
      idx[k] = 0;
    }
    if (k < 0) return MF_OK;
  }
}

mf_status mf_tensor_fill(mf_tensor *dst, int64_t off, int64_t n, const mf_tensor *value,
                         mf_error *err) {
  int64_t one = 1, zero = 0;
  return mf_copy_strided(dst, off, &one, value, 0, &zero, 1, &n, err);
}

/* True when walking (shape, strides) visits consecutive elements in order. */
static bool is_contiguous(int rank, const int64_t *shape, const int64_t *strides) {
  int64_t expect = 1;
  for (int i = rank - 1; i >= 0; i--) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

mf_status mf_tensor_region(const mf_tensor *src, int64_t off, int rank, const int64_t *shape,
                           const int64_t *strides, int out_rank, const int64_t *out_shape,
                           mf_tensor **out, mf_error *err) {
  int64_t count;
  MF_TRY(mf_shape_size(out_rank, out_shape, &count, err));
  if (count > 0 && is_contiguous(rank, shape, strides))
    return mf_tensor_view(src, out_rank, out_shape, (size_t)off, out, err);
  MF_TRY(mf_tensor_new(src->dtype, out_rank, out_shape, out, err));
  int64_t dst_strides[MF_COPY_MAX_DIMS];
  mf_strides_of(rank, shape, dst_strides);
  mf_status st = mf_copy_strided(*out, 0, dst_strides, src, off, strides, rank, shape, err);
  if (st != MF_OK) {
    mf_tensor_release(*out);
    *out = NULL;
  }
  return st;
}

mf_status mf_input_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n, bool *known,
                        mf_error *err) {
  *known = false;
  *n = 0;
  MF_TRY(mf_infer_check_dtype(c, i, mf_dtype_is_integer, "int32 or int64", err));
  const mf_tensor *t = c->in[i];
  if (!t) return MF_OK;
  if (t->size > cap)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "input #%d(zero-based) has %lld values; %s reads at most %d", i,
                      (long long)t->size, c->op->name, cap);
  *known = mf_infer_const_ints(c, i, vals, cap, n);
  return MF_OK;
}

mf_status mf_input_shape_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n, bool *known,
                              mf_error *err) {
  if (i < 32) c->requested_shape |= 1u << i;
  return mf_input_ints(c, i, vals, cap, n, known, err);
}

mf_status mf_infer_output(mf_op_call *c, mf_dtype dt, int rank, const int64_t *shape,
                          mf_error *err) {
  if (rank > MF_MAX_RANK)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "the result would have rank %d, but tensors have at most %d dimensions",
                      rank, MF_MAX_RANK);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *s = &c->out_specs[0];
  s->dtype = dt;
  s->rank = rank;
  /* Dimensions past the rank stay 0, as in tensors, so specs compare whole. */
  for (int i = 0; i < MF_MAX_RANK; i++)
    s->shape[i] = i >= rank ? 0 : shape ? shape[i] : MF_UNKNOWN_DIM;
  return MF_OK;
}

mf_status mf_op_view_output(mf_op_call *c, int i, const mf_tensor *src, mf_error *err) {
  const mf_spec *s = &c->out_specs[i];
  int64_t count;
  if (!mf_spec_is_static(s) || mf_shape_size(s->rank, s->shape, &count, err) != MF_OK ||
      count != src->size)
    return mf_error_set(err, MF_ERR_INTERNAL, "%s: output %d does not match its input at run time",
                        c->op->name, i);
  mf_tensor *t;
  MF_TRY(mf_tensor_view(src, s->rank, s->shape, 0, &t, err));
  mf_tensor_release(c->out[i]);
  c->out[i] = t;
  return MF_OK;
}

int mf_input_vector_length(const mf_op_call *c, int i) {
  const mf_spec *s = &c->in_specs[i];
  return s->rank == 1 && s->shape[0] >= 0 && s->shape[0] <= INT32_MAX ? (int)s->shape[0] : -1;
}

mf_status mf_small_scalar(mf_dtype dt, int v, mf_tensor **out, mf_error *err) {
  if (dt == MF_STRING) return mf_tensor_scalar_string("", 0, out, err);
  if (dt == MF_RESOURCE || dt == MF_VARIANT) return mf_tensor_zeros(dt, 0, NULL, out, err);
  return mf_tensor_scalar_i64(dt, v, out, err);
}
