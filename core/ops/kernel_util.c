#include "alloc.h"
#include "kernel_util.h"
#include "tensor.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"

mf_status mf_scratch_alloc(size_t count, size_t elem, void **out, mf_error *err) {
  *out = NULL;
  if (elem && count > (SIZE_MAX - 63) / elem)
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating %zu elements of scratch memory", count);
  size_t nbytes = (count * elem + 63) & ~(size_t)63;
  if (nbytes == 0) nbytes = 64;
  if (mf_posix_memalign(out, 64, nbytes) != 0) {
    *out = NULL;
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating %zu bytes of scratch memory", nbytes);
  }
  return MF_OK;
}

void mf_index_debug(int rank, const int64_t *shape, int64_t flat, char *buf, size_t n) {
  if (n == 0) return;
  int64_t idx[MF_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int d = 0; d < rank && used < n; d++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld%s", d ? "," : "[", (long long)idx[d],
                             d == rank - 1 ? "]" : "");
}

void mf_shape_debug(int rank, const int64_t *shape, char *buf, size_t n) {
  if (n == 0) return;
  if (rank < 0) {
    snprintf(buf, n, "<unknown>");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i <= rank && used < n; i++) {
    const char *lead = i == 0 ? "[" : ",";
    int w = i == rank ? snprintf(buf + used, n - used, "%s]", i == 0 ? "[" : "")
            : shape[i] < 0 ? snprintf(buf + used, n - used, "%s?", lead)
                           : snprintf(buf + used, n - used, "%s%lld", lead, (long long)shape[i]);
    if (w < 0) return;
    used += (size_t)w;
  }
}

bool mf_broadcast_dim(int64_t a, int64_t b, int64_t *out) {
  if (a == 1) *out = b;
  else if (b == 1) *out = a;
  else if (a < 0) *out = b; /* b is unknown, or a known size != 1 that a must match */
  else if (b < 0) *out = a;
  else if (a == b) *out = a;
  else return false;
  return true;
}
