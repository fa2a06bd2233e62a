/* step.c — core.run_node: one node of a graph run on values the caller
 * holds (node_run.h), for the stepper (moonflow.debug.step). */
#include "alloc.h"
#include "binding.h"
#include "node_run.h"
#include "step.h"

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

void mfL_step_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"run_node", l_run_node}, {NULL, NULL}};
  mfL_setfuncs(L, funcs);
}
