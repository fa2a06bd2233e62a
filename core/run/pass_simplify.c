/* pass_simplify.c — algebraic simplification. A pure node (pass_util.h)
 * without control inputs that computes nothing new is dropped and its
 * output stands for the tensor it would copy:
 *
 *   x*1, 1*x, x+0, 0+x, x-0, x/1   (the constant a Const of ones or zeros,
 *                                   numeric; only when the result has x's
 *                                   spec: a scalar constant, or x's static
 *                                   shape equal to the result's, so
 *                                   broadcasting never enlarges x; for
 *                                   floats the zero added must be -0.0 and
 *                                   the zero subtracted +0.0, the only
 *                                   ones that give x's bits back)
 *   Identity(x), StopGradient(x)   (chains collapse: each link is resolved
 *                                   in order)
 *   Transpose(x, identity perm), Transpose(Transpose(x, p), q) with q
 *                                   undoing p
 *   Reshape(x, s) when x's static shape is already s, a constant (a
 *                                   shape known in part, partial.h, may
 *                                   give x's shape as the result's while
 *                                   the run's value says otherwise: the
 *                                   Reshape stays to refuse it)
 *   Cast(x) to x's own dtype
 *
 * Nodes left unread (the inner Transpose, the constants) are left for
 * pruning. Every rewrite gives the same bits as running the node: x + 0.0
 * turns -0.0 into +0.0, so it stays (x + -0.0 and x - 0.0 do not). */
#include <math.h>
#include <stdlib.h>

#include "pass_util.h"
#include "passes.h"

#define MF_OP(name) extern const mf_op_def mf_op_##name;
#include "ops.def"
#undef MF_OP

enum { SIMPLIFY_MAX_CONST = 1 << 16 };

static const mf_spec *spec_of(const mf_graph *g, mf_tensor_ref r) {
  return &g->nodes[r.node].out_specs[r.index];
}

static bool same_spec(const mf_spec *a, const mf_spec *b) {
  if (a->dtype != b->dtype || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* Whether r is a numeric Const whose every element equals v; for floats,
 * with v's sign too (-0.0 is not +0.0 here). */
static bool const_all(const mf_graph *g, mf_tensor_ref r, double v) {
  const mf_tensor *t = mf_graph_const_value(g, r);
  if (!t || !mf_dtype_is_numeric(t->dtype) || t->size > SIMPLIFY_MAX_CONST) return false;
  bool signed_zero = mf_dtype_is_float(t->dtype);
  for (int64_t i = 0; i < t->size; i++) {
    double e = mf_tensor_get_f64(t, i);
    if (e != v || (signed_zero && signbit(e) != signbit(v))) return false;
  }
  return true;
}

/* Whether n's output is x unchanged by broadcasting against constant k. */
static bool keeps_shape(const mf_graph *g, const mf_node *n, mf_tensor_ref x, mf_tensor_ref k) {
  const mf_spec *xs = spec_of(g, x);
  if (!same_spec(xs, &n->out_specs[0])) return false;
  return mf_graph_const_value(g, k)->rank == 0 || mf_spec_is_static(xs);
}

/* x op k with k a constant equal to `unit` everywhere (and, when
 * `commutes`, k op x too): the x it reduces to, or {-1, 0}. */
static mf_tensor_ref unit_operand(const mf_graph *g, const mf_node *n, const mf_tensor_ref *in,
                                  double unit, bool commutes) {
  if (const_all(g, in[1], unit) && keeps_shape(g, n, in[0], in[1])) return in[0];
  if (commutes && const_all(g, in[0], unit) && keeps_shape(g, n, in[1], in[0])) return in[1];
  return (mf_tensor_ref){-1, 0};
}

/* The integers of a Const vector (at most MF_MAX_RANK), or -1. */
static int const_perm(const mf_graph *g, mf_tensor_ref r, int64_t *perm) {
  const mf_tensor *t = mf_graph_const_value(g, r);
  if (!t || !mf_dtype_is_integer(t->dtype) || t->rank != 1 || t->size > MF_MAX_RANK) return -1;
  for (int64_t i = 0; i < t->size; i++) perm[i] = mf_tensor_get_i64(t, i);
  return (int)t->size;
}

static mf_tensor_ref simplify_transpose(const mf_graph *g, const mf_tensor_ref *in) {
  const mf_tensor_ref none = {-1, 0};
  int64_t q[MF_MAX_RANK], p[MF_MAX_RANK];
  int n = const_perm(g, in[1], q);
  if (n < 0) return none;
  bool identity = true;
  for (int i = 0; i < n; i++) identity = identity && q[i] == i;
  if (identity) return in[0];
  /* Transpose(Transpose(x, p), q): dimension j of the result is dimension
   * p[q[j]] of x. */
  const mf_node *inner = &g->nodes[in[0].node];
  if (inner->op != &mf_op_Transpose || inner->ncontrol > 0 || const_perm(g, inner->inputs[1], p) != n)
    return none;
  for (int j = 0; j < n; j++)
    if (q[j] < 0 || q[j] >= n || p[q[j]] != j) return none;
  return inner->inputs[0];
}

/* The tensor of the copy that node n (inputs `in`, in the copy) reduces
 * to, or {-1, 0}. */
static mf_tensor_ref simplified(const mf_graph *g, const mf_node *n, const mf_tensor_ref *in) {
  const mf_tensor_ref none = {-1, 0};
  if (!mf_pass_node_is_pure(n) || n->ncontrol > 0 || n->nout != 1) return none;
  const mf_op_def *op = n->op;
  if (op == &mf_op_Identity || op == &mf_op_StopGradient) return in[0];
  if (op == &mf_op_Mul) return unit_operand(g, n, in, 1.0, true);
  /* x + -0.0 is x for every x; for integers -0.0 reads as 0 */
  if (op == &mf_op_AddV2) {
    bool fl = mf_dtype_is_float(n->out_specs[0].dtype);
    return unit_operand(g, n, in, fl ? -0.0 : 0.0, true);
  }
  if (op == &mf_op_Sub) return unit_operand(g, n, in, 0.0, false);
  if (op == &mf_op_RealDiv) return unit_operand(g, n, in, 1.0, false);
  if (op == &mf_op_Cast) return spec_of(g, in[0])->dtype == n->out_specs[0].dtype ? in[0] : none;
  if (op == &mf_op_Reshape) {
    const mf_spec *xs = spec_of(g, in[0]);
    bool same = mf_spec_is_static(xs) && same_spec(xs, &n->out_specs[0]);
    return same && mf_graph_const_value(g, in[1]) ? in[0] : none;
  }
  if (op == &mf_op_Transpose) return simplify_transpose(g, in);
  return none;
}

bool mf_pass_simplify_step(mf_graph_copy *c, int i) {
  const mf_node *n = &c->src->nodes[i];
  if (n->nin < 1 || n->nin > 2) return false;
  mf_tensor_ref in[2];
  for (int k = 0; k < n->nin; k++) in[k] = mf_graph_copy_ref(c, n->inputs[k]);
  mf_tensor_ref to = simplified(c->dst, n, in);
  if (to.node < 0) return false;
  mf_graph_copy_alias(c, i, 0, to);
  return true;
}

mf_status mf_pass_simplify(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_graph_copy c;
  MF_TRY(mf_graph_copy_begin(g, &c, err));
  int simplified_count = 0;
  for (int i = 0; i < g->nnodes; i++) {
    if (mf_pass_simplify_step(&c, i)) {
      simplified_count++;
      continue;
    }
    mf_status s = mf_graph_copy_node(&c, i, err);
    if (s != MF_OK) {
      mf_graph_copy_abort(&c);
      return s;
    }
  }
  MF_TRY(mf_graph_copy_finish(&c, out, err));
  if (st) {
    st->simplified += simplified_count;
    st->nodes_after = (*out)->nnodes;
  }
  return MF_OK;
}
