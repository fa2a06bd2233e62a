/* partial.h — partial values: what tracing knows of an integer vector
 * element by element while its value as a whole is not known.
 *
 * TensorFlow's shape inference reads a shape-valued input (Reshape's
 * shape, Fill's dims, Tile's multiples, ...) element by element
 * (tensorflow/core/common_runtime/shape_refiner.cc ConstantPartialShape,
 * InferenceContext::MakeShapeFromShapeTensor; Python's
 * tensor_util.constant_value_as_shape): tf.stack({n, 37}) is the shape
 * (None, 37) and tf.shape(x) of a (None, 74) x the shape (None, 74);
 * concatenations, slices and integer casts of such vectors keep what is
 * known of them. A single element of tf.shape(x) whose dimension is known
 * is even a constant (eval_const_tensor.cc TryInferFromShapes).
 *
 * moonflow keeps that knowledge on the graph. The ops TF reads through —
 * Shape, Pack, ConcatV2, StridedSlice and Cast, and Unpack for single
 * elements — name a `partial` function in their registry entry (op.h).
 * mf_op_infer runs it after the op's infer for the calls of graph
 * builders (tracing, loading a graph, refining a called function's body:
 * the calls that are `building` and carry in_partial; never eagerly or in
 * the executor), and
 * it fills the call's out_partials — or out_values, for an element that is
 * a constant — from the inputs' specs, known values and partial values.
 * Graph nodes keep partial values beside their known values, for the
 * outputs whose values are not known (graph.h), and graph copies carry
 * them; a graph loaded from disk computes them again as its nodes are
 * inferred, so it infers the shapes its trace did. Shape functions read a
 * shape argument through one helper, shape_fn.h's mf_sf_shape_tensor (TF's
 * MakeShapeFromShapeTensor), which takes the value when it is known and
 * the partial value otherwise.
 *
 * An element is a size >= 0, or -1 where it is not known. An element that
 * came from a constant may hold another negative number, which
 * mf_sf_shape_tensor refuses as TF does ("Invalid value in tensor used
 * for shape: -2"). */
#ifndef MF_PARTIAL_H
#define MF_PARTIAL_H

#include "op.h"

/* The longest vector a partial value describes (longer ones have none). */
#define MF_PARTIAL_MAX 32

struct mf_partial {
  int n;          /* elements */
  bool of_shape;  /* the output of a Shape op, whose single known elements
                     TF reads as constants (tf.shape(x)[i]) */
  int64_t v[];    /* n elements: a size, or -1 unknown */
};

/* A new partial value of n elements (0 <= n <= MF_PARTIAL_MAX), all
 * unknown; NULL without memory. Owned: mf_partial_free. */
mf_partial *mf_partial_new(int n);
/* A copy of p, or NULL when p is NULL or without memory. */
mf_partial *mf_partial_clone(const mf_partial *p);
void mf_partial_free(mf_partial *p);

/* The partial value of input i (borrowed), or NULL. */
const mf_partial *mf_input_partial(const mf_op_call *c, int i);

/* The registry's partial functions (op.h), TF's rule for each producer. */
mf_status mf_partial_shape(mf_op_call *c, mf_error *err);
mf_status mf_partial_pack(mf_op_call *c, mf_error *err);
mf_status mf_partial_concat(mf_op_call *c, mf_error *err);
mf_status mf_partial_strided_slice(mf_op_call *c, mf_error *err);
mf_status mf_partial_cast(mf_op_call *c, mf_error *err);
mf_status mf_partial_unpack(mf_op_call *c, mf_error *err);

#endif
