/* test_random.c — RandomUniform and RandomStandardNormal: bit-exact against
 * an independent Philox4x32-10 (itself checked against the Random123
 * known-answer vectors) laid out as TF lays it out, reproducibility under
 * mf_random_set_seed and op seeds, rough moments, errors and inference. */
#include "check.h"
#include "op_test.h"
#include "random.h"

/* ---- reference Philox4x32-10, straight from the Random123 paper ---- */

static void ref_philox(const uint32_t key_in[2], const uint32_t ctr_in[4], uint32_t out[4]) {
  uint32_t k[2] = {key_in[0], key_in[1]}, x[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]};
  for (int r = 0; r < 10; r++) {
    if (r) k[0] += 0x9E3779B9u, k[1] += 0xBB67AE85u;
    uint64_t p0 = (uint64_t)0xD2511F53u * x[0], p1 = (uint64_t)0xCD9E8D57u * x[2];
    uint32_t y[4] = {(uint32_t)(p1 >> 32) ^ x[1] ^ k[0], (uint32_t)p1,
                     (uint32_t)(p0 >> 32) ^ x[3] ^ k[1], (uint32_t)p0};
    memcpy(x, y, sizeof x);
  }
  memcpy(out, x, sizeof x);
}

static void test_reference_philox_known_answers(void) {
  static const struct {
    uint32_t ctr[4], key[2], want[4];
  } kat[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (int i = 0; i < 3; i++) {
    uint32_t out[4];
    ref_philox(kat[i].key, kat[i].ctr, out);
    CHECK(memcmp(out, kat[i].want, sizeof out) == 0);
  }
}

/* Block `block` of the stream TF's PhiloxRandom(seed, seed2) gives. */
static void ref_block(uint64_t seed, uint64_t seed2, uint64_t block, uint32_t out[4]) {
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  uint32_t ctr[4] = {(uint32_t)block, (uint32_t)(block >> 32), (uint32_t)seed2,
                     (uint32_t)(seed2 >> 32)};
  ref_philox(key, ctr, out);
}

static double ref_float(uint32_t x) { return (x & 0x7fffff) / 8388608.0; }

static mf_tensor *draw(const char *op, mf_dtype dt, int64_t seed, int64_t seed2, int rank,
                       const int64_t *shape) {
  mf_tensor *sh = make_tensor(MF_INT32, 1, DIMS(rank), NULL), *out = NULL;
  for (int i = 0; i < rank; i++) mf_tensor_set_i64(sh, i, shape[i]);
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_type(&at, "dtype", dt, NULL);
  mf_attrs_set_int(&at, "seed", seed, NULL);
  mf_attrs_set_int(&at, "seed2", seed2, NULL);
  mf_error err;
  if (run_op(op, 1, &sh, &at, 1, &out, &err) != MF_OK) printf("#   %s: %s\n", op, err.message);
  mf_attrs_free(&at);
  mf_tensor_release(sh);
  return out;
}

static void test_uniform_matches_tf_layout(void) {
  mf_random_set_seed(1); /* restarts the seeded streams */
  const int64_t n = 10;
  mf_tensor *a = draw("RandomUniform", MF_FLOAT32, 87654321, 7, 1, DIMS(n));
  mf_tensor *b = draw("RandomUniform", MF_FLOAT32, 87654321, 7, 1, DIMS(n));
  for (int call = 0; call < 2; call++) {
    mf_tensor *t = call ? b : a;
    CHECK(shape_is(t, 1, DIMS(n)));
    for (int64_t i = 0; t && i < n; i++) {
      uint32_t blk[4];
      /* TF's kernel reserves 256 blocks per output, so call 2 starts there */
      ref_block(87654321, 7, (uint64_t)(call * n * 256 + i / 4), blk);
      CHECK(mf_tensor_get_f64(t, i) == ref_float(blk[i % 4]));
    }
  }
  mf_tensor_release(a);
  mf_tensor_release(b);
  mf_tensor *d = draw("RandomUniform", MF_FLOAT64, 3, 0, 1, DIMS(5));
  for (int64_t i = 0; d && i < 5; i++) {
    uint32_t blk[4];
    ref_block(3, 0, (uint64_t)(i / 2), blk);
    int j = (int)(i % 2) * 2;
    double want = ((double)(blk[j] & 0xfffff) * 4294967296.0 + blk[j + 1]) / 4503599627370496.0;
    CHECK(mf_tensor_get_f64(d, i) == want);
  }
  mf_tensor_release(d);
}

/* Every element of a draw that spans many of the kernel's batches of
 * Philox blocks, and of one whose blocks cross the counter's low word
 * wrapping (block 2^32, where the carry reaches the second word). */
static void check_uniform_blocks(const mf_tensor *t, uint64_t seed, uint64_t seed2, uint64_t first,
                                 int64_t n) {
  int bad = 0;
  for (int64_t i = 0; t && i < n; i++) {
    uint32_t blk[4];
    ref_block(seed, seed2, first + (uint64_t)(i / 4), blk);
    bad += mf_tensor_get_f64(t, i) != ref_float(blk[i % 4]);
  }
  CHECK(t != NULL);
  CHECK(bad == 0);
}

static void test_uniform_batches_and_counter_wrap(void) {
  mf_random_set_seed(1);
  mf_tensor *a = draw("RandomUniform", MF_FLOAT32, 11, 5, 1, DIMS(1001));
  check_uniform_blocks(a, 11, 5, 0, 1001);
  mf_tensor_release(a);
  /* 16777215 outputs reserve 256 blocks each: the next draw starts 256
   * blocks (a thousand-odd samples) before the low word wraps */
  mf_random_set_seed(1);
  mf_tensor *big = draw("RandomUniform", MF_FLOAT32, 11, 6, 1, DIMS(16777215));
  mf_tensor_release(big);
  mf_tensor *b = draw("RandomUniform", MF_FLOAT32, 11, 6, 1, DIMS(2001));
  check_uniform_blocks(b, 11, 6, (uint64_t)16777215 * 256, 2001);
  mf_tensor_release(b);
}

static void test_normal_matches_box_muller(void) {
  mf_random_set_seed(1);
  mf_tensor *t = draw("RandomStandardNormal", MF_FLOAT32, 5, 6, 2, DIMS(3, 3));
  CHECK(shape_is(t, 2, DIMS(3, 3)));
  for (int64_t i = 0; t && i < 9; i++) {
    uint32_t blk[4];
    ref_block(5, 6, (uint64_t)(i / 4), blk);
    int pair = (int)(i % 4) / 2 * 2;
    double u1 = fmax(ref_float(blk[pair]), 1e-7), v1 = 2 * M_PI * ref_float(blk[pair + 1]);
    double want = sqrt(-2 * log(u1)) * (i % 2 ? cos(v1) : sin(v1));
    CHECK_NEAR(mf_tensor_get_f64(t, i), want, 1e-5 * fmax(1, fabs(want)));
  }
  mf_tensor_release(t);
}

static bool same(const mf_tensor *a, const mf_tensor *b) {
  return a && b && a->size == b->size &&
         memcmp(mf_tensor_data(a), mf_tensor_data(b), (size_t)a->size * mf_dtype_size(a->dtype)) == 0;
}

static void test_set_seed_reproduces(void) {
  mf_tensor *r[2][4];
  for (int rep = 0; rep < 2; rep++) {
    mf_random_set_seed(42);
    r[rep][0] = draw("RandomUniform", MF_FLOAT32, 0, 0, 1, DIMS(100));
    r[rep][1] = draw("RandomStandardNormal", MF_FLOAT64, 0, 0, 2, DIMS(7, 3));
    r[rep][2] = draw("RandomUniform", MF_FLOAT32, 0, 0, 1, DIMS(100));
    r[rep][3] = draw("RandomUniform", MF_FLOAT32, 9, 0, 1, DIMS(100));
  }
  for (int i = 0; i < 4; i++) CHECK(same(r[0][i], r[1][i]));
  CHECK(!same(r[0][0], r[0][2])); /* later draws differ */
  mf_random_set_seed(43);
  mf_tensor *other = draw("RandomUniform", MF_FLOAT32, 0, 0, 1, DIMS(100));
  CHECK(!same(other, r[0][0]));
  /* a seeded stream does not depend on the global seed, and restarts */
  mf_tensor *seeded = draw("RandomUniform", MF_FLOAT32, 9, 0, 1, DIMS(100));
  mf_tensor *again = draw("RandomUniform", MF_FLOAT32, 9, 0, 1, DIMS(100));
  CHECK(same(seeded, r[0][3]) && !same(again, seeded));
  for (int rep = 0; rep < 2; rep++)
    for (int i = 0; i < 4; i++) mf_tensor_release(r[rep][i]);
  mf_tensor_release(other);
  mf_tensor_release(seeded);
  mf_tensor_release(again);
}

static void test_moments(void) {
  mf_random_set_seed(7);
  for (int dt = 0; dt < 2; dt++) {
    mf_dtype d = dt ? MF_FLOAT64 : MF_FLOAT32;
    const int64_t n = 200001; /* odd: the last block is partly used */
    mf_tensor *u = draw("RandomUniform", d, 0, 0, 1, DIMS(n));
    mf_tensor *g = draw("RandomStandardNormal", d, 0, 0, 1, DIMS(n));
    CHECK(u && g && u->dtype == d && g->dtype == d);
    double su = 0, su2 = 0, sg = 0, sg2 = 0, lo = 1, hi = 0;
    for (int64_t i = 0; u && g && i < n; i++) {
      double x = mf_tensor_get_f64(u, i), y = mf_tensor_get_f64(g, i);
      su += x, su2 += x * x, sg += y, sg2 += y * y;
      lo = fmin(lo, x), hi = fmax(hi, x);
    }
    CHECK(lo >= 0 && hi < 1 && lo < 1e-3 && hi > 1 - 1e-3);
    CHECK_NEAR(su / n, 0.5, 0.005);
    CHECK_NEAR(su2 / n - (su / n) * (su / n), 1 / 12.0, 0.002);
    CHECK_NEAR(sg / n, 0, 0.01);
    CHECK_NEAR(sqrt(sg2 / n - (sg / n) * (sg / n)), 1, 0.01);
    mf_tensor_release(u);
    mf_tensor_release(g);
  }
}

static void test_random_infer_and_errors(void) {
  mf_error err;
  mf_spec o[2];
  int n;
  mf_spec in = spec_of(MF_INT32, 1, DIMS(3));
  CHECK(infer_op("RandomUniform", 1, &in, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(n == 1 && spec_is(&o[0], 3, DIMS(-1, -1, -1)) && o[0].dtype == MF_FLOAT32);
  in = spec_of(MF_INT64, 1, DIMS(-1));
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_type(&at, "dtype", MF_FLOAT64, NULL);
  CHECK(infer_op("RandomStandardNormal", 1, &in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(o[0].rank == -1 && o[0].dtype == MF_FLOAT64);
  mf_attrs_set_type(&at, "dtype", MF_INT32, NULL);
  CHECK(infer_op("RandomStandardNormal", 1, &in, &at, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_free(&at);
  in = spec_of(MF_INT32, 2, DIMS(2, 2));
  CHECK(infer_op("RandomUniform", 1, &in, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
  in = spec_of(MF_FLOAT32, 1, DIMS(2));
  CHECK(infer_op("RandomUniform", 1, &in, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);

  mf_tensor *neg = make_tensor(MF_INT64, 1, DIMS(2), (double[]){3, -1}), *out = NULL;
  CHECK(run_op("RandomUniform", 1, &neg, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Dimension -1 must be >= 0"));
  mf_tensor *empty = make_tensor(MF_INT64, 1, DIMS(2), (double[]){3, 0});
  CHECK(run_op("RandomUniform", 1, &empty, NULL, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 2, DIMS(3, 0)));
  mf_tensor_release(out);
  mf_tensor *scalar = make_tensor(MF_INT32, 1, DIMS(0), NULL);
  CHECK(run_op("RandomStandardNormal", 1, &scalar, NULL, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 0, NULL));
  mf_tensor_release(out);
  mf_tensor_release(neg);
  mf_tensor_release(empty);
  mf_tensor_release(scalar);
  unsigned f = MF_OP_RANDOM | MF_OP_STATEFUL | MF_OP_NO_GRADIENT;
  CHECK((mf_op_lookup("RandomUniform")->flags & f) == f);
  CHECK((mf_op_lookup("RandomStandardNormal")->flags & f) == f);
}

int main(void) {
  RUN(test_reference_philox_known_answers);
  RUN(test_uniform_matches_tf_layout);
  RUN(test_uniform_batches_and_counter_wrap);
  RUN(test_normal_matches_box_muller);
  RUN(test_set_seed_reproduces);
  RUN(test_moments);
  RUN(test_random_infer_and_errors);
  return CHECK_DONE();
}
