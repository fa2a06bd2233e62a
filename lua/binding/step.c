/* step.c — core.run_node: one node of a graph run on values the caller
 * holds (node_run.h), for the stepper (moonflow.debug.step); and
 * core.profile_start/profile_stop around runs (profile.h) for the
 * profiler (moonflow.debug.profile). */
#include "alloc.h"
#include "binding.h"
#include "node_run.h"
#include "profile.h"
#include "step.h"

#include <stdbool.h>
#include <stdlib.h>

/* core.run_node(graph, id, {inputs}) -> outputs...: id is 0-based; inputs
 * are eager tensors, one per node input. */
static int l_run_node(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  lua_Integer id = mfL_checkinteger(L, 2);
  mfL_checktype(L, 3, LUA_TTABLE);
  if (id < 0 || id >= g->nnodes) return mfL_raise(L, "ValueError", "graph %s has no node %d", g->name, (int)id);
  const mf_node *nd = &g->nodes[id];
  if ((int)lua_rawlen(L, 3) != nd->nin)
    return mfL_raise(L, "ValueError", "node %s takes %d inputs, %d were given", nd->name, nd->nin,
                     (int)lua_rawlen(L, 3));
  mf_tensor **in = mf_calloc((size_t)nd->nin + (size_t)nd->nout + 1, sizeof *in);
  if (!in) return mfL_raise(L, "ResourceExhaustedError", "out of memory");
  mf_tensor **out = in + nd->nin;
  for (int k = 0; k < nd->nin; k++) {
    lua_rawgeti(L, 3, k + 1);
    mfL_tensor *lt = mfL_peek_tensor(L, -1);
    lua_pop(L, 1);
    if (!lt || !lt->t) {
      free(in);
      return mfL_raise(L, "TypeError", "input %d of node %s is not an eager tensor", k + 1, nd->name);
    }
    in[k] = lt->t;
  }
  mf_error err;
  mf_status s = mf_node_run(g, (int)id, in, out, &err);
  if (s != MF_OK) {
    free(in);
    return mfL_raise_status(L, &err);
  }
  mfL_checkstack(L, nd->nout + 4, "too many node outputs");
  for (int k = 0; k < nd->nout; k++) {
    mfL_push_eager(L, out[k]);
    mf_tensor_release(out[k]);
  }
  free(in);
  return nd->nout;
}

/* The profile being recorded on this thread (one at a time). */
static _Thread_local mf_profile profile;
static _Thread_local bool profiling;

/* core.profile_start(): every graph run on this thread from now is timed
 * node by node until core.profile_stop. */
static int l_profile_start(lua_State *L) {
  if (profiling) return mfL_raise(L, "ValueError", "a profile is already being recorded");
  mf_profile_clear(&profile);
  profiling = true;
  mf_profile_install(&profile);
  return 0;
}

/* core.profile_stop() -> {{graph=, node=, type=, depth=, calls=, self_ns=,
 * total_ns=, bytes=}, ...}, run_ns, runs (the profile holds the graphs it
 * timed until then). */
static int l_profile_stop(lua_State *L) {
  if (!profiling) return mfL_raise(L, "ValueError", "no profile is being recorded");
  mf_profile_install(NULL);
  profiling = false;
  lua_createtable(L, profile.n, 0);
  int k = 0;
  for (int i = 0; i < profile.cap; i++) {
    const mf_profile_entry *e = &profile.e[i];
    if (!e->g) continue;
    const mf_node *nd = &e->g->nodes[e->node];
    lua_createtable(L, 0, 8);
    lua_pushstring(L, e->g->name);
    lua_setfield(L, -2, "graph");
    lua_pushstring(L, nd->name);
    lua_setfield(L, -2, "node");
    lua_pushstring(L, nd->op->name);
    lua_setfield(L, -2, "type");
    lua_pushinteger(L, e->depth);
    lua_setfield(L, -2, "depth");
    lua_pushinteger(L, e->calls);
    lua_setfield(L, -2, "calls");
    lua_pushinteger(L, e->self_ns);
    lua_setfield(L, -2, "self_ns");
    lua_pushinteger(L, e->total_ns);
    lua_setfield(L, -2, "total_ns");
    lua_pushinteger(L, e->bytes);
    lua_setfield(L, -2, "bytes");
    lua_rawseti(L, -2, ++k);
  }
  lua_pushinteger(L, profile.run_ns);
  lua_pushinteger(L, profile.runs);
  mf_profile_clear(&profile);
  return 3;
}

void mfL_step_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"run_node", l_run_node},
                                   {"profile_start", l_profile_start},
                                   {"profile_stop", l_profile_stop},
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
}
