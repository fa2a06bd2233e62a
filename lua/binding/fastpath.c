/* fastpath.c — the two hottest calls from Lua in one C call each:
 *   an operator on eager tensors (core.operator: the metamethods + - * //
 *   % ^ of tensors), which runs the kernel itself for two eager tensors of
 *   one dtype or a tensor and a Lua number, with no trace open and no tape
 *   recording, and otherwise takes opcall.c's one op-call path;
 *   tf.func's cached call (core.call_direct), which checks that no trace
 *   is open and the arguments fit the trace, and runs its graph.
 * Both decide only what they can decide cheaply and leave every other case
 * (and every error but a kernel's) to the general paths. */
#include <stdint.h>
#include <string.h>

#include "binding.h"
#include "executor.h"

/* ---- the operators' eager fast path ---- */

/* Upvalues of an operator closure (core.operator). */
#define OPER_CTX lua_upvalueindex(1)
#define OPER_OP lua_upvalueindex(2)
#define OPER_ATTRS lua_upvalueindex(3)
#define OPER_MT lua_upvalueindex(4)

/* The eager value of the tensor at idx, or NULL for anything else (a Lua
 * value, a variable, a symbolic or released tensor: the general path's
 * cases). */
static mf_tensor *oper_eager(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
  bool is = lua_rawequal(L, -1, OPER_MT);
  lua_pop(L, 1);
  return is ? ((mfL_tensor *)lua_touserdata(L, idx))->t : NULL;
}

/* Whether the Lua value at idx is a number that converts to dtype dt
 * exactly as convert.c's store() would without an error; the rest (a
 * float for an integer tensor, an int32 overflow, a bool tensor) takes the
 * general path, which converts or raises. */
static bool oper_number_fits(lua_State *L, int idx, mf_dtype dt) {
  if (lua_type(L, idx) != LUA_TNUMBER) return false;
  if (dt == MF_FLOAT32 || dt == MF_FLOAT64) return true;
  if (!lua_isinteger(L, idx)) return false;
  lua_Integer v = lua_tointeger(L, idx);
  return dt == MF_INT64 || (dt == MF_INT32 && v >= INT32_MIN && v <= INT32_MAX);
}

/* The operator's result for eager operands a and b (borrowed); a Lua number
 * at stack index num (1 or 2, 0: none) stands for the missing one. */
static mf_status oper_run(lua_State *L, const mf_op_def *op, mf_tensor *a, mf_tensor *b, int num,
                          mf_tensor **out, mf_error *err) {
  mf_tensor *n = NULL;
  if (num) {
    mf_dtype dt = (a ? a : b)->dtype;
    if (lua_isinteger(L, num))
      MF_TRY(mf_tensor_scalar_i64(dt, lua_tointeger(L, num), &n, err));
    else
      MF_TRY(mf_tensor_scalar_f64(dt, lua_tonumber(L, num), &n, err));
    if (num == 1) a = n; else b = n;
  }
  mf_tensor *in[2] = {a, b};
  mf_spec specs[2];
  mf_spec_of_tensor(a, &specs[0]);
  mf_spec_of_tensor(b, &specs[1]);
  mf_op_call c;
  mf_op_call_init(&c, op, 2, specs, in, NULL);
  mf_status s = mf_op_execute(&c, err);
  *out = s == MF_OK ? mf_op_call_take_output(&c, 0) : NULL;
  mf_op_call_free(&c);
  mf_tensor_release(n);
  return s;
}

/* An operator metamethod (core.operator): a op b. The common case — two
 * eager tensors of one dtype, or an eager tensor and a Lua number, with no
 * trace open and no tape recording — runs the kernel here, with nothing
 * but the result made; everything else goes the general way (run_call),
 * which also raises every error the fast path leaves to it. */
static int l_operator_call(lua_State *L) {
  mfL_ctx *ctx = lua_touserdata(L, OPER_CTX);
  const mf_op_def *op = lua_touserdata(L, OPER_OP);
  lua_settop(L, 2);
  if (ctx->tapes_active == 0 && (ctx->depth == 0 || ctx->eager_scopes > 0)) {
    mf_tensor *a = oper_eager(L, 1), *b = oper_eager(L, 2);
    int num = a && b ? 0 : a ? 2 : 1;
    bool fast = a && b ? a->dtype == b->dtype
                       : (a || b) && oper_number_fits(L, num, (a ? a : b)->dtype);
    if (fast) {
      /* The userdata first: it may raise while nothing is owned. */
      mfL_tensor *lt = lua_newuserdatauv(L, sizeof *lt, 0);
      memset(lt, 0, sizeof *lt);
      lua_pushvalue(L, OPER_MT);
      lua_setmetatable(L, -2);
      mf_error err;
      mf_tensor *out;
      if (oper_run(L, op, a, b, num, &out, &err) != MF_OK) return mfL_raise_status(L, &err);
      mfL_tensor_adopt(L, lt, out);
      return 1;
    }
  }
  lua_pushvalue(L, OPER_ATTRS);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  return mfL_run_call(L, op, 3, 4, 2, 3);
}

/* core.operator(op, attrs) -> a function(a, b) for a binary operator
 * metamethod: core.binary(op, a, b, attrs) with the eager fast path. op
 * is a handle (core.op_handle). */
static int l_operator(lua_State *L) {
  luaL_checktype(L, 1, LUA_TLIGHTUSERDATA);
  const mf_op_def *op = lua_touserdata(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_pushlightuserdata(L, mfL_context(L));
  lua_pushlightuserdata(L, (void *)op);
  lua_pushvalue(L, 2);
  luaL_getmetatable(L, MFL_TENSOR);
  lua_pushcclosure(L, l_operator_call, 4);
  return 1;
}

/* ---- tf.func's cached call ---- */

#define DIRECT_CTX lua_upvalueindex(1)
#define DIRECT_TENSOR_MT lua_upvalueindex(2)
#define DIRECT_GRAPH_MT lua_upvalueindex(3)

/* The graph at idx (a graph handle), compared by metatable. */
static mf_graph *direct_graph(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    bool is = lua_rawequal(L, -1, DIRECT_GRAPH_MT);
    lua_pop(L, 1);
    if (is) return ((mfL_graph *)lua_touserdata(L, idx))->g;
  }
  return mfL_check_graph(L, idx);
}

/* The eager value at idx, or NULL. */
static mf_tensor *direct_eager(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
  bool is = lua_rawequal(L, -1, DIRECT_TENSOR_MT);
  lua_pop(L, 1);
  return is ? ((mfL_tensor *)lua_touserdata(L, idx))->t : NULL;
}

/* core.call_direct(traced, run, captures, exact, ...) -> the outputs of
 * graph `run` fed the arguments then the captures, when no trace is open
 * and the arguments are eager tensors fitting the input placeholders of
 * graph `traced` (exactly with `exact`, else at least as specific:
 * mf_spec_fits), as many as it has inputs besides the captures; else
 * false. The hit path of tf.func in one call: core.tracing,
 * core.check_args and core.run_direct at once. */
static int l_call_direct(lua_State *L) {
  mfL_ctx *ctx = lua_touserdata(L, DIRECT_CTX);
  const mf_graph *traced = direct_graph(L, 1);
  mf_graph *run = direct_graph(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  mf_fit mode = lua_toboolean(L, 4) ? MF_FIT_EXACT : MF_FIT_SUBTYPE;
  int nargs = lua_gettop(L) - 4;
  int ncap = (int)lua_rawlen(L, 3);
  int nfeeds = nargs + ncap;
  enum { INLINE = 16 };
  mf_tensor *feeds_inline[INLINE], *outs_inline[INLINE];
  bool fits = !(ctx->depth > 0 && ctx->eager_scopes == 0) && nfeeds == traced->ninputs &&
              nfeeds <= INLINE && run->noutputs <= INLINE;
  for (int i = 0; fits && i < nargs; i++) {
    mf_tensor *t = feeds_inline[i] = direct_eager(L, 5 + i);
    mf_spec have;
    if (t) mf_spec_of_tensor(t, &have);
    fits = t && mf_spec_fits(&have, &traced->nodes[traced->inputs[i]].out_specs[0], mode);
  }
  if (!fits) {
    lua_pushboolean(L, 0);
    return 1;
  }
  luaL_checkstack(L, run->noutputs + LUA_MINSTACK, "too many graph outputs");
  int first = lua_gettop(L) + 1;
  for (int i = 0; i < run->noutputs; i++) {
    memset(lua_newuserdatauv(L, sizeof(mfL_tensor), 0), 0, sizeof(mfL_tensor));
    lua_pushvalue(L, DIRECT_TENSOR_MT);
    lua_setmetatable(L, -2);
  }
  for (int i = 0; i < ncap; i++) {
    lua_rawgeti(L, 3, i + 1);
    feeds_inline[nargs + i] = direct_eager(L, -1);
    lua_pop(L, 1); /* the captures table keeps it alive */
    if (!feeds_inline[nargs + i])
      return mfL_raise(L, "TypeError", "call_direct: a capture of graph %s is not an eager tensor",
                       run->name);
  }
  mf_error err;
  if (mf_graph_run(run, nfeeds, feeds_inline, outs_inline, &err) != MF_OK)
    return mfL_raise_status(L, &err);
  for (int i = 0; i < run->noutputs; i++)
    mfL_tensor_adopt(L, lua_touserdata(L, first + i), outs_inline[i]);
  return run->noutputs;
}

int mfL_fastpath_open(lua_State *L) {
  lua_pushcfunction(L, l_operator);
  lua_setfield(L, -2, "operator");
  /* core.call_direct: a closure over the context and the metatables. */
  lua_pushlightuserdata(L, mfL_context(L));
  luaL_getmetatable(L, MFL_TENSOR);
  luaL_getmetatable(L, MFL_GRAPH);
  lua_pushcclosure(L, l_call_direct, 3);
  lua_setfield(L, -2, "call_direct");
  return 0;
}
