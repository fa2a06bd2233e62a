/* shape_fn.c — InferenceContext's checks with TF's messages (shape_fn.h). */
#include "shape_fn.h"

#include "kernel_util.h"
#include "partial.h"

mf_status mf_sf_with_rank(int rank, int64_t want, mf_error *err) {
  if (rank < 0 || rank == want) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Shape must be rank %lld but is rank %d",
                      (long long)want, rank);
}

mf_status mf_sf_with_rank_at_least(int rank, int64_t want, mf_error *err) {
  if (rank < 0 || rank >= want) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Shape must be at least rank %lld but is rank %d", (long long)want, rank);
}

mf_status mf_sf_with_rank_at_most(int rank, int64_t want, mf_error *err) {
  if (rank < 0 || rank <= want) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Shape must be at most rank %lld but is rank %d", (long long)want, rank);
}

mf_status mf_sf_with_value(int64_t dim, int64_t want, mf_error *err) {
  if (dim < 0 || dim == want) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                      (long long)want, (long long)dim);
}

mf_status mf_sf_merge_dim(int64_t a, int64_t b, int64_t *out, mf_error *err) {
  if (a >= 0 && b >= 0 && a != b)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Dimensions must be equal, but are %lld and %lld", (long long)a,
                        (long long)b);
  if (out) *out = a >= 0 ? a : b;
  return MF_OK;
}

mf_status mf_sf_merge(int ra, const int64_t *a, int rb, const int64_t *b, mf_error *err) {
  if (ra < 0 || rb < 0) return MF_OK;
  if (ra != rb)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Shapes must be equal rank, but are %d and %d", ra, rb);
  for (int i = 0; i < ra; i++) {
    if (a[i] < 0 || b[i] < 0 || a[i] == b[i]) continue;
    /* InferenceContext::DebugString: "?" for an unknown dimension. */
    char sa[160], sb[160];
    mf_shape_debug(ra, a, sa, sizeof sa);
    mf_shape_debug(rb, b, sb, sizeof sb);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                        "Shapes are %s and %s.",
                        i, (long long)a[i], (long long)b[i], sa, sb);
  }
  return MF_OK;
}

mf_status mf_sf_divide_evenly(int64_t dividend, int64_t divisor, int64_t *out, mf_error *err) {
  if (divisor == 1 || dividend < 0) {
    *out = divisor == 1 ? dividend : -1;
    return MF_OK;
  }
  if (divisor <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Divisor must be positive but is %lld",
                        (long long)divisor);
  if (dividend % divisor != 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Dimension size must be evenly divisible by %lld but is %lld",
                        (long long)divisor, (long long)dividend);
  *out = dividend / divisor;
  return MF_OK;
}

mf_status mf_sf_broadcast(int ra, const int64_t *a, int rb, const int64_t *b, int *rank,
                          int64_t *out, mf_error *err) {
  if (ra < 0 || rb < 0) {
    *rank = -1;
    return MF_OK;
  }
  int r = ra > rb ? ra : rb;
  int64_t dims[MF_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int64_t x = i < r - ra ? 1 : a[i - (r - ra)];
    int64_t y = i < r - rb ? 1 : b[i - (r - rb)];
    if (x < 0 || y < 0) {
      /* One side unknown: a known size above 1 wins (the program is taken
       * to be right), a 1 yields to the other side. */
      dims[i] = x > 1 ? x : y > 1 ? y : x == 1 ? y : y == 1 ? x : -1;
    } else if (x == 1 || y == 1) {
      dims[i] = x == 1 ? y : x;
    } else {
      MF_TRY(mf_sf_merge_dim(x, y, &dims[i], err));
    }
  }
  *rank = r;
  for (int i = 0; i < r; i++) out[i] = dims[i];
  return MF_OK;
}

mf_status mf_sf_multiply(int64_t a, int64_t b, int64_t *out, mf_error *err) {
  if (a == 0 || b == 0) {
    *out = 0;
  } else if (a == 1 || b == 1) {
    *out = a == 1 ? b : a;
  } else if (a < 0 || b < 0) {
    *out = -1;
  } else if (__builtin_mul_overflow(a, b, out)) {
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Negative dimension size caused by overflow when multiplying %lld and %lld",
                        (long long)a, (long long)b);
  }
  return MF_OK;
}

mf_status mf_sf_shape_tensor(mf_op_call *c, int i, int *rank, int64_t *dims, int cap,
                             mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  MF_TRY(mf_sf_with_rank(s->rank, 1, err));
  if (i < 32) c->requested_shape |= 1u << i;
  int n;
  if (!mf_infer_const_ints(c, i, dims, cap, &n)) {
    /* Not known as a whole: what is known of each element, if anything. */
    const mf_partial *p = mf_input_partial(c, i);
    n = s->rank == 1 && s->shape[0] >= 0 && s->shape[0] <= cap ? (int)s->shape[0] : -1;
    for (int k = 0; k < n; k++) dims[k] = p && p->n == n ? p->v[k] : -1;
  }
  for (int k = 0; k < n; k++)
    if (dims[k] < -1)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Invalid value in tensor used for shape: %lld", (long long)dims[k]);
  *rank = n;
  return MF_OK;
}
