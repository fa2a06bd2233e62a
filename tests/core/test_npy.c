/* test_npy.c — .npy decoding of hostile bytes: every malformation is a
 * status code, never a crash or a huge allocation. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "npy.h"

static mf_status decode_header(const char *dict, size_t extra_bytes) {
  unsigned char buf[512];
  size_t hl = strlen(dict);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)hl;
  buf[9] = 0;
  memcpy(buf + 10, dict, hl);
  memset(buf + 10 + hl, 0, extra_bytes);
  mf_tensor *t = NULL;
  mf_error err;
  mf_status s = mf_npy_decode(buf, 10 + hl + extra_bytes, &t, &err);
  if (t) mf_tensor_release(t);
  return s;
}

static void test_round_trip(void) {
  int64_t shape[2] = {2, 3};
  mf_tensor *t, *u = NULL;
  CHECK_OK(mf_tensor_new(MF_INT32, 2, shape, &t, NULL));
  for (int i = 0; i < 6; i++) MF_DATA(t, int32_t)[i] = i * 7 - 3;
  unsigned char *b;
  size_t n;
  CHECK_OK(mf_npy_encode(t, &b, &n, NULL));
  CHECK(n % 64 == 24); /* header padded to 64, then 24 data bytes */
  CHECK_OK(mf_npy_decode(b, n, &u, NULL));
  CHECK(u && u->dtype == MF_INT32 && mf_shape_equal(u->rank, u->shape, 2, shape));
  CHECK(u && memcmp(mf_tensor_data(u), mf_tensor_data(t), 24) == 0);
  free(b);
  mf_tensor_release(t);
  if (u) mf_tensor_release(u);
}

static void test_well_formed_header(void) {
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8) == MF_OK);
  CHECK(decode_header("{'shape': (), 'descr': '|b1', 'fortran_order': False}\n", 1) == MF_OK);
}

static void test_hostile_headers(void) {
  /* the product of the dims overflows */
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4), }\n", 0) != MF_OK);
  /* a dimension that overflows int64 */
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n", 0) != MF_OK);
  /* a huge shape with no data must not allocate */
  CHECK(decode_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }\n", 0) == MF_ERR_INVALID_ARGUMENT);
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n", 0) != MF_OK);
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n", 4) != MF_OK);
  CHECK(decode_header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\n", 4) != MF_OK);
  CHECK(decode_header("{'descr': '<f4', 'shape': (1,)}\n", 4) != MF_OK);
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4) != MF_OK);
  CHECK(decode_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}\n", 4) != MF_OK);
  CHECK(decode_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,3,4,5,6,7,8,9)}\n", 4) != MF_OK);
}

static void test_bool_bytes(void) {
  const char *dict = "{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }\n";
  unsigned char buf[128];
  size_t hl = strlen(dict);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)hl;
  buf[9] = 0;
  memcpy(buf + 10, dict, hl);
  buf[10 + hl] = 2;
  mf_tensor *t = NULL;
  mf_error err;
  CHECK(mf_npy_decode(buf, 11 + hl, &t, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(t == NULL);
}

static void test_npz_garbage(void) {
  char path[] = "/tmp/mf_npz_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  unsigned char junk[100];
  for (int i = 0; i < 100; i++) junk[i] = (unsigned char)(i * 37);
  memcpy(junk + 60, "PK\x05\x06", 4); /* an end record pointing nowhere */
  memset(junk + 64, 0xff, 18);
  if (write(fd, junk, sizeof junk) != (ssize_t)sizeof junk) CHECK(0);
  close(fd);
  mf_npz z;
  mf_error err;
  CHECK(mf_npz_read(path, &z, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(z.count == 0);
  unlink(path);
}

int main(void) {
  RUN(test_round_trip);
  RUN(test_well_formed_header);
  RUN(test_hostile_headers);
  RUN(test_bool_bytes);
  RUN(test_npz_garbage);
  return CHECK_DONE();
}
