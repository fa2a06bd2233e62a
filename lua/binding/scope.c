/* scope.c — tf.name_scope's two primitives: a graph's name scope prefix,
 * read and set, and a name reserved in a graph so that two scopes of one
 * name become "forward" and "forward_1", as TF's do. The stack of scopes
 * is Lua's (tf.name_scope returns a to-be-closed object). */
#include "binding.h"

/* core.name_scope_set(graph, prefix | nil) -> the previous prefix | nil */
static int l_name_scope_set(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  const char *prefix = mfL_optstring(L, 2, NULL);
  if (g->scope) lua_pushstring(L, g->scope);
  else lua_pushnil(L);
  mf_error err;
  if (mf_graph_set_scope(g, prefix, &err) != MF_OK) return mfL_raise_status(L, &err);
  return 1;
}

/* core.graph_reserve_name(graph, name) -> name made unique, reserved */
static int l_graph_reserve_name(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  const char *name = mfL_checkstring(L, 2);
  char unique[512];
  mf_error err;
  if (mf_graph_unique_name(g, name, unique, sizeof unique, &err) != MF_OK) return mfL_raise_status(L, &err);
  lua_pushstring(L, unique);
  return 1;
}

int mfL_scope_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"name_scope_set", l_name_scope_set}, {"graph_reserve_name", l_graph_reserve_name}, {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
