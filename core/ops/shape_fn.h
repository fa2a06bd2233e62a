/* shape_fn.h — TensorFlow's shape-function vocabulary
 * (tensorflow/core/framework/shape_inference.cc, InferenceContext), for the
 * ops whose inference while a graph is built (op.h's `building`) is TF's
 * shape function: the checks TF makes when it adds a node to a graph, with
 * TF's messages, which are not the kernels' ("Dimensions must be equal,
 * but are 3 and 4" where the kernel says "Incompatible shapes: [3] vs.
 * [4]"). The caller's failure becomes TF's graph-construction error
 * (node_summary.h).
 *
 * Shapes are (rank, dims) with -1 for an unknown rank or dimension, as in
 * mf_spec. Every check passes what is unknown, as TF's do, and fails with
 * InvalidArgumentError. */
#ifndef MF_SHAPE_FN_H
#define MF_SHAPE_FN_H

#include "op.h"

/* WithRank, WithRankAtLeast, WithRankAtMost: "Shape must be rank 2 but is
 * rank 3", "Shape must be at least rank 2 but is rank 1", ... */
mf_status mf_sf_with_rank(int rank, int64_t want, mf_error *err);
mf_status mf_sf_with_rank_at_least(int rank, int64_t want, mf_error *err);
mf_status mf_sf_with_rank_at_most(int rank, int64_t want, mf_error *err);
/* WithValue: "Dimension must be 3 but is 2". */
mf_status mf_sf_with_value(int64_t dim, int64_t want, mf_error *err);
/* Merge of two dimensions into *out: "Dimensions must be equal, but are 3
 * and 4". */
mf_status mf_sf_merge_dim(int64_t a, int64_t b, int64_t *out, mf_error *err);
/* Merge of two shapes: "Shapes must be equal rank, but are 1 and 0", or
 * "Dimension 0 in both shapes must be equal, but are 4 and 3. Shapes are
 * [4] and [3]." */
mf_status mf_sf_merge(int ra, const int64_t *a, int rb, const int64_t *b, mf_error *err);
/* Divide, evenly: "Dimension size must be evenly divisible by 17 but is
 * 20677". */
mf_status mf_sf_divide_evenly(int64_t dividend, int64_t divisor, int64_t *out, mf_error *err);
/* BroadcastBinaryOpOutputShapeFnHelper: the broadcast of a and b (an
 * unknown rank gives one), dimensions compared from the outermost, a
 * known mismatch failing as Merge does. `out` holds MF_MAX_RANK. */
mf_status mf_sf_broadcast(int ra, const int64_t *a, int rb, const int64_t *b, int *rank,
                          int64_t *out, mf_error *err);
/* Multiply of two dimensions into *out: 0 wins, 1 yields to the other
 * side, an unknown side makes the product unknown; "Negative dimension
 * size caused by overflow when multiplying 3 and 4" past int64. */
mf_status mf_sf_multiply(int64_t a, int64_t b, int64_t *out, mf_error *err);
/* MakeShapeFromShapeTensor(i): input i must be a vector (WithRank 1), read
 * as a shape element by element: its value when known, else its partial
 * value (partial.h: what a graph builder knows of it element by element,
 * tf.stack({n, 37}) is [?,37]), else a shape of its length's rank with
 * unknown dimensions (rank -1 when not even that is known, or the vector
 * has more than `cap` elements). -1 is an unknown dimension; an element
 * below -1 is "Invalid value in tensor used for shape: -2". Records the
 * request (c->requested_shape). Partial values exist only while a graph
 * is built, so eagerly this reads the value. */
mf_status mf_sf_shape_tensor(mf_op_call *c, int i, int *rank, int64_t *dims, int cap,
                             mf_error *err);

#endif
