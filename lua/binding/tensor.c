/* tensor.c — the tensor userdata: one type for eager values and symbolic
 * (traced) tensors; creation, checks, finalisation, and the conversions of
 * a tensor back to Lua values and to text. Memory of eager values is
 * reported to Lua's collector so eager loops stay bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binding.h"
#include "format.h"

static mfL_tensor *new_tensor(lua_State *L, mfL_ctx *ctx) {
  mfL_young_step_if_due(L, ctx);
  mfL_tensor *lt = lua_newuserdatauv(L, sizeof *lt, 0);
  memset(lt, 0, sizeof *lt);
  luaL_setmetatable(L, MFL_TENSOR);
  return lt;
}

mfL_tensor *mfL_new_tensor(lua_State *L) { return new_tensor(L, mfL_context(L)); }

void mfL_tensor_adopt_in(mfL_ctx *ctx, mfL_tensor *lt, mf_tensor *t) {
  lt->t = t;
  /* A view shares a buffer somebody already accounted for. */
  size_t n = sizeof *t + (t->buf->refcount == 1 ? sizeof *t->buf + t->buf->nbytes : 0);
  mfL_account(ctx, n);
}

void mfL_tensor_adopt(lua_State *L, mfL_tensor *lt, mf_tensor *t) {
  mfL_tensor_adopt_in(mfL_context(L), lt, t);
}

mfL_tensor *mfL_push_eager(lua_State *L, mf_tensor *t) {
  mfL_ctx *ctx = mfL_context(L);
  mfL_tensor *lt = new_tensor(L, ctx);
  mf_tensor_retain(t);
  mfL_tensor_adopt_in(ctx, lt, t);
  return lt;
}

mfL_tensor *mfL_peek_tensor(lua_State *L, int idx) {
  mfL_tensor *lt = luaL_testudata(L, idx, MFL_TENSOR);
  return lt && (lt->t || lt->g) ? lt : NULL;
}

mfL_tensor *mfL_push_symbolic(lua_State *L, mf_graph *g, int node, int index, uint64_t trace_id) {
  mfL_tensor *lt = lua_newuserdatauv(L, sizeof *lt, 0);
  memset(lt, 0, sizeof *lt);
  luaL_setmetatable(L, MFL_TENSOR);
  mf_graph_retain(g);
  lt->g = g;
  lt->node = node;
  lt->index = index;
  lt->trace_id = trace_id;
  return lt;
}

/* Every use of a tensor comes through here, so a tensor whose __gc has run
 * (by hand: tf.Tensor.__gc(x), or a finaliser touching it during close)
 * raises here instead of being read as a symbolic tensor of no graph. */
mfL_tensor *mfL_test_tensor(lua_State *L, int idx) {
  mfL_tensor *lt = luaL_testudata(L, idx, MFL_TENSOR);
  if (lt && !lt->t && !lt->g)
    mfL_raise(L, "ValueError",
              "tensor was released (its __gc has run): it has no value and cannot be used");
  return lt;
}

mfL_tensor *mfL_check_tensor(lua_State *L, int idx) {
  mfL_tensor *lt = mfL_test_tensor(L, idx);
  if (!lt)
    mfL_raise(L, "TypeError", "expected a tensor, got %s", luaL_typename(L, idx));
  return lt;
}

void mfL_tensor_spec(const mfL_tensor *lt, mf_spec *out) {
  if (lt->t)
    mf_spec_of_tensor(lt->t, out);
  else
    *out = lt->g->nodes[lt->node].out_specs[lt->index];
}

/* "name:0" of a symbolic tensor. */
static void symbolic_name(const mfL_tensor *lt, char *buf, size_t n) {
  snprintf(buf, n, "%s:%d", lt->g->nodes[lt->node].name, lt->index);
}

mf_tensor *mfL_check_eager(lua_State *L, int idx) {
  mfL_tensor *lt = mfL_check_tensor(L, idx);
  if (!lt->t) {
    char name[256], shape[128];
    mf_spec s;
    symbolic_name(lt, name, sizeof name);
    mfL_tensor_spec(lt, &s);
    mf_spec_format(&s, shape, sizeof shape);
    if (mfL_trace_live(mfL_context(L), lt->trace_id))
      mfL_raise(L, "TypeError",
                "Tensor(\"%s\", shape=%s, dtype=%s) is a symbolic tensor: it has no value "
                "while its function is being traced. Return it from the function to get its "
                "value, or use tf.print to print it each time the graph runs.",
                name, shape, mf_dtype_name(s.dtype));
    mfL_raise(L, "TypeError",
              "Tensor(\"%s\", shape=%s, dtype=%s) is a symbolic tensor of a trace that has "
              "ended: it never has a value. Use the traced function's return values instead.",
              name, shape, mf_dtype_name(s.dtype));
  }
  return lt->t;
}

/* Small tensors' bytes made since the last full collection that force one
 * (generational mode's bound for them). */
#define FULL_GC_BYTES ((size_t)128 << 20)
/* Larger tensors' bytes that force one, at least (more when Lua's heap is
 * larger: see mfL_account). The block cache's size (alloc.h): it keeps what
 * one collection frees for the results that follow it. */
#define LARGE_GC_BYTES ((size_t)MF_BLOCK_CACHE_BYTES)

/* Lua cannot be asked for the collector's mode, only told one, which
 * answers the mode it leaves. So: incremental, then back to generational
 * if that is what it was. Entering generational mode runs a full
 * collection (lgc.c's entergen), so in that mode this is one; in
 * incremental mode it does nothing and the caller collects. */
static bool collect_if_generational(lua_State *L) {
  if (lua_gc(L, LUA_GCINC, 0, 0, 0) != LUA_GCGEN) return false;
  lua_gc(L, LUA_GCGEN, 0, 0);
  return true;
}

static void full_collection(mfL_ctx *ctx) {
  ctx->alloc_since_gc = 0;
  ctx->large_since_gc = 0;
  ctx->young_step_due = false;
  ctx->generational = collect_if_generational(ctx->L);
  if (!ctx->generational) lua_gc(ctx->L, LUA_GCCOLLECT);
  ctx->lua_heap_at_gc = (size_t)lua_gc(ctx->L, LUA_GCCOUNT) << 10;
  ctx->live_at_gc = mf_live_bytes();
}

void mfL_young_step(lua_State *L, mfL_ctx *ctx) {
  ctx->young_step_due = false;
  /* Telling a generational collector to be generational does nothing and
   * answers its mode, so this also notices collectgarbage("incremental"):
   * then the answer is the old mode, the telling a full collection (once
   * per such switch), and the mode goes back. In incremental mode a step
   * is a slice of a cycle over the whole heap, too dear per tensor. */
  if (lua_gc(L, LUA_GCGEN, 0, 0) == LUA_GCGEN) {
    lua_gc(L, LUA_GCSTEP, 0);
    return;
  }
  lua_gc(L, LUA_GCINC, 0, 0, 0);
  ctx->generational = false;
}

void mfL_account(mfL_ctx *ctx, size_t nbytes) {
  /* Small tensors are counted too: to Lua each is a 64-byte userdata whose
   * finaliser frees several times that in C, and a loop making them would
   * otherwise outrun the collector (cached calls grew without bound).
   * LUA_GCSTEP with a size counts the bytes as if Lua had allocated them,
   * so the incremental collector runs in proportion to them. In
   * generational mode (the stock lua5.4's default) steps do not reach old
   * objects, so a full collection also runs after every FULL_GC_BYTES. */
  if (nbytes < 4096) {
    ctx->small_bytes += nbytes;
    if (ctx->small_bytes < 4096) return;
    nbytes = ctx->small_bytes;
    ctx->small_bytes = 0;
    ctx->alloc_since_gc += nbytes;
    if (ctx->alloc_since_gc >= FULL_GC_BYTES)
      full_collection(ctx);
    else
      lua_gc(ctx->L, LUA_GCSTEP, (int)(nbytes / 1024));
    return;
  }
  /* Larger tensors are not counted as Lua bytes: a collector cycle costs a
   * walk of Lua's heap whatever the tensors weigh, and counting their bytes
   * ran a cycle per heap-size of results (a 1.4 MB heap: two full cycles
   * per step of a small MLP, more than its GEMMs cost). One full
   * collection per LARGE_GC_BYTES of them, or per Lua heap when that is
   * larger, bounds the garbage waiting for the collector at little cost,
   * in either collector mode. */
  size_t limit = ctx->lua_heap_at_gc > LARGE_GC_BYTES ? ctx->lua_heap_at_gc : LARGE_GC_BYTES;
  if (ctx->generational) {
    /* In generational mode a young collection walks only what is new, so
     * one runs before the next tensor is made (mfL_young_step): a result
     * dropped at once, or a chain's intermediate two ops on, is freed
     * while its buffer is still in the processor's cache, and the block
     * cache hands it to the next result. Not at once: then the result
     * itself and its operands would live through it, and a tensor that
     * lives through two becomes old, out of the young collections' reach.
     * What does grow old is bounded by a full collection whenever the
     * tensor memory alive has grown by the limit since the last. */
    ctx->young_step_due = true;
    if (mf_live_bytes() >= ctx->live_at_gc + limit) full_collection(ctx);
    return;
  }
  ctx->large_since_gc += nbytes;
  if (ctx->large_since_gc >= limit) full_collection(ctx);
}

/* Idempotent: a second call finds nothing to release. */
static int tensor_gc(lua_State *L) {
  /* Every eager op's result ends here: the metatable (upvalue 1) is
   * compared directly instead of being looked up by name. */
  mfL_tensor *lt = NULL;
  if (lua_getmetatable(L, 1)) {
    if (lua_rawequal(L, -1, lua_upvalueindex(1))) lt = lua_touserdata(L, 1);
    lua_pop(L, 1);
  }
  if (!lt) lt = mfL_checkudata(L, 1, MFL_TENSOR);
  mf_tensor_release(lt->t);
  mf_graph_release(lt->g);
  lt->t = NULL;
  lt->g = NULL;
  return 0;
}

/* ---- to Lua values ---- */

static void push_element(lua_State *L, const mf_tensor *t, int64_t i) {
  switch (t->dtype) {
    case MF_FLOAT32:
    case MF_FLOAT64:
    case MF_FLOAT16:
    case MF_BFLOAT16: lua_pushnumber(L, mf_tensor_get_f64(t, i)); break;
    /* uint64 past 2^63 comes out wrapped, as a Lua integer must */
    case MF_INT32:
    case MF_INT64:
    case MF_INT8:
    case MF_INT16:
    case MF_UINT8:
    case MF_UINT16:
    case MF_UINT32:
    case MF_UINT64: lua_pushinteger(L, mf_tensor_get_i64(t, i)); break;
    case MF_BOOL: lua_pushboolean(L, MF_DATA(t, bool)[i]); break;
    case MF_STRING: {
      const mf_string *s = &MF_DATA(t, mf_string)[i];
      lua_pushlstring(L, s->ptr ? s->ptr : "", s->len);
      break;
    }
    default: lua_pushnil(L); break;
  }
}

/* Nested 1-based tables for axis `axis`, starting at flat element *pos. */
static void push_nested(lua_State *L, const mf_tensor *t, int axis, int64_t *pos) {
  if (axis == t->rank) {
    push_element(L, t, (*pos)++);
    return;
  }
  mfL_checkstack(L, 4, "tensor too deep");
  int64_t n = t->shape[axis];
  lua_createtable(L, n < 1 << 24 ? (int)n : 0, 0);
  for (int64_t i = 0; i < n; i++) {
    push_nested(L, t, axis + 1, pos);
    lua_rawseti(L, -2, i + 1);
  }
}

static int numpy_tables(lua_State *L) {
  int64_t pos = 0;
  push_nested(L, lua_touserdata(L, 1), 0, &pos);
  return 1;
}

/* core.numpy(t) -> a Lua number/boolean/string (rank 0) or nested tables.
 * Lua's memory running out part way leaves the tables made so far as
 * garbage: a full collection then a second try (which often fits), and
 * past that a ResourceExhaustedError, after a collection that leaves the
 * session's next allocation room. */
static int l_numpy(lua_State *L) {
  mf_tensor *t = mfL_check_eager(L, 1);
  if (t->dtype == MF_RESOURCE) return mfL_raise(L, "TypeError", "a resource handle has no value");
  if (t->dtype == MF_VARIANT)
    return mfL_raise(L, "TypeError", "a variant tensor (a dataset, an iterator) has no value to convert");
  for (int attempt = 0;; attempt++) {
    lua_pushcfunction(L, numpy_tables);
    lua_pushlightuserdata(L, t);
    int status = lua_pcall(L, 1, 1, 0);
    if (status == LUA_OK) return 1;
    if (status != LUA_ERRMEM) return lua_error(L);
    lua_pop(L, 1);
    lua_gc(L, LUA_GCCOLLECT);
    if (attempt == 1) {
      char shape[128];
      mf_shape_format(t->rank, t->shape, shape, sizeof shape);
      return mfL_raise(L, "ResourceExhaustedError",
                       "OOM when converting a tensor of shape %s (%lld elements) to Lua tables: "
                       "Lua ran out of memory", shape, (long long)t->size);
    }
  }
}

/* ---- Lua's allocator, wrapped ---- */

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  mfL_ctx *ctx = ud;
  long long old = ptr ? (long long)osize : 0;
  if (nsize > (size_t)old && ctx->lua_limit >= 0 &&
      ctx->lua_bytes + (long long)nsize - old > ctx->lua_limit)
    return NULL;
  void *p = ctx->alloc(ctx->alloc_ud, ptr, osize, nsize);
  if (p || nsize == 0) ctx->lua_bytes += (long long)nsize - old;
  /* Lua's sweeps count towards giving pages back (alloc.h), in batches. */
  if (nsize == 0 && (ctx->lua_freed += (size_t)old) >= 64 << 10) {
    mf_alloc_note_freed(ctx->lua_freed);
    ctx->lua_freed = 0;
  }
  return p;
}

void mfL_memory_open(lua_State *L, mfL_ctx *ctx) {
  ctx->alloc = lua_getallocf(L, &ctx->alloc_ud);
  ctx->lua_limit = -1;
  lua_setallocf(L, limited_alloc, ctx);
  ctx->generational = collect_if_generational(L);
  ctx->live_at_gc = mf_live_bytes();
}

/* At lua_close the context goes before the objects Lua frees after it:
 * those frees go straight to the original allocator. */
void mfL_memory_close(lua_State *L, mfL_ctx *ctx) {
  if (ctx->alloc) lua_setallocf(L, ctx->alloc, ctx->alloc_ud);
  ctx->alloc = NULL;
}

/* core.lua_memory_limit(bytes | nil): caps the Lua memory this state may
 * add from now on (tests of what happens past memory); nil lifts it. */
static int l_lua_memory_limit(lua_State *L) {
  mfL_ctx *ctx = mfL_context(L);
  if (lua_isnoneornil(L, 1)) {
    ctx->lua_limit = -1;
  } else {
    lua_Integer n = mfL_checkinteger(L, 1);
    ctx->lua_limit = ctx->lua_bytes + (n > 0 ? n : 0);
  }
  return 0;
}

/* core.element(t, i) -> flat element i (0-based) as a Lua value */
static int l_element(lua_State *L) {
  mf_tensor *t = mfL_check_eager(L, 1);
  lua_Integer i = mfL_checkinteger(L, 2);
  if (i < 0 || i >= t->size) return mfL_raise(L, "OutOfRangeError", "element %lld is out of range", (long long)i);
  push_element(L, t, i);
  return 1;
}

#define MFL_TEXT "moonflow.text"

/* A formatted C string is held by a userdata box (its __gc frees it) from
 * before it is made until it is a Lua string: pushing it cannot leak it. */
static int text_gc(lua_State *L) {
  char **box = mfL_checkudata(L, 1, MFL_TEXT);
  free(*box);
  *box = NULL;
  return 0;
}

/* core.format(t, how) — how: "str" (TF str), "repr" (TF repr), "numpy"
 * (NumPy str), "numpy_repr", "print" (tf.print) */
static int l_format(lua_State *L) {
  static const char *const hows[] = {"str", "repr", "numpy", "numpy_repr", "print", NULL};
  mf_tensor *t = mfL_check_eager(L, 1);
  const char *name = mfL_optstring(L, 2, "str");
  int how = 0;
  while (hows[how] && strcmp(hows[how], name) != 0) how++;
  if (!hows[how]) return mfL_raise(L, "ValueError", "unknown format '%s'", name);
  int edge = (int)mfL_optinteger(L, 3, 3);
  char **box = lua_newuserdatauv(L, sizeof *box, 0);
  *box = NULL;
  luaL_setmetatable(L, MFL_TEXT);
  switch (how) {
    case 0: *box = mf_format_tensor_str(t); break;
    case 1: *box = mf_format_tensor_repr(t); break;
    case 2: *box = mf_format_numpy_str(t); break;
    case 3: *box = mf_format_numpy_repr(t); break;
    default: *box = mf_format_tf_print(t, edge); break;
  }
  if (!*box) return mfL_raise(L, "ResourceExhaustedError", "out of memory while formatting");
  lua_pushstring(L, *box);
  free(*box);
  *box = NULL;
  return 1;
}

/* core.info(t) -> is_symbolic, dtype, shape (table, -1 unknown; nil rank
 * unknown), name ("x:0" or nil), graph handle (symbolic), node, index,
 * trace_id */
static int l_info(lua_State *L) {
  mfL_tensor *lt = mfL_check_tensor(L, 1);
  mf_spec s;
  mfL_tensor_spec(lt, &s);
  lua_pushboolean(L, lt->t == NULL);
  mfL_push_dtype(L, s.dtype);
  if (s.rank < 0) {
    lua_pushnil(L);
  } else {
    lua_createtable(L, s.rank, 0);
    for (int i = 0; i < s.rank; i++) {
      lua_pushinteger(L, s.shape[i]);
      lua_rawseti(L, -2, i + 1);
    }
  }
  if (lt->t) return 3;
  char name[256];
  symbolic_name(lt, name, sizeof name);
  lua_pushstring(L, name);
  mfL_push_graph(L, lt->g);
  lua_pushinteger(L, lt->node);
  lua_pushinteger(L, lt->index);
  lua_pushinteger(L, (lua_Integer)lt->trace_id);
  return 8;
}

/* core.is_tensor(v) */
static int l_is_tensor(lua_State *L) {
  /* a released tensor is still one: this asks the type, not the value */
  lua_pushboolean(L, luaL_testudata(L, 1, MFL_TENSOR) != NULL);
  return 1;
}

/* core.is_symbolic(t) */
static int l_is_symbolic(lua_State *L) {
  mfL_tensor *lt = mfL_test_tensor(L, 1);
  lua_pushboolean(L, lt && lt->t == NULL);
  return 1;
}

/* core.identity(t) -> a string naming the tensor itself, not the Lua
 * object holding it: two userdata for the same eager tensor (or the same
 * graph output) share it. Tapes and captures compare tensors by it. */
static int l_identity(lua_State *L) {
  mfL_tensor *lt = mfL_check_tensor(L, 1);
  if (lt->t)
    lua_pushfstring(L, "%p", (void *)lt->t);
  else
    lua_pushfstring(L, "%p/%d:%d", (void *)lt->g, lt->node, lt->index);
  return 1;
}

/* core.spec_matches(t, dtype, dims, mode) -> does tensor t (eager or
 * symbolic) fit the spec? dims: a list of integers (anything else: an
 * unknown dimension), nil for an unknown rank. mode: true for an exact fit,
 * false/nil for t at least as specific as the spec, "compatible" for TF's
 * is_compatible_with (mf_spec_fits, op.h: the one answer to "does this call
 * fit the trace?"). The hot path of tf.func dispatch: allocates nothing. */
static int l_spec_matches(lua_State *L) {
  mfL_tensor *lt = mfL_test_tensor(L, 1);
  mf_spec want = {.dtype = 0, .rank = -1};
  int dt = mfL_to_dtype(L, 2);
  bool ok = lt && dt >= 0;
  if (ok && !lua_isnil(L, 3)) {
    want.rank = (int)lua_rawlen(L, 3);
    ok = want.rank <= MF_MAX_RANK;
    for (int i = 0; ok && i < want.rank; i++) {
      lua_rawgeti(L, 3, i + 1);
      want.shape[i] = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : MF_UNKNOWN_DIM;
      lua_pop(L, 1);
    }
  }
  if (ok) {
    want.dtype = (mf_dtype)dt;
    mf_fit mode = lua_type(L, 4) == LUA_TSTRING ? MF_FIT_COMPATIBLE
                  : lua_toboolean(L, 4)          ? MF_FIT_EXACT
                                                 : MF_FIT_SUBTYPE;
    mf_spec have;
    mfL_tensor_spec(lt, &have);
    ok = mf_spec_fits(&have, &want, mode);
  }
  lua_pushboolean(L, ok);
  return 1;
}

/* core.known(t) -> the value of t when it is known: t itself when eager,
 * the value a trace knows statically (a Const, a folded op), else nil. Lets
 * Lua code (gradients, shape helpers) compute static things in both modes. */
static int l_known(lua_State *L) {
  mfL_tensor *lt = mfL_check_tensor(L, 1);
  if (lt->t) {
    lua_settop(L, 1);
    return 1;
  }
  mf_tensor *k = lt->g->nodes[lt->node].known[lt->index];
  if (!k) return 0;
  mfL_push_eager(L, k);
  return 1;
}

/* core.live_bytes() -> bytes held by all tensor buffers */
static int l_live_bytes(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)mf_live_bytes());
  return 1;
}

/* core.live_buffers() -> how many tensor buffers are alive (a debugging
 * count: tests use it to see that a failed op leaks nothing) */
static int l_live_buffers(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)mf_live_buffers());
  return 1;
}

int mfL_tensor_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"numpy", l_numpy}, {"lua_memory_limit", l_lua_memory_limit}, {"element", l_element},   {"format", l_format},
      {"info", l_info},           {"is_tensor", l_is_tensor}, {"is_symbolic", l_is_symbolic},
      {"identity", l_identity},   {"live_bytes", l_live_bytes},
      {"live_buffers", l_live_buffers},
      {"spec_matches", l_spec_matches}, {"known", l_known}, {NULL, NULL}};
  if (luaL_newmetatable(L, MFL_TEXT)) {
    lua_pushcfunction(L, text_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, MFL_TENSOR)) {
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, tensor_gc, 1);
    lua_setfield(L, -2, "__gc");
    lua_pushstring(L, "Tensor");
    lua_setfield(L, -2, "__name");
  }
  /* The Lua library fills in __index, operators and __tostring; expose the
   * metatable to it. */
  lua_setfield(L, -2, "tensor_metatable");
  mfL_setfuncs(L, funcs);
  return 0;
}
