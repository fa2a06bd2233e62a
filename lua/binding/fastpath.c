/* fastpath.c — the two hottest calls from Lua in one C call each:
 *   an operator on eager tensors (core.operator: the metamethods + - * //
 *   % ^ of tensors), which runs the kernel itself for two eager tensors of
 *   one dtype or a tensor and a Lua number, with no trace open and no tape
 *   recording, and otherwise takes opcall.c's one op-call path;
 *   tf.func's cached call (core.func_call, which Function.__call
 *   tail-calls once a call armed the function), which runs the last
 *   trace's graph when no trace is open, no tape records and the
 *   arguments hit that trace, and otherwise calls the Lua path; the hit
 *   test (record_fits) is the one the Lua dispatcher asks too
 *   (core.func_fits). The protocol: lua/moonflow/trace/cache.lua.
 * Both decide only what they can decide cheaply and leave every other case
 * (and every error but a kernel's) to the general paths. */
#include <stdint.h>
#include <string.h>

#include "binding.h"
#include "executor.h"
#include "random.h"

/* ---- the operators' eager fast path ---- */

/* Upvalues of an operator closure (core.operator). */
#define OPER_CTX lua_upvalueindex(1)
#define OPER_OP lua_upvalueindex(2)
#define OPER_ATTRS lua_upvalueindex(3)
#define OPER_MT lua_upvalueindex(4)

/* The eager value of the tensor at idx, or NULL for anything else (a Lua
 * value, a variable, a symbolic or released tensor: the general paths'
 * cases). mt: the stack index of the tensor metatable (an upvalue), which
 * a metatable comparison finds without the registry lookups of
 * luaL_testudata. */
static mf_tensor *eager_at(lua_State *L, int idx, int mt) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
  bool is = lua_rawequal(L, -1, mt);
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
    mf_tensor *a = eager_at(L, 1, OPER_MT), *b = eager_at(L, 2, OPER_MT);
    int num = a && b ? 0 : a ? 2 : 1;
    bool fast = a && b ? a->dtype == b->dtype
                       : (a || b) && oper_number_fits(L, num, (a ? a : b)->dtype);
    if (fast) {
      mfL_young_step_if_due(L, ctx);
      /* The userdata first: it may raise while nothing is owned. */
      mfL_tensor *lt = lua_newuserdatauv(L, sizeof *lt, 0);
      memset(lt, 0, sizeof *lt);
      lua_pushvalue(L, OPER_MT);
      lua_setmetatable(L, -2);
      mf_error err;
      mf_tensor *out;
      if (oper_run(L, op, a, b, num, &out, &err) != MF_OK) return mfL_raise_status(L, &err);
      mfL_tensor_adopt_in(ctx, lt, out);
      return 1;
    }
  }
  /* tensor op composite (a RaggedTensor on the right): Lua chose the
   * tensor's metamethod, so the composite's __tf_binary(op, attrs, a, b)
   * takes the call over, as Python's __radd__ after NotImplemented. */
  if (lua_type(L, 2) == LUA_TTABLE && luaL_getmetafield(L, 2, "__tf_binary") != LUA_TNIL) {
    lua_pushvalue(L, OPER_OP);
    lua_pushvalue(L, OPER_ATTRS);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 4, 1);
    return 1;
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
  mfL_checktype(L, 1, LUA_TLIGHTUSERDATA);
  const mf_op_def *op = lua_touserdata(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  lua_pushlightuserdata(L, mfL_context(L));
  lua_pushlightuserdata(L, (void *)op);
  lua_pushvalue(L, 2);
  luaL_getmetatable(L, MFL_TENSOR);
  lua_pushcclosure(L, l_operator_call, 4);
  return 1;
}

/* ---- tf.func's cached call ---- */

/* The trace cache's record of a tf.func's last trace (trace/cache.lua
 * explains the protocol): the key the one hit test (record_fits) reads,
 * and what the C path runs on a hit. Made by core.func_record when a call
 * ran the trace; cache.lua drops it whenever the trace may no longer be
 * the one to run. Its user values: 1 the captures table, 2 the detector's
 * counter of calls that did not trace, 3 the literal and object
 * parameters' values (weak, so a receiver dies with its last use). */
typedef struct {
  mf_graph *traced; /* the placeholders' specs */
  mf_graph *run;    /* the graph a C-path call runs */
  mf_fit mode;      /* a tensor argument fits exactly, or as a subtype */
  int64_t *calls;   /* the detector's counter (core.counter) */
  bool runs;        /* the results are the graph's outputs as they are */
  int ncaptures;    /* the captures table's length, fixed with the trace */
  int nparams;
  char kinds[];     /* per parameter: KIND_* */
} func_record;

/* A parameter's kind in a record: a tensor (fits the placeholder's spec),
 * a Lua value (equal, of the same Lua type), an object (the same one). */
enum { KIND_TENSOR = 't', KIND_LITERAL = 'l', KIND_OBJECT = 'o' };

#define FUNC_RECORD "moonflow.FuncRecord"
#define COUNTER "moonflow.Counter"

/* core.counter() -> a counter C code adds to and core.counter_take reads. */
static int l_counter(lua_State *L) {
  int64_t *n = lua_newuserdatauv(L, sizeof *n, 0);
  *n = 0;
  luaL_setmetatable(L, COUNTER);
  return 1;
}

/* core.counter_take(c) -> its count, which restarts at 0. */
static int l_counter_take(lua_State *L) {
  int64_t *n = mfL_checkudata(L, 1, COUNTER);
  lua_pushinteger(L, (lua_Integer)*n);
  *n = 0;
  return 1;
}

/* core.func_record(run, traced, captures, exact, counter, kinds, values,
 * runs): kinds a string of KIND_* per parameter, values the literal and
 * object parameters' values by position (held weakly), runs whether the
 * C path may return the graph's outputs as the call's results. */
static int l_func_record(lua_State *L) {
  mf_graph *run = mfL_check_graph(L, 1);
  mf_graph *traced = mfL_check_graph(L, 2);
  mfL_checktype(L, 3, LUA_TTABLE);
  int64_t *calls = mfL_checkudata(L, 5, COUNTER);
  size_t nparams;
  const char *kinds = mfL_checklstring(L, 6, &nparams);
  mfL_checktype(L, 7, LUA_TTABLE);
  int ntensors = 0;
  for (size_t i = 0; i < nparams; i++) {
    if (kinds[i] == KIND_TENSOR) ntensors++;
    else if (kinds[i] != KIND_LITERAL && kinds[i] != KIND_OBJECT)
      return luaL_argerror(L, 6, "a parameter kind is none of 't', 'l', 'o'");
  }
  if (ntensors + (int)lua_rawlen(L, 3) != traced->ninputs)
    return luaL_argerror(L, 6, "the tensor parameters and captures are not the graph's inputs");
  func_record *r = lua_newuserdatauv(L, sizeof *r + nparams, 3);
  memset(r, 0, sizeof *r);
  memcpy(r->kinds, kinds, nparams);
  luaL_setmetatable(L, FUNC_RECORD);
  mf_graph_retain(run);
  mf_graph_retain(traced);
  r->traced = traced;
  r->run = run;
  r->mode = lua_toboolean(L, 4) ? MF_FIT_EXACT : MF_FIT_SUBTYPE;
  r->calls = calls;
  r->runs = lua_toboolean(L, 8);
  r->ncaptures = (int)lua_rawlen(L, 3);
  r->nparams = (int)nparams;
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, 5);
  lua_setiuservalue(L, -2, 2);
  lua_pushvalue(L, 7);
  lua_setiuservalue(L, -2, 3);
  return 1;
}

static int func_record_gc(lua_State *L) {
  func_record *r = mfL_checkudata(L, 1, FUNC_RECORD);
  mf_graph_release(r->run);
  mf_graph_release(r->traced);
  r->run = r->traced = NULL;
  return 0;
}

enum { INLINE = 16 }; /* the C path's most feeds and outputs (on the C stack) */

/* THE hit test of the trace cache, for the C path and the Lua dispatcher
 * alike: do the arguments at stack first .. first + nargs - 1 select the
 * trace of record r (at stack rec)? Each tensor argument must be eager and
 * fit its placeholder's spec (mf_spec_fits, in r's mode), each Lua value
 * equal the traced one and be of its Lua type, each object be the traced
 * one. On a hit, feeds[0 ..) holds the tensor arguments (borrowed) and the
 * count is returned; -1 on a miss. tensor_mt: the stack index of the
 * tensor metatable. Allocates nothing. */
static int record_fits(lua_State *L, const func_record *r, int rec, int first, int nargs,
                       int tensor_mt, mf_tensor **feeds) {
  const mf_graph *traced = r->traced;
  if (!traced || nargs != r->nparams) return -1;
  int nt = 0, values = 0;
  for (int i = 0; i < nargs; i++) {
    int arg = first + i;
    if (r->kinds[i] == KIND_TENSOR) {
      mf_tensor *t = eager_at(L, arg, tensor_mt);
      if (!t || nt == INLINE) return -1;
      if (!mf_tensor_fits(t, &traced->nodes[traced->inputs[nt]].out_specs[0], r->mode)) return -1;
      feeds[nt++] = t;
      continue;
    }
    if (!values) {
      lua_getiuservalue(L, rec, 3);
      values = lua_gettop(L);
    }
    lua_rawgeti(L, values, i + 1);
    bool same = r->kinds[i] == KIND_LITERAL
                    ? lua_type(L, -1) == lua_type(L, arg) && lua_rawequal(L, -1, arg)
                    : !lua_isnil(L, -1) && lua_rawequal(L, -1, arg);
    lua_pop(L, 1);
    if (!same) return -1;
  }
  if (values) lua_remove(L, values);
  return nt;
}

/* Upvalues of core.func_fits and of Function.__call (core.func_call_for). */
#define CALL_CTX lua_upvalueindex(1)
#define CALL_TENSOR_MT lua_upvalueindex(2)
#define CALL_SLOW lua_upvalueindex(3)
#define CALL_RECORD_MT lua_upvalueindex(4)
#define CALL_ARMED lua_upvalueindex(5)       /* f -> record, optimiser on */
#define CALL_ARMED_PLAIN lua_upvalueindex(6) /* f -> record, optimiser off */

/* The record at stack idx, or NULL for anything else. */
static func_record *record_at(lua_State *L, int idx) {
  func_record *r = NULL;
  if (lua_getmetatable(L, idx)) {
    if (lua_rawequal(L, -1, CALL_RECORD_MT)) r = lua_touserdata(L, idx);
    lua_pop(L, 1);
  }
  return r;
}

/* The cached call itself: the outputs of record r (at stack rec)'s graph
 * fed the arguments (stack first .. first + nargs - 1) then the captures,
 * or -1 when the call is the Lua path's: a trace open, a tape recording,
 * results to rebuild, arguments that miss. */
static int call_run(lua_State *L, mfL_ctx *ctx, func_record *r, int rec, int first, int nargs) {
  if (ctx->tapes_active != 0 || (ctx->depth > 0 && ctx->eager_scopes == 0)) return -1;
  mf_graph *run = r->run;
  /* No graph: collected already (a finaliser calling it); !runs: the
   * results are rebuilt in Lua, which asks the hit test itself. */
  if (!run || !r->runs) return -1;
  mf_tensor *feeds[INLINE], *outs[INLINE];
  int nt = record_fits(L, r, rec, first, nargs, CALL_TENSOR_MT, feeds);
  if (nt < 0) return -1;
  int ncap = r->ncaptures;
  int nfeeds = nt + ncap;
  if (nfeeds != r->traced->ninputs || nfeeds > INLINE || run->noutputs > INLINE) return -1;
  if (ncap > 0) {
    lua_getiuservalue(L, rec, 1);
    int caps = lua_gettop(L);
    for (int i = 0; i < ncap; i++) {
      lua_rawgeti(L, caps, i + 1);
      feeds[nt + i] = eager_at(L, -1, CALL_TENSOR_MT);
      lua_pop(L, 1); /* the captures table keeps it alive */
      if (!feeds[nt + i])
        return mfL_raise(L, "TypeError", "a capture of graph %s is not an eager tensor", run->name);
    }
  }
  /* The userdata first: they may raise while nothing is owned. A C
   * function starts with LUA_MINSTACK free slots, of which this call has
   * used three (the record, the armed table, the captures) and the loop
   * below one more (a metatable). */
  if (run->noutputs > LUA_MINSTACK - 5)
    mfL_checkstack(L, run->noutputs + LUA_MINSTACK, "too many graph outputs");
  mfL_young_step_if_due(L, ctx);
  int out0 = lua_gettop(L) + 1;
  for (int i = 0; i < run->noutputs; i++) {
    memset(lua_newuserdatauv(L, sizeof(mfL_tensor), 0), 0, sizeof(mfL_tensor));
    lua_pushvalue(L, CALL_TENSOR_MT);
    lua_setmetatable(L, -2);
  }
  mf_error err;
  mf_random_use(ctx->rng); /* as mfL_context does for every entry running ops */
  if (mf_graph_run(run, nfeeds, feeds, outs, &err) != MF_OK) return mfL_raise_status(L, &err);
  for (int i = 0; i < run->noutputs; i++)
    mfL_tensor_adopt_in(ctx, lua_touserdata(L, out0 + i), outs[i]);
  (*r->calls)++;
  return run->noutputs;
}

static int call_slow_done(lua_State *L, int status, lua_KContext k) {
  (void)status;
  (void)k;
  return lua_gettop(L);
}

/* core.set_call_switches(bypass, plain): state.lua's switches, as
 * Function.__call reads them (mfL_ctx.call_bypass: functions run eagerly
 * or a call hook is set, so no call takes the C path; call_plain: the
 * optimiser is off, so calls run the graphs as traced). Reading them from
 * the state table cost a tenth of the cached call. */
static int l_set_call_switches(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  ctx->call_bypass = lua_toboolean(L, 1);
  ctx->call_plain = lua_toboolean(L, 2);
  return 0;
}

/* Function.__call(f, ...), made by core.func_call_for: unless a switch
 * turns the C path off, runs f's armed trace's graph and returns its
 * outputs when call_run can; otherwise returns what the Lua path, upvalue
 * CALL_SLOW, returns for (f, ...). In C from the first instruction: a Lua
 * wrapper (its vararg frame, its table reads) cost a sixth of the cached
 * call. The price is one more C level for a call that takes the Lua path
 * (lua_callk), which trace/tracing.lua's recursion limit allows for. */
static int l_func_call_run(lua_State *L) {
  mfL_ctx *ctx = lua_touserdata(L, CALL_CTX);
  int top = lua_gettop(L);
  if (top >= 1 && !ctx->call_bypass) {
    lua_pushvalue(L, ctx->call_plain ? CALL_ARMED_PLAIN : CALL_ARMED);
    lua_pushvalue(L, 1);
    lua_rawget(L, -2);
    /* armed and armed_plain are cache.lua's own tables, which hold records
     * only: no metatable check. */
    func_record *r = lua_type(L, top + 2) == LUA_TUSERDATA ? lua_touserdata(L, top + 2) : NULL;
    if (r) {
      int n = call_run(L, ctx, r, top + 2, 2, top - 1);
      if (n >= 0) return n;
    }
    lua_settop(L, top);
  }
  lua_pushvalue(L, CALL_SLOW);
  lua_insert(L, 1);
  lua_callk(L, top, LUA_MULTRET, 0, call_slow_done);
  return call_slow_done(L, LUA_OK, 0);
}

/* core.func_fits(record, ...) -> whether the arguments select record's
 * trace: record_fits, for the Lua dispatcher. */
static int l_func_fits(lua_State *L) {
  func_record *r = record_at(L, 1);
  mf_tensor *feeds[INLINE];
  lua_pushboolean(L, r && record_fits(L, r, 1, 2, lua_gettop(L) - 1, CALL_TENSOR_MT, feeds) >= 0);
  return 1;
}

/* Pushes a closure of fn with the upvalues CALL_*, taken from the stack
 * (0: nil): slow, armed, armed_plain. */
static void push_call_closure(lua_State *L, lua_CFunction fn, int slow, int armed,
                              int armed_plain) {
  lua_pushlightuserdata(L, mfL_context(L));
  luaL_getmetatable(L, MFL_TENSOR);
  if (slow) lua_pushvalue(L, slow); else lua_pushnil(L);
  luaL_getmetatable(L, FUNC_RECORD);
  if (armed) lua_pushvalue(L, armed); else lua_pushnil(L);
  if (armed_plain) lua_pushvalue(L, armed_plain); else lua_pushnil(L);
  lua_pushcclosure(L, fn, 6);
}

/* core.func_call_for(slow, armed, armed_plain) -> Function.__call: the C
 * path for an f armed in armed (optimiser on) or armed_plain (off) by
 * trace/cache.lua, with slow(f, ...) as its Lua path. */
static int l_func_call_for(lua_State *L) {
  mfL_checktype(L, 1, LUA_TFUNCTION);
  mfL_checktype(L, 2, LUA_TTABLE);
  mfL_checktype(L, 3, LUA_TTABLE);
  push_call_closure(L, l_func_call_run, 1, 2, 3);
  return 1;
}

int mfL_fastpath_open(lua_State *L) {
  lua_pushcfunction(L, l_operator);
  lua_setfield(L, -2, "operator");
  luaL_newmetatable(L, COUNTER);
  lua_pop(L, 1);
  luaL_newmetatable(L, FUNC_RECORD);
  lua_pushcfunction(L, func_record_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  push_call_closure(L, l_func_fits, 0, 0, 0);
  lua_setfield(L, -2, "func_fits");
  static const luaL_Reg funcs[] = {{"func_call_for", l_func_call_for}, {"func_record", l_func_record},
                                   {"counter", l_counter}, {"counter_take", l_counter_take},
                                   {"set_call_switches", l_set_call_switches},
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
