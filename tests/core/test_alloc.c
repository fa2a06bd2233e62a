/* test_alloc.c — allocation limits: a tensor larger than the limit
 * ($MOONFLOW_MAX_TENSOR_BYTES, else the machine's memory) fails at once
 * with ResourceExhaustedError, before any memory is touched; one under
 * it is made. */
#include <stdlib.h>

#include "check.h"
#include "tensor.h"

static void test_limit(void) {
  CHECK(mf_tensor_byte_limit() == (size_t)1 << 20);
  mf_tensor *t = NULL;
  mf_error err;
  int64_t big[] = {1 << 19};  /* 2 MiB of float32 */
  CHECK(mf_tensor_new(MF_FLOAT32, 1, big, &t, &err) == MF_ERR_RESOURCE_EXHAUSTED);
  CHECK(t == NULL);
  CHECK(strstr(err.message, "OOM when allocating a tensor of 2097152 bytes"));
  int64_t small[] = {1 << 10};
  CHECK(mf_tensor_new(MF_FLOAT32, 1, small, &t, &err) == MF_OK);
  mf_tensor_release(t);
}

/* dims whose product overflows 64 bits are refused, not wrapped */
static void test_overflow(void) {
  mf_tensor *t = NULL;
  mf_error err;
  int64_t dims[] = {(int64_t)1 << 40, (int64_t)1 << 40};
  CHECK(mf_tensor_new(MF_FLOAT64, 2, dims, &t, &err) != MF_OK);
  CHECK(t == NULL);
}

int main(void) {
  setenv("MOONFLOW_MAX_TENSOR_BYTES", "1M", 1);
  RUN(test_limit);
  RUN(test_overflow);
  return CHECK_DONE();
}
