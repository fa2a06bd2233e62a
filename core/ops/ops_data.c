/* ops_data.c — tf.data's ops (core/data/ holds the datasets): the ops that
 * make datasets (TensorSliceDataset, RangeDataset, BatchDatasetV2,
 * MapDataset, ...), each returning a scalar variant holding the new
 * dataset, and the ops that iterate them (AnonymousIteratorV3,
 * MakeIterator, IteratorGetNext, ...), as TF names them, so eager calls,
 * traces and the executor share the one op-call path. A dataset op's
 * kernel only builds the dataset; elements are computed when an iterator
 * asks. TF's iterator is a resource; moonflow's is a variant holding the
 * iterator resource (what it points at is the same: a cursor that
 * IteratorGetNext moves). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "dataset.h"
#include "data_kernel.h"
#include "executor.h"

extern const mf_op_def mf_op_FilterDataset;


static bool scalar_bool(const mf_op_call *c, int i) { return mf_tensor_get_i64(c->in[i], 0) != 0; }

/* Inputs [from, to) must be datasets (scalar variants). */
static mf_status datasets_in(mf_op_call *c, int from, int to, mf_error *err) {
  for (int i = from; i < to; i++) MF_TRY(mf_data_op_need_scalar(c, i, MF_VARIANT, "input_dataset", err));
  return MF_OK;
}

#define DATASET_OP(NAME, INPUTS, MIN, MAX, INFER, KERNEL, FLAGS, DOC, ...)               \
  const mf_op_def mf_op_##NAME = {                                                       \
      .name = #NAME, .input_names = INPUTS, .min_inputs = MIN, .max_inputs = MAX,        \
      .infer = INFER, .kernel = KERNEL, .flags = MF_OP_NO_GRADIENT | (FLAGS), .doc = DOC, \
      .tf_attrs = "", __VA_ARGS__};

/* ---- sources ---- */

static mf_status components_infer(mf_op_call *c, mf_error *err) {
  if (c->nin > MF_DATA_MAX_COMPONENTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s takes at most %d components, got %d",
                        c->op->name, MF_DATA_MAX_COMPONENTS, c->nin);
  return mf_data_op_variant_output(c, err);
}

static mf_status tensor_slice_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_tensor_slice(c->nin, c->in, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

static mf_status tensor_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_tensors(c->nin, c->in, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(TensorSliceDataset, "components*", 1, -1, components_infer, tensor_slice_kernel, 0,
           "A dataset of the slices of its components along their first dimension.")
DATASET_OP(TensorDataset, "components*", 1, -1, components_infer, tensor_kernel, 0,
           "A dataset of one element: its components.")

static mf_status range_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_INT64, "start", err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "stop", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_INT64, "step", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status range_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_range(mf_data_i64(c, 0), mf_data_i64(c, 1), mf_data_i64(c, 2), &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(RangeDataset, "start,stop,step", 3, 3, range_infer, range_kernel, 0,
           "A dataset of the int64 numbers from start up to (not including) stop by step.")

/* ---- batching ---- */

static mf_status batch_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "batch_size", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_BOOL, "drop_remainder", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status batch_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_batch(in, mf_data_i64(c, 1), scalar_bool(c, 2), &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(BatchDatasetV2, "input_dataset,batch_size,drop_remainder", 3, 3, batch_infer,
           batch_kernel, 0,
           "A dataset of batches: batch_size consecutive elements stacked on a new first axis.",
           .attrs = {{"parallel_copy", MF_ATTR_BOOL}})

/* Inputs: the dataset, batch_size, N padded shapes (int64 vectors, -1
 * for the longest in the batch), N padding values, drop_remainder. */
static mf_status padded_batch_infer(mf_op_call *c, mf_error *err) {
  int n = (c->nin - 3) / 2;
  if (c->nin < 5 || (c->nin - 3) % 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "PaddedBatchDatasetV2 takes a dataset, batch_size, N padded shapes, N "
                        "padding values and drop_remainder");
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "batch_size", err));
  for (int i = 0; i < n; i++) {
    MF_TRY(mf_data_op_need_dtype(c, 2 + i, MF_INT64, "padded_shapes", err));
    if (c->in_specs[2 + n + i].rank > 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "padding_values[%d] must be a scalar", i);
  }
  MF_TRY(mf_data_op_need_scalar(c, c->nin - 1, MF_BOOL, "drop_remainder", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status padded_batch_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  int n = (c->nin - 3) / 2;
  if (n != in->ncomp)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Number of padded shapes (%d) must match the number of components in the "
                      "input dataset's elements (%d)",
                      n, in->ncomp);
  mf_spec shapes[MF_DATA_MAX_COMPONENTS];
  for (int k = 0; k < n; k++) {
    const mf_tensor *p = c->in[2 + k];
    if (p->rank != 1 || p->size > MF_MAX_RANK)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "padded_shapes[%d] must be a vector", k);
    shapes[k].dtype = in->spec[k].dtype;
    shapes[k].rank = (int)p->size;
    for (int d = 0; d < shapes[k].rank; d++) shapes[k].shape[d] = mf_tensor_get_i64(p, d);
  }
  mf_status s = mf_dataset_padded_batch(in, mf_data_i64(c, 1), shapes, c->in + 2 + n,
                                        scalar_bool(c, c->nin - 1), &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(PaddedBatchDatasetV2,
           "input_dataset,batch_size,padded_shapes*,padding_values,drop_remainder", 5, -1,
           padded_batch_infer, padded_batch_kernel, 0,
           "A dataset of batches whose elements are padded to a common shape with padding_values.",
           .attrs = {{"parallel_copy", MF_ATTR_BOOL}})

static mf_status one_dataset_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  return mf_data_op_variant_output(c, err);
}

static mf_status unbatch_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_unbatch(in, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(UnbatchDataset, "input_dataset", 1, 1, one_dataset_infer, unbatch_kernel, 0,
           "A dataset of the rows of each element's components (the inverse of batch).")

/* ---- counts ---- */

static mf_status count_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "count", err));
  return mf_data_op_variant_output(c, err);
}

#define COUNT_KERNEL(NAME, FN)                                           \
  static mf_status NAME(mf_op_call *c, mf_error *err) {                  \
    mf_dataset *in, *ds = NULL;                                          \
    MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));                               \
    mf_status s = FN(in, mf_data_i64(c, 1), &ds, err);                    \
    return mf_data_op_output(c, s, ds, err);                                \
  }
COUNT_KERNEL(take_kernel, mf_dataset_take)
COUNT_KERNEL(skip_kernel, mf_dataset_skip)
COUNT_KERNEL(repeat_kernel, mf_dataset_repeat)

DATASET_OP(TakeDataset, "input_dataset,count", 2, 2, count_infer, take_kernel, 0,
           "A dataset of at most count elements of its input (count -1: all).")
DATASET_OP(SkipDataset, "input_dataset,count", 2, 2, count_infer, skip_kernel, 0,
           "A dataset of its input's elements after the first count (count -1: none).")
DATASET_OP(RepeatDataset, "input_dataset,count", 2, 2, count_infer, repeat_kernel, 0,
           "A dataset of its input repeated count times (count -1: forever).")

/* ---- combining ---- */

static mf_status zip_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, c->nin, err));
  return mf_data_op_variant_output(c, err);
}

static mf_status zip_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ins[MF_DATA_MAX_COMPONENTS], *ds = NULL;
  if (c->nin > MF_DATA_MAX_COMPONENTS)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "at most %d datasets", MF_DATA_MAX_COMPONENTS);
  for (int i = 0; i < c->nin; i++) MF_TRY(mf_data_op_input_dataset(c, i, &ins[i], err));
  mf_status s = mf_dataset_zip(c->nin, ins, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

static mf_status concatenate_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *a, *b, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &a, err));
  MF_TRY(mf_data_op_input_dataset(c, 1, &b, err));
  mf_status s = mf_dataset_concatenate(a, b, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(ZipDataset, "input_datasets*", 1, -1, zip_infer, zip_kernel, 0,
           "A dataset of the elements of its inputs side by side, as long as the shortest.")
DATASET_OP(ConcatenateDataset, "input_dataset,another_dataset", 2, 2, zip_infer,
           concatenate_kernel, 0, "A dataset of its first input's elements, then its second's.")

/* ---- order and memory ---- */

static mf_status shuffle_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "buffer_size", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_INT64, "seed", err));
  MF_TRY(mf_data_op_need_scalar(c, 3, MF_INT64, "seed2", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status shuffle_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_shuffle(in, mf_data_i64(c, 1), mf_data_i64(c, 2), mf_data_i64(c, 3),
                                   mf_attr_bool(c->attrs, "reshuffle_each_iteration", true), &ds,
                                   err);
  return mf_data_op_output(c, s, ds, err);
}

/* Stateful: each iterator it gives draws a new order. */
DATASET_OP(ShuffleDataset, "input_dataset,buffer_size,seed,seed2", 4, 4, shuffle_infer,
           shuffle_kernel, MF_OP_STATEFUL,
           "A dataset of its input's elements in a random order, drawn from a buffer of "
           "buffer_size elements.",
           .attrs = {{"reshuffle_each_iteration", MF_ATTR_BOOL}})

static mf_status cache_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_STRING, "filename", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status cache_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  const mf_string *name = mf_tensor_data(c->in[1]);
  if (name->len > 0)
    return mf_op_fail(c, err, MF_ERR_UNIMPLEMENTED,
                      "moonflow caches datasets in memory only; filename must be \"\"");
  mf_status s = mf_dataset_cache(in, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(CacheDataset, "input_dataset,filename", 2, 2, cache_infer, cache_kernel, 0,
           "A dataset of its input's elements, kept in memory by the first complete pass and "
           "read from there by later ones.")

static mf_status prefetch_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "buffer_size", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status prefetch_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_prefetch(in, mf_data_i64(c, 1), &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(PrefetchDataset, "input_dataset,buffer_size", 2, 2, prefetch_infer, prefetch_kernel, 0,
           "A dataset of its input's elements computed ahead, up to buffer_size (-1: AUTOTUNE), "
           "by a producer thread when every upstream stage can run off the host's thread.")

/* ---- functions ---- */


static mf_status fn_infer(mf_op_call *c, mf_error *err) {
  const char *name = c->op == &mf_op_FilterDataset ? "predicate" : "f";
  if (!mf_data_op_fn(c, name))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs a function graph '%s'", c->op->name, name);
  MF_TRY(datasets_in(c, 0, 1, err));
  return mf_data_op_variant_output(c, err);
}

static mf_status map_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_map(in, mf_data_op_fn(c, "f"), c->nin - 1, c->in + 1, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

static mf_status filter_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_filter(in, mf_data_op_fn(c, "predicate"), c->nin - 1, c->in + 1, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

/* Stateful as calls are: the function may have state or side effects. */
DATASET_OP(MapDataset, "input_dataset,other_arguments*", 1, -1, fn_infer, map_kernel,
           MF_OP_STATEFUL, "A dataset of f applied to each element of its input.",
           .attrs = {{"f", MF_ATTR_GRAPH}, {"use_inter_op_parallelism", MF_ATTR_BOOL},
                     {"preserve_cardinality", MF_ATTR_BOOL}})
DATASET_OP(FilterDataset, "input_dataset,other_arguments*", 1, -1, fn_infer, filter_kernel,
           MF_OP_STATEFUL, "A dataset of the elements of its input for which predicate is true.",
           .attrs = {{"predicate", MF_ATTR_GRAPH}})

/* Inputs: the dataset, the n_state initial state values, the captured
 * values. f takes the state then the element then the captures and
 * returns the new state. */
static mf_status reduce_infer(mf_op_call *c, mf_error *err) {
  const mf_graph *f = mf_data_op_fn(c, "f");
  int64_t nstate = mf_attr_int(c->attrs, "n_state", -1);
  if (!f) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "ReduceDataset needs a function graph 'f'");
  if (nstate < 0 || nstate > c->nin - 1 || f->noutputs != nstate)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "ReduceDataset: n_state (%lld) initial values, the function returns %d",
                        (long long)nstate, f->noutputs);
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_op_call_set_nout(c, (int)nstate, err));
  for (int i = 0; i < nstate; i++) {
    mf_tensor_ref r = f->outputs[i];
    const mf_spec *o = &f->nodes[r.node].out_specs[r.index];
    if (o->dtype != c->in_specs[1 + i].dtype)
      return mf_error_set(err, MF_ERR_TYPE,
                          "The element types for the new state must match the initial state. "
                          "Expected %s; got %s.",
                          mf_dtype_name(c->in_specs[1 + i].dtype), mf_dtype_name(o->dtype));
    c->out_specs[i] = *o;
  }
  return MF_OK;
}

static mf_status reduce_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  const mf_graph *f = mf_data_op_fn(c, "f");
  int nstate = c->nout, ncomp = in->ncomp, ncap = c->nin - 1 - nstate;
  int nargs = nstate + ncomp + ncap;
  mf_tensor **args = calloc((size_t)nargs + 1, sizeof *args);
  mf_tensor **state = calloc((size_t)nstate + 1, sizeof *state);
  mf_iterator *it = NULL;
  mf_status s = args && state ? MF_OK : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; s == MF_OK && i < nstate; i++) {
    state[i] = c->in[1 + i];
    mf_tensor_retain(state[i]);
  }
  if (s == MF_OK) s = mf_dataset_make_iterator(in, &it, err);
  bool end = false;
  while (s == MF_OK) {
    s = mf_iterator_next(it, args + nstate, &end, err);
    if (s != MF_OK || end) break;
    memcpy(args, state, (size_t)nstate * sizeof *args);
    memcpy(args + nstate + ncomp, c->in + 1 + nstate, (size_t)ncap * sizeof *args);
    mf_tensor *next[MF_DATA_MAX_COMPONENTS];
    s = mf_graph_run(f, nargs, args, next, err);
    mf_release_all(ncomp, args + nstate);
    if (s == MF_OK) {
      mf_release_all(nstate, state);
      memcpy(state, next, (size_t)nstate * sizeof *state);
    }
  }
  mf_iterator_free(it);
  if (s == MF_OK)
    for (int i = 0; i < nstate; i++) c->out[i] = state[i];
  else if (state)
    mf_release_all(nstate, state);
  free(state);
  free(args);
  return mf_data_op_failed(c, s, err);
}

DATASET_OP(ReduceDataset, "input_dataset,initial_state*,other_arguments", 1, -1, reduce_infer,
           reduce_kernel, MF_OP_STATEFUL,
           "Folds f over a dataset's elements from an initial state; returns the final state.",
           .attrs = {{"f", MF_ATTR_GRAPH}, {"n_state", MF_ATTR_INT}})

static mf_status cardinality_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(datasets_in(c, 0, 1, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_INT64, .rank = 0};
  return MF_OK;
}

static mf_status cardinality_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  return mf_tensor_scalar_i64(MF_INT64, mf_dataset_cardinality(in), &c->out[0], err);
}

DATASET_OP(DatasetCardinality, "input_dataset", 1, 1, cardinality_infer, cardinality_kernel, 0,
           "The number of elements of a dataset: -1 infinite, -2 unknown.")

/* ---- text files ---- */

static mf_status textline_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_dtype(c, 0, MF_STRING, "filenames", err));
  if (c->in_specs[0].rank > 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "`filenames` must be a scalar or a vector.");
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_STRING, "compression_type", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_INT64, "buffer_size", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status no_compression(const mf_op_call *c, int i, mf_error *err) {
  const mf_string *kind = mf_tensor_data(c->in[i]);
  if (kind->len == 0) return MF_OK;
  return mf_op_fail(c, err, MF_ERR_UNIMPLEMENTED, "moonflow reads uncompressed files only, not %s",
                    kind->ptr);
}

static mf_status textline_kernel(mf_op_call *c, mf_error *err) {
  MF_TRY(no_compression(c, 1, err));
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_text_line(c->in[0], &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(TextLineDataset, "filenames,compression_type,buffer_size", 3, 3, textline_infer,
           textline_kernel, 0, "A dataset of the lines of text files, without their line ends.")

/* Inputs as TF's CSVDatasetV2: filenames, compression_type, buffer_size,
 * header, field_delim, use_quote_delim, na_value, select_cols,
 * record_defaults* (one per column), exclude_cols. */
static mf_status csv_infer(mf_op_call *c, mf_error *err) {
  if (c->nin < 10)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "CSVDatasetV2 needs at least one record default");
  MF_TRY(mf_data_op_need_dtype(c, 0, MF_STRING, "filenames", err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_STRING, "compression_type", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_INT64, "buffer_size", err));
  MF_TRY(mf_data_op_need_scalar(c, 3, MF_BOOL, "header", err));
  MF_TRY(mf_data_op_need_scalar(c, 4, MF_STRING, "field_delim", err));
  MF_TRY(mf_data_op_need_scalar(c, 5, MF_BOOL, "use_quote_delim", err));
  MF_TRY(mf_data_op_need_scalar(c, 6, MF_STRING, "na_value", err));
  MF_TRY(mf_data_op_need_dtype(c, 7, MF_INT64, "select_cols", err));
  MF_TRY(mf_data_op_need_dtype(c, c->nin - 1, MF_INT64, "exclude_cols", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status csv_kernel(mf_op_call *c, mf_error *err) {
  MF_TRY(no_compression(c, 1, err));
  const mf_string *delim = mf_tensor_data(c->in[4]);
  if (delim->len != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "field_delim should be only 1 char");
  if (c->in[c->nin - 1]->size > 0)
    return mf_op_fail(c, err, MF_ERR_UNIMPLEMENTED, "exclude_cols is not supported; use select_cols");
  const mf_tensor *sel = c->in[7];
  int nsel = (int)sel->size;
  if (nsel > MF_DATA_MAX_COMPONENTS)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "at most %d columns", MF_DATA_MAX_COMPONENTS);
  int64_t select[MF_DATA_MAX_COMPONENTS];
  for (int i = 0; i < nsel; i++) select[i] = mf_tensor_get_i64(sel, i);
  int n = c->nin - 9;
  if (n > MF_DATA_MAX_COMPONENTS)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "at most %d columns", MF_DATA_MAX_COMPONENTS);
  const mf_string *na = mf_tensor_data(c->in[6]);
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_csv(c->in[0], n, c->in + 8, scalar_bool(c, 3), delim->ptr[0],
                               scalar_bool(c, 5), na->ptr ? na->ptr : "", nsel, select, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

DATASET_OP(CSVDatasetV2,
           "filenames,compression_type,buffer_size,header,field_delim,use_quote_delim,na_value,"
           "select_cols,record_defaults*,exclude_cols",
           10, -1, csv_infer, csv_kernel, 0,
           "A dataset of the records of CSV files, one scalar per column typed by its record "
           "default.")

/* ---- DecodeCSV: TF's tf.io.decode_csv over a string tensor of records ---- */

/* Inputs records, record_defaults...; attrs field_delim, use_quote_delim,
 * na_value, select_cols. One output per default, shaped as records. */
static mf_status decode_csv_check(const mf_op_call *c, mf_csv_format *fmt, int64_t *select,
                                  mf_error *err) {
  const char *delim = mf_attr_string(c->attrs, "field_delim", ",");
  if (strlen(delim) != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "field_delim should be only 1 char");
  const mf_attr *sel = mf_attrs_find(c->attrs, "select_cols");
  int nsel = sel && sel->kind == MF_ATTR_INTS ? sel->u.ints.n : 0;
  for (int i = 0; i < nsel; i++) select[i] = sel->u.ints.v[i];
  for (int i = 1; i < nsel; i++)
    if (select[i - 1] >= select[i])
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "select_cols should be increasing.");
  if (nsel && select[0] < 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "select_cols should be non-negative indices");
  if (nsel && nsel != c->nin - 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "select_cols should match output size");
  const char *na = mf_attr_string(c->attrs, "na_value", "");
  *fmt = (mf_csv_format){.delim = delim[0], .quotes = mf_attr_bool(c->attrs, "use_quote_delim", true),
                         .na_value = *na ? na : NULL, .nselect = nsel, .select = select};
  return MF_OK;
}

static mf_status decode_csv_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_dtype(c, 0, MF_STRING, "records", err));
  mf_csv_format fmt;
  int64_t select[MF_ATTR_MAX_INTS];
  MF_TRY(decode_csv_check(c, &fmt, select, err));
  MF_TRY(mf_op_call_set_nout(c, c->nin - 1, err));
  for (int k = 1; k < c->nin; k++) {
    const mf_spec *d = &c->in_specs[k];
    if (d->rank > 1)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Each record default should be at most rank 1");
    if (d->rank == 1 && d->shape[0] > 1)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "There should only be 1 default per field but field %d has %lld", k - 1,
                        (long long)d->shape[0]);
    if (d->dtype != MF_FLOAT32 && d->dtype != MF_FLOAT64 && d->dtype != MF_INT32 && d->dtype != MF_INT64 &&
        d->dtype != MF_STRING)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'OUT_TYPE' of %s is not in the list of allowed values: float, "
                        "double, int32, int64, string",
                        mf_dtype_kernel_name(d->dtype));
    c->out_specs[k - 1] = c->in_specs[0];
    c->out_specs[k - 1].dtype = d->dtype;
  }
  return MF_OK;
}

static mf_status decode_csv_kernel(mf_op_call *c, mf_error *err) {
  mf_csv_format fmt;
  int64_t select[MF_ATTR_MAX_INTS];
  MF_TRY(decode_csv_check(c, &fmt, select, err));
  int n = c->nin - 1;
  for (int k = 0; k < n; k++) {
    if (c->in[k + 1]->size > 1)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "There should only be 1 default per field but field %d has %lld", k,
                        (long long)c->in[k + 1]->size);
    MF_TRY(mf_op_alloc_output(c, k, &c->out[k], err));
  }
  return mf_data_op_failed(c, mf_csv_decode(&fmt, c->in[0], n, c->in + 1, c->out, err), err);
}

DATASET_OP(DecodeCSV, "records,record_defaults*", 2, -1, decode_csv_infer, decode_csv_kernel, 0,
           "The fields of CSV records (a string tensor), one tensor per column shaped as the "
           "records, typed by its record default.",
           .attrs = {{"field_delim", MF_ATTR_STRING}, {"use_quote_delim", MF_ATTR_BOOL},
                     {"na_value", MF_ATTR_STRING}, {"select_cols", MF_ATTR_INTS}})

/* ---- from_generator ---- */

static const mf_callback *callback_attr(const mf_op_call *c, const char *name) {
  const mf_attr *a = mf_attrs_find(c->attrs, name);
  return a && a->kind == MF_ATTR_CALLBACK ? a->u.cb : NULL;
}


static mf_status generator_infer(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  if (!callback_attr(c, "next_func"))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "GeneratorDataset needs a host callback 'next_func'");
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  if (n < 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "GeneratorDataset needs output_types and output_shapes");
  return mf_data_op_variant_output(c, err);
}

static mf_status generator_kernel(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_generator((mf_callback *)callback_attr(c, "next_func"),
                                     (mf_callback *)callback_attr(c, "finalize_func"), n, spec, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

/* Stateful: its iteration calls the host. */
DATASET_OP(GeneratorDataset, "", 0, 0, generator_infer, generator_kernel, MF_OP_STATEFUL,
           "A dataset whose elements a host callback (a Lua generator) gives, one generator per "
           "iterator.",
           .attrs = {{"next_func", MF_ATTR_CALLBACK}, {"finalize_func", MF_ATTR_CALLBACK},
                     {"output_types", MF_ATTR_TENSOR}, {"output_shapes", MF_ATTR_TENSOR}})

/* ---- iterators ---- */


static mf_status anonymous_iterator_infer(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  if (n < 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs output_types and output_shapes",
                        c->op->name);
  return mf_data_op_variant_output(c, err);
}

static mf_status anonymous_iterator_kernel(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  mf_iterator_resource *r;
  MF_TRY(mf_iterator_resource_new(n, spec, &r, err));
  mf_tensor *t;
  mf_status s = mf_tensor_zeros(MF_VARIANT, 0, NULL, &t, err);
  if (s != MF_OK) {
    mf_variant_release(&r->v);
    return s;
  }
  MF_DATA(t, mf_variant *)[0] = &r->v;
  c->out[0] = t;
  return MF_OK;
}

#define ITERATOR_FLAGS (MF_OP_STATEFUL | MF_OP_CHANGES_ON_REPLAY)

/* Stateful (a new cursor each run), but a second run changes nothing
 * the first made. */
DATASET_OP(AnonymousIteratorV3, "", 0, 0, anonymous_iterator_infer, anonymous_iterator_kernel,
           MF_OP_STATEFUL, "A new iterator for elements of output_types and output_shapes.",
           .attrs = {{"output_types", MF_ATTR_TENSOR}, {"output_shapes", MF_ATTR_TENSOR}})

static mf_status make_iterator_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "dataset", err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_VARIANT, "iterator", err));
  return mf_op_call_set_nout(c, 0, err);
}

static mf_status iterator_input(const mf_op_call *c, int i, mf_iterator_resource **r, mf_error *err) {
  *r = mf_iterator_resource_of(c->in[i]);
  if (!*r) return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "input #%d must hold an iterator", i);
  return MF_OK;
}

static mf_status make_iterator_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ds;
  mf_iterator_resource *r;
  MF_TRY(mf_data_op_input_dataset(c, 0, &ds, err));
  MF_TRY(iterator_input(c, 1, &r, err));
  return mf_data_op_failed(c, mf_iterator_resource_start(r, ds, err), err);
}

DATASET_OP(MakeIterator, "dataset,iterator", 2, 2, make_iterator_infer, make_iterator_kernel,
           ITERATOR_FLAGS, "Starts iterator at the first element of dataset.")

/* The element spec of what an iterator gives: from its attributes while
 * a graph is built, from the iterator itself when it is known. */
static mf_status element_outputs(mf_op_call *c, int ncomp, const mf_spec *spec, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, ncomp, err));
  for (int k = 0; k < ncomp; k++) c->out_specs[k] = spec[k];
  return MF_OK;
}

static mf_status get_next_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "iterator", err));
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  if (n >= 0) return element_outputs(c, n, spec, err);
  mf_iterator_resource *r = c->in[0] ? mf_iterator_resource_of(c->in[0]) : NULL;
  if (!r)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs output_types and output_shapes",
                        c->op->name);
  return element_outputs(c, r->ncomp, r->spec, err);
}

static mf_status get_next_kernel(mf_op_call *c, mf_error *err) {
  mf_iterator_resource *r;
  MF_TRY(iterator_input(c, 0, &r, err));
  bool end;
  mf_status s = mf_iterator_resource_next(r, c->out, &end, err);
  if (s == MF_OK && end) s = mf_error_set(err, MF_ERR_OUT_OF_RANGE, "End of sequence");
  return mf_data_op_failed(c, s, err);
}

DATASET_OP(IteratorGetNext, "iterator", 1, 1, get_next_infer, get_next_kernel, ITERATOR_FLAGS,
           "The next element of an iterator; OutOfRangeError at the end.",
           .attrs = {{"output_types", MF_ATTR_TENSOR}, {"output_shapes", MF_ATTR_TENSOR}})

static mf_status get_next_optional_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "iterator", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status optional_output(mf_op_call *c, int n, mf_tensor **values, mf_error *err) {
  mf_optional *o;
  MF_TRY(mf_optional_new(n, values, &o, err));
  mf_tensor *t;
  mf_status s = mf_tensor_zeros(MF_VARIANT, 0, NULL, &t, err);
  if (s != MF_OK) {
    mf_variant_release(&o->v);
    return s;
  }
  MF_DATA(t, mf_variant *)[0] = &o->v;
  c->out[0] = t;
  return MF_OK;
}

static mf_status get_next_optional_kernel(mf_op_call *c, mf_error *err) {
  mf_iterator_resource *r;
  MF_TRY(iterator_input(c, 0, &r, err));
  mf_tensor *values[MF_DATA_MAX_COMPONENTS];
  bool end;
  MF_TRY(mf_data_op_failed(c, mf_iterator_resource_next(r, values, &end, err), err));
  return optional_output(c, end ? -1 : r->ncomp, end ? NULL : values, err);
}

DATASET_OP(IteratorGetNextAsOptional, "iterator", 1, 1, get_next_optional_infer,
           get_next_optional_kernel, ITERATOR_FLAGS,
           "The next element of an iterator as an optional: none at the end.",
           .attrs = {{"output_types", MF_ATTR_TENSOR}, {"output_shapes", MF_ATTR_TENSOR}})

static mf_status optional_none_infer(mf_op_call *c, mf_error *err) { return mf_data_op_variant_output(c, err); }

static mf_status optional_none_kernel(mf_op_call *c, mf_error *err) {
  return optional_output(c, -1, NULL, err);
}

DATASET_OP(OptionalNone, "", 0, 0, optional_none_infer, optional_none_kernel, 0,
           "An optional with no value.")

static mf_status optional_input(const mf_op_call *c, mf_optional **o, mf_error *err) {
  *o = mf_optional_of(c->in[0]);
  if (!*o) return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "input must hold an optional");
  return MF_OK;
}

static mf_status has_value_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "optional", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_BOOL, .rank = 0};
  return MF_OK;
}

static mf_status has_value_kernel(mf_op_call *c, mf_error *err) {
  mf_optional *o;
  MF_TRY(optional_input(c, &o, err));
  return mf_tensor_scalar_bool(o->n >= 0, &c->out[0], err);
}

DATASET_OP(OptionalHasValue, "optional", 1, 1, has_value_infer, has_value_kernel, 0,
           "Whether an optional has a value.")

static mf_status get_value_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "optional", err));
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_data_op_spec_attrs(c, &n, spec, err));
  if (n >= 0) return element_outputs(c, n, spec, err);
  mf_optional *o = c->in[0] ? mf_optional_of(c->in[0]) : NULL;
  if (!o)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs output_types and output_shapes",
                        c->op->name);
  if (o->n < 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "The optional does not have a value.");
  MF_TRY(mf_op_call_set_nout(c, o->n, err));
  for (int k = 0; k < o->n; k++) mf_spec_of_tensor(o->values[k], &c->out_specs[k]);
  return MF_OK;
}

static mf_status get_value_kernel(mf_op_call *c, mf_error *err) {
  mf_optional *o;
  MF_TRY(optional_input(c, &o, err));
  if (o->n < 0) return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "The optional does not have a value.");
  if (o->n != c->nout)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "The optional holds %d values, %d expected",
                      o->n, c->nout);
  for (int k = 0; k < o->n; k++) {
    mf_tensor_retain(o->values[k]);
    c->out[k] = o->values[k];
  }
  return MF_OK;
}

DATASET_OP(OptionalGetValue, "optional", 1, 1, get_value_infer, get_value_kernel, 0,
           "The value an optional holds; InvalidArgumentError when it has none.",
           .attrs = {{"output_types", MF_ATTR_TENSOR}, {"output_shapes", MF_ATTR_TENSOR}})
