/* test_alloc.c — allocation limits and allocation failure.
 *
 * A tensor larger than the limit ($MOONFLOW_MAX_TENSOR_BYTES, else the
 * machine's memory) fails at once with ResourceExhaustedError, before any
 * memory is touched; one under it is made.
 *
 * Failure injection (alloc.h, SQLite's way): a script of eager ops runs
 * with its Nth allocation failing, for every N until it runs without a
 * failure. Each run must end in MF_OK or ResourceExhaustedError, the next
 * clean run must succeed, and nothing may leak (run.sh runs the C tests
 * with ASan's leak detection). */
#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"
#include "check.h"
#include "op_test.h"
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

/* Eager ops touching tensors, attributes, strings, matmul scratch. */
static mf_status script(mf_error *err) {
  mf_tensor *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;
  mf_status s;
  int64_t dims[] = {3, 4};
  if ((s = mf_tensor_zeros(MF_FLOAT32, 2, dims, &a, err)) != MF_OK) goto out;
  if ((s = mf_tensor_scalar_f64(MF_FLOAT32, 2.5, &b, err)) != MF_OK) goto out;
  mf_tensor *ab[] = {a, b};
  if ((s = run_op("AddV2", 2, ab, NULL, 1, &c, err)) != MF_OK) goto out;
  mf_attrs at;
  mf_attrs_init(&at);
  s = mf_attrs_set_bool(&at, "transpose_b", true, err);
  mf_tensor *cc[] = {c, c};
  if (s == MF_OK) s = run_op("MatMul", 2, cc, &at, 1, &d, err);
  mf_attrs_free(&at);
  if (s != MF_OK) goto out;
  s = run_op("Exp", 1, &d, NULL, 1, &e, err);
out:
  mf_tensor_release(a);
  mf_tensor_release(b);
  mf_tensor_release(c);
  mf_tensor_release(d);
  mf_tensor_release(e);
  return s;
}

static void test_fail_every_allocation(void) {
  mf_error err;
  int n;
  for (n = 1; n < 10000; n++) {
    mf_alloc_fail_after(n, 0);
    mf_status s = script(&err);
    int failed = mf_alloc_failed();
    mf_alloc_fail_after(0, 0);
    if (!failed) {
      CHECK(s == MF_OK);
      break;
    }
    if (s != MF_OK && s != MF_ERR_RESOURCE_EXHAUSTED) {
      printf("#   allocation %d: status %s: %s\n", n, mf_status_name(s), err.message);
      CHECK(0);
    }
    CHECK(script(&err) == MF_OK); /* usable after */
  }
  printf("#   swept %d allocation sites\n", n - 1);
  CHECK(n > 5);
}

/* The VmFlags of the mapping holding p in /proc/self/smaps, or "". */
static void vm_flags(const void *p, char *out, size_t n) {
  out[0] = 0;
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return;
  char line[512];
  bool inside = false;
  uintptr_t a = (uintptr_t)p;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
      inside = a >= lo && a < hi;
    else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
      snprintf(out, n, "%s", line + 8);
      break;
    }
  }
  fclose(f);
}

/* Blocks of 4 MiB and more are 2 MiB aligned and advised into huge pages
 * (VmFlags "hg"), where the kernel has transparent huge pages. */
static void test_large_blocks_huge_pages(void) {
  void *big = NULL, *small = NULL;
  CHECK(mf_posix_memalign(&big, 64, MF_HUGE_PAGE_MIN * 2) == 0);
  CHECK(mf_posix_memalign(&small, 64, 4096) == 0);
  CHECK(big && (uintptr_t)big % MF_HUGE_PAGE == 0);
  CHECK(small && (uintptr_t)small % 64 == 0);
  FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  char mode[128] = "";
  if (thp) {
    if (!fgets(mode, sizeof mode, thp)) mode[0] = 0;
    fclose(thp);
  }
  if (mode[0] && !strstr(mode, "[never]")) {
    char flags[512];
    vm_flags(big, flags, sizeof flags);
    CHECK(strstr(flags, " hg") != NULL);
  } else {
    printf("# no transparent huge pages here: alignment checked only\n");
  }
  free(big);
  free(small);
}

int main(void) {
  setenv("MOONFLOW_MAX_TENSOR_BYTES", "1M", 1);
  RUN(test_limit);
  RUN(test_overflow);
  RUN(test_fail_every_allocation);
  RUN(test_large_blocks_huge_pages);
  return CHECK_DONE();
}
