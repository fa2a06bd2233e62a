/* source.c — records, while tracing, the user's line that made each node.
 * The frames of moonflow's own Lua files are skipped (a wrapper such as
 * tf.matmul is not where a learner looks), so a node made inside a
 * library call made from user code carries the user's line. The line's
 * code and the variable it assigns are filled in by Lua when the trace ends
 * (trace/source.lua): reading chunk text is no work for every op call. */
#include "source.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The library's chunk-name prefix ("@/path/lua/moonflow/"), the same for
 * every state of the process; empty: recording is off. */
static char library[1024];
static size_t library_len;

/* Frames walked at most: a node made deeper under library code than this
 * keeps no source rather than costing a long walk. */
enum { MAX_LEVELS = 256 };

/* While a tape's gradient rule runs (core.set_gradient_of): "gradient of
 * mul (y = x * 2)", the code every node it makes shows; "" otherwise. */
static _Thread_local char gradient_of[256];

/* Nodes looked back at for the Consts an op's inputs made just before it. */
enum { MAX_CONSTS_BEFORE = 16 };

mf_status mfL_add_traced_node(lua_State *L, mf_graph *g, const char *unique_name, mf_op_call *c,
                              const mf_tensor_ref *inputs, int *node_out, mf_error *err) {
  MF_TRY(mf_graph_add_node(g, unique_name, c, inputs, node_out, err));
  /* The Consts made for its inputs (Lua numbers) come just before it. */
  int from = *node_out;
  extern const mf_op_def mf_op_Const;
  while (from > 0 && *node_out - from < MAX_CONSTS_BEFORE && !g->nodes[from - 1].source &&
         g->nodes[from - 1].op == &mf_op_Const)
    from--;
  mfL_record_source(L, g, from, *node_out);
  return MF_OK;
}

void mfL_record_source(lua_State *L, mf_graph *g, int from, int to) {
  if (!library_len || from > to) return;
  lua_Debug ar;
  /* A frame Lua reused for a tail call hides its caller. AutoGraph's
   * conversion keeps the user's returns off tail calls (runtime.lua's
   * ret), so a hidden caller is the library's and the walk goes on. */
  for (int level = 1; level < MAX_LEVELS && lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    if (strncmp(ar.source, library, library_len) == 0) continue;
    mf_error err;
    for (int i = from; i <= to; i++) {
      if (g->nodes[i].source) continue;
      if (mf_graph_set_source(g, i, ar.source, ar.currentline, &err) != MF_OK)
        return; /* out of memory: the node keeps no source, nothing else fails */
      /* A gradient node says which forward node it differentiates. */
      if (gradient_of[0]) mf_graph_set_source_text(g, i, gradient_of, NULL, &err);
    }
    return;
  }
}

static const char fill_key = 'f';

void mfL_source_fill(lua_State *L, mf_graph *g) {
  if (!library_len) return;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fill_key) != LUA_TFUNCTION) {
    lua_pop(L, 1);
    return;
  }
  mfL_push_graph(L, g);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
}

/* core.set_source_library(prefix [, fill]): chunks whose names start with
 * prefix are the library's; nil or "" turns recording off. fill(graph) is
 * called on every graph whose trace ends (mfL_source_fill). */
static int l_set_source_library(lua_State *L) {
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &fill_key);
  const char *p = mfL_optstring(L, 1, "");
  size_t n = strlen(p);
  if (n >= sizeof library) return mfL_raise(L, "ValueError", "library path too long");
  memcpy(library, p, n + 1);
  library_len = n;
  return 0;
}

void mfL_push_node_source(lua_State *L, const mf_node *n) {
  const mf_node_source *s = n->source;
  if (!s) {
    lua_pushboolean(L, 0);
    return;
  }
  lua_createtable(L, 0, 5);
  lua_pushstring(L, n->op->name);
  lua_setfield(L, -2, "type");
  lua_pushstring(L, s->chunk);
  lua_setfield(L, -2, "chunk");
  lua_pushinteger(L, s->line);
  lua_setfield(L, -2, "line");
  if (s->text) {
    lua_pushstring(L, s->text);
    lua_setfield(L, -2, "text");
  }
  if (s->name) {
    lua_pushstring(L, s->name);
    lua_setfield(L, -2, "name");
  }
}

/* core.set_gradient_of(text | nil) -> the text it replaces (or nil) */
static int l_set_gradient_of(lua_State *L) {
  const char *text = mfL_optstring(L, 1, "");
  if (gradient_of[0])
    lua_pushstring(L, gradient_of);
  else
    lua_pushnil(L);
  snprintf(gradient_of, sizeof gradient_of, "%s", text);
  return 1;
}

/* core.graph_sources(graph) -> {[id+1] = {type=, chunk=, line=, text=, name=} | false} */
static int l_graph_sources(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_createtable(L, g->nnodes, 0);
  for (int i = 0; i < g->nnodes; i++) {
    mfL_push_node_source(L, &g->nodes[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* The shortest period of the ops of nodes first..last (a line a Lua loop
 * runs several times in a row makes its ops again each time). */
static int run_period(const mf_graph *g, int first, int last) {
  int len = last - first + 1;
  for (int p = 1; p < len; p++) {
    if (len % p) continue;
    bool ok = true;
    for (int k = first + p; ok && k <= last; k++) ok = g->nodes[k].op == g->nodes[k - p].op;
    if (ok) return p;
  }
  return len;
}

/* core.graph_source_runs(graph) -> {{first, last, period, chunk, line}, ...}:
 * the runs of consecutive nodes made by one line whose code is not filled
 * in yet (ids 0-based). */
static int l_graph_source_runs(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_newtable(L);
  int nruns = 0;
  for (int i = 0; i < g->nnodes;) {
    const mf_node_source *s = g->nodes[i].source;
    if (!s || s->text) {
      i++;
      continue;
    }
    int j = i;
    while (j + 1 < g->nnodes) {
      const mf_node_source *t = g->nodes[j + 1].source;
      if (!t || t->text || t->line != s->line || strcmp(t->chunk, s->chunk) != 0) break;
      j++;
    }
    lua_createtable(L, 5, 0);
    lua_pushinteger(L, i);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, j);
    lua_rawseti(L, -2, 2);
    lua_pushinteger(L, run_period(g, i, j));
    lua_rawseti(L, -2, 3);
    lua_pushstring(L, s->chunk);
    lua_rawseti(L, -2, 4);
    lua_pushinteger(L, s->line);
    lua_rawseti(L, -2, 5);
    lua_rawseti(L, -2, ++nruns);
    i = j + 1;
  }
  return 1;
}

/* core.graph_set_source_run(graph, first, last, period, text, name|nil):
 * nodes first..last get the line's code; the last of every `period` nodes
 * the variable's name too (the value the line assigned). */
static int l_graph_set_source_run(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_Integer first = mfL_checkinteger(L, 2), last = mfL_checkinteger(L, 3);
  lua_Integer period = mfL_checkinteger(L, 4);
  const char *text = mfL_checkstring(L, 5);
  const char *name = mfL_optstring(L, 6, NULL);
  if (first < 0 || last >= g->nnodes || first > last || period < 1)
    return mfL_raise(L, "ValueError", "bad node run %d..%d", (int)first, (int)last);
  mf_error err;
  for (lua_Integer k = first; k <= last; k++) {
    if (!g->nodes[k].source) continue;
    const char *nm = (k - first + 1) % period == 0 ? name : NULL;
    if (mf_graph_set_source_text(g, (int)k, text, nm, &err) != MF_OK) return mfL_raise_status(L, &err);
  }
  return 0;
}

void mfL_source_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"set_source_library", l_set_source_library},
                                   {"graph_sources", l_graph_sources},
                                   {"set_gradient_of", l_set_gradient_of},
                                   {"graph_source_runs", l_graph_source_runs},
                                   {"graph_set_source_run", l_graph_set_source_run},
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
}
