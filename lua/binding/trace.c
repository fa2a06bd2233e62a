/* trace.c — tracing frames and graph handles. tf.func opens a frame
 * (core.trace_begin), makes placeholders for its arguments, runs the Lua
 * function (every op lands in the frame's graph through opcall.c), and
 * closes the frame with its outputs (core.trace_end), which returns the
 * finished graph and what it captured. Graph handles expose the graph to
 * Lua for inspection and run it (core.run: the executor plans a graph on
 * its first run and keeps the plan with the graph). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binding.h"
#include "source.h"
#include "step.h"
#include "random.h"
#include "executor.h"
#include "passes.h"

static const char ctx_key = 'c';
/* The Lua data of each frame (what tf.func knows about the trace), in a
 * registry table indexed by depth: the frame stack is the one trace stack
 * and the Lua side looks its data up here instead of keeping a copy. */
static const char frame_data_key = 'd';

static void set_frame_data(lua_State *L, int depth, int value_idx) {
  value_idx = lua_absindex(L, value_idx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &frame_data_key);
  lua_pushvalue(L, value_idx);
  lua_rawseti(L, -2, depth);
  lua_pop(L, 1);
}

/* Whether frame `depth` (1-based) has Lua data: a tf.func trace, not a
 * control-flow branch or loop body. */
bool mfL_frame_has_data(lua_State *L, int depth) {
  int top = lua_gettop(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &frame_data_key);
  bool has = lua_istable(L, -1) && lua_rawgeti(L, -1, depth) != LUA_TNIL;
  lua_settop(L, top);
  return has;
}

static void clear_frame_data(lua_State *L, int depth) {
  lua_pushnil(L);
  set_frame_data(L, depth, -1);
  lua_pop(L, 1);
}

mfL_ctx *mfL_context(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
  mfL_ctx *ctx = lua_touserdata(L, -1);
  lua_pop(L, 1);
  mf_random_use(ctx->rng);
  return ctx;
}

mfL_frame *mfL_current_frame(mfL_ctx *ctx) {
  return ctx->depth > 0 ? &ctx->frames[ctx->depth - 1] : NULL;
}

int mfL_trace_live(mfL_ctx *ctx, uint64_t id) {
  for (int i = 0; i < ctx->depth; i++)
    if (ctx->frames[i].id == id) return 1;
  return 0;
}

static void frame_free(lua_State *L, mfL_frame *f) {
  for (int i = 0; i < f->ncaptures; i++) {
    mf_tensor_release(f->captures[i].value);
    if (f->captures[i].obj > 0) luaL_unref(L, LUA_REGISTRYINDEX, f->captures[i].obj);
  }
  free(f->captures);
  mf_graph_release(f->g);
  memset(f, 0, sizeof *f);
}

static int ctx_gc(lua_State *L) {
  mfL_ctx *ctx = lua_touserdata(L, 1);
  while (ctx->depth > 0) frame_free(L, &ctx->frames[--ctx->depth]);
  free(ctx->frames);
  ctx->frames = NULL;
  mf_random_state_free(ctx->rng);
  ctx->rng = NULL;
  mfL_memory_close(L, ctx);
  return 0;
}

/* ---- graph handles ---- */

/* An empty handle (liolib's newprefile order: the userdata exists before
 * it owns a graph). */
static mfL_graph *new_graph_handle(lua_State *L) {
  mfL_graph *h = lua_newuserdatauv(L, sizeof *h, 0);
  h->g = NULL;
  luaL_setmetatable(L, MFL_GRAPH);
  return h;
}

void mfL_push_graph(lua_State *L, mf_graph *g) {
  mfL_graph *h = new_graph_handle(L);
  mf_graph_retain(g);
  h->g = g;
}

mf_graph *mfL_check_graph(lua_State *L, int idx) {
  return ((mfL_graph *)mfL_checkudata(L, idx, MFL_GRAPH))->g;
}

static int graph_gc(lua_State *L) {
  mfL_graph *h = mfL_checkudata(L, 1, MFL_GRAPH);
  mf_graph_release(h->g);
  h->g = NULL;
  return 0;
}

static int graph_eq(lua_State *L) {
  mfL_graph *a = luaL_testudata(L, 1, MFL_GRAPH), *b = luaL_testudata(L, 2, MFL_GRAPH);
  lua_pushboolean(L, a && b && a->g == b->g);
  return 1;
}

/* ---- tracing ---- */

/* core.trace_begin(name [, data]) -> graph handle; `data` is the frame's
 * Lua data (core.trace_data) */
static int l_trace_begin(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  const char *name = mfL_optstring(L, 1, "graph");
  lua_settop(L, 2);
  if (ctx->depth == ctx->cap) {
    int cap = ctx->cap ? ctx->cap * 2 : 8;
    mfL_frame *fr = mf_realloc(ctx->frames, (size_t)cap * sizeof *fr);
    if (!fr) return mfL_raise(L, "ResourceExhaustedError", "out of memory");
    ctx->frames = fr;
    ctx->cap = cap;
  }
  mf_error err;
  mf_graph *g;
  if (mf_graph_new(name, &g, &err) != MF_OK) return mfL_raise_status(L, &err);
  mfL_frame *f = &ctx->frames[ctx->depth++];
  memset(f, 0, sizeof *f);
  f->g = g;
  f->id = ++ctx->next_trace_id;
  set_frame_data(L, ctx->depth, 2);
  mfL_push_graph(L, g);
  return 1;
}

static int shape_arg(lua_State *L, int idx, int64_t *shape) {
  if (lua_isnoneornil(L, idx)) return -1;
  mfL_checktype(L, idx, LUA_TTABLE);
  int rank = (int)lua_rawlen(L, idx);
  if (rank > MF_MAX_RANK) mfL_raise(L, "ValueError", "rank %d is above the maximum %d", rank, MF_MAX_RANK);
  for (int i = 0; i < rank; i++) {
    lua_rawgeti(L, idx, i + 1);
    shape[i] = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
    if (shape[i] < 0) shape[i] = -1;
    lua_pop(L, 1);
  }
  return rank;
}

/* core.placeholder(name, dtype, shape|nil [, known_value]) -> symbolic
 * tensor, registered as the next graph input */
static int l_placeholder(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  mfL_frame *f = mfL_current_frame(ctx);
  if (!f) return mfL_raise(L, "ValueError", "core.placeholder outside a trace");
  const char *name = mfL_checkstring(L, 1);
  mf_spec spec = {.dtype = mfL_check_dtype(L, 2)};
  spec.rank = shape_arg(L, 3, spec.shape);
  mfL_tensor *known = lua_isnoneornil(L, 4) ? NULL : mfL_check_tensor(L, 4);
  mf_error err;
  int node = -1;
  mf_status s = mfL_add_placeholder(f->g, name, &spec, known ? known->t : NULL, &node, &err);
  if (s == MF_OK) s = mf_graph_add_input(f->g, node, &err);
  if (s != MF_OK) return mfL_raise_status(L, &err);
  mfL_push_symbolic(L, f->g, node, 0, f->id);
  return 1;
}

/* Adds an Identity for output value at idx; returns its reference. */
static mf_status output_ref(lua_State *L, mfL_ctx *ctx, int idx, mf_tensor_ref *out,
                            mf_error *err) {
  extern const mf_op_def mf_op_Identity;
  mfL_frame *f = mfL_current_frame(ctx);
  mf_tensor_ref in;
  mf_spec spec;
  mf_tensor *known;
  MF_TRY(mfL_frame_ref(L, ctx, idx, &in, &spec, &known, err));
  mf_op_call c;
  mf_tensor *vals[1] = {known};
  mf_op_call_init(&c, &mf_op_Identity, 1, &spec, vals, NULL);
  char unique[256];
  mf_status s = mf_op_infer(&c, err);
  if (s == MF_OK) s = mf_graph_unique_name(f->g, "Identity", unique, sizeof unique, err);
  if (s == MF_OK) s = mf_graph_add_node(f->g, unique, &c, &in, &out->node, err);
  out->index = 0;
  mf_op_call_free(&c);
  mf_tensor_release(known);
  return s;
}

/* core.trace_end(outputs) -> graph, captures, const_captures. `outputs` is
 * a list of tensors (eager or of this trace); each becomes an Identity node,
 * the graph's outputs. `captures` lists what the graph captured, in the
 * order of the extra graph inputs: eager tensors (the Lua tensors the
 * function used: feed them at every run) or, for a nested trace, symbolic
 * tensors of the enclosing trace. `const_captures` lists the small eager
 * tensors embedded as Consts instead, as {lua tensor, node index}. */
static int l_trace_end(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  mfL_frame *f = mfL_current_frame(ctx);
  if (!f) return mfL_raise(L, "ValueError", "core.trace_end without a trace");
  mfL_checktype(L, 1, LUA_TTABLE);
  int n = (int)lua_rawlen(L, 1);
  mf_error err;
  mf_status s = MF_OK;
  int inaccessible = 0; /* the output made by a nested trace that has ended */
  mf_tensor_ref *refs = mf_malloc(((size_t)n + 1) * sizeof *refs);
  if (!refs) s = mf_error_set(&err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < n && s == MF_OK; i++) {
    lua_rawgeti(L, 1, i + 1);
    mfL_tensor *lt = mfL_peek_tensor(L, -1);
    if (!lt)
      s = mf_error_set(&err, MF_ERR_TYPE, "output %d of a trace is not a tensor", i + 1);
    else if (!lt->t && !mfL_trace_live(ctx, lt->trace_id)) {
      s = mf_error_set(&err, MF_ERR_TYPE, "output %d of a trace is out of scope", i + 1);
      /* Traces opened after this one and already ended were nested in it
       * (a loop or branch body): TF's InaccessibleTensorError. */
      if (lt->trace_id > f->id) inaccessible = i + 1;
    } else
      s = output_ref(L, ctx, lua_gettop(L), &refs[i], &err);
    lua_pop(L, 1);
  }
  if (s == MF_OK) s = mf_graph_set_outputs(f->g, n, refs, &err);
  for (int i = 0; i < f->ncaptures && s == MF_OK; i++)
    if (!f->captures[i].is_const) s = mf_graph_add_input(f->g, f->captures[i].placeholder, &err);
  free(refs);
  if (inaccessible)
    return mfL_raise(L, "InaccessibleTensorError",
                     "output %d of tf.func is out of scope and cannot be used here: it was made "
                     "inside a loop or branch body traced within the function (a nested graph), "
                     "which has ended. Use return values of that body, loop variables, a "
                     "TensorArray or tf.Variables to carry it out.",
                     inaccessible);
  if (s != MF_OK) return mfL_raise_status(L, &err);
  mf_graph_shrink(f->g);
  /* Pop the frame before pushing outer symbolics: they belong to the parent. */
  mfL_frame done = *f;
  clear_frame_data(L, ctx->depth);
  ctx->depth--;
  mfL_source_fill(L, done.g);
  mfL_push_graph(L, done.g);
  lua_createtable(L, done.ncaptures, 0);
  int n_in = 0;
  for (int i = 0; i < done.ncaptures; i++) {
    mfL_capture *c = &done.captures[i];
    if (c->is_const) continue;
    if (c->obj > 0) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, c->obj);
    } else if (c->value) {
      mfL_push_eager(L, c->value);
    } else {
      mfL_frame *parent = mfL_current_frame(ctx);
      mfL_push_symbolic(L, c->outer, c->outer_ref.node, c->outer_ref.index, parent->id);
    }
    lua_rawseti(L, -2, ++n_in);
  }
  lua_createtable(L, 0, 0);
  int n_const = 0;
  for (int i = 0; i < done.ncaptures; i++) {
    mfL_capture *c = &done.captures[i];
    if (!c->is_const) continue;
    lua_createtable(L, 2, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->obj);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c->placeholder);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, ++n_const);
  }
  frame_free(L, &done);
  return 3;
}

/* core.capture_source(t) -> what t stands for when t is a capture
 * placeholder of a graph being built (an eager tensor, or a symbolic tensor
 * of the enclosing graph), else nil. Nested control flow consumes such
 * placeholders while Lua closures use the outer values; a tape links them. */
static int l_capture_source(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  mfL_tensor *lt = mfL_test_tensor(L, 1);
  if (!lt || lt->t || lt->index != 0) return 0;
  for (int level = ctx->depth - 1; level >= 0; level--) {
    mfL_frame *f = &ctx->frames[level];
    if (f->g != lt->g) continue;
    for (int i = 0; i < f->ncaptures; i++) {
      mfL_capture *c = &f->captures[i];
      if (c->placeholder != lt->node) continue;
      if (c->obj > 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, c->obj);
        return 1;
      }
      if (c->value) {
        mfL_push_eager(L, c->value);
        return 1;
      }
      if (level == 0) return 0;
      mfL_push_symbolic(L, c->outer, c->outer_ref.node, c->outer_ref.index, ctx->frames[level - 1].id);
      return 1;
    }
    return 0;
  }
  return 0;
}

/* core.in_scope(t) -> false when t is a symbolic tensor of a trace that
 * has ended (a concrete function that captured it is only callable while
 * that trace is open), else true. */
static int l_in_scope(lua_State *L) {
  mfL_tensor *lt = mfL_test_tensor(L, 1);
  lua_pushboolean(L, !lt || lt->t || mfL_trace_live(mfL_context(L), lt->trace_id));
  return 1;
}

/* Whether running g may do more than compute its outputs from its inputs:
 * a node with state, side effects or randomness, in g or a graph nested in
 * it. A call of such a function is a StatefulPartitionedCall (never
 * pruned, merged or folded), as TF chooses. */
static bool graph_stateful(const mf_graph *g, int depth) {
  if (depth > 64) return true; /* no graph nests that deep: stay safe */
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *n = &g->nodes[i];
    if (n->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_RANDOM)) return true;
    for (int k = 0; n->attrs && k < n->attrs->n; k++)
      if (n->attrs->a[k].kind == MF_ATTR_GRAPH && graph_stateful(n->attrs->a[k].u.graph, depth + 1))
        return true;
  }
  return false;
}

/* core.graph_stateful(graph) -> boolean (graph_stateful above) */
static int l_graph_stateful(lua_State *L) {
  lua_pushboolean(L, graph_stateful(mfL_check_graph(L, 1), 0));
  return 1;
}

/* core.trace_abort(): drop the innermost trace after an error */
static int l_trace_abort(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  if (ctx->depth > 0) {
    clear_frame_data(L, ctx->depth);
    frame_free(L, &ctx->frames[--ctx->depth]);
  }
  return 0;
}

/* core.call_unyieldable(f, ...) -> f(...), called so that f cannot yield
 * its coroutine (no continuation: coroutine.yield in it raises "attempt to
 * yield across a C-call boundary"). A trace body runs this way: the trace
 * stack is the session's, so a trace suspended in a coroutine would leave
 * every other coroutine in graph mode. Coroutines f resumes itself may
 * still yield to it. */
static int l_call_unyieldable(lua_State *L) {
  mfL_checktype(L, 1, LUA_TFUNCTION);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* core.trace_data(depth) -> the Lua data frame `depth` (1 = outermost) was
 * opened with, or nil */
static int l_trace_data(lua_State *L) {
  lua_Integer depth = mfL_checkinteger(L, 1);
  if (depth < 1 || depth > mfL_context(L)->depth) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &frame_data_key);
  lua_rawgeti(L, -1, depth);
  return 1;
}

/* core.trace_depth() */
static int l_trace_depth(lua_State *L) {
  lua_pushinteger(L, mfL_context(L)->depth);
  return 1;
}

/* core.current_graph() -> graph handle or nil */
static int l_current_graph(lua_State *L) {
  mfL_frame *f = mfL_current_frame(mfL_context(L));
  if (!f) return 0;
  mfL_push_graph(L, f->g);
  return 1;
}

/* ---- running ---- */

/* Pushes one empty tensor per output of g, for a run's results: they exist
 * before anything is allocated for the run (liolib's newprefile order), so
 * handing the results to Lua cannot raise. Returns the first one's index. */
static int push_result_slots(lua_State *L, const mf_graph *g) {
  mfL_checkstack(L, g->noutputs + LUA_MINSTACK, "too many graph outputs");
  int first = lua_gettop(L) + 1;
  for (int i = 0; i < g->noutputs; i++) mfL_new_tensor(L);
  return first;
}

/* Runs g on the feeds (borrowed) into the result slots at `first`; frees
 * feeds when they are not `inline_feeds`. Returns the number of results. */
static int run_into(lua_State *L, mf_graph *g, int first, int nfeeds, mf_tensor **feeds,
                    mf_tensor **inline_feeds) {
  enum { INLINE = 16 };
  mf_tensor *outs_inline[INLINE];
  int nout = g->noutputs;
  mf_tensor **outs = nout <= INLINE ? outs_inline : mf_malloc((size_t)nout * sizeof *outs);
  mf_error err;
  mf_status s = outs ? mf_graph_run(g, nfeeds, feeds, outs, &err)
                     : mf_error_set(&err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (feeds != inline_feeds) free(feeds);
  if (s == MF_OK)
    for (int i = 0; i < nout; i++) mfL_tensor_adopt(L, lua_touserdata(L, first + i), outs[i]);
  if (outs != outs_inline) free(outs);
  if (s != MF_OK) return mfL_raise_status(L, &err);
  lua_settop(L, first + nout - 1);
  return nout;
}

/* The eager tensor at idx, or NULL. */
static mf_tensor *feed_at(lua_State *L, int idx) {
  mfL_tensor *lt = mfL_peek_tensor(L, idx);
  return lt ? lt->t : NULL;
}

/* core.run(graph, feeds) -> outputs... */
static int l_run(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  int first = push_result_slots(L, g);
  enum { INLINE = 16 };
  mf_tensor *feeds_inline[INLINE];
  int nfeeds = (int)lua_rawlen(L, 2);
  mf_tensor **feeds = nfeeds <= INLINE ? feeds_inline : mf_malloc((size_t)nfeeds * sizeof *feeds);
  if (!feeds) return mfL_raise(L, "ResourceExhaustedError", "out of memory");
  for (int i = 0; i < nfeeds; i++) {
    lua_rawgeti(L, 2, i + 1);
    feeds[i] = feed_at(L, -1);
    lua_pop(L, 1); /* the feeds table keeps the tensors alive */
    if (!feeds[i]) {
      if (feeds != feeds_inline) free(feeds);
      return mfL_raise(L, "TypeError", "feed %d of graph %s is not an eager tensor", i + 1,
                       g->name);
    }
  }
  return run_into(L, g, first, nfeeds, feeds, feeds_inline);
}

/* ---- inspection ---- */

static void push_spec(lua_State *L, const mf_spec *s) {
  lua_createtable(L, 0, 2);
  mfL_push_dtype(L, s->dtype);
  lua_setfield(L, -2, "dtype");
  if (s->rank >= 0) {
    lua_createtable(L, s->rank, 0);
    for (int i = 0; i < s->rank; i++) {
      lua_pushinteger(L, s->shape[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "shape");
  }
}

static void push_attr_value(lua_State *L, const mf_attr *a) {
  switch (a->kind) {
    case MF_ATTR_INT: lua_pushinteger(L, a->u.i); break;
    case MF_ATTR_FLOAT: lua_pushnumber(L, a->u.f); break;
    case MF_ATTR_BOOL: lua_pushboolean(L, a->u.b); break;
    case MF_ATTR_TYPE: mfL_push_dtype(L, a->u.type); break;
    case MF_ATTR_STRING: lua_pushstring(L, a->u.s); break;
    case MF_ATTR_INTS:
    case MF_ATTR_SHAPE:
      lua_createtable(L, a->u.ints.n > 0 ? a->u.ints.n : 0, 1);
      for (int i = 0; i < a->u.ints.n; i++) {
        lua_pushinteger(L, a->u.ints.v[i]);
        lua_rawseti(L, -2, i + 1);
      }
      if (a->kind == MF_ATTR_SHAPE) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, a->u.ints.n < 0 ? "_unknown_rank" : "_shape");
      }
      break;
    case MF_ATTR_TENSOR:
      mfL_push_eager(L, a->u.tensor);
      break;
    case MF_ATTR_GRAPH: mfL_push_graph(L, a->u.graph); break;
    case MF_ATTR_CALLBACK: lua_pushstring(L, "<function>"); break;
  }
}

static void push_ref_name(lua_State *L, const mf_graph *g, mf_tensor_ref r) {
  lua_pushfstring(L, "%s:%d", g->nodes[r.node].name, r.index);
}

/* core.graph_nodes(graph) -> {{name=, type=, inputs={"x:0",...},
 * control={names}, outputs={spec,...}, attrs={...}, stateful=,
 * source={type=, chunk=, line=, text=, name=}|false}, ...} */
static int l_graph_nodes(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_createtable(L, g->nnodes, 0);
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *n = &g->nodes[i];
    lua_createtable(L, 0, 8);
    lua_pushstring(L, n->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, n->op->name);
    lua_setfield(L, -2, "type");
    lua_pushinteger(L, i);
    lua_setfield(L, -2, "id");
    lua_createtable(L, n->nin, 0);
    for (int k = 0; k < n->nin; k++) {
      push_ref_name(L, g, n->inputs[k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "inputs");
    lua_createtable(L, n->nin, 0);
    for (int k = 0; k < n->nin; k++) {
      lua_pushinteger(L, n->inputs[k].node);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "input_nodes");
    lua_createtable(L, n->ncontrol, 0);
    for (int k = 0; k < n->ncontrol; k++) {
      lua_pushstring(L, g->nodes[n->control[k]].name);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "control");
    lua_createtable(L, n->nout, 0);
    for (int k = 0; k < n->nout; k++) {
      push_spec(L, &n->out_specs[k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "outputs");
    lua_createtable(L, 0, n->attrs->n);
    for (int k = 0; k < n->attrs->n; k++) {
      push_attr_value(L, &n->attrs->a[k]);
      lua_setfield(L, -2, n->attrs->a[k].name);
    }
    lua_setfield(L, -2, "attrs");
    lua_pushboolean(L, n->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS));
    lua_setfield(L, -2, "stateful");
    mfL_push_node_source(L, n);
    lua_setfield(L, -2, "source");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* core.graph_io(graph) -> inputs {{node=, index=}}, outputs {{node=, index=}} (0-based ids) */
static int l_graph_io(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_createtable(L, g->ninputs, 0);
  for (int i = 0; i < g->ninputs; i++) {
    lua_pushinteger(L, g->inputs[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_createtable(L, g->noutputs, 0);
  for (int i = 0; i < g->noutputs; i++) {
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, g->outputs[i].node);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, g->outputs[i].index);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushstring(L, g->name);
  return 3;
}

/* core.graph_tensor(graph, node, index) -> a symbolic tensor of a graph
 * (out of scope unless its trace is open: for display and inspection) */
static int l_graph_tensor(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_Integer node = mfL_checkinteger(L, 2), index = mfL_optinteger(L, 3, 0);
  if (node < 0 || node >= g->nnodes || index < 0 || index >= g->nodes[node].nout)
    return mfL_raise(L, "OutOfRangeError", "no tensor %lld:%lld in graph %s", (long long)node,
                     (long long)index, g->name);
  uint64_t id = 0;
  mfL_ctx *ctx = mfL_context(L);
  for (int i = 0; i < ctx->depth; i++)
    if (ctx->frames[i].g == g) id = ctx->frames[i].id;
  mfL_push_symbolic(L, g, (int)node, (int)index, id);
  return 1;
}

/* core.graph_add_placeholder(graph, name, dtype, shape|nil) -> node id: an
 * extra input for a finished graph (control flow gives every branch the
 * same inputs, also those only the other branch uses). */
static int l_graph_add_placeholder(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  const char *name = mfL_checkstring(L, 2);
  mf_spec spec = {.dtype = mfL_check_dtype(L, 3)};
  spec.rank = shape_arg(L, 4, spec.shape);
  mf_error err;
  int node = -1;
  if (mfL_add_placeholder(g, name, &spec, NULL, &node, &err) != MF_OK) return mfL_raise_status(L, &err);
  lua_pushinteger(L, node);
  return 1;
}

/* Reads integer i (1-based) of the table at idx; -1 when it is not one. */
static int int_at(lua_State *L, int idx, int i) {
  lua_rawgeti(L, idx, i);
  int v = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : -1;
  lua_pop(L, 1);
  return v;
}

/* core.graph_set_io(graph, {input node ids}, {{node, index}, ...}): the
 * order of a finished graph's inputs and its outputs. Everything is checked
 * before the graph changes. */
static int l_graph_set_io(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  mfL_checktype(L, 3, LUA_TTABLE);
  int nin = (int)lua_rawlen(L, 2), nout = (int)lua_rawlen(L, 3);
  for (int i = 0; i < nout; i++) {
    lua_rawgeti(L, 3, i + 1);
    int node = lua_istable(L, -1) ? int_at(L, -1, 1) : -1;
    int index = lua_istable(L, -1) ? int_at(L, -1, 2) : -1;
    lua_pop(L, 1);
    if (node < 0 || node >= g->nnodes || index < 0 || index >= g->nodes[node].nout)
      return mfL_raise(L, "ValueError", "graph_set_io: output %d names no tensor", i + 1);
  }
  for (int i = 0; i < nin; i++) {
    int node = int_at(L, 2, i + 1);
    if (node < 0 || node >= g->nnodes || strcmp(g->nodes[node].op->name, "Placeholder") != 0)
      return mfL_raise(L, "ValueError", "graph_set_io: input %d is not a Placeholder", i + 1);
  }
  /* Nothing below raises until both lists are freed. */
  mf_tensor_ref *outs = mf_malloc(((size_t)nout + 1) * sizeof *outs);
  int *ins = mf_malloc(((size_t)nin + 1) * sizeof *ins);
  mf_error err;
  mf_status s = MF_OK;
  if (!outs || !ins) s = mf_error_set(&err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < nout && s == MF_OK; i++) {
    lua_rawgeti(L, 3, i + 1);
    outs[i] = (mf_tensor_ref){int_at(L, -1, 1), int_at(L, -1, 2)};
    lua_pop(L, 1);
  }
  for (int i = 0; i < nin && s == MF_OK; i++) ins[i] = int_at(L, 2, i + 1);
  if (s == MF_OK) s = mf_graph_set_outputs(g, nout, outs, &err);
  if (s == MF_OK) s = mf_graph_set_inputs(g, nin, ins, &err);
  free(outs);
  free(ins);
  if (s != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

/* core.graph_with_outputs(graph, {{node, index}, ...}) -> a copy of graph
 * whose outputs are the graph's own followed by these tensors (0-based
 * ids): a tf.func's forward variant, which also returns the intermediates
 * its gradient reads, made from the one trace without running Lua again.
 * Everything is checked before anything is allocated. */
static int l_graph_with_outputs(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  int nextra = (int)lua_rawlen(L, 2);
  for (int i = 0; i < nextra; i++) {
    lua_rawgeti(L, 2, i + 1);
    int node = lua_istable(L, -1) ? int_at(L, -1, 1) : -1;
    int index = lua_istable(L, -1) ? int_at(L, -1, 2) : -1;
    lua_pop(L, 1);
    if (node < 0 || node >= g->nnodes || index < 0 || index >= g->nodes[node].nout)
      return mfL_raise(L, "ValueError", "graph_with_outputs: output %d names no tensor", i + 1);
  }
  /* The handle exists, empty, before the copy does. */
  mfL_graph *h = new_graph_handle(L);
  int nout = g->noutputs + nextra;
  mf_tensor_ref *outs = mf_malloc(((size_t)nout + 1) * sizeof *outs);
  mf_error err;
  mf_status s = outs ? MF_OK : mf_error_set(&err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_graph_copy c;
  bool begun = false;
  if (s == MF_OK) {
    s = mf_graph_copy_begin(g, &c, &err);
    begun = s == MF_OK;
  }
  for (int i = 0; i < g->nnodes && s == MF_OK; i++) s = mf_graph_copy_node(&c, i, &err);
  for (int i = 0; i < g->noutputs && s == MF_OK; i++) outs[i] = mf_graph_copy_ref(&c, g->outputs[i]);
  for (int i = 0; i < nextra && s == MF_OK; i++) {
    lua_rawgeti(L, 2, i + 1);
    mf_tensor_ref r = {int_at(L, -1, 1), int_at(L, -1, 2)};
    lua_pop(L, 1);
    outs[g->noutputs + i] = mf_graph_copy_ref(&c, r);
  }
  mf_graph *copy = NULL;
  if (s == MF_OK) {
    begun = false; /* finish frees the copy's tables either way */
    s = mf_graph_copy_finish(&c, &copy, &err);
  }
  if (s == MF_OK) s = mf_graph_set_outputs(copy, nout, outs, &err);
  if (begun) mf_graph_copy_abort(&c);
  free(outs);
  if (s != MF_OK) {
    if (copy) mf_graph_release(copy);
    return mfL_raise_status(L, &err);
  }
  h->g = copy;
  return 1;
}

/* core.optimize(graph) -> optimised graph, stats: a new graph made by the
 * optimisation passes (passes.h; the graph given is unchanged) and what
 * they did: {nodes_before=, nodes_after=, folded=, simplified=, merged=,
 * pruned=, fused=}. */
static int l_optimize(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_createtable(L, 0, 7);
  /* The handle exists, empty, before the graph does (nothing leaks if
   * Lua raises). */
  mfL_graph *h = new_graph_handle(L);
  mf_pass_stats st;
  mf_error err;
  if (mf_graph_optimize(g, &h->g, &st, &err) != MF_OK) return mfL_raise_status(L, &err);
  const struct { const char *name; int value; } fields[] = {
      {"nodes_before", st.nodes_before}, {"nodes_after", st.nodes_after}, {"folded", st.folded},
      {"simplified", st.simplified},     {"merged", st.merged},           {"pruned", st.pruned},
      {"fused", st.fused}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    lua_pushinteger(L, fields[i].value);
    lua_setfield(L, -3, fields[i].name);
  }
  lua_rotate(L, -2, 1); /* graph, stats */
  return 2;
}

int mfL_trace_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"trace_begin", l_trace_begin}, {"placeholder", l_placeholder},
      {"trace_end", l_trace_end},     {"trace_abort", l_trace_abort},
      {"call_unyieldable", l_call_unyieldable},
      {"trace_depth", l_trace_depth}, {"trace_data", l_trace_data},
      {"current_graph", l_current_graph},
      {"run", l_run},                 {"graph_nodes", l_graph_nodes},
      {"graph_io", l_graph_io},       {"graph_tensor", l_graph_tensor},
      {"graph_add_placeholder", l_graph_add_placeholder},
      {"graph_set_io", l_graph_set_io}, {"capture_source", l_capture_source},
      {"optimize", l_optimize},       {"in_scope", l_in_scope},
      {"graph_stateful", l_graph_stateful},
      {"graph_with_outputs", l_graph_with_outputs},
       {NULL, NULL}};
  mfL_ctx *ctx = lua_newuserdatauv(L, sizeof *ctx, 0);
  memset(ctx, 0, sizeof *ctx);
  ctx->tape_hook = LUA_NOREF;
  ctx->L = L;
  ctx->rng = mf_random_state_new();
  if (!ctx->rng) return mfL_raise(L, "ResourceExhaustedError", "out of memory");
  mfL_memory_open(L, ctx);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, ctx_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ctx_key);
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &frame_data_key);
  if (luaL_newmetatable(L, MFL_GRAPH)) {
    lua_pushcfunction(L, graph_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, graph_eq);
    lua_setfield(L, -2, "__eq");
    lua_pushstring(L, "GraphHandle");
    lua_setfield(L, -2, "__name");
  }
  lua_pop(L, 1);
  mfL_setfuncs(L, funcs);
  mfL_source_open(L);
  mfL_step_open(L);
  return 0;
}
