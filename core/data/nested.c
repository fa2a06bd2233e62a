/* nested.c — the datasets made of the datasets a function returns, one per
 * input element: TF's InterleaveDataset and FlatMapDataset. Flat_map is
 * interleave with a cycle of one dataset taken whole, so both share one
 * cursor: cycle_length open inner iterators, block_length elements from
 * each in turn, a finished one replaced by the next input element's, in
 * the order of TF's InterleaveDatasetOp (interleave_dataset_op.cc). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "dataset.h"

typedef struct nest_ds {
  mf_dataset base;
  mf_data_fn fn;
  int64_t cycle_length, block_length;
} nest_ds;

typedef struct nest_it {
  mf_iterator base;
  mf_iterator *in;     /* owned; NULL once the input is exhausted */
  mf_iterator **cycle; /* cycle_length slots, owned, NULL: empty */
  int64_t cycle_index, block_index, open;
} nest_it;

static void nest_drop(mf_dataset *ds) { mf_data_fn_drop(&((nest_ds *)ds)->fn); }

static void nest_it_drop(mf_iterator *it) {
  nest_it *c = (nest_it *)it;
  const nest_ds *d = (const nest_ds *)it->ds;
  mf_iterator_free(c->in);
  for (int64_t i = 0; c->cycle && i < d->cycle_length; i++) mf_iterator_free(c->cycle[i]);
  free(c->cycle);
}

static void next_in_cycle(nest_it *c, const nest_ds *d) {
  c->block_index = 0;
  c->cycle_index = (c->cycle_index + 1) % d->cycle_length;
}

/* The inner dataset must give what the element spec says: the host traced
 * the function, so a mismatch is a graph built by hand. */
static mf_status check_inner(const mf_dataset *outer, const mf_dataset *inner, mf_error *err) {
  bool ok = inner->ncomp == outer->ncomp;
  for (int k = 0; ok && k < outer->ncomp; k++) ok = inner->spec[k].dtype == outer->spec[k].dtype;
  if (ok) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "The dataset the function returned does not match the element spec: %d "
                      "components, %d expected",
                      inner->ncomp, outer->ncomp);
}

/* Pulls the next input element into the current slot (or notes the end
 * of the input). */
static mf_status open_slot(nest_it *c, const nest_ds *d, mf_error *err) {
  mf_tensor *elem[MF_DATA_MAX_COMPONENTS], *made = NULL;
  bool end;
  MF_TRY(mf_iterator_next(c->in, elem, &end, err));
  if (end) {
    mf_iterator_free(c->in);
    c->in = NULL;
    return MF_OK;
  }
  MF_TRY(mf_data_fn_run(&d->fn, c->base.ds->inputs[0]->ncomp, elem, &made, err));
  mf_dataset *inner = mf_dataset_of(made);
  mf_status s = inner ? check_inner(&d->base, inner, err)
                      : mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                                     "The function must return a dataset (a variant scalar)");
  if (s == MF_OK) s = mf_dataset_make_iterator(inner, &c->cycle[c->cycle_index], err);
  if (s == MF_OK) c->open++;
  mf_tensor_release(made);
  return s;
}

static mf_status nest_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  nest_it *c = (nest_it *)it;
  const nest_ds *d = (const nest_ds *)it->ds;
  for (;;) {
    mf_iterator **slot = &c->cycle[c->cycle_index];
    if (*slot) {
      bool done;
      MF_TRY(mf_iterator_next(*slot, out, &done, err));
      if (!done) {
        if (++c->block_index == d->block_length) next_in_cycle(c, d);
        return MF_OK;
      }
      mf_iterator_free(*slot);
      *slot = NULL;
      c->open--;
      next_in_cycle(c, d);
    } else if (c->in) {
      MF_TRY(open_slot(c, d, err));
    } else if (c->open == 0) {
      *end = true;
      return MF_OK;
    } else {
      next_in_cycle(c, d);
    }
  }
}

static const mf_iterator_class nest_it_class = {nest_next, nest_it_drop};

static mf_status nest_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  const nest_ds *d = (const nest_ds *)ds;
  MF_TRY(mf_iterator_alloc(&nest_it_class, sizeof(nest_it), ds, out, err));
  nest_it *c = (nest_it *)*out;
  c->cycle = mf_calloc((size_t)d->cycle_length, sizeof *c->cycle);
  mf_status s = c->cycle ? mf_dataset_make_iterator(ds->inputs[0], &c->in, err)
                         : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

/* TF computes neither: how many each inner dataset gives is known only
 * when it is made. */
static int64_t nest_cardinality(const mf_dataset *ds) {
  (void)ds;
  return MF_CARDINALITY_UNKNOWN;
}

static const mf_dataset_class flat_map_class = {MF_DATASET_VARIANT("FlatMapDatasetOp::Dataset"),
                                                nest_iterator, nest_cardinality, nest_drop};
static const mf_dataset_class interleave_class = {
    MF_DATASET_VARIANT("InterleaveDatasetOp::Dataset"), nest_iterator, nest_cardinality,
    nest_drop};

static mf_status nest_new(const mf_dataset_class *cls, const char *op, mf_dataset *in,
                          const mf_graph *f, int ncap, mf_tensor *const *captured,
                          int64_t cycle_length, int64_t block_length, int ncomp,
                          const mf_spec *spec, mf_dataset **out, mf_error *err) {
  MF_TRY(mf_data_check_fn(op, in, f, ncap, err));
  if (f->noutputs != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: the function must return one dataset, it returns %d values", op,
                        f->noutputs);
  MF_TRY(mf_dataset_alloc(cls, sizeof(nest_ds), ncomp, spec, out, err));
  nest_ds *d = (nest_ds *)*out;
  mf_dataset_add_input(*out, in);
  d->cycle_length = cycle_length;
  d->block_length = block_length;
  return mf_dataset_init_fn(out, &d->fn, f, ncap, captured, err);
}

mf_status mf_dataset_flat_map(mf_dataset *in, const mf_graph *f, int ncap,
                              mf_tensor *const *captured, int ncomp, const mf_spec *spec,
                              mf_dataset **out, mf_error *err) {
  return nest_new(&flat_map_class, "FlatMapDataset", in, f, ncap, captured, 1, 1, ncomp, spec,
                  out, err);
}

int64_t mf_data_cpu_count(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

mf_status mf_dataset_interleave(mf_dataset *in, const mf_graph *f, int ncap,
                                mf_tensor *const *captured, int64_t cycle_length,
                                int64_t block_length, int64_t num_parallel_calls, int ncomp,
                                const mf_spec *spec, mf_dataset **out, mf_error *err) {
  /* TF's defaults for an AUTOTUNE cycle (interleave_test.py's reference
   * implementation spells them out). */
  if (cycle_length == -1) {
    int64_t cpus = mf_data_cpu_count();
    if (num_parallel_calls == 0)
      cycle_length = cpus;
    else if (num_parallel_calls == -1)
      cycle_length = (cpus + 2) / 3;
    else
      cycle_length = num_parallel_calls < cpus ? num_parallel_calls : cpus;
  }
  if (cycle_length <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "cycle_length must be greater than zero.");
  if (block_length <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "block_length must be greater than zero.");
  return nest_new(&interleave_class, "InterleaveDataset", in, f, ncap, captured, cycle_length,
                  block_length, ncomp, spec, out, err);
}
