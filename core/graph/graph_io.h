/* graph_io.h — graphs as JSON: the portable form saved programs use
 * (docs/saved_model.md).
 *
 * A graph is {"name", "nodes": [...], "inputs": [node ids],
 * "outputs": [[node, index], ...]}; a node is {"name", "op", "inputs":
 * [[node, index], ...], "control": [node ids], "attrs": {name: {kind:
 * value}}, "specs": [{"dtype", "shape"}]}. Attribute kinds: int, float
 * (finite numbers, or "inf", "-inf", "nan"), bool, type (a dtype name),
 * ints, shape (a list with -1 for unknown dims, or null for unknown rank),
 * string, tensor ({"dtype", "shape", "data": base64 of the little-endian
 * bytes} or, for strings, "strings": [base64, ...]) and graph (a nested
 * graph: cond branches, loop bodies, fused bodies). Host callbacks
 * (lua_function) and resource tensors cannot be saved: an error names the
 * node.
 *
 * Loading trusts nothing: every node's op must be in the registry, every
 * attribute declared by the op with the declared kind, every input a
 * (node, index) pair of an earlier node and an existing output, control
 * edges earlier nodes, names unique, tensors' byte counts equal to shape x
 * dtype, nesting bounded; then each node is inferred as tracing would, so
 * arity, dtypes and shapes are checked by the ops' own rules, and the saved
 * specs must agree with the inferred ones. Errors are InvalidArgumentError
 * (NotFoundError for an unknown op) with the node's name. */
#ifndef MF_GRAPH_IO_H
#define MF_GRAPH_IO_H

#include <jansson.h>

#include "graph.h"

#define MF_GRAPH_FORMAT_VERSION 1

mf_status mf_graph_to_json(const mf_graph *g, json_t **out, mf_error *err);
mf_status mf_graph_from_json(const json_t *j, mf_graph **out, mf_error *err);

/* Tensors (numeric, bool, string) as JSON and back. */
mf_status mf_tensor_to_json(const mf_tensor *t, json_t **out, mf_error *err);
mf_status mf_tensor_from_json(const json_t *j, mf_tensor **out, mf_error *err);

/* A spec {"dtype", "shape"} and back. */
json_t *mf_spec_to_json(const mf_spec *s);
mf_status mf_spec_from_json(const json_t *j, mf_spec *out, mf_error *err);

/* A whole document {"format": "moonflow.graph", "version": 1, "graph": ...}
 * as a string (malloc'd) and back. */
mf_status mf_graph_dump(const mf_graph *g, char **out, mf_error *err);
mf_status mf_graph_parse(const char *text, size_t len, mf_graph **out, mf_error *err);

#endif
