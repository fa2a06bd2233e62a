/* ops_random.c — RandomUniform and RandomStandardNormal over TF's
 * Philox4x32-10 generator (see random.h for the streams and seeding), and
 * the Stateless* ops, which key the same generator from a seed input. */
#include "random.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "half.h"
#include "interrupt.h"
#include "op.h"
#include "shape_fn.h"

/* ---- Philox4x32-10, as TF's random::PhiloxRandom ---- */

typedef struct philox {
  uint32_t key[2];
  uint32_t ctr[4];
} philox;

static philox philox_new(uint64_t seed_lo, uint64_t seed_hi) {
  return (philox){.key = {(uint32_t)seed_lo, (uint32_t)(seed_lo >> 32)},
                  .ctr = {0, 0, (uint32_t)seed_hi, (uint32_t)(seed_hi >> 32)}};
}

/* Advances the counter by `count` 128-bit blocks. */
static void philox_skip(philox *p, uint64_t count) {
  uint32_t lo = (uint32_t)count, hi = (uint32_t)(count >> 32);
  p->ctr[0] += lo;
  if (p->ctr[0] < lo) hi++;
  p->ctr[1] += hi;
  if (p->ctr[1] < hi && ++p->ctr[2] == 0) p->ctr[3]++;
}

/* The next block of four 32-bit samples. */
static void philox_next(philox *p, uint32_t out[4]) {
  uint32_t c[4] = {p->ctr[0], p->ctr[1], p->ctr[2], p->ctr[3]};
  uint32_t k0 = p->key[0], k1 = p->key[1];
  for (int round = 0; round < 10; round++) {
    uint64_t m0 = (uint64_t)0xD2511F53u * c[0], m1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t r[4] = {(uint32_t)(m1 >> 32) ^ c[1] ^ k0, (uint32_t)m1,
                     (uint32_t)(m0 >> 32) ^ c[3] ^ k1, (uint32_t)m0};
    memcpy(c, r, sizeof c);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  memcpy(out, c, sizeof c);
  philox_skip(p, 1);
}

/* PHILOX_BATCH blocks at once: the next PHILOX_BATCH blocks of p, in
 * order, block j's four samples at out[4j .. 4j + 3]; p moves past them.
 * The same rounds as philox_next, lane by lane (each block's counter is
 * p's plus j), written for the vectoriser: bit for bit the same samples, a
 * few times faster (dropout's mask was a tenth of lesson 14's step). A
 * batch whose low counter word would wrap inside it takes philox_next's
 * carries; draws start at multiples of 256 blocks (reserve), so batches
 * end where the word wraps, and this is a guard for other callers. */
enum { PHILOX_BATCH = 16 };
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
static void philox_batch(philox *p, uint32_t out[4 * PHILOX_BATCH]) {
  if (p->ctr[0] > UINT32_MAX - PHILOX_BATCH) {
    for (int j = 0; j < PHILOX_BATCH; j++) philox_next(p, out + 4 * j);
    return;
  }
  uint32_t c0[PHILOX_BATCH], c1[PHILOX_BATCH], c2[PHILOX_BATCH], c3[PHILOX_BATCH];
  for (int j = 0; j < PHILOX_BATCH; j++) {
    c0[j] = p->ctr[0] + (uint32_t)j;
    c1[j] = p->ctr[1];
    c2[j] = p->ctr[2];
    c3[j] = p->ctr[3];
  }
  uint32_t k0 = p->key[0], k1 = p->key[1];
  for (int round = 0; round < 10; round++) {
    for (int j = 0; j < PHILOX_BATCH; j++) {
      uint64_t m0 = (uint64_t)0xD2511F53u * c0[j], m1 = (uint64_t)0xCD9E8D57u * c2[j];
      uint32_t n0 = (uint32_t)(m1 >> 32) ^ c1[j] ^ k0, n2 = (uint32_t)(m0 >> 32) ^ c3[j] ^ k1;
      c0[j] = n0;
      c1[j] = (uint32_t)m1;
      c2[j] = n2;
      c3[j] = (uint32_t)m0;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int j = 0; j < PHILOX_BATCH; j++) {
    out[4 * j] = c0[j];
    out[4 * j + 1] = c1[j];
    out[4 * j + 2] = c2[j];
    out[4 * j + 3] = c3[j];
  }
  philox_skip(p, PHILOX_BATCH);
}

/* ---- samples to floats, as TF's random_distributions.h ---- */

static float u32_to_float(uint32_t x) { /* [0, 1) from 23 mantissa bits */
  uint32_t v = (127u << 23) | (x & 0x7fffffu);
  float f;
  memcpy(&f, &v, sizeof f);
  return f - 1.0f;
}

static double u64_to_double(uint32_t hi, uint32_t lo) { /* [0, 1) from 52 bits */
  uint64_t v = ((uint64_t)1023 << 52) | ((uint64_t)(hi & 0xfffffu) << 32) | lo;
  double d;
  memcpy(&d, &v, sizeof d);
  return d - 1.0;
}

/* TF's BoxMullerFloat computes the angle 2.0f * M_PI * u in double (M_PI
 * is a double), which the stateless ops follow to give TF's values; the
 * stateful ops' draws are moonflow's own (their seeding is not TF's) and
 * keep the float angle their recorded outputs were made with. */
static void box_muller_f(uint32_t x0, uint32_t x1, bool tf_angle, float *f0, float *f1) {
  float u1 = u32_to_float(x0);
  if (u1 < 1.0e-7f) u1 = 1.0e-7f;
  float v1 = tf_angle ? (float)(2.0f * M_PI * u32_to_float(x1)) : 2.0f * (float)M_PI * u32_to_float(x1);
  float u2 = sqrtf(-2.0f * logf(u1));
  sincosf(v1, f0, f1);
  *f0 *= u2;
  *f1 *= u2;
}

static void box_muller_d(const uint32_t x[4], double *d0, double *d1) {
  double u1 = u64_to_double(x[0], x[1]);
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  double v1 = 2 * M_PI * u64_to_double(x[2], x[3]);
  double u2 = sqrt(-2.0 * log(u1));
  sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

/* ---- streams ---- */

/* NORMAL_TF: a normal with TF's float Box-Muller angle (box_muller_f). */
enum dist { UNIFORM, NORMAL, NORMAL_TF };

typedef struct stream {
  enum dist dist;
  mf_dtype dtype;
  int64_t seed, seed2;
  philox gen;
} stream;

/* One session's generator: the global stream and the seeded streams.
 * Sessions (Lua states) each own one, so set_seed in one session leaves
 * another's numbers alone; code with no session (the C tests) uses the
 * process default. */
struct mf_random_state {
  pthread_mutex_t lock;
  philox global_gen;
  int global_keyed;
  stream *streams;
  size_t nstreams, streams_cap;
};

static mf_random_state default_state = {.lock = PTHREAD_MUTEX_INITIALIZER};
/* The state the kernels of this thread draw from: the session running on
 * it (random kernels run on the thread that called the op or the graph). */
static _Thread_local mf_random_state *current;

mf_random_state *mf_random_state_new(void) {
  mf_random_state *st = mf_calloc(1, sizeof *st);
  if (st) pthread_mutex_init(&st->lock, NULL);
  return st;
}

void mf_random_state_free(mf_random_state *st) {
  if (!st) return;
  if (current == st) current = NULL;
  pthread_mutex_destroy(&st->lock);
  free(st->streams);
  free(st);
}

void mf_random_use(mf_random_state *st) { current = st; }

static mf_random_state *state_now(void) { return current ? current : &default_state; }

/* SplitMix64's output for z: spreads a user seed over the whole Philox key. */
static uint64_t mix64(uint64_t z) { return mf_splitmix64(&z); }

static void key_global(mf_random_state *st, uint64_t seed) {
  st->global_gen = philox_new(mix64(seed), mix64(seed ^ 0x5851F42D4C957F2Dull));
  st->global_keyed = 1;
}

void mf_random_state_set_seed(mf_random_state *st, uint64_t seed) {
  if (!st) st = &default_state;
  pthread_mutex_lock(&st->lock);
  key_global(st, seed);
  st->nstreams = 0;
  pthread_mutex_unlock(&st->lock);
}

void mf_random_set_seed(uint64_t seed) { mf_random_state_set_seed(state_now(), seed); }

/* The seeded stream for these attributes, created on first use. Called
 * under the lock. */
static stream *find_stream(mf_random_state *st, enum dist d, mf_dtype dt, int64_t seed,
                           int64_t seed2, mf_error *err) {
  for (size_t i = 0; i < st->nstreams; i++)
    if (st->streams[i].dist == d && st->streams[i].dtype == dt && st->streams[i].seed == seed &&
        st->streams[i].seed2 == seed2)
      return &st->streams[i];
  if (st->nstreams == st->streams_cap) {
    size_t cap = st->streams_cap ? 2 * st->streams_cap : 16;
    stream *s = mf_realloc(st->streams, cap * sizeof *s);
    if (!s) {
      mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      return NULL;
    }
    st->streams = s;
    st->streams_cap = cap;
  }
  st->streams[st->nstreams] = (stream){.dist = d, .dtype = dt, .seed = seed, .seed2 = seed2,
                                       .gen = philox_new((uint64_t)seed, (uint64_t)seed2)};
  return &st->streams[st->nstreams++];
}

/* The generator state for one call producing `count` values; the stream
 * moves past what the call may use. TF reserves 256 blocks per output (its
 * ReserveRandomOutputs); doing the same keeps later calls equal to TF's. */
static mf_status reserve(enum dist d, mf_dtype dt, int64_t seed, int64_t seed2, int64_t count,
                         philox *out, mf_error *err) {
  uint64_t blocks = (uint64_t)count > UINT64_MAX / 256 ? UINT64_MAX : (uint64_t)count * 256;
  mf_random_state *st = state_now();
  pthread_mutex_lock(&st->lock);
  philox *gen = &st->global_gen;
  if (seed != 0 || seed2 != 0) {
    stream *s = find_stream(st, d, dt, seed, seed2, err);
    if (!s) {
      pthread_mutex_unlock(&st->lock);
      return MF_ERR_RESOURCE_EXHAUSTED;
    }
    gen = &s->gen;
  } else if (!st->global_keyed) {
    uint64_t entropy;
    if (getrandom(&entropy, sizeof entropy, 0) != (ssize_t)sizeof entropy)
      entropy = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&entropy;
    key_global(st, entropy);
  }
  *out = *gen;
  philox_skip(gen, blocks);
  pthread_mutex_unlock(&st->lock);
  return MF_OK;
}

/* The half types' uniform samples, as TF's Uint16ToHalf and
 * Uint16ToGfloat16: the low mantissa bits of a sample under the exponent
 * of 1, less 1 (a subtraction exact in the type). */
static uint16_t u16_to_half_uniform(uint32_t x, mf_dtype dt) {
  if (dt == MF_FLOAT16) return mf_f32_to_f16(mf_f16_to_f32((uint16_t)(15u << 10 | (x & 0x3ffu))) - 1.0f);
  return mf_f32_to_bf16(mf_bf16_to_f32((uint16_t)(127u << 7 | (x & 0x7fu))) - 1.0f);
}

/* float16 and bfloat16: four values a block, as TF's distributions for
 * them: uniform from each sample's low bits, normal as float32's
 * Box-Muller pairs rounded to the type. */
static void fill_half(enum dist d, mf_dtype dt, const uint32_t x[4], uint16_t out[4]) {
  if (d == UNIFORM) {
    for (int k = 0; k < 4; k++) out[k] = u16_to_half_uniform(x[k], dt);
    return;
  }
  float f[4];
  box_muller_f(x[0], x[1], d == NORMAL_TF, &f[0], &f[1]);
  box_muller_f(x[2], x[3], d == NORMAL_TF, &f[2], &f[3]);
  for (int k = 0; k < 4; k++) out[k] = dt == MF_FLOAT16 ? mf_f32_to_f16(f[k]) : mf_f32_to_bf16(f[k]);
}

/* Fills n values: each Philox block gives 4 float32s (float16s,
 * bfloat16s) or 2 float64s, in TF's order (element i comes from block
 * i / per_block). */
static mf_status fill(enum dist d, mf_dtype dt, philox gen, void *data, int64_t n,
                      mf_error *err) {
  const int per = dt == MF_FLOAT64 ? 2 : 4;
  float *f = data;
  double *g = data;
  uint16_t *h = data;
  uint32_t batch[4 * PHILOX_BATCH];
  int used = PHILOX_BATCH;
  for (int64_t i = 0; i < n; i += per) {
    if ((i & ((1 << 20) - 1)) == 0) MF_TRY(mf_interrupt_check(err));
    if (used == PHILOX_BATCH) {
      philox_batch(&gen, batch);
      used = 0;
    }
    const uint32_t *x = batch + 4 * used++;
    if (dt == MF_FLOAT16 || dt == MF_BFLOAT16) {
      uint16_t hv[4];
      fill_half(d, dt, x, hv);
      for (int k = 0; k < 4 && i + k < n; k++) h[i + k] = hv[k];
      continue;
    }
    if (dt == MF_FLOAT32 && d == UNIFORM && i + 4 <= n) {
      for (int k = 0; k < 4; k++) f[i + k] = u32_to_float(x[k]);
      continue;
    }
    float fv[4];
    double dv[2];
    if (dt == MF_FLOAT32) {
      if (d == UNIFORM)
        for (int k = 0; k < 4; k++) fv[k] = u32_to_float(x[k]);
      else {
        box_muller_f(x[0], x[1], d == NORMAL_TF, &fv[0], &fv[1]);
        box_muller_f(x[2], x[3], d == NORMAL_TF, &fv[2], &fv[3]);
      }
    } else if (d == UNIFORM) {
      dv[0] = u64_to_double(x[0], x[1]);
      dv[1] = u64_to_double(x[2], x[3]);
    } else {
      box_muller_d(x, &dv[0], &dv[1]);
    }
    for (int k = 0; k < per && i + k < n; k++) {
      if (dt == MF_FLOAT32) f[i + k] = fv[k];
      else g[i + k] = dv[k];
    }
  }
  return MF_OK;
}

/* ---- the ops ---- */

static mf_status random_infer_shape(mf_op_call *c, mf_dtype dt, mf_error *err);

extern const mf_op_def mf_op_RandomStandardNormal;

static mf_status random_infer(mf_op_call *c, mf_error *err) {
  mf_dtype dt = mf_attr_type(c->attrs, "dtype", MF_FLOAT32);
  if (!mf_dtype_is_any_float(dt))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'dtype' of %s is not in the list of allowed values: "
                        "half, bfloat16, float, double [Op:%s]",
                        mf_dtype_name(dt), c->op->name);
  return random_infer_shape(c, dt, err);
}

/* The output spec from the shape input (input 0), TF's RandomShape. */
static mf_status random_infer_shape(mf_op_call *c, mf_dtype dt, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_integer, "int32 or int64", err));
  const mf_spec *s = &c->in_specs[0];
  if (s->rank >= 0 && s->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "shape must be a vector of {int32,int64}, got shape of rank %d [Op:%s]",
                        s->rank, c->op->name);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *o = &c->out_specs[0];
  *o = (mf_spec){.dtype = dt, .rank = -1};
  int64_t rank = s->rank == 1 ? s->shape[0] : -1;
  if (rank > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "shape has %lld dimensions, more than %d [Op:%s]", (long long)rank,
                        MF_MAX_RANK, c->op->name);
  o->rank = (int)rank;
  for (int i = 0; i < o->rank; i++) o->shape[i] = -1;
  int n;
  c->requested_shape |= 1; /* TF's RandomShape: MakeShapeFromShapeTensor(0) */
  if (!c->in[0]) {
    /* Not known as a whole: what is known of each element, while a graph
     * is built (partial.h). */
    int64_t d[MF_MAX_RANK];
    MF_TRY(mf_sf_shape_tensor(c, 0, &n, d, MF_MAX_RANK, err));
    for (int i = 0; i < n; i++) o->shape[i] = d[i];
    return MF_OK;
  }
  if (!mf_infer_const_ints(c, 0, o->shape, MF_MAX_RANK, &n)) return MF_OK;
  o->rank = n;
  for (int i = 0; i < n; i++)
    if (o->shape[i] < 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0 [Op:%s]",
                          (long long)o->shape[i], c->op->name);
  int64_t size;
  return mf_shape_size(n, o->shape, &size, err);
}

static mf_status random_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  enum dist d = c->op == &mf_op_RandomStandardNormal ? NORMAL : UNIFORM;
  philox gen;
  MF_TRY(reserve(d, out->dtype, mf_attr_int(c->attrs, "seed", 0), mf_attr_int(c->attrs, "seed2", 0),
                 out->size, &gen, err));
  return fill(d, out->dtype, gen, mf_tensor_data(out), out->size, err);
}

#define RANDOM_ATTRS {"dtype", MF_ATTR_TYPE}, {"seed", MF_ATTR_INT}, {"seed2", MF_ATTR_INT}

const mf_op_def mf_op_RandomStandardNormal = {
    .name = "RandomStandardNormal", .input_names = "shape", .min_inputs = 1, .max_inputs = 1,
    .attrs = {RANDOM_ATTRS},
    .infer = random_infer, .kernel = random_kernel,
    .flags = MF_OP_RANDOM | MF_OP_STATEFUL | MF_OP_NO_GRADIENT | MF_OP_CHANGES_ON_REPLAY,
    .doc = "Samples from the standard normal distribution (mean 0, stddev 1).",
    .tf_attrs = "T:0 dtype seed=0 seed2=0",
};

const mf_op_def mf_op_RandomUniform = {
    .name = "RandomUniform", .input_names = "shape", .min_inputs = 1, .max_inputs = 1,
    .attrs = {RANDOM_ATTRS},
    .infer = random_infer, .kernel = random_kernel,
    .flags = MF_OP_RANDOM | MF_OP_STATEFUL | MF_OP_NO_GRADIENT | MF_OP_CHANGES_ON_REPLAY,
    .doc = "Samples uniformly from [0, 1).",
    .tf_attrs = "T:0 dtype seed=0 seed2=0",
};

/* ---- stateless ops: the values are a function of (seed, shape, dtype) ---- */

extern const mf_op_def mf_op_StatelessRandomNormal;
extern const mf_op_def mf_op_StatelessTruncatedNormal;
extern const mf_op_def mf_op_StatelessRandomUniformInt;
extern const mf_op_def mf_op_StatelessRandomUniformFullInt;

static int64_t int_at(const mf_tensor *t, int64_t i) {
  return t->dtype == MF_INT64 ? MF_DATA(t, int64_t)[i] : (int64_t)MF_DATA(t, int32_t)[i];
}

/* TF's GenerateKey (stateless_random_ops.cc): the seed pair is the counter
 * of one Philox block under a fixed key, and that block's output is the
 * key and counter of the draw, so both halves of the seed matter alike.
 * An int32 seed widens with its sign, as TF's static_cast<uint64>. */
static philox stateless_gen(const mf_tensor *seed) {
  uint64_t s0 = (uint64_t)int_at(seed, 0), s1 = (uint64_t)int_at(seed, 1);
  philox p = {.key = {0x3ec8f720u, 0x02461e29u},
              .ctr = {(uint32_t)s0, (uint32_t)(s0 >> 32), (uint32_t)s1, (uint32_t)(s1 >> 32)}};
  uint32_t mix[4];
  philox_next(&p, mix);
  return (philox){.key = {mix[0], mix[1]}, .ctr = {0, 0, mix[2], mix[3]}};
}

static bool stateless_float(mf_dtype dt) { return mf_dtype_is_any_float(dt); }
static bool stateless_int(mf_dtype dt) { return dt == MF_INT32 || dt == MF_INT64; }

static mf_status stateless_infer(mf_op_call *c, mf_error *err) {
  bool ints = c->op == &mf_op_StatelessRandomUniformInt || c->op == &mf_op_StatelessRandomUniformFullInt;
  mf_dtype dt = mf_attr_type(c->attrs, "dtype", ints ? MF_INT64 : MF_FLOAT32);
  if (ints ? !stateless_int(dt) : !stateless_float(dt))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'dtype' of %s is not in the list of allowed values: %s [Op:%s]",
                        mf_dtype_name(dt), ints ? "int32, int64" : "half, bfloat16, float, double",
                        c->op->name);
  MF_TRY(mf_infer_check_dtype(c, 1, stateless_int, "int32 or int64", err));
  const mf_spec *s = &c->in_specs[1];
  if (s->rank >= 0 && (s->rank != 1 || (s->shape[0] >= 0 && s->shape[0] != 2))) {
    char buf[64] = "[";
    for (int i = 0; i < s->rank && strlen(buf) < 40; i++)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%lld", i ? "," : "",
               (long long)s->shape[i]);
    strcat(buf, "]");
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "seed must have shape [2], not %s [Op:%s]", buf,
                        c->op->name);
  }
  if (c->op == &mf_op_StatelessRandomUniformInt)
    for (int i = 2; i < 4; i++) {
      if (c->in_specs[i].dtype != dt)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "%s must have dtype %s, not %s [Op:%s]", i == 2 ? "minval" : "maxval",
                            mf_dtype_name(dt), mf_dtype_name(c->in_specs[i].dtype), c->op->name);
      if (c->in_specs[i].rank > 0)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be 0-D, got shape of rank %d [Op:%s]",
                            i == 2 ? "minval" : "maxval", c->in_specs[i].rank, c->op->name);
    }
  /* The output shape is the shape input's, as the stateful ops'. */
  return random_infer_shape(c, dt, err);
}

/* TF's TruncatedNormalDistribution over a SingleSampleAdapter: normals
 * from Box-Muller pairs, those with |x| >= 2 dropped, until the group (4
 * float32/half values, 2 float64) is full; group g starts 256 samples a
 * value past the generator's start (kReservedSamplesPerOutput). */
static mf_status fill_truncated(mf_dtype dt, philox base, void *data, int64_t n, mf_error *err) {
  const int per = dt == MF_FLOAT64 ? 2 : 4;
  const uint64_t skip = (uint64_t)per * 256 / 4;
  for (int64_t i = 0, g = 0; i < n; i += per, g++) {
    if ((g & 0xffff) == 0) MF_TRY(mf_interrupt_check(err));
    philox gen = base;
    philox_skip(&gen, (uint64_t)g * skip);
    uint32_t x[4];
    int used = 4, got = 0;
    double v[4];
    while (got < per) {
      uint32_t s[4];
      int want = dt == MF_FLOAT64 ? 4 : 2;
      for (int k = 0; k < want; k++) {
        if (used == 4) {
          philox_next(&gen, x);
          used = 0;
        }
        s[k] = x[used++];
      }
      double pair[2];
      if (dt == MF_FLOAT64) {
        box_muller_d(s, &pair[0], &pair[1]);
      } else {
        float f0, f1;
        box_muller_f(s[0], s[1], true, &f0, &f1);
        pair[0] = f0;
        pair[1] = f1;
      }
      for (int k = 0; k < 2 && got < per; k++)
        if (fabs(pair[k]) < 2.0) v[got++] = pair[k];
    }
    for (int k = 0; k < per && i + k < n; k++) {
      if (dt == MF_FLOAT64) ((double *)data)[i + k] = v[k];
      else if (dt == MF_FLOAT32) ((float *)data)[i + k] = (float)v[k];
      else if (dt == MF_FLOAT16) ((uint16_t *)data)[i + k] = mf_f32_to_f16((float)v[k]);
      else ((uint16_t *)data)[i + k] = mf_f32_to_bf16((float)v[k]);
    }
  }
  return MF_OK;
}

/* TF's UniformDistribution and UniformFullIntDistribution for int32 (one
 * sample a value) and int64 (two: low word first): lo + bits % range, or
 * the bits themselves over the full range. */
static void fill_ints(mf_dtype dt, philox gen, void *data, int64_t n, int full, int64_t lo,
                      uint64_t range) {
  uint32_t x[4];
  const int per = dt == MF_INT64 ? 2 : 4;
  for (int64_t i = 0; i < n; i += per) {
    philox_next(&gen, x);
    for (int k = 0; k < per && i + k < n; k++) {
      if (dt == MF_INT32) {
        uint32_t b = x[k];
        ((int32_t *)data)[i + k] = full ? (int32_t)b : (int32_t)((uint32_t)lo + b % (uint32_t)range);
      } else {
        uint64_t b = x[2 * k] | (uint64_t)x[2 * k + 1] << 32;
        ((int64_t *)data)[i + k] = full ? (int64_t)b : (int64_t)((uint64_t)lo + b % range);
      }
    }
  }
}

static mf_status stateless_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *seed = c->in[1];
  if (seed->size != 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "seed must have shape [2], not [%lld] [Op:%s]",
                        (long long)seed->size, c->op->name);
  int64_t lo = 0, hi = 0;
  if (c->op == &mf_op_StatelessRandomUniformInt) {
    lo = int_at(c->in[2], 0);
    hi = int_at(c->in[3], 0);
    if (lo >= hi)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Need minval < maxval: %lld >= %lld [Op:%s]",
                          (long long)lo, (long long)hi, c->op->name);
  }
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  philox gen = stateless_gen(seed);
  void *data = mf_tensor_data(out);
  if (c->op == &mf_op_StatelessTruncatedNormal) return fill_truncated(out->dtype, gen, data, out->size, err);
  if (c->op == &mf_op_StatelessRandomUniformInt || c->op == &mf_op_StatelessRandomUniformFullInt) {
    fill_ints(out->dtype, gen, data, out->size, c->op == &mf_op_StatelessRandomUniformFullInt, lo,
              (uint64_t)hi - (uint64_t)lo);
    return MF_OK;
  }
  return fill(c->op == &mf_op_StatelessRandomNormal ? NORMAL_TF : UNIFORM, out->dtype, gen, data,
              out->size, err);
}

#define STATELESS_OP(NAME, INPUTS, N, DOC)                                                          \
  const mf_op_def mf_op_##NAME = {                                                                  \
      .name = #NAME, .input_names = INPUTS, .min_inputs = N, .max_inputs = N,                      \
      .attrs = {{"dtype", MF_ATTR_TYPE}},                                                           \
      .infer = stateless_infer, .kernel = stateless_kernel,                                         \
      .flags = MF_OP_NO_GRADIENT,                                                                   \
      .doc = DOC,                                                                                   \
      .tf_attrs = "dtype T:0 Tseed:1",                                                              \
  };

STATELESS_OP(StatelessRandomUniform, "shape,seed", 2,
             "Samples uniformly from [0, 1), the same values for the same seed.")
STATELESS_OP(StatelessRandomNormal, "shape,seed", 2,
             "Samples from the standard normal distribution, the same values for the same seed.")
STATELESS_OP(StatelessTruncatedNormal, "shape,seed", 2,
             "Samples from the standard normal truncated to (-2, 2), the same values for the same seed.")
STATELESS_OP(StatelessRandomUniformInt, "shape,seed,minval,maxval", 4,
             "Samples integers uniformly from [minval, maxval), the same values for the same seed.")
STATELESS_OP(StatelessRandomUniformFullInt, "shape,seed", 2,
             "Samples integers uniformly over the dtype's range, the same values for the same seed.")
