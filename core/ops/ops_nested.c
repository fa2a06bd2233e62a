/* ops_nested.c — the ops of the datasets whose elements are datasets or
 * come from them (nested.c, window.c, directed.c): FlatMapDataset,
 * InterleaveDataset, WindowDataset, DirectedInterleaveDataset and
 * RandomDataset, as TF names them. A family file of their own beside
 * ops_data.c, sharing its kernel helpers (data_kernel.c): a dataset op
 * builds its dataset and hands it out as a variant scalar. */
#include <stdio.h>
#include <string.h>

#include "array_util.h"
#include "dataset.h"
#include "data_kernel.h"
#include "executor.h"


#define NESTED_OP(NAME, INPUTS, MIN, MAX, INFER, KERNEL, FLAGS, DOC, ...)               \
  const mf_op_def mf_op_##NAME = {                                                       \
      .name = #NAME, .input_names = INPUTS, .min_inputs = MIN, .max_inputs = MAX,        \
      .infer = INFER, .kernel = KERNEL, .flags = MF_OP_NO_GRADIENT | (FLAGS), .doc = DOC, \
      .tf_attrs = "", __VA_ARGS__};

/* ---- the element spec a function's datasets give ---- */



/* The element spec the function's datasets give: required here. */
static mf_status spec_needed(const mf_op_call *c, int *n, mf_spec *spec, mf_error *err) {
  MF_TRY(mf_data_op_spec_attrs(c, n, spec, err));
  if (*n < 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs output_types and output_shapes",
                        c->op->name);
  return MF_OK;
}

/* Inputs: the dataset, the captured values, then `nscalars` int64
 * scalars (interleave's cycle_length and block_length). */
static mf_status nested_infer(mf_op_call *c, int nscalars, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  if (!mf_data_op_fn(c, "f"))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs a function graph 'f'", c->op->name);
  MF_TRY(spec_needed(c, &n, spec, err));
  if (c->nin < 1 + nscalars)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s takes a dataset and %d scalars",
                        c->op->name, nscalars);
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "input_dataset", err));
  if (nscalars) {
    MF_TRY(mf_data_op_need_scalar(c, c->nin - 2, MF_INT64, "cycle_length", err));
    MF_TRY(mf_data_op_need_scalar(c, c->nin - 1, MF_INT64, "block_length", err));
  }
  return mf_data_op_variant_output(c, err);
}

static mf_status flat_map_infer(mf_op_call *c, mf_error *err) { return nested_infer(c, 0, err); }
static mf_status interleave_infer(mf_op_call *c, mf_error *err) { return nested_infer(c, 2, err); }

static mf_status flat_map_kernel(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  mf_dataset *in, *ds = NULL;
  MF_TRY(spec_needed(c, &n, spec, err));
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_flat_map(in, mf_data_op_fn(c, "f"), c->nin - 1, c->in + 1, n, spec, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

static mf_status interleave_kernel(mf_op_call *c, mf_error *err) {
  int n;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  mf_dataset *in, *ds = NULL;
  MF_TRY(spec_needed(c, &n, spec, err));
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_interleave(in, mf_data_op_fn(c, "f"), c->nin - 3, c->in + 1,
                                      mf_data_i64(c, c->nin - 2), mf_data_i64(c, c->nin - 1),
                                      mf_attr_int(c->attrs, "num_parallel_calls", 0), n, spec,
                                      &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

/* Stateful as MapDataset is: the function may have state or side effects. */
NESTED_OP(FlatMapDataset, "input_dataset,other_arguments*", 1, -1, flat_map_infer,
          flat_map_kernel, MF_OP_STATEFUL,
          "A dataset of the elements of the datasets f returns for each element of its input, "
          "one dataset after another.",
          .attrs = {{"f", MF_ATTR_GRAPH},
                    {"output_types", MF_ATTR_TENSOR},
                    {"output_shapes", MF_ATTR_TENSOR}})
NESTED_OP(InterleaveDataset, "input_dataset,other_arguments*,cycle_length,block_length", 3, -1,
          interleave_infer, interleave_kernel, MF_OP_STATEFUL,
          "A dataset of the elements of the datasets f returns for each element of its input, "
          "cycle_length of them at once, block_length elements from each in turn (cycle_length "
          "-1: from num_parallel_calls and the number of CPUs, as TF).",
          .attrs = {{"f", MF_ATTR_GRAPH},
                    {"output_types", MF_ATTR_TENSOR},
                    {"output_shapes", MF_ATTR_TENSOR},
                    {"num_parallel_calls", MF_ATTR_INT}})

/* ---- window ---- */

static mf_status window_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_VARIANT, "input_dataset", err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "size", err));
  MF_TRY(mf_data_op_need_scalar(c, 2, MF_INT64, "shift", err));
  MF_TRY(mf_data_op_need_scalar(c, 3, MF_INT64, "stride", err));
  MF_TRY(mf_data_op_need_scalar(c, 4, MF_BOOL, "drop_remainder", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status window_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *in, *ds = NULL;
  MF_TRY(mf_data_op_input_dataset(c, 0, &in, err));
  mf_status s = mf_dataset_window(in, mf_data_i64(c, 1), mf_data_i64(c, 2), mf_data_i64(c, 3),
                                  mf_tensor_get_i64(c->in[4], 0) != 0, &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

NESTED_OP(WindowDataset, "input_dataset,size,shift,stride,drop_remainder", 5, 5, window_infer,
          window_kernel, 0,
          "A dataset of windows of its input: each element is a dataset per component of size "
          "elements, stride apart, a window every shift elements.")

/* ---- choosing among datasets ---- */

static mf_status directed_infer(mf_op_call *c, mf_error *err) {
  if (c->nin < 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "DirectedInterleaveDataset takes a selector and at least one dataset");
  for (int i = 0; i < c->nin; i++) MF_TRY(mf_data_op_need_scalar(c, i, MF_VARIANT, "input_dataset", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status directed_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *selector, *data[MF_DATA_MAX_COMPONENTS], *ds = NULL;
  if (c->nin - 1 > MF_DATA_MAX_COMPONENTS)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "at most %d datasets", MF_DATA_MAX_COMPONENTS);
  MF_TRY(mf_data_op_input_dataset(c, 0, &selector, err));
  for (int i = 1; i < c->nin; i++) MF_TRY(mf_data_op_input_dataset(c, i, &data[i - 1], err));
  mf_status s = mf_dataset_directed_interleave(
      selector, c->nin - 1, data, mf_attr_bool(c->attrs, "stop_on_empty_dataset", false), &ds, err);
  return mf_data_op_output(c, s, ds, err);
}

NESTED_OP(DirectedInterleaveDataset, "selector_input_dataset,data_input_datasets*", 2, -1,
          directed_infer, directed_kernel, 0,
          "A dataset of elements of its data inputs, each from the input its selector (int64 "
          "scalars) names next.",
          .attrs = {{"stop_on_empty_dataset", MF_ATTR_BOOL}})

static mf_status random_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_data_op_need_scalar(c, 0, MF_INT64, "seed", err));
  MF_TRY(mf_data_op_need_scalar(c, 1, MF_INT64, "seed2", err));
  return mf_data_op_variant_output(c, err);
}

static mf_status random_kernel(mf_op_call *c, mf_error *err) {
  mf_dataset *ds = NULL;
  mf_status s = mf_dataset_random(mf_data_i64(c, 0), mf_data_i64(c, 1),
                                  mf_attr_bool(c->attrs, "rerandomize_each_iteration", false), &ds,
                                  err);
  return mf_data_op_output(c, s, ds, err);
}

/* Stateful as ShuffleDataset: its iterators may each draw another stream. */
NESTED_OP(RandomDataset, "seed,seed2", 2, 2, random_infer, random_kernel, MF_OP_STATEFUL,
          "An endless dataset of seeded random int64 scalars in [0, 2^32).",
          .attrs = {{"rerandomize_each_iteration", MF_ATTR_BOOL}})
