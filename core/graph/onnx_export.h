/* onnx_export.h — a graph as an ONNX model (opset 17 and newer), written as
 * protobuf bytes by hand (field numbers from onnx/onnx.proto): no protobuf
 * library needed, and any ONNX tool (onnx.checker, onnxruntime, Netron)
 * reads the result.
 *
 * The graph's first `nargs` inputs become the model's inputs; the others
 * (captures: variables' current values, captured constants) are given as
 * `captures` and become initializers, so the model is self-contained. A
 * ReadVariableOp of a captured variable reads its initializer. Supported:
 * the ops of onnx_export.c's emitter table (mf_onnx_op_name below): among
 * them elementwise math and comparisons, Cast, MatMul, BiasAdd, Softmax,
 * Conv2D (NHWC, transposed around ONNX's NCHW Conv), reductions over
 * constant axes, the shape ops with constant arguments, calls (inlined),
 * If (ONNX If) and While (ONNX Loop). Any other op is UnimplementedError
 * naming it and the node. */
#ifndef MF_ONNX_EXPORT_H
#define MF_ONNX_EXPORT_H

#include "graph.h"

mf_status mf_onnx_export(const mf_graph *g, int nargs, const char *const *arg_names, int ncaptures,
                         mf_tensor *const *captures, int opset, unsigned char **out, size_t *len,
                         mf_error *err);

/* The ops with an ONNX form, as TF names them: mf_onnx_op_name(i) for i in
 * [0, mf_onnx_op_count()), NULL outside. One table in onnx_export.c maps
 * each to the code that writes it; an op not named there is refused with
 * "has no ONNX translation". */
int mf_onnx_op_count(void);
const char *mf_onnx_op_name(int i);

#endif
