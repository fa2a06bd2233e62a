/* binding.h — internals shared by the binding's files (not for hosts).
 *
 * The binding keeps one context per Lua state (a userdata in the registry,
 * passed to every C function as upvalue 1): the stack of graphs being
 * traced, the tape hook, and the allocation accounting that lets Lua's
 * collector see tensor memory.
 *
 * A Lua tensor is a full userdata holding either an eager value (t) or a
 * symbolic reference (graph, node, output index) into a graph being or
 * having been traced. One userdata type serves both, so every method and
 * operator works on both. */
#ifndef MF_BINDING_H
#define MF_BINDING_H

#include <lauxlib.h>
#include <lua.h>

#include "graph.h"
#include "mf_lua.h"
#include "op.h"

#define MFL_TENSOR "moonflow.Tensor"
#define MFL_GRAPH "moonflow.Graph"
#define MFL_CTX "moonflow.context"

/* A value captured by a graph being traced: an eager tensor (or variable
 * handle) from outside, or a symbolic tensor of an enclosing graph. */
typedef struct mfL_capture {
  mf_tensor *value;     /* eager: owned reference; NULL for an outer symbolic */
  mf_graph *outer;      /* outer symbolic: borrowed (the frame below holds it) */
  mf_tensor_ref outer_ref;
  int placeholder;      /* node in this frame's graph (a Const for a constant capture) */
  int obj;              /* eager: registry ref of the Lua tensor captured (a tape knows
                         * eager tensors by their Lua object), else 0 */
  int is_const;         /* eager: embedded as a Const node, not a graph input */
} mfL_capture;

typedef struct mfL_frame {
  mf_graph *g;          /* owned reference */
  uint64_t id;          /* trace id: symbolic tensors remember it */
  int ncaptures, cap_captures;
  mfL_capture *captures;
} mfL_frame;

typedef struct mfL_ctx {
  mfL_frame *frames;
  int depth, cap;
  uint64_t next_trace_id;
  int tape_hook;        /* registry ref of the Lua tape hook, LUA_NOREF when none */
  int tapes_active;     /* > 0: call the tape hook after every op */
  int eager_scopes;     /* > 0: inside tf.init_scope: ops run eagerly even while tracing */
  /* tf.func's cached calls (fastpath.c), mirrored from state.lua's
   * switches by core.set_call_switches: the C path is off (functions run
   * eagerly, a call hook is set); calls run the graphs as traced (the
   * optimiser is off). */
  bool call_bypass, call_plain;
  size_t alloc_since_gc;
  size_t small_bytes;   /* small tensors' C bytes not yet reported to the collector */
  size_t large_since_gc; /* larger tensors' bytes since the last full collection */
  size_t lua_heap_at_gc; /* Lua's heap after the last full collection tensor.c ran */
  size_t live_at_gc;     /* mf_live_bytes() after it */
  bool generational;     /* the collector's mode when tensor.c last looked */
  bool young_step_due;   /* a larger tensor came: collect the young before the next */
  lua_State *L;
  int call_spares;      /* registry slot of opcall.c's idle call scratches (0: not made yet) */
  int call_nspare;      /* how many it holds */
  struct mf_random_state *rng; /* this session's random streams (owned) */
  /* The state's allocator, wrapped (tensor.c) so tests can cap Lua's
   * memory (core.lua_memory_limit) and see what happens past it. */
  lua_Alloc alloc;
  void *alloc_ud;
  long long lua_bytes, lua_limit; /* bytes since the wrap; limit < 0: none */
  size_t lua_freed;     /* bytes Lua freed not yet reported to mf_alloc_note_freed */
} mfL_ctx;

typedef struct mfL_tensor {
  mf_tensor *t;         /* eager value, or NULL when symbolic */
  mf_graph *g;          /* symbolic: owned reference */
  int node, index;
  uint64_t trace_id;
} mfL_tensor;

typedef struct mfL_graph {
  mf_graph *g;          /* owned reference */
} mfL_graph;

/* The state's context. Also makes this session's random streams the ones
 * the thread's kernels draw from: every entry that runs ops passes here. */
mfL_ctx *mfL_context(lua_State *L);

/* Typed argument checks. lauxlib's luaL_check* raise untyped strings
 * ("bad argument #1 to 'x'"); the binding raises only error objects, so
 * its files call these instead (TypeError, lauxlib's wording; a stack that
 * cannot grow is ResourceExhaustedError). tests/module/structure.lua
 * refuses a luaL_check* or luaL_opt* call in the binding. */
lua_Integer mfL_checkinteger(lua_State *L, int arg);
lua_Integer mfL_optinteger(lua_State *L, int arg, lua_Integer def);
const char *mfL_checklstring(lua_State *L, int arg, size_t *len);
const char *mfL_optlstring(lua_State *L, int arg, const char *def, size_t *len);
void mfL_checktype(lua_State *L, int arg, int t);
void *mfL_checkudata(lua_State *L, int arg, const char *tname);
void mfL_checkstack(lua_State *L, int sz, const char *msg);
#define mfL_checkstring(L, a) mfL_checklstring((L), (a), NULL)
#define mfL_optstring(L, a, d) mfL_optlstring((L), (a), (d), NULL)

/* Errors: raise a Lua error object from a core error record. */
int mfL_raise_status(lua_State *L, const mf_error *err);
int mfL_error_open(lua_State *L);

/* Tensors. Userdata are made before they own anything (liolib's
 * newprefile order): mfL_new_tensor pushes an empty one, which may raise
 * (out of memory) while the caller owns nothing it could leak;
 * mfL_tensor_adopt then gives it a reference (stolen) and never raises.
 * mfL_push_eager does both for a borrowed t (the userdata takes its own
 * reference). */
mfL_tensor *mfL_new_tensor(lua_State *L);
void mfL_tensor_adopt(lua_State *L, mfL_tensor *lt, mf_tensor *t);
void mfL_tensor_adopt_in(mfL_ctx *ctx, mfL_tensor *lt, mf_tensor *t); /* ctx at hand */
mfL_tensor *mfL_push_eager(lua_State *L, mf_tensor *t); /* borrows t */
mfL_tensor *mfL_push_symbolic(lua_State *L, mf_graph *g, int node, int index, uint64_t trace_id);
/* The tensor at idx or NULL; raises ValueError for a released tensor
 * (one whose __gc has run). */
mfL_tensor *mfL_test_tensor(lua_State *L, int idx);
/* Like mfL_test_tensor but never raises: NULL for a released tensor too.
 * For code that holds C allocations (or runs under the executor) and so
 * must report through a status instead. */
mfL_tensor *mfL_peek_tensor(lua_State *L, int idx);
mfL_tensor *mfL_check_tensor(lua_State *L, int idx);
/* The spec of a Lua tensor (eager or symbolic). */
void mfL_tensor_spec(const mfL_tensor *lt, mf_spec *out);
/* An eager value or a raised error that says the tensor is symbolic. */
mf_tensor *mfL_check_eager(lua_State *L, int idx);
int mfL_tensor_open(lua_State *L);

/* Dtypes: Lua dtype objects are tables {name=..., _enum=n} stored in tf. */
void mfL_push_dtype(lua_State *L, mf_dtype dt);
/* -1 when the value is not a dtype. */
int mfL_to_dtype(lua_State *L, int idx);
mf_dtype mfL_check_dtype(lua_State *L, int idx);

/* Conversion of Lua values to eager tensors. `want` < 0: infer the dtype.
 * Returns MF_OK and a new reference, or fills err. */
mf_status mfL_convert(lua_State *L, int idx, int want, mf_tensor **out, mf_error *err);
int mfL_convert_open(lua_State *L);

/* Op calls. */
int mfL_op_open(lua_State *L);
/* opcall.c's one op-call path: op on the nin values from stack index
 * `first`, attrs table at attrs_idx (0: none), `typed` the bitmask of
 * inputs that take the tensors' dtype; returns the outputs pushed. */
int mfL_run_call(lua_State *L, const mf_op_def *op, int attrs_idx, int first, int nin,
                 unsigned typed);
/* fastpath.c: the eager operators (core.operator) and the cached tf.func
 * call with its one hit test (core.func_record, core.func_call_for,
 * core.func_fits), into the table at the top. */
int mfL_fastpath_open(lua_State *L);
/* Shared with trace.c: the reference of input value at idx inside the
 * current frame (capturing eager tensors and outer symbolics). */
mf_status mfL_frame_ref(lua_State *L, mfL_ctx *ctx, int idx, mf_tensor_ref *ref, mf_spec *spec,
                        mf_tensor **known, mf_error *err);

/* Adds a Placeholder of `spec` named after `name` (made unique) to g;
 * `known` (borrowed, may be NULL) is the value the trace knows for it. */
mf_status mfL_add_placeholder(mf_graph *g, const char *name, const mf_spec *spec, mf_tensor *known,
                              int *node, mf_error *err);

/* Tracing and graphs. */
int mfL_trace_open(lua_State *L);
mfL_frame *mfL_current_frame(mfL_ctx *ctx);
bool mfL_frame_has_data(lua_State *L, int depth);
/* True when trace `id` is still being traced (on the frame stack). */
int mfL_trace_live(mfL_ctx *ctx, uint64_t id);
void mfL_push_graph(lua_State *L, mf_graph *g); /* retains g */
mf_graph *mfL_check_graph(lua_State *L, int idx);
/* mf_graph_add_node for an op traced from Lua, which also records the
 * user's line that made it (source.c). */
mf_status mfL_add_traced_node(lua_State *L, mf_graph *g, const char *unique_name, mf_op_call *c,
                              const mf_tensor_ref *inputs, int *node_out, mf_error *err);

/* tf.name_scope's primitives (scope.c). */
int mfL_scope_open(lua_State *L);

/* JSON through Jansson (json.c). */
int mfL_json_open(lua_State *L);

/* Variable handles. */
int mfL_variable_open(lua_State *L);
/* NumPy files (io.c). */
int mfL_io_open(lua_State *L);

/* tf.None, the unknown dimension: a unique table kept in the registry. */
bool mfL_is_none(lua_State *L, int idx);

/* Memory accounting. */
void mfL_account(mfL_ctx *ctx, size_t nbytes);
/* The young collection mfL_account asked for, run where a tensor's
 * userdata is about to be made (before it exists). */
void mfL_young_step(lua_State *L, mfL_ctx *ctx);
static inline void mfL_young_step_if_due(lua_State *L, mfL_ctx *ctx) {
  if (ctx->young_step_due) mfL_young_step(L, ctx);
}
/* Wraps the state's allocator (at open) and puts it back (at close). */
void mfL_memory_open(lua_State *L, mfL_ctx *ctx);
void mfL_memory_close(lua_State *L, mfL_ctx *ctx);

/* Registers `funcs` into the table at the top with the context as upvalue. */
void mfL_setfuncs(lua_State *L, const luaL_Reg *funcs);

#endif
