#include "alloc.h"
#include "tensor.h"

#include "dtype_convert.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "variable.h"

static _Atomic size_t live_bytes, live_buffers;

size_t mf_live_bytes(void) { return atomic_load(&live_bytes); }
size_t mf_live_buffers(void) { return atomic_load(&live_buffers); }

/* The largest tensor worth trying: the machine's physical memory, or
 * $MOONFLOW_MAX_TENSOR_BYTES (a number, K/M/G suffix allowed). Past it an
 * allocation fails at once with ResourceExhaustedError instead of
 * succeeding lazily (Linux overcommits) and then paging for minutes while
 * a kernel fills it. Read once; process-wide, as the machine is. */
static pthread_once_t limit_once = PTHREAD_ONCE_INIT;
static size_t tensor_limit;

/* The memory this process may use, when something limits it: $MEM_LIMIT
 * (what JupyterHub's spawners set from mem_limit) or the cgroup's
 * memory.max, the smaller; 0 when neither does. Tensors past it fail with
 * ResourceExhaustedError, and the session goes on, where the kernel
 * would otherwise be killed by the limit and lose the learner's work. */
static size_t memory_limit;

static void read_limit(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  tensor_limit = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 40;
  memory_limit = mf_parse_bytes(getenv("MEM_LIMIT"));
  size_t cgroup = mf_cgroup_memory_limit("/sys/fs/cgroup", "/proc/self/cgroup");
  if (cgroup && (!memory_limit || cgroup < memory_limit)) memory_limit = cgroup;
  if (memory_limit && memory_limit < tensor_limit) tensor_limit = memory_limit;
  const char *env = getenv("MOONFLOW_MAX_TENSOR_BYTES");
  if (!env || !*env) return;
  char *end;
  double v = strtod(env, &end);
  double scale = *end == 'K' || *end == 'k'   ? 1024.0
                 : *end == 'M' || *end == 'm' ? 1048576.0
                 : *end == 'G' || *end == 'g' ? 1073741824.0
                                              : 1.0;
  if (v > 0 && v * scale < 1.8e19) tensor_limit = (size_t)(v * scale);
}

size_t mf_tensor_byte_limit(void) {
  pthread_once(&limit_once, read_limit);
  return tensor_limit;
}

/* Free lists of the small blocks every eager op makes and drops: tensor
 * structs, buffer headers and the 64-byte data blocks of buffers of up to
 * 64 bytes (scalars, short vectors). Per thread, so taking and giving back
 * needs no lock; a block given back on another thread than the one that
 * took it simply joins that thread's list. A thread's lists are freed
 * when it exits. Under
 * AddressSanitizer there are none, so that a use after free is still
 * caught. */
#ifdef __SANITIZE_ADDRESS__
#define CACHE_MAX 0
#else
#define CACHE_MAX 4096
#endif
#define SMALL_DATA 64

enum { CACHE_TENSOR, CACHE_HEADER, CACHE_DATA, CACHE_SMALL, CACHE_KINDS };
/* A free block holds the link to the next one. */
typedef struct free_block {
  struct free_block *next;
} free_block;

static _Thread_local struct {
  int n[CACHE_KINDS];
  free_block *head[CACHE_KINDS];
} cache;
static _Thread_local bool cache_armed;
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_drain(void *unused) {
  (void)unused;
  cache_armed = false; /* a later destructor giving blocks back re-arms it */
  for (int k = 0; k < CACHE_KINDS; k++) {
    while (cache.head[k]) {
      free_block *f = cache.head[k];
      cache.head[k] = f->next;
      free(f);
    }
    cache.n[k] = 0;
  }
}

static void cache_key_make(void) { (void)pthread_key_create(&cache_key, cache_drain); }

/* A block of kind k: a cached one, else malloc'd; NULL when out of memory
 * (or an injected failure, which cached blocks honour too). */
static void *block_take(int k, size_t n) {
  free_block *f = cache.head[k];
  if (!f) return mf_malloc(n);
  if (mf_alloc_inject()) return NULL;
  cache.head[k] = f->next;
  cache.n[k]--;
  return f;
}

static void block_give(int k, void *p) {
  if (!p) return;
  if (cache.n[k] >= CACHE_MAX) {
    free(p);
    return;
  }
  if (!cache_armed) {
    /* The key's value only has to be non-NULL for its destructor to run. */
    pthread_once(&cache_once, cache_key_make);
    (void)pthread_setspecific(cache_key, &cache);
    cache_armed = true;
  }
  free_block *f = p;
  f->next = cache.head[k];
  cache.head[k] = f;
  cache.n[k]++;
}

/* A tensor of at most SMALL_DATA bytes made whole (mf_tensor_new) lives in
 * one block: its struct, its buffer's header and the data. The struct and
 * the buffer may still end at different times (a view keeps the buffer, a
 * pool keeps either), so the block goes when both parts have. One malloc
 * and one free instead of three each: an eager op on scalars is mostly
 * this. */
enum { PART_TENSOR = 1, PART_BUFFER = 2 };
typedef struct small_block {
  mf_tensor t;
  mf_buffer b;
  unsigned parts;
  _Alignas(16) unsigned char data[SMALL_DATA];
} small_block;

static void part_done(small_block *k, unsigned part) {
  k->parts &= ~part;
  if (!k->parts) block_give(CACHE_SMALL, k);
}

/* Gives back a tensor struct (whatever its buffer does). */
static void tensor_struct_free(mf_tensor *t) {
  if (t->block)
    part_done(t->block, PART_TENSOR);
  else
    block_give(CACHE_TENSOR, t);
}

static void buffer_counted(size_t nbytes) {
  atomic_fetch_add(&live_bytes, nbytes);
  atomic_fetch_add(&live_buffers, 1);
}

/* The data block's size for nbytes: rounded up so SIMD loops may read
 * whole vectors at the tail. */
static size_t data_bytes(size_t nbytes) {
  size_t alloc = (nbytes + 63) & ~(size_t)63;
  return alloc ? alloc : 64;
}

mf_status mf_buffer_new(mf_dtype dt, size_t count, mf_buffer **out, mf_error *err) {
  size_t elem = mf_dtype_size(dt);
  if (count > ((size_t)1 << 60) / elem)
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "cannot allocate a tensor of %zu %s elements", count, mf_dtype_name(dt));
  size_t nbytes = count * elem;
  if (nbytes > mf_tensor_byte_limit())
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating a tensor of %zu bytes (the limit is %zu: the "
                        "machine's memory, $MEM_LIMIT, the cgroup's memory.max, or "
                        "$MOONFLOW_MAX_TENSOR_BYTES)",
                        nbytes, mf_tensor_byte_limit());
  size_t live = atomic_load(&live_bytes);
  if (memory_limit && nbytes > memory_limit - (live < memory_limit ? live : memory_limit))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating a tensor of %zu bytes: %zu bytes of tensors are live "
                        "and the memory limit is %zu ($MEM_LIMIT, or the cgroup's memory.max)",
                        nbytes, live, memory_limit);
  mf_buffer *b = block_take(CACHE_HEADER, sizeof *b);
  void *data = NULL;
  /* Small buffers (scalars, short vectors) take malloc's cheaper path;
   * large ones may be a recently freed block (alloc.h's block cache). */
  size_t alloc = data_bytes(nbytes);
  uint64_t stamp = 0;
  bool ok = b && (alloc == SMALL_DATA ? (data = block_take(CACHE_DATA, SMALL_DATA)) != NULL
                  : alloc <= 256      ? (data = mf_malloc(alloc)) != NULL
                                      : mf_block_take(&data, alloc, &stamp) == 0);
  if (!ok) {
    block_give(CACHE_HEADER, b);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating a tensor of %zu bytes", nbytes);
  }
  if (dt == MF_STRING || dt == MF_RESOURCE || dt == MF_VARIANT) memset(data, 0, alloc);
  b->refcount = 1;
  b->dtype = dt;
  b->count = count;
  b->nbytes = nbytes;
  b->data = data;
  b->block = NULL;
  b->stamp = stamp;
  buffer_counted(nbytes);
  *out = b;
  return MF_OK;
}

/* Counts are atomic: a prefetching dataset's producer thread (core/data/
 * prefetch.c) holds references to tensors the session's thread holds too
 * (a dataset's components, the values a map function captured). */
void mf_buffer_retain(mf_buffer *b) { __atomic_fetch_add(&b->refcount, 1, __ATOMIC_RELAXED); }

void mf_buffer_release(mf_buffer *b) {
  if (!b || __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) > 0) return;
  if (b->dtype == MF_STRING) {
    mf_string *s = b->data;
    for (size_t i = 0; i < b->count; i++) free(s[i].ptr);
  } else if (b->dtype == MF_RESOURCE) {
    mf_variable **v = b->data;
    for (size_t i = 0; i < b->count; i++) mf_variable_release(v[i]);
  } else if (b->dtype == MF_VARIANT) {
    mf_variant **v = b->data;
    for (size_t i = 0; i < b->count; i++) mf_variant_release(v[i]);
  }
  atomic_fetch_sub(&live_bytes, b->nbytes);
  atomic_fetch_sub(&live_buffers, 1);
  if (b->block) {
    part_done(b->block, PART_BUFFER);
    return;
  }
  /* nbytes decides the data block's size (mf_buffer_new), and a pool
   * reusing a buffer keeps its nbytes. */
  if (b->nbytes <= SMALL_DATA)
    block_give(CACHE_DATA, b->data);
  else
    mf_block_give(b->data, data_bytes(b->nbytes), b->stamp);
  block_give(CACHE_HEADER, b);
}

mf_status mf_shape_size(int rank, const int64_t *shape, int64_t *out, mf_error *err) {
  if (rank < 0 || rank > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "rank %d is outside [0, %d]", rank,
                        MF_MAX_RANK);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "dimension %d is negative (%lld)", i,
                          (long long)shape[i]);
    if (shape[i] != 0 && n > INT64_MAX / shape[i])
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                          "shape has more elements than can be addressed");
    n *= shape[i];
  }
  *out = n;
  return MF_OK;
}

/* Fills t (fresh or a pool's spare) as a tensor of one reference and no
 * buffer yet; size is the shape's element count. */
static void tensor_init(mf_tensor *t, mf_dtype dt, int rank, const int64_t *shape, int64_t size) {
  t->refcount = 1;
  t->dtype = dt;
  t->rank = rank;
  memset(t->shape, 0, sizeof t->shape);
  if (rank) memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
  t->size = size;
  t->buf = NULL;
  t->offset = 0;
}

static mf_status tensor_alloc(mf_dtype dt, int rank, const int64_t *shape, mf_tensor **out,
                              mf_error *err) {
  int64_t size;
  MF_TRY(mf_shape_size(rank, shape, &size, err));
  mf_tensor *t = block_take(CACHE_TENSOR, sizeof *t);
  if (!t) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  tensor_init(t, dt, rank, shape, size);
  t->block = NULL;
  *out = t;
  return MF_OK;
}

mf_status mf_tensor_new(mf_dtype dt, int rank, const int64_t *shape, mf_tensor **out,
                        mf_error *err) {
  int64_t size;
  MF_TRY(mf_shape_size(rank, shape, &size, err));
  if ((size_t)size <= SMALL_DATA / mf_dtype_size(dt)) {
    small_block *k = block_take(CACHE_SMALL, sizeof *k);
    if (!k)
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                          "OOM when allocating a tensor of %zu bytes",
                          (size_t)size * mf_dtype_size(dt));
    mf_tensor *t = &k->t;
    mf_buffer *b = &k->b;
    tensor_init(t, dt, rank, shape, size);
    t->block = k;
    t->buf = b;
    b->refcount = 1;
    b->dtype = dt;
    b->count = (size_t)size;
    b->nbytes = (size_t)size * mf_dtype_size(dt);
    b->data = k->data;
    b->block = k;
    b->stamp = 0;
    k->parts = PART_TENSOR | PART_BUFFER;
    if (dt == MF_STRING || dt == MF_RESOURCE || dt == MF_VARIANT) memset(k->data, 0, sizeof k->data);
    buffer_counted(b->nbytes);
    *out = t;
    return MF_OK;
  }
  mf_tensor *t;
  MF_TRY(tensor_alloc(dt, rank, shape, &t, err));
  mf_status s = mf_buffer_new(dt, (size_t)t->size, &t->buf, err);
  if (s != MF_OK) {
    block_give(CACHE_TENSOR, t);
    return s;
  }
  *out = t;
  return MF_OK;
}

mf_status mf_tensor_zeros(mf_dtype dt, int rank, const int64_t *shape, mf_tensor **out,
                          mf_error *err) {
  MF_TRY(mf_tensor_new(dt, rank, shape, out, err));
  memset((*out)->buf->data, 0, (*out)->buf->nbytes);
  return MF_OK;
}

mf_status mf_tensor_view(const mf_tensor *base, int rank, const int64_t *shape, size_t offset,
                         mf_tensor **out, mf_error *err) {
  mf_tensor *t;
  MF_TRY(tensor_alloc(base->dtype, rank, shape, &t, err));
  t->buf = base->buf;
  mf_buffer_retain(t->buf);
  t->offset = base->offset + offset;
  *out = t;
  return MF_OK;
}

mf_status mf_tensor_scalar_f64(mf_dtype dt, double v, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(dt, 0, NULL, out, err));
  mf_tensor_set_f64(*out, 0, v);
  return MF_OK;
}

mf_status mf_tensor_scalar_i64(mf_dtype dt, int64_t v, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(dt, 0, NULL, out, err));
  mf_tensor_set_i64(*out, 0, v);
  return MF_OK;
}

mf_status mf_tensor_scalar_bool(bool v, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(MF_BOOL, 0, NULL, out, err));
  *MF_DATA(*out, bool) = v;
  return MF_OK;
}

mf_status mf_string_set(mf_string *s, const char *p, size_t len, mf_error *err) {
  char *copy = mf_malloc(len + 1);
  if (!copy) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (len) memcpy(copy, p, len);
  copy[len] = '\0';
  free(s->ptr);
  s->ptr = copy;
  s->len = len;
  return MF_OK;
}

mf_status mf_tensor_scalar_string(const char *p, size_t len, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(MF_STRING, 0, NULL, out, err));
  mf_status s = mf_string_set(MF_DATA(*out, mf_string), p, len, err);
  if (s != MF_OK) {
    mf_tensor_release(*out);
    *out = NULL;
  }
  return s;
}

mf_status mf_tensor_copy(const mf_tensor *t, mf_tensor **out, mf_error *err) {
  mf_tensor *c;
  MF_TRY(mf_tensor_new(t->dtype, t->rank, t->shape, &c, err));
  if (t->dtype == MF_STRING) {
    const mf_string *src = mf_tensor_data(t);
    mf_string *dst = mf_tensor_data(c);
    for (int64_t i = 0; i < t->size; i++) {
      mf_status s = mf_string_set(&dst[i], src[i].ptr, src[i].len, err);
      if (s != MF_OK) {
        mf_tensor_release(c);
        return s;
      }
    }
  } else if (t->dtype == MF_RESOURCE) {
    mf_variable *const *src = mf_tensor_data(t);
    mf_variable **dst = mf_tensor_data(c);
    for (int64_t i = 0; i < t->size; i++) {
      dst[i] = src[i];
      if (dst[i]) mf_variable_retain(dst[i]);
    }
  } else if (t->dtype == MF_VARIANT) {
    mf_variant *const *src = mf_tensor_data(t);
    mf_variant **dst = mf_tensor_data(c);
    for (int64_t i = 0; i < t->size; i++) {
      dst[i] = src[i];
      mf_variant_retain(dst[i]);
    }
  } else if (t->size) {
    memcpy(mf_tensor_data(c), mf_tensor_data(t), (size_t)t->size * mf_dtype_size(t->dtype));
  }
  *out = c;
  return MF_OK;
}

void mf_tensor_retain(mf_tensor *t) { __atomic_fetch_add(&t->refcount, 1, __ATOMIC_RELAXED); }

void mf_tensor_release(mf_tensor *t) {
  if (!t || __atomic_sub_fetch(&t->refcount, 1, __ATOMIC_ACQ_REL) > 0) return;
  mf_buffer_release(t->buf);
  tensor_struct_free(t);
}

double mf_tensor_get_f64(const mf_tensor *t, int64_t i) {
  const void *d = mf_tensor_data(t);
  switch (t->dtype) {
    case MF_FLOAT32: return ((const float *)d)[i];
    case MF_FLOAT64: return ((const double *)d)[i];
    case MF_INT32: return ((const int32_t *)d)[i];
    case MF_INT64: return (double)((const int64_t *)d)[i];
    case MF_BOOL: return ((const bool *)d)[i];
    default: return mf_dtype_is_convertible(t->dtype) ? mf_element_f64(d, t->dtype, i) : 0;
  }
}

/* One element of a small or half dtype, through the Cast rules. */
static void set_converted(mf_tensor *t, int64_t i, const void *v, mf_dtype from) {
  if (!mf_dtype_is_convertible(t->dtype)) return;
  char *d = mf_tensor_data(t);
  mf_convert_elements(v, from, d + (size_t)i * mf_dtype_size(t->dtype), t->dtype, 1);
}

int64_t mf_tensor_get_i64(const mf_tensor *t, int64_t i) {
  const void *d = mf_tensor_data(t);
  switch (t->dtype) {
    case MF_FLOAT32: return mf_f64_to_i64(((const float *)d)[i]);
    case MF_FLOAT64: return mf_f64_to_i64(((const double *)d)[i]);
    case MF_INT32: return ((const int32_t *)d)[i];
    case MF_INT64: return ((const int64_t *)d)[i];
    case MF_BOOL: return ((const bool *)d)[i];
    default: {
      if (!mf_dtype_is_convertible(t->dtype)) return 0;
      int64_t v;
      mf_convert_elements((const char *)d + (size_t)i * mf_dtype_size(t->dtype), t->dtype, &v,
                          MF_INT64, 1);
      return v;
    }
  }
}

void mf_tensor_set_f64(mf_tensor *t, int64_t i, double v) {
  void *d = mf_tensor_data(t);
  switch (t->dtype) {
    case MF_FLOAT32: ((float *)d)[i] = (float)v; break;
    case MF_FLOAT64: ((double *)d)[i] = v; break;
    case MF_INT32: ((int32_t *)d)[i] = mf_f64_to_i32(v); break;
    case MF_INT64: ((int64_t *)d)[i] = mf_f64_to_i64(v); break;
    case MF_BOOL: ((bool *)d)[i] = v != 0; break;
    default: set_converted(t, i, &v, MF_FLOAT64); break;
  }
}

void mf_tensor_set_i64(mf_tensor *t, int64_t i, int64_t v) {
  void *d = mf_tensor_data(t);
  switch (t->dtype) {
    case MF_FLOAT32: ((float *)d)[i] = (float)v; break;
    case MF_FLOAT64: ((double *)d)[i] = (double)v; break;
    case MF_INT32: ((int32_t *)d)[i] = (int32_t)v; break;
    case MF_INT64: ((int64_t *)d)[i] = v; break;
    case MF_BOOL: ((bool *)d)[i] = v != 0; break;
    default: set_converted(t, i, &v, MF_INT64); break;
  }
}

bool mf_shape_equal(int ra, const int64_t *a, int rb, const int64_t *b) {
  if (ra != rb) return false;
  for (int i = 0; i < ra; i++)
    if (a[i] != b[i]) return false;
  return true;
}

void mf_shape_format(int rank, const int64_t *shape, char *buf, size_t n) {
  size_t used = 0;
  if (rank < 0) {
    snprintf(buf, n, "<unknown>");
    return;
  }
  used += (size_t)snprintf(buf + used, n - used, "(");
  for (int i = 0; i < rank && used < n; i++) {
    if (shape[i] < 0)
      used += (size_t)snprintf(buf + used, n - used, "%sNone", i ? ", " : "");
    else
      used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
  }
  if (used < n) snprintf(buf + used, n - used, rank == 1 ? ",)" : ")");
}

/* ---- buffer pool ---- */

#define POOL_SLOTS 16
/* Bytes all pools together may keep. Each cached plan keeps its last run's
 * intermediates; without a cap, 5,000 traces of one function (one plan
 * each, tensors growing with the signature) kept hundreds of MB. Past the
 * cap a plan's values are freed, not kept (its calls then allocate). */
#define POOL_BUDGET ((size_t)4 << 20)
static _Atomic size_t pooled_bytes;

struct mf_buffer_pool {
  int n;
  mf_buffer *slots[POOL_SLOTS];
  size_t bytes;
  int lent_from; /* slots[lent_from..n) are lent (still read), or n */
  /* Tensor structs of recycled values, handed out again with the buffers:
   * a plan run in steady state then mallocs nothing for its intermediates. */
  int nspare;
  mf_tensor *spare[POOL_SLOTS];
};

mf_buffer_pool *mf_buffer_pool_new(void) { return mf_calloc(1, sizeof(mf_buffer_pool)); }

void mf_buffer_pool_free(mf_buffer_pool *p) {
  if (!p) return;
  for (int i = 0; i < p->n; i++) mf_buffer_release(p->slots[i]);
  for (int i = 0; i < p->nspare; i++) tensor_struct_free(p->spare[i]);
  atomic_fetch_sub(&pooled_bytes, p->bytes);
  free(p);
}

bool mf_buffer_pool_lend(mf_buffer_pool *p, mf_tensor *t) {
  /* Writing output element i over input element i is only sound when the
   * input is the whole buffer: a view at an offset, or of part of a larger
   * buffer, would be read at other positions than those written. */
  if (!p || t->refcount != 1 || t->buf->refcount != 1 || t->dtype == MF_STRING ||
      t->dtype == MF_RESOURCE || t->dtype == MF_VARIANT || p->n == POOL_SLOTS || t->offset != 0 ||
      t->buf->dtype != t->dtype || (size_t)t->size != t->buf->count)
    return false;
  mf_buffer_retain(t->buf);
  p->slots[p->n++] = t->buf; /* lent buffers sit after the owned ones */
  return true;
}

void mf_buffer_pool_unlend(mf_buffer_pool *p) {
  if (!p) return;
  while (p->n > p->lent_from) mf_buffer_release(p->slots[--p->n]);
  p->lent_from = p->n;
}

/* Counts n more pooled bytes if the budget has room. */
static bool pool_reserve(size_t n) {
  if (atomic_fetch_add(&pooled_bytes, n) + n <= POOL_BUDGET) return true;
  atomic_fetch_sub(&pooled_bytes, n);
  return false;
}

void mf_buffer_pool_recycle(mf_buffer_pool *p, mf_tensor *t) {
  if (!t) return;
  bool keep = p && t->refcount == 1 && t->buf->refcount == 1 && t->dtype != MF_STRING &&
              t->dtype != MF_RESOURCE && t->dtype != MF_VARIANT && t->buf->nbytes >= 64 && p->n < POOL_SLOTS &&
              pool_reserve(t->buf->nbytes);
  if (keep) {
    /* Owned buffers come before lent ones. */
    p->slots[p->n++] = p->slots[p->lent_from];
    p->slots[p->lent_from++] = t->buf;
    p->bytes += t->buf->nbytes;
    t->buf = NULL;
    if (p->nspare < POOL_SLOTS)
      p->spare[p->nspare++] = t;
    else
      tensor_struct_free(t);
    return;
  }
  if (p && t->refcount == 1 && p->nspare < POOL_SLOTS) {
    mf_buffer_release(t->buf);
    t->buf = NULL;
    p->spare[p->nspare++] = t;
    return;
  }
  mf_tensor_release(t);
}

/* A tensor struct for a pooled value: a spare one when p has it. */
static mf_status pool_tensor(mf_buffer_pool *p, mf_dtype dt, int rank, const int64_t *shape,
                             mf_tensor **out, mf_error *err) {
  if (!p || p->nspare == 0) return tensor_alloc(dt, rank, shape, out, err);
  int64_t size;
  MF_TRY(mf_shape_size(rank, shape, &size, err));
  mf_tensor *t = p->spare[--p->nspare];
  tensor_init(t, dt, rank, shape, size);
  *out = t;
  return MF_OK;
}

mf_status mf_tensor_new_pooled(mf_buffer_pool *p, mf_dtype dt, int rank, const int64_t *shape,
                               mf_tensor **out, mf_error *err) {
  if (p && p->n && dt != MF_STRING && dt != MF_RESOURCE && dt != MF_VARIANT) {
    int64_t size;
    MF_TRY(mf_shape_size(rank, shape, &size, err));
    size_t nbytes = (size_t)size * mf_dtype_size(dt);
    for (int i = 0; i < p->n; i++) {
      if (p->slots[i]->nbytes != nbytes) continue;
      bool lent = i >= p->lent_from;
      /* A lent buffer is still being read by the op that takes it: only an
       * output of the input's width (so of its element count too) writes
       * each element where it reads one. */
      if (lent && mf_dtype_size(p->slots[i]->dtype) != mf_dtype_size(dt)) continue;
      mf_tensor *t;
      MF_TRY(pool_tensor(p, dt, rank, shape, &t, err));
      mf_buffer *b = p->slots[i];
      /* Keep lent buffers at the end: fill the hole from its own group. */
      if (lent) {
        p->slots[i] = p->slots[--p->n];
      } else {
        p->lent_from--;
        p->slots[i] = p->slots[p->lent_from];
        p->slots[p->lent_from] = p->slots[--p->n];
        p->bytes -= b->nbytes;
        atomic_fetch_sub(&pooled_bytes, b->nbytes);
      }
      b->dtype = dt;
      b->count = (size_t)size;
      t->buf = b;
      *out = t;
      return MF_OK;
    }
  }
  if (p && p->nspare > 0 && dt != MF_STRING && dt != MF_RESOURCE && dt != MF_VARIANT) {
    mf_tensor *t;
    MF_TRY(pool_tensor(p, dt, rank, shape, &t, err));
    mf_status s = mf_buffer_new(dt, (size_t)t->size, &t->buf, err);
    if (s != MF_OK) {
      p->spare[p->nspare++] = t;
      return s;
    }
    *out = t;
    return MF_OK;
  }
  return mf_tensor_new(dt, rank, shape, out, err);
}
