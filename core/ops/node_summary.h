/* node_summary.h — the error TensorFlow raises when a node cannot be added
 * to a graph.
 *
 * TF runs an op's shape function when it adds the op's node to a graph
 * (TF_FinishOperation -> ShapeRefiner::AddNode -> InferenceContext::Run).
 * When that fails, InferenceContext::AttachContext appends a description
 * of the node to the message, and Python's ops._create_c_op raises the
 * InvalidArgumentError as ValueError:
 *
 *   Dimensions must be equal, but are 3 and 4 for '{{node add}} =
 *   AddV2[T=DT_FLOAT](x, y)' with input shapes: [3], [4].
 *
 * The node is SummarizeNodeDef's: {{node NAME}} = OP[ATTRS](INPUTS), the
 * attributes sorted by name and printed as SummarizeAttrValue does, the
 * inputs as the NodeDef names them ("x", "split:1"). The shapes are
 * InferenceContext::DebugString's ("[2,?]", "?" for an unknown rank). Two
 * clauses follow when the shape function read input values: "and with
 * computed input tensors: input[1] = <0>" (Tensor::SummarizeValue) and
 * "and with input tensors computed as partial shapes: input[1] = [3,4]"
 * (a value read as a shape, or what is known of one element by element:
 * [?,37] for tf.stack({n, 37}), partial.h).
 * Eagerly the same mistake is the kernel's InvalidArgumentError, which TF
 * tags " [Op:AddV2]"; a graph's message has no such tag.
 *
 * moonflow's inference is TF's shape function while tracing (op.h's
 * `building`), so the tracing branch of the op call (lua/binding/opcall.c)
 * hands its failures here. */
#ifndef MF_NODE_SUMMARY_H
#define MF_NODE_SUMMARY_H

#include "graph.h"

/* err holds the failure of inferring c (op, attrs, input specs and known
 * values) as node `name` of g, with inputs `inputs` (nodes of g). An
 * InvalidArgumentError becomes the ValueError TF raises, its message as
 * above; any other status is TF's own at that point (a TypeError is
 * Python's, before the node exists) and stays as it is. Returns err's new
 * status. Never fails: a message too long is cut. */
mf_status mf_node_construction_error(const mf_graph *g, const char *name, const mf_op_call *c,
                                     const mf_tensor_ref *inputs, mf_error *err);

/* SummarizeNodeDef's text for such a node, written to buf (cut to n). */
void mf_node_summary(const mf_graph *g, const char *name, const mf_op_call *c,
                     const mf_tensor_ref *inputs, char *buf, size_t n);

#endif
