/* source.c — records, while tracing, the user's line that made each node.
 * The frames of moonflow's own Lua files are skipped (a wrapper such as
 * tf.matmul is not where a learner looks), so a node made inside a
 * library call made from user code carries the user's line. The line's
 * code and the variable it assigns are filled in by Lua when the trace ends
 * (trace/source.lua): reading chunk text is no work for every op call. */
#include "source.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    /* One record in the graph's pool for all of them; a gradient node
     * says which forward node it differentiates. Out of memory: the nodes
     * keep no source, nothing else fails. */
    mf_error err;
    mf_graph_set_source_range(g, from, to, ar.source, ar.currentline,
                              gradient_of[0] ? gradient_of : NULL, &err);
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

/* A line's filled sources: its code alone (the parts of an expression)
 * and its code with the variable (the value assigned). */
typedef struct line_fill {
  const mf_node_source *line; /* the record without code; NULL: empty slot */
  const mf_node_source *code, *named;
} line_fill;

/* Line fills by record, open addressing: on the C stack for the few lines
 * of most traces, in a userdata (freed even when code_of raises) beyond. */
enum { FILL_SLOTS = 64 };
typedef struct fill_table {
  line_fill *slots;
  size_t cap, used;
} fill_table;

static line_fill *fill_slot(const fill_table *t, const mf_node_source *line) {
  size_t mask = t->cap - 1;
  size_t i = (size_t)(((uintptr_t)line >> 4) * 0x9e3779b97f4a7c15ull >> 40) & mask;
  while (t->slots[i].line && t->slots[i].line != line) i = (i + 1) & mask;
  return &t->slots[i];
}

/* Room for one more line (kept at most half full); pushes the new
 * userdata when it grows. */
static void fill_reserve(lua_State *L, fill_table *t) {
  if (2 * (t->used + 1) <= t->cap) return;
  fill_table bigger = {lua_newuserdatauv(L, 2 * t->cap * sizeof(line_fill), 0), 2 * t->cap, t->used};
  memset(bigger.slots, 0, bigger.cap * sizeof(line_fill));
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].line) *fill_slot(&bigger, t->slots[i].line) = t->slots[i];
  *t = bigger;
}

/* The fill of `line` (asking code_of, at index 2, on first sight), or NULL
 * when its code is unknown or memory ran out. */
static const line_fill *fill_of(lua_State *L, mf_graph *g, fill_table *t, const mf_node_source *line) {
  line_fill *f = fill_slot(t, line);
  if (f->line) return f->code ? f : NULL;
  fill_reserve(L, t);
  int top = lua_gettop(L);
  f = fill_slot(t, line);
  f->line = line;
  t->used++;
  lua_pushvalue(L, 2);
  lua_pushstring(L, line->chunk);
  lua_pushinteger(L, line->line);
  lua_call(L, 2, 2);
  const char *code = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
  const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  if (code) {
    f->code = mf_source_pool_intern(g->sources, line->chunk, line->line, code, NULL);
    f->named = mf_source_pool_intern(g->sources, line->chunk, line->line, code, name);
    if (!f->named) f->code = NULL;
  }
  lua_settop(L, top);
  return f->code ? f : NULL;
}

/* core.graph_fill_sources(graph, code_of): nodes with a line but no code
 * yet get it from code_of(chunk, line) -> code|nil, variables|nil, asked
 * once per line. In a run of nodes made by one line, the last op of each
 * repetition is the value assigned (the others are parts of its
 * expression, or the Consts of its numbers) and carries the variables. */
static int l_graph_fill_sources(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  mfL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  line_fill first[FILL_SLOTS] = {0};
  fill_table t = {first, FILL_SLOTS, 0};
  for (int i = 0; i < g->nnodes;) {
    const mf_node_source *s = g->nodes[i].source;
    if (!s || s->text) {
      i++;
      continue;
    }
    /* Unfilled records of one line are one record: the run is the nodes
     * that share it. */
    int j = i;
    while (j + 1 < g->nnodes && g->nodes[j + 1].source == s) j++;
    const line_fill *f = fill_of(L, g, &t, s);
    if (f) {
      int period = run_period(g, i, j);
      for (int k = i; k <= j; k++) g->nodes[k].source = (k - i + 1) % period == 0 ? f->named : f->code;
    }
    i = j + 1;
  }
  return 0;
}

/* core.file_stamp(path) -> size, mtime in ns | nil: whether a file's text
 * read before is still its text, for one stat instead of reading it again
 * (a trace's node sources and AutoGraph ask for the same files often). */
static int l_file_stamp(lua_State *L) {
  struct stat st;
  if (stat(mfL_checkstring(L, 1), &st) != 0) return 0;
  lua_pushinteger(L, (lua_Integer)st.st_size);
  lua_pushinteger(L, (lua_Integer)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
  return 2;
}

void mfL_source_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"set_source_library", l_set_source_library},
                                   {"graph_sources", l_graph_sources},
                                   {"set_gradient_of", l_set_gradient_of},
                                   {"graph_fill_sources", l_graph_fill_sources},
                                   {"file_stamp", l_file_stamp},
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
}
