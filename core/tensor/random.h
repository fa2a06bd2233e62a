/* random.h — the random number generator behind RandomUniform and
 * RandomStandardNormal (ops_random.c), and tf.random.set_seed.
 *
 * The generator is TensorFlow's: Philox4x32-10, a counter-based PRNG whose
 * 128-bit blocks are turned into floats exactly as TF's
 * UniformDistribution / NormalDistribution (Box-Muller) do. Streams:
 *   - an op with seed == seed2 == 0 draws from one global stream, keyed at
 *     first use from OS entropy, or from the seed given to
 *     mf_random_set_seed;
 *   - an op with a non-zero seed or seed2 has its own stream, keyed by
 *     (op type, dtype, seed, seed2) as TF keys a kernel instance: the
 *     first call starts at Philox(seed, seed2), every later call continues
 *     where the previous one stopped, so two calls differ and the sequence
 *     is reproducible. With the same seeds the values equal TensorFlow's.
 * mf_random_set_seed rekeys the global stream and restarts every seeded
 * stream, so the same seed replays the same sequence (TF's set_seed also
 * resets its kernels). Thread-safe: streams are advanced under a lock and
 * filled outside it. The streams belong to a session, never to the
 * process: see mf_random_state below. */
#ifndef MF_RANDOM_H
#define MF_RANDOM_H

#include <stdint.h>

/* SplitMix64: one step of *state and its mixed output. A small generator
 * whose streams from nearby seeds are independent (tf.data's shuffle and
 * random datasets), and a seed spreader (the Philox key of a user seed). */
static inline uint64_t mf_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Per-session state: each session (Lua state) owns one; the kernels on
 * a thread draw from the state last given to mf_random_use on it (NULL:
 * the process default, which code without sessions uses). */
typedef struct mf_random_state mf_random_state;
mf_random_state *mf_random_state_new(void); /* NULL when out of memory */
void mf_random_state_free(mf_random_state *st);
void mf_random_use(mf_random_state *st);
void mf_random_state_set_seed(mf_random_state *st, uint64_t seed);

/* Seeds the state in use on this thread. */
void mf_random_set_seed(uint64_t seed);

#endif
