#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "op.h"
#include "dtype_widen.h"
#include "partial.h"

#define MF_OP(name) extern const mf_op_def mf_op_##name;
#include "ops.def"
#undef MF_OP

#define MF_OP(name) &mf_op_##name,
static const mf_op_def *const registry[] = {
#include "ops.def"
};
#undef MF_OP

_Static_assert(sizeof registry / sizeof registry[0] == MF_OP_COUNT,
               "the registry is ops.def's list, as MF_OP_COUNT (op.h) counts it");

int mf_op_count(void) { return MF_OP_COUNT; }
const mf_op_def *mf_op_at(int i) { return i >= 0 && i < MF_OP_COUNT ? registry[i] : NULL; }

const mf_op_def *mf_op_lookup(const char *name) {
  for (int i = 0; i < MF_OP_COUNT; i++)
    if (strcmp(registry[i]->name, name) == 0) return registry[i];
  return NULL;
}

void mf_spec_of_tensor(const mf_tensor *t, mf_spec *out) {
  out->dtype = t->dtype;
  out->rank = t->rank;
  memcpy(out->shape, t->shape, sizeof out->shape);
}

bool mf_spec_is_static(const mf_spec *s) {
  if (s->rank < 0) return false;
  for (int i = 0; i < s->rank; i++)
    if (s->shape[i] < 0) return false;
  return true;
}

bool mf_spec_fits(const mf_spec *have, const mf_spec *want, mf_fit mode) {
  if (have->dtype != want->dtype) return false;
  if (want->rank < 0 || have->rank < 0)
    return mode == MF_FIT_COMPATIBLE || (mode == MF_FIT_SUBTYPE && want->rank < 0) ||
           want->rank == have->rank;
  if (have->rank != want->rank) return false;
  for (int i = 0; i < want->rank; i++) {
    int64_t h = have->shape[i], w = want->shape[i];
    bool ok = mode == MF_FIT_EXACT      ? h == w || (h < 0 && w < 0)
              : mode == MF_FIT_SUBTYPE ? w < 0 || h == w
                                        : w < 0 || h < 0 || h == w;
    if (!ok) return false;
  }
  return true;
}

bool mf_tensor_fits(const mf_tensor *t, const mf_spec *want, mf_fit mode) {
  if (t->dtype != want->dtype) return false;
  if (want->rank < 0) return mode != MF_FIT_EXACT;
  if (t->rank != want->rank) return false;
  for (int i = 0; i < want->rank; i++)
    if (t->shape[i] != want->shape[i] && (mode == MF_FIT_EXACT || want->shape[i] >= 0)) return false;
  return true;
}

void mf_spec_format(const mf_spec *s, char *buf, size_t n) {
  mf_shape_format(s->rank, s->shape, buf, n);
}

void mf_op_call_init(mf_op_call *c, const mf_op_def *op, int nin, const mf_spec *in_specs,
                     mf_tensor *const *in, const mf_attrs *attrs) {
  c->op = op;
  c->nin = nin;
  c->in_specs = in_specs;
  c->in = in;
  c->attrs = attrs;
  c->nout = 0;
  c->out_specs = c->inline_specs;
  c->out = c->inline_out;
  c->out_values = c->inline_values;
  c->in_partial = NULL;
  c->out_partials = c->inline_partials;
  c->pool = NULL;
  c->state = NULL;
  c->building = c->deferred = false;
  c->requested = c->requested_shape = 0;
  for (int i = 0; i < MF_OP_CALL_INLINE; i++) {
    c->inline_out[i] = NULL;
    c->inline_values[i] = NULL;
    c->inline_partials[i] = NULL;
  }
}

void mf_op_call_free(mf_op_call *c) {
  for (int i = 0; i < c->nout; i++) {
    mf_tensor_release(c->out[i]);
    mf_tensor_release(c->out_values[i]);
    mf_partial_free(c->out_partials[i]);
  }
  if (c->out_specs != c->inline_specs) {
    free(c->out_specs);
    free(c->out);
    free(c->out_values);
    free(c->out_partials);
  }
  c->nout = 0;
  c->out_specs = c->inline_specs;
  c->out = c->inline_out;
  c->out_values = c->inline_values;
  c->out_partials = c->inline_partials;
}

mf_status mf_op_call_set_nout(mf_op_call *c, int nout, mf_error *err) {
  mf_op_call_free(c);
  if (nout > MF_OP_CALL_INLINE) {
    c->out_specs = mf_calloc((size_t)nout, sizeof *c->out_specs);
    c->out = mf_calloc((size_t)nout, sizeof *c->out);
    c->out_values = mf_calloc((size_t)nout, sizeof *c->out_values);
    c->out_partials = mf_calloc((size_t)nout, sizeof *c->out_partials);
    if (!c->out_specs || !c->out || !c->out_values || !c->out_partials) {
      free(c->out_specs);
      free(c->out);
      free(c->out_values);
      free(c->out_partials);
      c->out_specs = c->inline_specs;
      c->out = c->inline_out;
      c->out_values = c->inline_values;
      c->out_partials = c->inline_partials;
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  c->nout = nout;
  return MF_OK;
}

mf_status mf_op_alloc_output(mf_op_call *c, int i, mf_tensor **out, mf_error *err) {
  const mf_spec *s = &c->out_specs[i];
  if (!mf_spec_is_static(s))
    return mf_error_set(err, MF_ERR_INTERNAL, "%s: output %d has no static shape at run time",
                        c->op->name, i);
  mf_tensor *t;
  MF_TRY(mf_tensor_new_pooled(c->pool, s->dtype, s->rank, s->shape, &t, err));
  mf_tensor_release(c->out[i]);
  c->out[i] = t;
  *out = t;
  return MF_OK;
}

static mf_status check_attrs(const mf_op_call *c, mf_error *err) {
  if (!c->attrs) return MF_OK;
  for (int i = 0; i < c->attrs->n; i++) {
    const mf_attr *a = &c->attrs->a[i];
    const mf_attr_def *d = c->op->attrs;
    while (d->name && strcmp(d->name, a->name) != 0) d++;
    if (!d->name)
      return mf_error_set(err, MF_ERR_TYPE, "%s got an unexpected attribute '%s'", c->op->name,
                          a->name);
    bool ok = d->kind == a->kind || (d->kind == MF_ATTR_FLOAT && a->kind == MF_ATTR_INT) ||
              (d->kind == MF_ATTR_INTS && a->kind == MF_ATTR_SHAPE) ||
              (d->kind == MF_ATTR_SHAPE && a->kind == MF_ATTR_INTS);
    if (!ok)
      return mf_error_set(err, MF_ERR_TYPE, "%s: attribute '%s' has the wrong kind", c->op->name,
                          a->name);
  }
  return MF_OK;
}

/* mf_op_infer, with mf_widen_may(c) known: an eager op's execute asks it
 * once for the inference and the kernel. */
static mf_status infer_as(mf_op_call *c, bool may_widen, mf_error *err) {
  const mf_op_def *op = c->op;
  if (c->nin < op->min_inputs || (op->max_inputs >= 0 && c->nin > op->max_inputs)) {
    if (op->min_inputs == op->max_inputs)
      return mf_error_set(err, MF_ERR_TYPE, "%s takes %d input%s but %d were given", op->name,
                          op->min_inputs, op->min_inputs == 1 ? "" : "s", c->nin);
    return mf_error_set(err, MF_ERR_TYPE, "%s takes at least %d inputs but %d were given",
                        op->name, op->min_inputs, c->nin);
  }
  MF_TRY(check_attrs(c, err));
  mf_widen w;
  if (may_widen && mf_widen_plan(c, &w)) return mf_widen_infer(c, &w, err);
  MF_TRY(op->infer(c, err));
  /* What an output holds element by element matters while a graph is
   * built, never eagerly or when it runs. */
  return op->partial && c->building ? op->partial(c, err) : MF_OK;
}

mf_status mf_op_infer(mf_op_call *c, mf_error *err) { return infer_as(c, mf_widen_may(c), err); }

/* Runs the kernel of c (its output specs set). */
static mf_status call_kernel(mf_op_call *c, bool may_widen, mf_error *err) {
  mf_widen w;
  return may_widen && mf_widen_plan(c, &w) ? mf_widen_kernel(c, &w, err) : c->op->kernel(c, err);
}

/* call_kernel, then checks it made every output. */
static mf_status run_kernel(mf_op_call *c, bool may_widen, mf_error *err) {
  MF_TRY(call_kernel(c, may_widen, err));
  for (int i = 0; i < c->nout; i++)
    if (!c->out[i])
      return mf_error_set(err, MF_ERR_INTERNAL, "%s produced no output %d", c->op->name, i);
  return MF_OK;
}

mf_status mf_op_execute(mf_op_call *c, mf_error *err) {
  bool may_widen = mf_widen_may(c);
  MF_TRY(infer_as(c, may_widen, err));
  return run_kernel(c, may_widen, err);
}

mf_status mf_op_execute_planned(mf_op_call *c, int nout, const mf_spec *specs, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, nout, err));
  for (int i = 0; i < nout; i++) c->out_specs[i] = specs[i];
  return run_kernel(c, mf_widen_may(c), err);
}

mf_tensor *mf_op_call_take_output(mf_op_call *c, int i) {
  mf_tensor *t = c->out[i];
  c->out[i] = NULL;
  return t;
}

bool mf_op_is_foldable(const mf_op_def *op, const mf_attrs *attrs) {
  if (!op->kernel || (op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_RANDOM)))
    return false;
  for (int i = 0; attrs && i < attrs->n; i++)
    if (attrs->a[i].kind == MF_ATTR_CALLBACK || attrs->a[i].kind == MF_ATTR_GRAPH) return false;
  return true;
}

/* Whether an output of spec s may be held as a constant; unknown
 * dimensions pass (the computed value is checked again). */
static bool fold_size_ok(const mf_spec *s) {
  if (s->dtype == MF_RESOURCE || s->dtype == MF_VARIANT) return false;
  int64_t size = 1;
  for (int d = 0; d < s->rank; d++) {
    if (s->shape[d] < 0) continue;
    size *= s->shape[d];
    if (size > MF_FOLD_MAX_ELEMENTS) return false;
  }
  return true;
}

bool mf_op_call_fold(mf_op_call *c) {
  if (!mf_op_is_foldable(c->op, c->attrs) || c->deferred) return false;
  int64_t input_elements = 0;
  for (int i = 0; i < c->nin; i++) {
    if (!c->in[i]) return false;
    input_elements += c->in[i]->size;
    if (input_elements > MF_FOLD_MAX_INPUT_ELEMENTS) return false;
  }
  for (int k = 0; k < c->nout; k++)
    if (!fold_size_ok(&c->out_specs[k])) return false;
  mf_error err;
  bool ok = call_kernel(c, mf_widen_may(c), &err) == MF_OK;
  for (int k = 0; ok && k < c->nout; k++) {
    const mf_tensor *t = c->out[k];
    ok = t && t->dtype != MF_RESOURCE && t->dtype != MF_VARIANT && t->size <= MF_FOLD_MAX_ELEMENTS;
  }
  if (!ok)
    for (int k = 0; k < c->nout; k++) mf_tensor_release(mf_op_call_take_output(c, k));
  return ok;
}

/* Whether inputs [from, to) are one list argument of TF's op (ConcatV2's
 * values, Pack's), not arguments that share a type (AddV2's x and y). */
static bool one_list(const mf_op_call *c, int from, int to) {
  char a[64];
  return mf_op_input_arg(c->op, from, c->nin, a, sizeof a) ==
         mf_op_input_arg(c->op, to - 1, c->nin, a, sizeof a);
}

/* While a graph is built, a dtype TF's op does not take is caught before
 * the node exists, by Python (op_def_library._apply_op_helper): a
 * TypeError with its text, where running eagerly the kernel's
 * InvalidArgumentError says it. */
mf_status mf_infer_same_dtype(mf_op_call *c, int from, int to, mf_error *err) {
  for (int i = from + 1; i < to; i++) {
    if (c->in_specs[i].dtype == c->in_specs[from].dtype) continue;
    if (!c->building)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "cannot compute %s as input #%d(zero-based) was expected to be a %s "
                          "tensor but is a %s tensor [Op:%s]",
                          c->op->name, i, mf_dtype_kernel_name(c->in_specs[from].dtype),
                          mf_dtype_kernel_name(c->in_specs[i].dtype), c->op->name);
    char arg[64], first[64];
    if (one_list(c, from, to)) {
      char types[512] = "";
      size_t used = 0;
      for (int k = from; k < to && used < sizeof types; k++)
        used += (size_t)snprintf(types + used, sizeof types - used, "%s%s", k > from ? ", " : "",
                                 mf_dtype_name(c->in_specs[k].dtype));
      return mf_error_set(err, MF_ERR_TYPE,
                          "Tensors in list passed to '%s' of '%s' Op have types [%s] that don't "
                          "all match.",
                          (mf_op_input_arg(c->op, from, c->nin, arg, sizeof arg), arg), c->op->name, types);
    }
    return mf_error_set(err, MF_ERR_TYPE,
                        "Input '%s' of '%s' Op has type %s that does not match type %s of "
                        "argument '%s'.",
                        (mf_op_input_arg(c->op, i, c->nin, arg, sizeof arg), arg), c->op->name,
                        mf_dtype_name(c->in_specs[i].dtype), mf_dtype_name(c->in_specs[from].dtype),
                        (mf_op_input_arg(c->op, from, c->nin, first, sizeof first), first));
  }
  return MF_OK;
}

mf_status mf_infer_check_dtype(mf_op_call *c, int i, bool (*ok)(mf_dtype), const char *what,
                               mf_error *err) {
  if (ok(c->in_specs[i].dtype)) return MF_OK;
  unsigned accepted = 0;
  for (int d = 0; d < MF_DTYPE_COUNT; d++) accepted |= (unsigned)ok((mf_dtype)d) << d;
  return mf_infer_dtype_refused(c, i, accepted, what, err);
}

mf_status mf_infer_dtype_refused(mf_op_call *c, int i, unsigned accepted, const char *what,
                                 mf_error *err) {
  mf_dtype dt = c->in_specs[i].dtype;
  /* A small or half dtype the op has no kernel for: TF's kernel lookup
   * fails, eagerly as when the node runs. */
  if (mf_dtype_wide(dt) != dt)
    return mf_error_set(err, MF_ERR_NOT_FOUND,
                        "Could not find device for node: {{node %s}} = %s[T=%s] [Op:%s]",
                        c->op->name, c->op->name, mf_dtype_enum_name(dt), c->op->name);
  if (!c->building)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s expects a %s tensor for input #%d(zero-based), got %s [Op:%s]",
                        c->op->name, what, i, mf_dtype_name(c->in_specs[i].dtype), c->op->name);
  /* TF lists the op's allowed types in its OpDef's order; this lists the
   * ones moonflow has (TF's lists also name bfloat16, half, the small
   * integers and the complex types). */
  char arg[64], allowed[256] = "";
  size_t used = 0;
  for (int d = 0; d < MF_DTYPE_COUNT && used < sizeof allowed; d++)
    if (accepted >> d & 1)
      used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s%s", used ? ", " : "",
                               mf_dtype_name((mf_dtype)d));
  return mf_error_set(err, MF_ERR_TYPE,
                      "Value passed to parameter '%s' has DataType %s not in list of allowed "
                      "values: %s",
                      (mf_op_input_arg(c->op, i, c->nin, arg, sizeof arg), arg),
                      mf_dtype_name(c->in_specs[i].dtype), allowed);
}

void mf_infer_defer_check(mf_op_call *c, mf_infer_fn eager_infer) {
  mf_op_call probe;
  mf_op_call_init(&probe, c->op, c->nin, c->in_specs, c->in, c->attrs);
  mf_error err;
  if (eager_infer(&probe, &err) != MF_OK) c->deferred = true;
  mf_op_call_free(&probe);
}

bool mf_infer_const_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n) {
  if (i < 32) c->requested |= 1u << i;
  const mf_tensor *t = c->in[i];
  if (!t || !mf_dtype_is_integer(t->dtype) || t->size > cap) return false;
  for (int64_t k = 0; k < t->size; k++) vals[k] = mf_tensor_get_i64(t, k);
  *n = (int)t->size;
  return true;
}

int mf_op_input_arg(const mf_op_def *op, int i, int nin, char *buf, size_t n) {
  const char *names = op->input_names ? op->input_names : "";
  int nargs = *names ? 1 : 0, list = -1;
  for (const char *p = names; *p; p++) {
    if (*p == ',') nargs++;
    if (*p == '*') list = nargs - 1;
  }
  /* The list takes what the other arguments leave; with none marked the
   * last argument repeats. */
  if (list < 0) list = nargs - 1;
  int rest = nin - nargs; /* extra inputs of the list */
  int arg = i < list ? i : i <= list + rest ? list : i - rest;
  if (rest < 0) arg = i;
  if (arg >= nargs) arg = nargs - 1;
  const char *p = names;
  for (int k = 0; k < arg; k++) p = strchr(p, ',') + 1;
  size_t len = strcspn(p, ",*");
  if (len == 0 || arg < 0) {
    snprintf(buf, n, "input_%d", i);
  } else if (n > 0) {
    if (len > n - 1) len = n - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
  }
  return arg;
}
