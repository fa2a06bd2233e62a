#include "node_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void mf_node_annotate_error(const mf_node *nd, mf_error *err) {
  if (!err->message[0] || strstr(err->message, "[[node ")) return;
  size_t len = strlen(err->message);
  snprintf(err->message + len, sizeof err->message - len, " [[node %s]]", nd->name);
  /* The user's line that made the node, for a learner to find it. */
  char where[256];
  len = strlen(err->message);
  if (mf_node_source_where(nd, where, sizeof where))
    snprintf(err->message + len, sizeof err->message - len, " (made at %s)", where);
}

mf_status mf_node_run(const mf_graph *g, int node, mf_tensor *const *inputs, mf_tensor **outs,
                      mf_error *err) {
  if (node < 0 || node >= g->nnodes)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "graph %s has no node %d", g->name, node);
  const mf_node *nd = &g->nodes[node];
  if (!nd->op->kernel)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "node %s (%s) has no kernel to run", nd->name,
                        nd->op->name);
  for (int k = 0; k < nd->nin; k++)
    if (!inputs[k])
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s: input %d has no value", nd->name, k);
  enum { INLINE = 16 };
  mf_spec specs_inline[INLINE];
  mf_spec *specs = nd->nin <= INLINE ? specs_inline : mf_malloc((size_t)nd->nin * sizeof *specs);
  if (!specs) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int k = 0; k < nd->nin; k++) mf_spec_of_tensor(inputs[k], &specs[k]);
  /* What a kernel keeps between runs lives as long as this one run. */
  mf_kernel_state state = {0};
  mf_op_call c;
  mf_op_call_init(&c, nd->op, nd->nin, specs, inputs, nd->attrs);
  c.state = &state;
  mf_status s = mf_op_execute(&c, err);
  if (s == MF_OK && c.nout != nd->nout)
    s = mf_error_set(err, MF_ERR_INTERNAL, "%s gave %d outputs, its node has %d", nd->name, c.nout,
                     nd->nout);
  if (s == MF_OK)
    for (int k = 0; k < nd->nout; k++) outs[k] = mf_op_call_take_output(&c, k);
  mf_op_call_free(&c);
  if (state.drop) state.drop(state.data);
  if (specs != specs_inline) free(specs);
  if (s != MF_OK) mf_node_annotate_error(nd, err);
  return s;
}
