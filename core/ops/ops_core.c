/* ops_core.c — graph plumbing (Const, Placeholder, Identity), variable
 * state (ReadVariableOp, Assign*VariableOp) and host interaction (PrintV2,
 * EagerLuaFunc, Timestamp). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "alloc.h"
#include "dtype_convert.h"
#include "dtype_widen.h"
#include "array_util.h"
#include "elementwise.h"
#include "op.h"
#include "shape_fn.h"
#include "variable.h"

/* ---- Const ---- */

static mf_status const_infer(mf_op_call *c, mf_error *err) {
  const mf_attr *v = mf_attrs_find(c->attrs, "value");
  if (!v || v->kind != MF_ATTR_TENSOR)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Const needs a 'value' tensor attribute");
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec_of_tensor(v->u.tensor, &c->out_specs[0]);
  mf_tensor_retain(v->u.tensor);
  c->out_values[0] = v->u.tensor;
  return MF_OK;
}

static mf_status const_kernel(mf_op_call *c, mf_error *err) {
  (void)err;
  mf_tensor *t = mf_attrs_find(c->attrs, "value")->u.tensor;
  mf_tensor_retain(t);
  c->out[0] = t;
  return MF_OK;
}

const mf_op_def mf_op_Const = {
    .name = "Const", .input_names = "", .min_inputs = 0, .max_inputs = 0,
    .attrs = {{"value", MF_ATTR_TENSOR}, {"dtype", MF_ATTR_TYPE}},
    .infer = const_infer, .kernel = const_kernel, .flags = 0,
    .doc = "A constant tensor held in the graph.",
    .tf_attrs = "dtype value",
};

/* ---- Placeholder: a graph input, fed by the executor ---- */

static mf_status placeholder_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *s = &c->out_specs[0];
  s->dtype = mf_attr_type(c->attrs, "dtype", MF_FLOAT32);
  const mf_attr *sh = mf_attrs_find(c->attrs, "shape");
  s->rank = sh ? sh->u.ints.n : -1;
  for (int i = 0; sh && i < sh->u.ints.n; i++) s->shape[i] = sh->u.ints.v[i];
  return MF_OK;
}

static mf_status placeholder_kernel(mf_op_call *c, mf_error *err) {
  (void)c;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "a Placeholder runs only as a graph input that is fed a value");
}

const mf_op_def mf_op_Placeholder = {
    .name = "Placeholder", .input_names = "", .min_inputs = 0, .max_inputs = 0,
    .attrs = {{"dtype", MF_ATTR_TYPE}, {"shape", MF_ATTR_SHAPE}},
    .infer = placeholder_infer, .kernel = placeholder_kernel, .flags = 0,
    .doc = "A graph input: the value is fed when the graph runs.",
    .tf_attrs = "dtype shape",
};

/* ---- Identity, StopGradient, NoOp ---- */

static mf_status identity_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  if (c->in[0]) {
    mf_tensor_retain(c->in[0]);
    c->out_values[0] = c->in[0];
  }
  return MF_OK;
}

static mf_status identity_kernel(mf_op_call *c, mf_error *err) {
  (void)err;
  mf_tensor_retain(c->in[0]);
  c->out[0] = c->in[0];
  return MF_OK;
}

const mf_op_def mf_op_Identity = {
    .name = "Identity", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = identity_infer, .kernel = identity_kernel, .flags = MF_OP_ELEMENTWISE,
    .doc = "Returns its input unchanged.",
    .tf_attrs = "T:0",
};

const mf_op_def mf_op_StopGradient = {
    .name = "StopGradient", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = identity_infer, .kernel = identity_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Returns its input; gradients do not flow through it.",
    .tf_attrs = "T:0",
};

/* IdentityN: what tf.custom_gradient records inside a traced function (TF's
 * graph mode), its outputs, arguments and variables passed through one node
 * whose gradient the tape takes from the Lua function it was given. */
static mf_status identity_n_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, c->nin, err));
  for (int i = 0; i < c->nin; i++) {
    c->out_specs[i] = c->in_specs[i];
    if (c->in[i]) {
      mf_tensor_retain(c->in[i]);
      c->out_values[i] = c->in[i];
    }
  }
  return MF_OK;
}

static mf_status identity_n_kernel(mf_op_call *c, mf_error *err) {
  (void)err;
  for (int i = 0; i < c->nin; i++) {
    mf_tensor_retain(c->in[i]);
    c->out[i] = c->in[i];
  }
  return MF_OK;
}

const mf_op_def mf_op_IdentityN = {
    .name = "IdentityN", .input_names = "input*", .min_inputs = 1, .max_inputs = -1,
    .attrs = {{"_gradient_op_type", MF_ATTR_STRING}},
    .infer = identity_n_infer, .kernel = identity_n_kernel,
    .doc = "Returns its inputs unchanged (one output per input).",
    .tf_attrs = "",
};

static mf_status noop_infer(mf_op_call *c, mf_error *err) { return mf_op_call_set_nout(c, 0, err); }
static mf_status noop_kernel(mf_op_call *c, mf_error *err) {
  (void)c;
  (void)err;
  return MF_OK;
}

const mf_op_def mf_op_NoOp = {
    .name = "NoOp", .input_names = "", .min_inputs = 0, .max_inputs = 0,
    .infer = noop_infer, .kernel = noop_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Does nothing; a target for control dependencies.",
    .tf_attrs = "",
};

/* ---- variables ---- */

extern const mf_op_def mf_op_AssignVariableOp, mf_op_AssignAddVariableOp, mf_op_AssignSubVariableOp,
    mf_op_AddV2, mf_op_Sub;

static mf_status check_resource(mf_op_call *c, mf_error *err) {
  if (c->in_specs[0].dtype != MF_RESOURCE)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s expects a resource handle as input #0, got a %s tensor", c->op->name,
                        mf_dtype_name(c->in_specs[0].dtype));
  return MF_OK;
}

/* The variable behind input 0 when it is known (eager, or captured while
 * tracing), else NULL. */
static mf_variable *known_variable(const mf_op_call *c) {
  if (!c->in[0] || c->in[0]->size != 1) return NULL;
  return *MF_DATA(c->in[0], mf_variable *);
}

static mf_status read_variable_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_resource(c, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *s = &c->out_specs[0];
  mf_variable *v = known_variable(c);
  s->dtype = mf_attr_type(c->attrs, "dtype", v ? v->dtype : MF_FLOAT32);
  s->rank = v ? v->rank : -1;
  if (v) memcpy(s->shape, v->shape, sizeof s->shape);
  return MF_OK;
}

static mf_status read_variable_kernel(mf_op_call *c, mf_error *err) {
  mf_variable *v = known_variable(c);
  if (!v || !v->value)
    return mf_error_set(err, MF_ERR_FAILED_PRECONDITION,
                        "Error while reading resource variable: it has no value");
  c->out[0] = mf_variable_read(v);
  return MF_OK;
}

const mf_op_def mf_op_ReadVariableOp = {
    .name = "ReadVariableOp", .input_names = "resource", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"dtype", MF_ATTR_TYPE}},
    .infer = read_variable_infer, .kernel = read_variable_kernel, .flags = MF_OP_STATEFUL,
    .doc = "Reads the current value of a variable.",
    .tf_attrs = "dtype",
};

static mf_status assign_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_resource(c, err));
  mf_variable *v = known_variable(c);
  /* While a graph is built: TF's CreateAssignShapeFn for the updates (the
   * handle's shape merged with the value's). AssignVariableOp checks only
   * with validate_shape, which Python leaves false (its own check comes
   * first). */
  if (c->building && v && c->op != &mf_op_AssignVariableOp)
    MF_TRY(mf_sf_merge(v->rank, v->shape, c->in_specs[1].rank, c->in_specs[1].shape, err));
  if (v && c->in_specs[1].dtype != v->dtype)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Trying to assign variable with wrong dtype. Expected %s got %s",
                      mf_dtype_kernel_name(v->dtype), mf_dtype_kernel_name(c->in_specs[1].dtype));
  return mf_op_call_set_nout(c, 0, err);
}

/* dst = a (+|-) b elementwise, same dtype and size. Integers wrap, as
 * TF's kernels do: computed in the unsigned type U, since signed overflow
 * is undefined in C. */
static mf_status combine(const mf_tensor *a, const mf_tensor *b, int sign, mf_tensor **out,
                         mf_error *err);

/* The small and half dtypes: a and b widened (dtype_widen.h), combined,
 * and out narrowed back, as their AddV2 and Sub compute. Releases out on
 * failure. */
static mf_status combine_widened(const mf_tensor *a, const mf_tensor *b, int sign, mf_tensor *out,
                                 mf_error *err) {
  mf_dtype wide = mf_dtype_wide(a->dtype);
  mf_tensor *wa = NULL, *wb = NULL, *wz = NULL;
  mf_status st = mf_tensor_new(wide, a->rank, a->shape, &wa, err);
  if (st == MF_OK) st = mf_tensor_new(wide, b->rank, b->shape, &wb, err);
  if (st == MF_OK) {
    mf_convert_elements(mf_tensor_data(a), a->dtype, mf_tensor_data(wa), wide, a->size);
    mf_convert_elements(mf_tensor_data(b), b->dtype, mf_tensor_data(wb), wide, b->size);
    st = combine(wa, wb, sign, &wz, err);
  }
  if (st == MF_OK) {
    mf_convert_elements(mf_tensor_data(wz), wide, mf_tensor_data(out), out->dtype, out->size);
    mf_tensor_release(wz);
  } else {
    mf_tensor_release(out); /* (combine released its own output) */
  }
  mf_tensor_release(wa);
  mf_tensor_release(wb);
  return st;
}

static mf_status combine(const mf_tensor *a, const mf_tensor *b, int sign, mf_tensor **out,
                         mf_error *err) {
  MF_TRY(mf_tensor_new(a->dtype, a->rank, a->shape, out, err));
  int64_t n = a->size;
  /* Floats through AddV2's and Sub's vectorised block functions (the
   * same IEEE sum or difference per element): a scalar loop here cost a
   * training step as much as its GEMMs' setup. */
  const void *in[2] = {mf_tensor_data(a), mf_tensor_data(b)};
  const int64_t strides[2] = {1, 1};
  bool floating = a->dtype == MF_FLOAT32 || a->dtype == MF_FLOAT64;
  if (floating && mf_elementwise_block(sign > 0 ? &mf_op_AddV2 : &mf_op_Sub, a->dtype, 2, in, strides,
                           mf_tensor_data(*out), n, NULL))
    return MF_OK;
  switch (a->dtype) {
#define CASE(DT, T, U)                                                                  \
  case DT: {                                                                            \
    const T *x = mf_tensor_data(a), *y = mf_tensor_data(b);                             \
    T *z = mf_tensor_data(*out);                                                        \
    for (int64_t i = 0; i < n; i++)                                                     \
      z[i] = sign > 0 ? (T)((U)x[i] + (U)y[i]) : (T)((U)x[i] - (U)y[i]);                \
    break;                                                                              \
  }
    CASE(MF_FLOAT32, float, float)
    CASE(MF_FLOAT64, double, double)
    CASE(MF_INT32, int32_t, uint32_t)
    CASE(MF_INT64, int64_t, uint64_t)
#undef CASE
    default:
      if (mf_dtype_wide(a->dtype) != a->dtype) return combine_widened(a, b, sign, *out, err);
      mf_tensor_release(*out);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "cannot add to a %s variable",
                          mf_dtype_name(a->dtype));
  }
  return MF_OK;
}

/* True when nothing but the variable can see its value: the variable holds
 * the only reference to a tensor that is its whole buffer, and no other
 * tensor shares the buffer. Such a value may be updated in place; one a
 * live read still sees is replaced instead, leaving the read as it was. */
static bool value_unshared(const mf_variable *v) {
  const mf_tensor *t = v->value;
  return t->refcount == 1 && t->buf->refcount == 1 && t->offset == 0 &&
         t->buf->dtype == t->dtype && (size_t)t->size == t->buf->count;
}

static mf_status assign_kernel(mf_op_call *c, mf_error *err) {
  mf_variable *v = known_variable(c);
  if (!v) return mf_error_set(err, MF_ERR_FAILED_PRECONDITION, "assignment to a missing variable");
  const mf_tensor *x = c->in[1];
  int sign = c->op == &mf_op_AssignAddVariableOp ? 1 : c->op == &mf_op_AssignSubVariableOp ? -1 : 0;
  /* A planned graph node skips inference: the dtype is checked again. */
  if (x->dtype != v->dtype)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Trying to assign variable with wrong dtype. Expected %s got %s",
                      mf_dtype_kernel_name(v->dtype), mf_dtype_kernel_name(x->dtype));
  if (sign == 0) {
    if (!mf_variable_accepts_shape(v, x->rank, x->shape))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                        mf_shape_text_of(v->rank, v->shape).s, mf_shape_text_of(x->rank, x->shape).s);
    return mf_variable_assign(v, c->in[1], err);
  }
  /* An update is against the current value, whose shape may differ from
   * the declared one when that is relaxed. */
  if (!mf_shape_equal(x->rank, x->shape, v->value->rank, v->value->shape))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Cannot update variable with shape %s using a Tensor with shape %s, shapes "
                      "must be equal.",
                      mf_shape_text_of(v->value->rank, v->value->shape).s,
                      mf_shape_text_of(x->rank, x->shape).s);
  /* A training step's update: no new buffer, one pass over the weights. */
  if (value_unshared(v) && mf_elementwise_accumulate(v->dtype, sign, mf_tensor_data(v->value),
                                                     mf_tensor_data(x), v->value->size))
    return MF_OK;
  mf_tensor *sum;
  MF_TRY(combine(v->value, x, sign, &sum, err));
  mf_status s = mf_variable_assign(v, sum, err);
  mf_tensor_release(sum);
  return s;
}

#define ASSIGN_OP(NAME, TF_ATTRS, DOC)                                                  \
  const mf_op_def mf_op_##NAME = {                                                      \
      .name = #NAME, .input_names = "resource,value", .min_inputs = 2, .max_inputs = 2, \
      .attrs = {{"dtype", MF_ATTR_TYPE}},                                               \
      .infer = assign_infer, .kernel = assign_kernel,                                   \
      .flags = MF_OP_STATEFUL | MF_OP_NO_GRADIENT | MF_OP_CHANGES_ON_REPLAY,             \
      .doc = DOC, .tf_attrs = TF_ATTRS,                                                 \
  };
ASSIGN_OP(AssignVariableOp, "dtype validate_shape=false", "Stores a new value in a variable.")
ASSIGN_OP(AssignAddVariableOp, "dtype", "Adds a value to a variable in place.")
ASSIGN_OP(AssignSubVariableOp, "dtype", "Subtracts a value from a variable in place.")

/* ---- Timestamp ---- */

static mf_status timestamp_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_FLOAT64, .rank = 0};
  return MF_OK;
}

static mf_status timestamp_kernel(mf_op_call *c, mf_error *err) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return mf_tensor_scalar_f64(MF_FLOAT64, (double)tv.tv_sec + tv.tv_usec / 1e6, &c->out[0], err);
}

const mf_op_def mf_op_Timestamp = {
    .name = "Timestamp", .input_names = "", .min_inputs = 0, .max_inputs = 0,
    .infer = timestamp_infer, .kernel = timestamp_kernel,
    .flags = MF_OP_STATEFUL | MF_OP_NO_GRADIENT | MF_OP_CHANGES_ON_REPLAY,
    .doc = "Wall-clock time in seconds since the epoch, as a float64 scalar.",
    .tf_attrs = "",
};

/* ---- PrintV2: writes a string scalar to a stream or a host callback ---- */

static mf_status print_infer(mf_op_call *c, mf_error *err) {
  if (c->in_specs[0].dtype != MF_STRING || c->in_specs[0].rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "PrintV2 expects a string scalar");
  return mf_op_call_set_nout(c, 0, err);
}

static mf_status print_kernel(mf_op_call *c, mf_error *err) {
  const mf_string *s = MF_DATA(c->in[0], mf_string);
  const char *end = mf_attr_string(c->attrs, "end", "\n");
  const mf_attr *cb = mf_attrs_find(c->attrs, "output_callback");
  if (cb) {
    /* The callback gets the text and its end as one string scalar. */
    size_t elen = strlen(end);
    char *joined = mf_malloc(s->len + elen + 1);
    if (!joined) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    memcpy(joined, s->ptr, s->len);
    memcpy(joined + s->len, end, elen);
    mf_tensor *text;
    mf_status st = mf_tensor_scalar_string(joined, s->len + elen, &text, err);
    free(joined);
    if (st != MF_OK) return st;
    st = cb->u.cb->fn(cb->u.cb->ud, 1, &text, 0, NULL, err);
    mf_tensor_release(text);
    return st;
  }
  FILE *f = strcmp(mf_attr_string(c->attrs, "output_stream", "stderr"), "stdout") == 0 ? stdout
                                                                                      : stderr;
  fwrite(s->ptr, 1, s->len, f);
  fputs(end, f);
  fflush(f);
  return MF_OK;
}

const mf_op_def mf_op_PrintV2 = {
    .name = "PrintV2", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"output_stream", MF_ATTR_STRING}, {"end", MF_ATTR_STRING},
              {"output_callback", MF_ATTR_CALLBACK}},
    .infer = print_infer, .kernel = print_kernel,
    .flags = MF_OP_SIDE_EFFECTS | MF_OP_NO_GRADIENT | MF_OP_CHANGES_ON_REPLAY,
    .doc = "Prints a string every time it runs.",
    .tf_attrs = "end=\"\\n\" output_stream=\"stderr\"",
};

/* ---- Assert: fails the run when its condition is false ---- */
/* TF checks some things only at run time (AutoGraph: a variable a graph
 * loop creates is undefined when the loop runs zero times); a graph needs
 * an op whose failure is the check, kept alive by its side-effect flag. */

static mf_status assert_infer(mf_op_call *c, mf_error *err) {
  if (c->in_specs[0].dtype != MF_BOOL || c->in_specs[0].rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Assert expects a bool scalar condition");
  return mf_op_call_set_nout(c, 0, err);
}

static mf_status assert_kernel(mf_op_call *c, mf_error *err) {
  if (*MF_DATA(c->in[0], bool)) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s",
                      mf_attr_string(c->attrs, "message", "assertion failed"));
}

const mf_op_def mf_op_Assert = {
    .name = "Assert", .input_names = "condition", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"message", MF_ATTR_STRING}},
    .infer = assert_infer, .kernel = assert_kernel,
    .flags = MF_OP_SIDE_EFFECTS | MF_OP_NO_GRADIENT,
    .doc = "Fails with InvalidArgumentError carrying its message when the condition is false.",
    .tf_attrs = "summarize=3",
};

/* ---- EagerLuaFunc: calls back into the host language at run time ---- */

static mf_status host_func_infer(mf_op_call *c, mf_error *err) {
  const mf_attr *tout = mf_attrs_find(c->attrs, "Tout");
  const mf_attr *cb = mf_attrs_find(c->attrs, "func");
  if (!cb || cb->kind != MF_ATTR_CALLBACK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "EagerLuaFunc needs a 'func' attribute");
  int n = tout ? tout->u.ints.n : 0;
  MF_TRY(mf_op_call_set_nout(c, n, err));
  for (int i = 0; i < n; i++)
    c->out_specs[i] = (mf_spec){.dtype = (mf_dtype)tout->u.ints.v[i], .rank = -1};
  return MF_OK;
}

static mf_status host_func_kernel(mf_op_call *c, mf_error *err) {
  mf_callback *cb = mf_attrs_find(c->attrs, "func")->u.cb;
  MF_TRY(cb->fn(cb->ud, c->nin, (mf_tensor **)c->in, c->nout, c->out, err));
  for (int i = 0; i < c->nout; i++) {
    if (!c->out[i] || c->out[i]->dtype != c->out_specs[i].dtype)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "lua_function returned %s for output %d, expected a %s tensor",
                          c->out[i] ? mf_dtype_name(c->out[i]->dtype) : "nothing", i,
                          mf_dtype_name(c->out_specs[i].dtype));
  }
  return MF_OK;
}

const mf_op_def mf_op_EagerLuaFunc = {
    .name = "EagerLuaFunc", .input_names = "input*", .min_inputs = 0, .max_inputs = -1,
    .attrs = {{"func", MF_ATTR_CALLBACK}, {"Tout", MF_ATTR_INTS}},
    .infer = host_func_infer, .kernel = host_func_kernel,
    .flags = MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_CHANGES_ON_REPLAY,
    .doc = "Calls a Lua function each time the graph runs (TF's py_function).",
    .tf_attrs = "",
};
