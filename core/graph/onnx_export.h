/* onnx_export.h — a graph as an ONNX model (opset 17 and newer), written as
 * protobuf bytes by hand (field numbers from onnx/onnx.proto): no protobuf
 * library needed, and any ONNX tool (onnx.checker, onnxruntime, Netron)
 * reads the result.
 *
 * The graph's first `nargs` inputs become the model's inputs; the others
 * (captures: variables' current values, captured constants) are given as
 * `captures` and become initializers, so the model is self-contained. A
 * ReadVariableOp of a captured variable reads its initializer. Supported:
 * Const, Identity, elementwise math and comparisons, Cast, MatMul,
 * BatchMatMulV2, BiasAdd, Softmax, LogSoftmax, Conv2D (NHWC, transposed
 * around ONNX's NCHW Conv), Sum/Mean/Max/Min/Prod with constant axes,
 * Reshape, Transpose, ExpandDims, Squeeze, ConcatV2, Shape, Fill-free shape
 * ops with constant arguments, If/StatelessIf (ONNX If), While/StatelessWhile
 * (ONNX Loop). Any other op is UnimplementedError naming it and the node. */
#ifndef MF_ONNX_EXPORT_H
#define MF_ONNX_EXPORT_H

#include "graph.h"

mf_status mf_onnx_export(const mf_graph *g, int nargs, const char *const *arg_names, int ncaptures,
                         mf_tensor *const *captures, int opset, unsigned char **out, size_t *len,
                         mf_error *err);

#endif
