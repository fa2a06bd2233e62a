/* dataset.h — tf.data's datasets and iterators, as TensorFlow's kernels
 * build them.
 *
 * A dataset is an immutable description of a sequence of elements; each
 * element is a fixed list of components (tensors) whose dtypes and partial
 * shapes are the dataset's element spec. The nesting of components (tuples,
 * dicts) is the host's business: the core sees flat lists. A dataset is a
 * variant object (dtype.h): tensors of dtype MF_VARIANT hold counted
 * references to it, which is how datasets flow through ops (ops_data.c) as
 * TF's do. Sources (sources.c), transformations (transforms.c) and the
 * function-taking ones (functional.c: map, filter) each fill one
 * mf_dataset_class.
 *
 * Iterating never changes a dataset: make_iterator gives a fresh cursor
 * (owned by its caller, not counted) that holds a reference to its
 * dataset. The iterator resource (mf_iterator_resource) is what TF's
 * AnonymousIteratorV3 / MakeIterator / IteratorGetNext share: a variant
 * holding the current cursor.
 *
 * Ownership follows tensor.h: a function returning a dataset returns a new
 * reference (release with mf_dataset_release); arguments are borrowed. */
#ifndef MF_DATASET_H
#define MF_DATASET_H

#include <stdbool.h>
#include <stdint.h>

#include "graph.h"
#include "op.h"

/* TF's tf.data.INFINITE_CARDINALITY and UNKNOWN_CARDINALITY. */
enum { MF_CARDINALITY_INFINITE = -1, MF_CARDINALITY_UNKNOWN = -2 };

/* The most components an element may have. */
#define MF_DATA_MAX_COMPONENTS 64

typedef struct mf_dataset mf_dataset;
typedef struct mf_iterator mf_iterator;

typedef struct mf_dataset_class {
  /* variant.name is TF's DebugString of the kernel's dataset
   * ("RangeDatasetOp::Dataset"), which is how a variant tensor prints. The
   * Python class name (_RangeDataset) belongs to the host, as in TF. */
  mf_variant_type variant;
  mf_status (*make_iterator)(mf_dataset *ds, mf_iterator **out, mf_error *err);
  int64_t (*cardinality)(const mf_dataset *ds);
  void (*drop)(mf_dataset *ds); /* frees what the kind adds; may be NULL */
} mf_dataset_class;

/* The variant free of every dataset class; a class is declared
 * {MF_DATASET_VARIANT("RangeDatasetOp::Dataset"), make_iterator, ...}. */
void mf_dataset_variant_free(void *obj);
#define MF_DATASET_VARIANT(debug_name) {debug_name, mf_dataset_variant_free}

struct mf_dataset {
  mf_variant v; /* v.type is &cls->variant */
  const mf_dataset_class *cls;
  int ncomp;
  mf_spec *spec;          /* ncomp entries, owned */
  mf_dataset *inputs[2];  /* upstream datasets (counted); more go in the kind */
  int ninputs;
  /* Some stage calls back into the host (a generator): such a pipeline
   * may only be iterated on the host's thread. */
  bool host;
  /* Every stage may run on another thread than the host's (a prefetch's
   * producer): sources and transformations without functions, and
   * map/filter functions of pure ops only (no state, randomness, host
   * calls or nested graphs). False whenever host is. */
  bool threadable;
};

typedef struct mf_iterator_class {
  /* Fills out[0..ncomp) with new references, or sets *end (out untouched). */
  mf_status (*next)(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err);
  void (*drop)(mf_iterator *it); /* may be NULL */
} mf_iterator_class;

struct mf_iterator {
  const mf_iterator_class *cls;
  mf_dataset *ds; /* counted */
};

/* A new dataset of `size` bytes (a kind's struct starting with
 * mf_dataset), zeroed, with a copy of the element spec. */
mf_status mf_dataset_alloc(const mf_dataset_class *cls, size_t size, int ncomp,
                           const mf_spec *spec, mf_dataset **out, mf_error *err);
/* Records an upstream dataset (retained). At most two. */
void mf_dataset_add_input(mf_dataset *ds, mf_dataset *in);
void mf_dataset_retain(mf_dataset *ds);
void mf_dataset_release(mf_dataset *ds);
int64_t mf_dataset_cardinality(const mf_dataset *ds);
mf_status mf_dataset_make_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err);

/* Whether a variant object is a dataset; the dataset a variant tensor
 * holds (its one element) or NULL. */
bool mf_variant_is_dataset(const mf_variant *v);
mf_dataset *mf_dataset_of(const mf_tensor *t);
/* A scalar variant tensor holding a new reference to ds. */
mf_status mf_dataset_to_tensor(mf_dataset *ds, mf_tensor **out, mf_error *err);

/* A new cursor of `size` bytes (a kind's struct starting with
 * mf_iterator), zeroed, holding a reference to ds. */
mf_status mf_iterator_alloc(const mf_iterator_class *cls, size_t size, mf_dataset *ds,
                            mf_iterator **out, mf_error *err);
/* Fails with MF_ERR_INTERRUPTED when an interrupt is pending (not on a
 * producer thread: mf_data_mark_producer). */
mf_status mf_iterator_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err);
void mf_data_mark_producer(void);
void mf_iterator_free(mf_iterator *it); /* NULL: nothing */
void mf_release_all(int n, mf_tensor **ts); /* releases and clears n tensors */

/* ---- element helpers ---- */

/* Row i of t (a view of rank t->rank - 1). */
mf_status mf_data_row(const mf_tensor *t, int64_t i, mf_tensor **out, mf_error *err);
/* n tensors of one shape stacked on a new first axis (TF's batch). A
 * shape mismatch is TF's error naming component `comp`. */
mf_status mf_data_stack(int n, mf_tensor *const *ts, int comp, mf_tensor **out, mf_error *err);
/* Does a value fit a spec (dtype equal, shape compatible)? */
bool mf_data_fits(const mf_tensor *t, const mf_spec *s);
/* "[2,3]" as TF's kernels print shapes. */
void mf_data_shape_text(int rank, const int64_t *shape, char *buf, size_t n);

/* ---- the iterator resource and optionals (TF's iterator ops) ---- */

typedef struct mf_iterator_resource {
  mf_variant v;
  int ncomp;
  mf_spec *spec;    /* what it was made for (output_types/output_shapes), owned */
  mf_iterator *it;  /* the current cursor, owned; NULL before MakeIterator */
} mf_iterator_resource;

mf_status mf_iterator_resource_new(int ncomp, const mf_spec *spec, mf_iterator_resource **out,
                                   mf_error *err);
mf_iterator_resource *mf_iterator_resource_of(const mf_tensor *t);
/* Starts a new cursor over ds (MakeIterator): its element spec must be
 * the resource's. */
mf_status mf_iterator_resource_start(mf_iterator_resource *r, mf_dataset *ds, mf_error *err);
/* The next element, or *end. Before MakeIterator: FailedPrecondition. */
mf_status mf_iterator_resource_next(mf_iterator_resource *r, mf_tensor **out, bool *end,
                                    mf_error *err);

/* An optional: a value (n tensors) or none (TF's OptionalVariant). */
typedef struct mf_optional {
  mf_variant v;
  int n;           /* -1: none */
  mf_tensor **values;
} mf_optional;

/* Steals the n references in values (n == -1: none, values NULL). */
mf_status mf_optional_new(int n, mf_tensor **values, mf_optional **out, mf_error *err);
mf_optional *mf_optional_of(const mf_tensor *t);

/* ---- the kinds (sources.c, transforms.c, functional.c) ---- */

/* Components are borrowed (retained): slices along their first axis,
 * which must be equal. */
mf_status mf_dataset_tensor_slice(int n, mf_tensor *const *components, mf_dataset **out,
                                  mf_error *err);
mf_status mf_dataset_tensors(int n, mf_tensor *const *components, mf_dataset **out,
                             mf_error *err);
mf_status mf_dataset_range(int64_t start, int64_t stop, int64_t step, mf_dataset **out,
                           mf_error *err);
mf_status mf_dataset_batch(mf_dataset *in, int64_t batch_size, bool drop_remainder,
                           mf_dataset **out, mf_error *err);
/* padded_shapes: per component a rank (the component's) and dimensions,
 * -1 padding to the longest in the batch. padding_values: per component
 * a scalar of its dtype (borrowed). */
mf_status mf_dataset_padded_batch(mf_dataset *in, int64_t batch_size, const mf_spec *padded_shapes,
                                  mf_tensor *const *padding_values, bool drop_remainder,
                                  mf_dataset **out, mf_error *err);
mf_status mf_dataset_unbatch(mf_dataset *in, mf_dataset **out, mf_error *err);
mf_status mf_dataset_take(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err);
mf_status mf_dataset_skip(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err);
mf_status mf_dataset_repeat(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err);
mf_status mf_dataset_zip(int n, mf_dataset *const *ins, mf_dataset **out, mf_error *err);
mf_status mf_dataset_concatenate(mf_dataset *a, mf_dataset *b, mf_dataset **out, mf_error *err);
/* Seeds as TF's ShuffleDatasetV3: (seed, seed2) pick the order; with
 * reshuffle each new iterator draws another. */
mf_status mf_dataset_shuffle(mf_dataset *in, int64_t buffer_size, int64_t seed, int64_t seed2,
                             bool reshuffle, mf_dataset **out, mf_error *err);
mf_status mf_dataset_cache(mf_dataset *in, mf_dataset **out, mf_error *err);
/* f takes an element's components then the ncap captured tensors
 * (TF's other_arguments) and returns the new element (map) or one
 * boolean scalar (filter). */
mf_status mf_dataset_map(mf_dataset *in, const mf_graph *f, int ncap, mf_tensor *const *captured,
                         mf_dataset **out, mf_error *err);
mf_status mf_dataset_filter(mf_dataset *in, const mf_graph *pred, int ncap,
                            mf_tensor *const *captured, mf_dataset **out, mf_error *err);
/* Whether a function graph may run on a producer thread (see threadable). */
bool mf_data_graph_threadable(const mf_graph *g);

/* A function of elements as a dataset runs it (map, filter, flat_map,
 * interleave): the graph (counted), its captured values (counted) and the
 * lock that keeps its runs one at a time. */
struct graph_lock;
typedef struct mf_data_fn {
  mf_graph *f;
  int ncap;
  mf_tensor **captured;
  struct graph_lock *lock;
} mf_data_fn;
mf_status mf_data_fn_init(mf_data_fn *fn, const mf_graph *f, int ncap, mf_tensor *const *captured,
                          mf_error *err);
/* Runs fn on an element (steals its ncomp references) and the captures. */
mf_status mf_data_fn_run(const mf_data_fn *fn, int ncomp, mf_tensor **elem, mf_tensor **out,
                         mf_error *err);
void mf_data_fn_drop(mf_data_fn *fn); /* zeroed or initialised */
/* Initialises fn, the function of the dataset *ds just made (a field of
 * it), and makes *ds threadable only if the function is. On failure *ds
 * is released and set to NULL. */
mf_status mf_dataset_init_fn(mf_dataset **ds, mf_data_fn *fn, const mf_graph *f, int ncap,
                             mf_tensor *const *captured, mf_error *err);
/* Its graph may run off the host's thread, and so may every dataset it captured. */
bool mf_data_fn_threadable(const mf_data_fn *fn);
/* The function must take the element's components then the captures
 * (op names the dataset op in messages). */
mf_status mf_data_check_fn(const char *op, const mf_dataset *in, const mf_graph *f, int ncap,
                           mf_error *err);

/* nested.c: datasets of the datasets a function returns per element (f
 * returns one variant scalar holding a dataset of element spec
 * ncomp/spec). interleave takes cycle_length of them at once, block_length
 * elements from each in turn, as TF's InterleaveDataset orders them;
 * flat_map is interleave with one at a time. cycle_length -1 (AUTOTUNE)
 * follows from num_parallel_calls (0: not given, -1: AUTOTUNE) and the
 * CPUs as in TF; the elements are computed in order all the same. */
mf_status mf_dataset_flat_map(mf_dataset *in, const mf_graph *f, int ncap,
                              mf_tensor *const *captured, int ncomp, const mf_spec *spec,
                              mf_dataset **out, mf_error *err);
mf_status mf_dataset_interleave(mf_dataset *in, const mf_graph *f, int ncap,
                                mf_tensor *const *captured, int64_t cycle_length,
                                int64_t block_length, int64_t num_parallel_calls, int ncomp,
                                const mf_spec *spec, mf_dataset **out, mf_error *err);
/* The number of CPUs this process may run on (TF's port::MaxParallelism):
 * interleave's cycle_length when it is AUTOTUNE. */
int64_t mf_data_cpu_count(void);

/* window.c: TF's WindowDataset: elements of ncomp variant scalars, each a
 * dataset of one component's values in the window (size elements, stride
 * apart; a window every shift elements). */
mf_status mf_dataset_window(mf_dataset *in, int64_t size, int64_t shift, int64_t stride,
                            bool drop_remainder, mf_dataset **out, mf_error *err);
/* A dataset of the n tensors of items (borrowed, retained), in order, of
 * element spec *spec (one component): a window's. */
mf_status mf_dataset_list(int n, mf_tensor *const *items, const mf_spec *spec, mf_dataset **out,
                          mf_error *err);
/* directed.c: TF's DirectedInterleaveDataset: elements of data[k] for each
 * k the selector (a dataset of int64 scalars) gives; an exhausted input's
 * picks are skipped, or end everything when stop_on_empty. The inputs
 * must have the same dtypes; shapes are the most specific all fit. */
mf_status mf_dataset_directed_interleave(mf_dataset *selector, int n, mf_dataset *const *data,
                                         bool stop_on_empty, mf_dataset **out, mf_error *err);
/* directed.c: TF's RandomDataset: int64 scalars in [0, 2^32) forever,
 * the same stream for each iterator from (seed, seed2), or a new stream
 * for each when rerandomize. moonflow's draws are not TF's. */
mf_status mf_dataset_random(int64_t seed, int64_t seed2, bool rerandomize, mf_dataset **out,
                            mf_error *err);

/* A dataset holding tensors: not threadable (or host) when a tensor holds
 * a dataset that is not (from_tensors of a dataset). */
void mf_data_note_variants(mf_dataset *ds, int n, mf_tensor *const *ts);

/* prefetch.c: up to buffer_size elements computed ahead (buffer_size -1:
 * TF's AUTOTUNE, here MF_PREFETCH_AUTOTUNE_BUFFER, doubled up to
 * MF_PREFETCH_AUTOTUNE_MAX each time the consumer finds the buffer
 * empty). A threadable input is
 * produced by a thread of the iterator's own, which waits while the
 * buffer is full; any other (a host callback upstream) is pulled on the
 * calling thread when asked, as if not prefetched. */
#define MF_PREFETCH_AUTOTUNE_BUFFER 8
#define MF_PREFETCH_AUTOTUNE_MAX 64
mf_status mf_dataset_prefetch(mf_dataset *in, int64_t buffer_size, mf_dataset **out,
                              mf_error *err);
/* Whether an iterator made now over ds would run a producer thread. */
bool mf_dataset_prefetch_threaded(const mf_dataset *ds);

/* text.c: the lines of text files (filenames: a string scalar or
 * vector), and CSV records: n columns typed by their record defaults
 * (scalars, or empty vectors for a required column), select (nselect
 * increasing column indices, 0: all), a header line skipped per file. */
mf_status mf_dataset_text_line(mf_tensor *filenames, mf_dataset **out, mf_error *err);
mf_status mf_dataset_csv(mf_tensor *filenames, int n, mf_tensor *const *defaults, bool header,
                         char delim, bool quotes, const char *na_value, int nselect,
                         const int64_t *select, mf_dataset **out, mf_error *err);

/* text.c: TF's DecodeCSV over a string tensor of records: n columns,
 * out[k] (preallocated, records' shape, defaults[k]'s dtype) filled from
 * the selected fields, a field empty or na_value taking defaults[k]'s one
 * value (an empty default: the field is required). */
typedef struct mf_csv_format {
  char delim;
  bool quotes;
  const char *na_value;  /* NULL: none */
  int nselect;           /* 0: every column */
  const int64_t *select; /* increasing, non-negative */
} mf_csv_format;
mf_status mf_csv_decode(const mf_csv_format *fmt, const mf_tensor *records, int n,
                        mf_tensor *const *defaults, mf_tensor **out, mf_error *err);

/* generator.c: elements from a host callback (TF's GeneratorDataset, what
 * from_generator builds): next(iterator id) returns 1 + ncomp tensors, a
 * boolean scalar (false: the end) then the element; the id is unique per
 * iterator, so the host starts a new generator for each. finish(id), when
 * given, is called when an iterator is freed. */
mf_status mf_dataset_generator(mf_callback *next, mf_callback *finish, int ncomp,
                               const mf_spec *spec, mf_dataset **out, mf_error *err);

#endif
