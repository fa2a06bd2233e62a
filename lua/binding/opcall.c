/* opcall.c — the one op-call path. Every operation from Lua — tf.add, an
 * operator, a gradient function, a layer — arrives here with an op from the
 * registry, its attributes and its inputs, and then:
 *   eager   : infer + run the kernel now, return eager tensors;
 *   tracing : infer (with the values known at trace time) as TF's shape
 *             function, whose failure is TF's graph-construction error
 *             (node_summary.h), add a node to the graph being built,
 *             return symbolic tensors;
 *   and, when a GradientTape is recording, hand (op, attrs, inputs,
 *   outputs) to the tape hook — in both modes, so gradients work eagerly
 *   and inside traced functions alike.
 * Lua values among the inputs are converted here: to the dtype of the
 * "typed" tensor inputs when the caller marks them (a Lua number mixed with
 * a tensor takes the tensor's dtype), by API.md's rules otherwise.
 *
 * Nothing the call owns in C can be lost to a Lua error: tensor-like inputs
 * are resolved (a Lua call) before anything is acquired, the tape hook runs
 * after everything is released, and in between what the call holds (input
 * references, attributes, the op's outputs) lives in a scratch userdata
 * whose __gc releases it, so a raise anywhere else (out of memory, the
 * interrupt hook) leaves it to the collector. Finalizers run without hooks,
 * which is why the anchor is a __gc and not a to-be-closed __close. The
 * scratch is reused from call to call (one spare kept in the registry), so
 * the hot path allocates nothing for it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binding.h"
#include "node_summary.h"
#include "variable.h"

#define MAX_INPUTS 256 /* a call of a backward function takes every intermediate */

typedef struct input {
  mfL_tensor *lt;     /* the Lua tensor given (kept alive by the stack), or NULL */
  mf_tensor *value;   /* eager or known value (owned reference) or NULL */
  mf_tensor_ref ref;  /* graph mode */
  mf_spec spec;
} input;

#define MFL_CALL "moonflow.call"

typedef struct call {
  const mf_op_def *op;
  int first;          /* stack index of the first input */
  int nin;
  unsigned typed;     /* bitmask: inputs that share the tensors' dtype */
  int attrs_idx;      /* stack index of the Lua attrs table, 0 if none */
  int dtypes_idx;     /* stack index of attrs._dtypes ({[i] = dtype}), 0 if none */
  mf_attrs attrs;
  bool op_live;       /* `c` is initialised and may own outputs */
  mf_op_call c;
  input in[MAX_INPUTS];
  mf_spec specs[MAX_INPUTS];
  mf_tensor *values[MAX_INPUTS];
  const mf_partial *partials[MAX_INPUTS]; /* graph mode: the inputs' (partial.h), borrowed */
} call;

/* Releases what the call owns; idempotent (the __gc of the scratch). */
static void call_free(call *k) {
  for (int i = 0; i < k->nin; i++) {
    mf_tensor_release(k->in[i].value);
    k->in[i].value = NULL;
  }
  k->nin = 0;
  mf_attrs_free(&k->attrs);
  if (k->op_live) mf_op_call_free(&k->c);
  k->op_live = false;
}

static int call_gc(lua_State *L) {
  call_free(mfL_checkudata(L, 1, MFL_CALL));
  return 0;
}

/* Idle call scratches, one per level of nesting needed so far (a call in
 * a call: the tape hook, a variable operand's read, a host callback). A
 * scratch is some 50 KB; made anew for each nested call, it came from fresh
 * heap pages every time (an eager `h + v` with a variable v: 37 us, not
 * 1.5). They sit in a registry table whose array part is made once, so
 * taking and putting back never allocates; a scratch in use is only on
 * the stack. */
enum { CALL_SPARES = 8 };

/* Pushes an empty call scratch: an idle one when there is one, else new. */
static call *call_scratch(lua_State *L, mfL_ctx *ctx) {
  if (!ctx->call_spares) {
    lua_createtable(L, CALL_SPARES, 0);
    ctx->call_spares = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  if (ctx->call_nspare > 0) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->call_spares);
    lua_rawgeti(L, -1, ctx->call_nspare);
    lua_pushnil(L);
    lua_rawseti(L, -3, ctx->call_nspare--);
    lua_remove(L, -2);
    return lua_touserdata(L, -1);
  }
  call *k = lua_newuserdatauv(L, sizeof *k, 0);
  k->nin = 0;
  k->op_live = false;
  mf_attrs_init(&k->attrs);
  luaL_setmetatable(L, MFL_CALL);
  return k;
}

/* Releases what the call at stack index idx owns and keeps it idle (one
 * lost to an error is the collector's). */
static void call_done(lua_State *L, mfL_ctx *ctx, call *k, int idx) {
  call_free(k);
  if (ctx->call_nspare >= CALL_SPARES) return;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->call_spares);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, ++ctx->call_nspare);
  lua_pop(L, 1);
}

/* ---- attributes from a Lua table ---- */

static mf_status attr_from_lua(lua_State *L, mf_attrs *as, const char *name, int vidx,
                               mf_error *err);

static mf_status lua_callback_fn(void *ud, int nin, mf_tensor **in, int nout, mf_tensor **out,
                           mf_error *err);
static void lua_callback_free(void *ud);

typedef struct lua_callback {
  lua_State *L;
  int ref;
} lua_callback;

static mf_status attr_from_lua(lua_State *L, mf_attrs *as, const char *name, int vidx,
                               mf_error *err) {
  switch (lua_type(L, vidx)) {
    case LUA_TBOOLEAN: return mf_attrs_set_bool(as, name, lua_toboolean(L, vidx), err);
    case LUA_TNUMBER:
      if (lua_isinteger(L, vidx)) return mf_attrs_set_int(as, name, lua_tointeger(L, vidx), err);
      return mf_attrs_set_float(as, name, lua_tonumber(L, vidx), err);
    case LUA_TSTRING: return mf_attrs_set_string(as, name, lua_tostring(L, vidx), err);
    case LUA_TFUNCTION: {
      /* The reference first: luaL_ref may raise, the allocations do not. */
      lua_pushvalue(L, vidx);
      int ref = luaL_ref(L, LUA_REGISTRYINDEX);
      mf_callback *cb = mf_calloc(1, sizeof *cb);
      lua_callback *lc = mf_malloc(sizeof *lc);
      if (!cb || !lc) {
        free(cb);
        free(lc);
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      }
      lc->L = L;
      lc->ref = ref;
      cb->refcount = 1;
      cb->fn = lua_callback_fn;
      cb->free = lua_callback_free;
      cb->ud = lc;
      mf_status s = mf_attrs_set_callback(as, name, cb, err);
      mf_callback_release(cb);
      return s;
    }
    case LUA_TUSERDATA: {
      mfL_tensor *lt = mfL_peek_tensor(L, vidx);
      if (lt && lt->t) return mf_attrs_set_tensor(as, name, lt->t, err);
      mfL_graph *lg = luaL_testudata(L, vidx, MFL_GRAPH);
      if (lg) return mf_attrs_set_graph(as, name, lg->g, err);
      break;
    }
    case LUA_TTABLE: {
      int dt = mfL_to_dtype(L, vidx);
      if (dt >= 0) return mf_attrs_set_type(as, name, (mf_dtype)dt, err);
      /* A list of integers (dtypes allowed: Tout lists); tf.None marks an
       * unknown dimension of a shape. */
      int64_t v[MF_ATTR_MAX_INTS];
      lua_Integer n = (lua_Integer)lua_rawlen(L, vidx);
      bool shape = false;
      lua_getfield(L, vidx, "_unknown_rank");
      bool unknown_rank = lua_toboolean(L, -1);
      lua_pop(L, 1);
      if (unknown_rank) return mf_attrs_set_shape(as, name, -1, NULL, err);
      if (n > MF_ATTR_MAX_INTS)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "attribute '%s' has too many values", name);
      for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, vidx, i);
        if (lua_isinteger(L, -1)) {
          v[i - 1] = lua_tointeger(L, -1);
        } else if (mfL_is_none(L, -1)) {
          v[i - 1] = -1;
          shape = true;
        } else if (mfL_to_dtype(L, -1) >= 0) {
          v[i - 1] = mfL_to_dtype(L, -1);
        } else {
          lua_pop(L, 1);
          return mf_error_set(err, MF_ERR_TYPE, "attribute '%s' must be a list of integers", name);
        }
        lua_pop(L, 1);
      }
      return shape ? mf_attrs_set_shape(as, name, (int)n, v, err)
                   : mf_attrs_set_ints(as, name, (int)n, v, err);
    }
    default: break;
  }
  return mf_error_set(err, MF_ERR_TYPE, "attribute '%s' cannot be a %s", name,
                      luaL_typename(L, vidx));
}

/* Reads the attrs table: op attributes (`_gradient_op_type`, TF's gradient
 * override, too), plus `name` (node name), `_typed` (bitmask of inputs taking
 * the tensors' dtype), `_dtypes` (input i's Lua values' dtype: {[i] = dtype}). */
static mf_status read_attrs(lua_State *L, call *k, mf_error *err) {
  mf_attrs_init(&k->attrs);
  k->dtypes_idx = 0;
  if (!k->attrs_idx) return MF_OK;
  if (lua_getfield(L, k->attrs_idx, "_dtypes") == LUA_TTABLE) {
    k->dtypes_idx = lua_gettop(L); /* stays on the stack below the outputs */
  } else {
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, k->attrs_idx)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char *key = lua_tostring(L, -2);
      if (strcmp(key, "_typed") == 0) {
        k->typed = (unsigned)lua_tointeger(L, -1);
      } else if (strcmp(key, "name") != 0 && (key[0] != '_' || strcmp(key, "_gradient_op_type") == 0)) {
        mf_status s = attr_from_lua(L, &k->attrs, key, lua_absindex(L, -1), err);
        if (s != MF_OK) {
          lua_pop(L, 2);
          return s;
        }
      }
    }
    lua_pop(L, 1);
  }
  return MF_OK;
}

/* ---- inputs ---- */

/* Replaces a non-tensor value that knows how to become one (a variable's
 * __tf_tensor metamethod) by that tensor, in place on the stack. */
static void resolve_tensorlike(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || luaL_getmetafield(L, idx, "__tf_tensor") == LUA_TNIL)
    return;
  lua_pushvalue(L, idx);
  lua_call(L, 1, 1);
  lua_replace(L, idx);
}

/* The dtype Lua values among the typed inputs convert to: the first typed
 * tensor input's, or -1 (infer) when there is none. */
static int typed_dtype(const call *k) {
  for (int i = 0; i < k->nin; i++) {
    if (i >= 32 || !(k->typed & (1u << i))) continue;
    mfL_tensor *lt = k->in[i].lt;
    if (lt) {
      mf_spec s;
      mfL_tensor_spec(lt, &s);
      return s.dtype;
    }
  }
  return -1;
}

/* The dtype a Lua value given as input i converts to (-1: infer). */
static int want_dtype(lua_State *L, call *k, int i, int *typed_want) {
  if (i < 32 && (k->typed & (1u << i))) {
    if (*typed_want == -2) *typed_want = typed_dtype(k);
    return *typed_want;
  }
  if (k->dtypes_idx) {
    lua_rawgeti(L, k->dtypes_idx, i + 1);
    int dt = lua_isnil(L, -1) ? -1 : mfL_to_dtype(L, -1);
    lua_pop(L, 1);
    return dt;
  }
  return -1;
}

/* After typed input i converted from a Lua value to t: when no typed input
 * is a tensor, the first converted value's dtype is the one the others
 * convert to, as TF's op wrappers infer a shared type attribute
 * (tf.add(1.5, {1, 2}) is float32 [2.5 3.5]; tf.add({1, 2}, 1.5) a TypeError). */
static void typed_converted(const call *k, int i, const mf_tensor *t, int *typed_want) {
  if (i < 32 && (k->typed & (1u << i)) && *typed_want == -1) *typed_want = t->dtype;
}

/* Raises the error of a symbolic tensor used outside its trace. Called
 * before the call owns anything. */
static int out_of_scope(lua_State *L, mfL_tensor *lt) {
  mf_spec s;
  char shape[128];
  mfL_tensor_spec(lt, &s);
  mf_spec_format(&s, shape, sizeof shape);
  mf_error err;
  mf_error_set(&err, MF_ERR_TYPE,
               "<tf.Tensor '%s:%d' shape=%s dtype=%s> is out of scope and cannot be used here. "
               "Use return values, explicit Lua locals or tf.Variables to access it: a symbolic "
               "tensor belongs to the trace that made it, and that trace has ended.",
               lt->g->nodes[lt->node].name, lt->index, shape, mf_dtype_name(s.dtype));
  return mfL_raise_status(L, &err);
}

/* Before the call acquires anything: variables (and other tensor-like
 * values) among the inputs become their tensors (a Lua call that may
 * raise), so a Lua number's dtype can follow any of them; symbolic tensors
 * that cannot be used here are refused. Notes which inputs are tensors. */
static void prepare_inputs(lua_State *L, mfL_ctx *ctx, call *k, bool tracing) {
  for (int i = 0; i < k->nin; i++) {
    resolve_tensorlike(L, k->first + i);
    mfL_tensor *lt = k->in[i].lt = mfL_test_tensor(L, k->first + i);
    if (lt && !lt->t && (!tracing || !mfL_trace_live(ctx, lt->trace_id))) out_of_scope(L, lt);
  }
}

/* Eager mode: every input as an eager value. */
static mf_status eager_inputs(lua_State *L, call *k, mf_error *err) {
  int want = -2;
  for (int i = 0; i < k->nin; i++) {
    int idx = k->first + i;
    mfL_tensor *lt = k->in[i].lt;
    if (lt) {
      mf_tensor_retain(lt->t);
      k->in[i].value = lt->t;
    } else {
      if (lua_isnil(L, idx))
        return mf_error_set(err, MF_ERR_TYPE, "%s: input #%d is nil", k->op->name, i);
      MF_TRY(mfL_convert(L, idx, want_dtype(L, k, i, &want), &k->in[i].value, err));
      typed_converted(k, i, k->in[i].value, &want);
    }
    mf_spec_of_tensor(k->in[i].value, &k->in[i].spec);
  }
  return MF_OK;
}

/* ---- graph mode ---- */

static mf_status add_const(mfL_frame *f, const char *name, mf_tensor *t, mf_tensor_ref *ref,
                           mf_error *err) {
  extern const mf_op_def mf_op_Const;
  mf_attrs as;
  mf_attrs_init(&as);
  mf_status s = mf_attrs_set_tensor(&as, "value", t, err);
  if (s == MF_OK) s = mf_attrs_set_type(&as, "dtype", t->dtype, err);
  mf_op_call c;
  mf_op_call_init(&c, &mf_op_Const, 0, NULL, NULL, &as);
  char unique[256];
  int node = -1;
  if (s == MF_OK) s = mf_op_infer(&c, err);
  if (s == MF_OK) s = mf_graph_unique_name(f->g, name, unique, sizeof unique, err);
  if (s == MF_OK) s = mf_graph_add_node(f->g, unique, &c, NULL, &node, err);
  mf_op_call_free(&c);
  mf_attrs_free(&as);
  ref->node = node;
  ref->index = 0;
  return s;
}

mf_status mfL_add_placeholder(mf_graph *g, const char *name, const mf_spec *spec, mf_tensor *known,
                              int *node, mf_error *err) {
  extern const mf_op_def mf_op_Placeholder;
  mf_attrs as;
  mf_attrs_init(&as);
  mf_status s = mf_attrs_set_type(&as, "dtype", spec->dtype, err);
  if (s == MF_OK) s = mf_attrs_set_shape(&as, "shape", spec->rank, spec->shape, err);
  mf_op_call c;
  mf_op_call_init(&c, &mf_op_Placeholder, 0, NULL, NULL, &as);
  char unique[256];
  if (s == MF_OK) s = mf_op_infer(&c, err);
  if (s == MF_OK && known) {
    mf_tensor_retain(known);
    c.out_values[0] = known;
  }
  if (s == MF_OK) s = mf_graph_unique_name(g, name, unique, sizeof unique, err);
  if (s == MF_OK) s = mf_graph_add_node(g, unique, &c, NULL, node, err);
  mf_op_call_free(&c);
  mf_attrs_free(&as);
  return s;
}

static mf_status push_capture(mfL_frame *f, mfL_capture cap, mf_error *err) {
  if (f->ncaptures == f->cap_captures) {
    int n = f->cap_captures ? f->cap_captures * 2 : 8;
    mfL_capture *c = mf_realloc(f->captures, (size_t)n * sizeof *c);
    if (!c) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    f->captures = c;
    f->cap_captures = n;
  }
  f->captures[f->ncaptures++] = cap;
  return MF_OK;
}

/* TF's _EAGER_CONST_THRESHOLD (tensorflow/core/function/capture/
 * capture_container.py, capture_by_value): an eager tensor of a value dtype
 * with at most this many elements is captured as a Const embedded in the
 * graph; larger ones and resource handles as Placeholders. TF still lists
 * the Const among the graph's captures and records it on the tape
 * (graph_const._record_tape(tensor)), so its gradient is kept: here the
 * capture keeps its Lua tensor for the call's tape record. */
#define EAGER_CONST_THRESHOLD 128

static bool captured_as_const(const mf_tensor *t) {
  return t->dtype != MF_RESOURCE && t->size <= EAGER_CONST_THRESHOLD;
}

/* The node in the current frame standing for eager tensor t, the Lua
 * tensor at idx. Two Lua tensors sharing one value are two captures, as TF
 * keys captures by id(tensor): a tape may know one and not the other.
 * Both rules hold for tf.func traces (func_frame); a control-flow branch
 * keeps a Placeholder per value, as its captures become the cond or loop
 * node's inputs (in TF a branch inside a function never sees an eager
 * tensor: the function captured it first). */
static mf_status capture_eager(lua_State *L, int idx, mfL_frame *f, bool func_frame,
                               mf_tensor *t, mf_tensor_ref *ref, mf_error *err) {
  for (int i = 0; i < f->ncaptures; i++) {
    mf_tensor *v = f->captures[i].value;
    bool same;
    if (v && v->dtype == MF_RESOURCE) {
      /* the same variable behind two handle tensors */
      same = v == t || (t->dtype == MF_RESOURCE && v->size == 1 && t->size == 1 &&
                        *MF_DATA(v, mf_variable *) == *MF_DATA(t, mf_variable *));
    } else {
      same = v == t;
      if (same && func_frame && f->captures[i].obj > 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, f->captures[i].obj);
        same = lua_rawequal(L, -1, idx);
        lua_pop(L, 1);
      }
    }
    if (same) {
      *ref = (mf_tensor_ref){f->captures[i].placeholder, 0};
      return MF_OK;
    }
  }
  int node;
  bool is_const = func_frame && captured_as_const(t);
  if (is_const) {
    mf_tensor_ref r;
    MF_TRY(add_const(f, "capture", t, &r, err));
    node = r.node;
  } else {
    mf_spec spec;
    mf_spec_of_tensor(t, &spec);
    MF_TRY(mfL_add_placeholder(f->g, t->dtype == MF_RESOURCE ? "readvariableop_resource" : "capture",
                               &spec, t, &node, err));
  }
  mf_tensor_retain(t);
  lua_pushvalue(L, idx);
  mfL_capture cap = {.value = t, .placeholder = node, .obj = luaL_ref(L, LUA_REGISTRYINDEX),
                     .is_const = is_const};
  mf_status s = push_capture(f, cap, err);
  if (s != MF_OK) {
    mf_tensor_release(t);
    luaL_unref(L, LUA_REGISTRYINDEX, cap.obj);
  }
  *ref = (mf_tensor_ref){node, 0};
  return s;
}

/* The reference in frame `level` of symbolic (g, r) made in an enclosing
 * frame: captured through every frame in between. */
static mf_status capture_outer(mfL_ctx *ctx, int level, mf_graph *g, mf_tensor_ref r,
                               mf_tensor_ref *ref, mf_error *err) {
  mfL_frame *f = &ctx->frames[level];
  if (f->g == g) {
    *ref = r;
    return MF_OK;
  }
  if (level == 0) return mf_error_set(err, MF_ERR_INTERNAL, "symbolic tensor of no open frame");
  mf_tensor_ref parent;
  MF_TRY(capture_outer(ctx, level - 1, g, r, &parent, err));
  mfL_frame *pf = &ctx->frames[level - 1];
  for (int i = 0; i < f->ncaptures; i++) {
    mfL_capture *c = &f->captures[i];
    if (!c->value && c->outer == pf->g && c->outer_ref.node == parent.node &&
        c->outer_ref.index == parent.index) {
      *ref = (mf_tensor_ref){c->placeholder, 0};
      return MF_OK;
    }
  }
  const mf_node *src = &pf->g->nodes[parent.node];
  int node;
  MF_TRY(mfL_add_placeholder(f->g, src->name, &src->out_specs[parent.index], src->known[parent.index],
                             &node, err));
  mfL_capture cap = {.outer = pf->g, .outer_ref = parent, .placeholder = node};
  MF_TRY(push_capture(f, cap, err));
  *ref = (mf_tensor_ref){node, 0};
  return MF_OK;
}

mf_status mfL_frame_ref(lua_State *L, mfL_ctx *ctx, int idx, mf_tensor_ref *ref, mf_spec *spec,
                        mf_tensor **known, mf_error *err) {
  mfL_frame *f = mfL_current_frame(ctx);
  mfL_tensor *lt = mfL_test_tensor(L, idx);
  if (lt->t) {
    /* capture_eager compares and keeps Lua tensors: room for three values */
    if (!lua_checkstack(L, 3)) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "Lua stack overflow");
    MF_TRY(capture_eager(L, idx, f, mfL_frame_has_data(L, ctx->depth), lt->t, ref, err));
  } else {
    if (!mfL_trace_live(ctx, lt->trace_id))
      return mf_error_set(err, MF_ERR_TYPE, "out of scope");
    MF_TRY(capture_outer(ctx, ctx->depth - 1, lt->g, (mf_tensor_ref){lt->node, lt->index}, ref, err));
  }
  const mf_node *n = &f->g->nodes[ref->node];
  *spec = n->out_specs[ref->index];
  *known = n->known[ref->index];
  if (*known) mf_tensor_retain(*known);
  return MF_OK;
}

/* Appends up to len bytes of s to the string in buf (of size n, assumed
 * terminated), truncating as snprintf would: tracing makes names for
 * every node and constant, and snprintf is slow at it. */
static void append(char *buf, size_t n, const char *s, size_t len) {
  size_t used = strlen(buf);
  if (used + 1 >= n) return;
  if (len > n - 1 - used) len = n - 1 - used;
  memcpy(buf + used, s, len);
  buf[used + len] = '\0';
}

static mf_status graph_inputs(lua_State *L, mfL_ctx *ctx, call *k, const char *opname,
                              mf_error *err) {
  mfL_frame *f = mfL_current_frame(ctx);
  int want = -2;
  for (int i = 0; i < k->nin; i++) {
    int idx = k->first + i;
    if (k->in[i].lt) {
      MF_TRY(mfL_frame_ref(L, ctx, idx, &k->in[i].ref, &k->in[i].spec, &k->in[i].value, err));
      continue;
    }
    if (lua_isnil(L, idx))
      return mf_error_set(err, MF_ERR_TYPE, "%s: input #%d is nil", k->op->name, i);
    mf_tensor *t;
    MF_TRY(mfL_convert(L, idx, want_dtype(L, k, i, &want), &t, err));
    typed_converted(k, i, t, &want);
    char arg[64], cname[320];
    const char *in_name = (mf_op_input_arg(k->op, i, k->nin, arg, sizeof arg), arg);
    cname[0] = '\0';
    append(cname, sizeof cname, opname, strlen(opname));
    append(cname, sizeof cname, "/", 1);
    append(cname, sizeof cname, in_name, strlen(in_name));
    mf_status s = add_const(f, cname, t, &k->in[i].ref, err);
    k->in[i].value = t;
    mf_spec_of_tensor(t, &k->in[i].spec);
    if (s != MF_OK) return s;
  }
  return MF_OK;
}

/* ---- the call ---- */

/* Pushes the tape hook's arguments (op name, attrs, inputs, outputs): every
 * input as a tensor, Lua values as the tensors they were converted to. */
static void tape_args(lua_State *L, mfL_ctx *ctx, call *k, int first_out, int nout) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->tape_hook);
  lua_pushstring(L, k->op->name);
  if (k->attrs_idx)
    lua_pushvalue(L, k->attrs_idx);
  else
    lua_pushnil(L);
  lua_createtable(L, k->nin, 0);
  for (int i = 0; i < k->nin; i++) {
    int idx = k->first + i;
    if (k->in[i].lt)
      lua_pushvalue(L, idx);
    else if (k->in[i].value)
      mfL_push_eager(L, k->in[i].value);
    else
      lua_pushnil(L);
    lua_rawseti(L, -2, i + 1);
  }
  lua_createtable(L, nout, 0);
  for (int i = 0; i < nout; i++) {
    lua_pushvalue(L, first_out + i);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Infers (tracing into g) or runs (eagerly: g NULL) the op; outputs stay in k->c. */
static mf_status compute(call *k, const mf_graph *g, mf_error *err) {
  for (int i = 0; i < k->nin; i++) {
    k->specs[i] = k->in[i].spec;
    k->values[i] = k->in[i].value;
  }
  mf_op_call *c = &k->c;
  mf_op_call_init(c, k->op, k->nin, k->specs, k->values, &k->attrs);
  k->op_live = true;
  if (!g) return mf_op_execute(c, err);
  c->building = true;
  for (int i = 0; i < k->nin; i++) k->partials[i] = mf_graph_partial(g, k->in[i].ref);
  c->in_partial = k->partials;
  MF_TRY(mf_op_infer(c, err));
  /* Known at trace time: compute now so later ops infer static shapes (by
   * the rule the folding pass applies to the finished graph). */
  if (mf_op_call_fold(c)) {
    for (int i = 0; i < c->nout; i++) {
      mf_tensor_release(c->out_values[i]);
      c->out_values[i] = mf_op_call_take_output(c, i);
    }
  }
  return MF_OK;
}

/* The op's node name in the graph being traced, made unique. */
static mf_status node_name(lua_State *L, mfL_frame *f, call *k, char *unique, size_t n,
                           mf_error *err) {
  const char *base = k->op->name;
  char opname[256];
  if (k->attrs_idx && lua_getfield(L, k->attrs_idx, "name") == LUA_TSTRING) {
    /* snprintf(opname, .., "%s", name) by hand: tracing names every node. */
    const char *name = lua_tostring(L, -1);
    size_t len = strnlen(name, sizeof opname - 1);
    memcpy(opname, name, len);
    opname[len] = '\0';
    base = opname;
  }
  if (k->attrs_idx) lua_pop(L, 1);
  return mf_graph_scoped_name(f->g, base, unique, n, err);
}

/* Runs op on the nin values from stack index `first`; returns the number
 * of outputs pushed. */
int mfL_run_call(lua_State *L, const mf_op_def *op, int attrs_idx, int first, int nin,
                    unsigned typed) {
  mfL_ctx *ctx = mfL_context(L);
  bool tracing = ctx->depth > 0 && ctx->eager_scopes == 0;
  mfL_checkstack(L, LUA_MINSTACK, "op call");
  call *k = call_scratch(L, ctx);
  int scratch = lua_gettop(L);
  k->op = op;
  k->attrs_idx = attrs_idx;
  k->first = first;
  k->typed = typed;
  for (int i = 0; i < nin; i++) k->in[i].value = NULL;
  k->nin = nin;
  prepare_inputs(L, ctx, k, tracing);
  mf_error err;
  mf_error_clear(&err);
  mf_status s = read_attrs(L, k, &err);
  char unique[256];
  mfL_frame *f = tracing ? mfL_current_frame(ctx) : NULL;
  if (s == MF_OK && tracing) {
    /* Node names matter only in graphs. */
    s = node_name(L, f, k, unique, sizeof unique, &err);
    if (s == MF_OK) s = graph_inputs(L, ctx, k, unique, &err);
  } else if (s == MF_OK) {
    s = eager_inputs(L, k, &err);
  }
  mf_tensor_ref refs[MAX_INPUTS];
  for (int i = 0; s == MF_OK && tracing && i < k->nin; i++) refs[i] = k->in[i].ref;
  if (s == MF_OK) {
    s = compute(k, tracing ? f->g : NULL, &err);
    /* TF's graph construction failing, not a kernel: node_summary.h. */
    if (s != MF_OK && tracing) s = mf_node_construction_error(f->g, unique, &k->c, refs, &err);
  }
  int node = -1;
  if (s == MF_OK && tracing) s = mfL_add_traced_node(L, f->g, unique, &k->c, refs, &node, &err);
  if (s != MF_OK) {
    call_free(k);
    return mfL_raise_status(L, &err);
  }
  int nout = k->c.nout;
  mfL_checkstack(L, nout + 8, "too many op outputs");
  int first_out = lua_gettop(L) + 1;
  for (int i = 0; i < nout; i++) {
    if (!tracing)
      mfL_push_eager(L, k->c.out[i]);
    else
      mfL_push_symbolic(L, f->g, node, i, f->id);
  }
  bool record =
      ctx->tapes_active > 0 && ctx->tape_hook != LUA_NOREF && !(k->op->flags & MF_OP_NO_GRADIENT);
  if (record) tape_args(L, ctx, k, first_out, nout);
  /* The tape hook owns nothing of ours when it runs (and raises). */
  call_done(L, ctx, k, scratch);
  if (record) {
    /* The hook's own errors are typed and go on as they are; a Lua error
     * in it (a bug, or tape state broken by a misuse) becomes a typed
     * InternalError, as every error a binding function raises is. */
    int rc = lua_pcall(L, 4, 0, 0);
    const char *type, *msg;
    if (rc != LUA_OK && (rc == LUA_ERRMEM || mfL_is_error(L, -1, &type, &msg))) return lua_error(L);
    if (rc != LUA_OK)
      return mfL_raise(L, "InternalError", "recording %s on a tape failed: %s", op->name,
                       lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
  }
  return nout;
}

static const mf_op_def *check_op(lua_State *L, int idx) {
  if (lua_islightuserdata(L, idx)) return lua_touserdata(L, idx);
  const char *name = mfL_checkstring(L, idx);
  const mf_op_def *op = mf_op_lookup(name);
  if (!op) mfL_raise(L, "NotFoundError", "Op type not registered '%s'", name);
  return op;
}

/* core.op(op, attrs, ...) -> outputs. `op` is a name or a handle from
 * core.op_handle; attrs a table or nil (`name` names the node, `_typed` is a
 * bitmask of inputs that take the tensors' dtype). */
static int l_op(lua_State *L) {
  const mf_op_def *op = check_op(L, 1);
  int nin = lua_gettop(L) - 2;
  if (nin > MAX_INPUTS) return mfL_raise(L, "ValueError", "too many inputs (%d)", nin);
  return mfL_run_call(L, op, lua_istable(L, 2) ? 2 : 0, 3, nin < 0 ? 0 : nin, 0);
}

/* core.binary(op, a, b [, attrs]) -> output. Both inputs share a dtype:
 * Lua values convert to the tensor's. The operators' fast path. */
static int l_binary(lua_State *L) {
  lua_settop(L, 4);
  const mf_op_def *op = check_op(L, 1);
  int attrs_idx = lua_istable(L, 4) ? 4 : 0;
  /* inputs must be contiguous: move attrs out of the way */
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  return mfL_run_call(L, op, attrs_idx, 5, 2, 3);
}

/* core.op_handle(name) -> light userdata for fast calls */
static int l_op_handle(lua_State *L) {
  lua_pushlightuserdata(L, (void *)check_op(L, 1));
  return 1;
}

/* core.op_list() -> {{name=, doc=, flags=...}, ...}; each entry's booleans
 * are the op's flags (op.h), changes_state_on_replay among them. */
static int l_op_list(lua_State *L) {
  int n = mf_op_count();
  lua_createtable(L, n, 0);
  int k = 0;
  for (int i = 0; i < n; i++) {
    const mf_op_def *op = mf_op_at(i);
    lua_createtable(L, 0, 10);
    lua_pushstring(L, op->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, op->doc ? op->doc : "");
    lua_setfield(L, -2, "doc");
    lua_pushstring(L, op->input_names ? op->input_names : "");
    lua_setfield(L, -2, "inputs");
    lua_pushinteger(L, op->min_inputs);
    lua_setfield(L, -2, "min_inputs");
    lua_pushinteger(L, op->max_inputs);
    lua_setfield(L, -2, "max_inputs");
    lua_pushboolean(L, op->flags & MF_OP_STATEFUL);
    lua_setfield(L, -2, "stateful");
    lua_pushboolean(L, op->flags & MF_OP_NO_GRADIENT);
    lua_setfield(L, -2, "no_gradient");
    lua_pushboolean(L, op->flags & MF_OP_ELEMENTWISE);
    lua_setfield(L, -2, "elementwise");
    lua_pushboolean(L, op->flags & MF_OP_RANDOM);
    lua_setfield(L, -2, "random");
    lua_pushboolean(L, op->flags & MF_OP_CHANGES_ON_REPLAY);
    lua_setfield(L, -2, "changes_state_on_replay");
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* core.set_tape_hook(fn) ; core.tapes(delta) -> active count */
static int l_set_tape_hook(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  luaL_unref(L, LUA_REGISTRYINDEX, ctx->tape_hook);
  ctx->tape_hook = LUA_NOREF;
  if (!lua_isnoneornil(L, 1)) {
    mfL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, 1);
    ctx->tape_hook = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  return 0;
}

/* counter += delta, kept in 0..INT_MAX: the library passes +-1, but any
 * integer may arrive (a fuzzed call) and must not overflow the int. */
static void add_count(int *counter, lua_Integer delta) {
  lua_Integer n = *counter;
  if (delta > (lua_Integer)INT_MAX - n) n = INT_MAX;
  else n += delta; /* n >= 0: cannot overflow downwards */
  *counter = n < 0 ? 0 : (int)n;
}

static int l_tapes(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  add_count(&ctx->tapes_active, mfL_optinteger(L, 1, 0));
  lua_pushinteger(L, ctx->tapes_active);
  return 1;
}

/* ---- host callbacks (EagerLuaFunc, print sinks) ---- */

typedef struct callback_args {
  const lua_callback *lc;
  int nin, nout;
  mf_tensor **in;
} callback_args;

/* The callback's Lua side, run protected: a kernel is on the C stack
 * below, so nothing here (pushing its inputs, the function, the interrupt
 * hook) may longjmp past it. */
static int callback_body(lua_State *L) {
  const callback_args *a = lua_touserdata(L, 1);
  mfL_checkstack(L, a->nin + 4, "host callback");
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->lc->ref);
  for (int i = 0; i < a->nin; i++) mfL_push_eager(L, a->in[i]);
  lua_call(L, a->nin, a->nout);
  return a->nout;
}

static mf_status lua_callback_fn(void *ud, int nin, mf_tensor **in, int nout, mf_tensor **out,
                           mf_error *err) {
  lua_callback *lc = ud;
  lua_State *L = lc->L;
  int top = lua_gettop(L);
  if (!lua_checkstack(L, nout + 4))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "Lua stack overflow");
  callback_args args = {lc, nin, nout, in};
  lua_pushcfunction(L, callback_body);
  lua_pushlightuserdata(L, &args);
  mfL_ctx *ctx = mfL_context(L);
  /* The function runs eagerly even when called while a trace is open. */
  ctx->eager_scopes++;
  int rc = lua_pcall(L, 1, nout, 0);
  ctx->eager_scopes--;
  if (rc != LUA_OK) {
    const char *type, *msg;
    mf_status st = MF_ERR_INVALID_ARGUMENT;
    if (mfL_is_error(L, -1, &type, &msg)) {
      for (int s = 1; s < MF_STATUS_COUNT; s++)
        if (strcmp(mf_status_name((mf_status)s), type) == 0) st = (mf_status)s;
      mf_error_set(err, st, "%s", msg);
    } else {
      /* No __tostring here: it could raise past the kernel. */
      mf_error_set(err, st, "error in lua_function: %s",
                   lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
    }
    lua_settop(L, top);
    return err->status;
  }
  for (int i = 0; i < nout; i++) {
    int idx = top + 1 + i;
    mfL_tensor *lt = mfL_peek_tensor(L, idx);
    mf_status s;
    if (lt && lt->t) {
      mf_tensor_retain(lt->t);
      out[i] = lt->t;
      s = MF_OK;
    } else {
      s = mfL_convert(L, idx, -1, &out[i], err);
    }
    if (s != MF_OK) {
      for (int j = 0; j < i; j++) {
        mf_tensor_release(out[j]);
        out[j] = NULL;
      }
      lua_settop(L, top);
      return s;
    }
  }
  lua_settop(L, top);
  return MF_OK;
}

static void lua_callback_free(void *ud) {
  lua_callback *lc = ud;
  luaL_unref(lc->L, LUA_REGISTRYINDEX, lc->ref);
  free(lc);
}

/* core.eager_scope(delta): tf.init_scope's switch */
static int l_eager_scope(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  add_count(&ctx->eager_scopes, mfL_checkinteger(L, 1));
  lua_pushboolean(L, ctx->depth > 0 && ctx->eager_scopes == 0);
  return 1;
}

/* core.tracing() -> true while a trace is open (and not in init_scope) */
static int l_tracing(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  lua_pushboolean(L, ctx->depth > 0 && ctx->eager_scopes == 0);
  return 1;
}

int mfL_op_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"op", l_op},           {"binary", l_binary},     {"op_handle", l_op_handle},
      {"op_list", l_op_list}, {"set_tape_hook", l_set_tape_hook}, {"tapes", l_tapes},
      {"eager_scope", l_eager_scope}, {"tracing", l_tracing}, {NULL, NULL}};
  if (luaL_newmetatable(L, MFL_CALL)) {
    lua_pushcfunction(L, call_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  mfL_setfuncs(L, funcs);
  return mfL_fastpath_open(L);
}
