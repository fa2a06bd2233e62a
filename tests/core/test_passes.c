/* test_passes.c — the graph optimisation passes (passes.h) on small graphs
 * built with the core API: what each pass folds, simplifies, merges and
 * prunes, what it must leave alone (stateful, random and side-effecting
 * nodes, broadcasting that changes shapes, huge constants, kernels that
 * fail), that the graph given is never modified, that inputs and outputs
 * keep their order, and that every optimised graph computes what the
 * original computes. */
#include "check.h"
#include "op_test.h"
#include "array_test.h"
#include "graph_test.h"

#include "executor.h"
#include "graph.h"
#include "passes.h"
#include "variable.h"

/* ---- building graphs ---- */

static ref fscalar(mf_graph *g, double v) { return cnst(g, make_tensor(MF_FLOAT32, 0, NULL, &v)); }
static ref ivector(mf_graph *g, int n, const double *v) {
  return cnst(g, make_tensor(MF_INT32, 1, DIMS(n), v));
}

/* ---- running and inspecting ---- */

static bool same_values(const mf_tensor *a, const mf_tensor *b) {
  if (!a || !b || a->dtype != b->dtype || !mf_shape_equal(a->rank, a->shape, b->rank, b->shape))
    return false;
  /* the same bits, NaN payloads aside: -0.0 is not 0.0 */
  for (int64_t i = 0; i < a->size; i++) {
    double x = mf_tensor_get_f64(a, i), y = mf_tensor_get_f64(b, i);
    if (isnan(x) && isnan(y)) continue;
    if (x != y || signbit(x) != signbit(y)) return false;
  }
  return true;
}

/* Runs g and its optimised copy `o` on the same feeds; true when every
 * output has the same dtype, shape and values (bit for bit). */
static bool same_results(mf_graph *g, mf_graph *o, int nfeeds, mf_tensor *const *feeds) {
  mf_tensor *a[16], *b[16];
  mf_error err;
  bool ok = run(g, nfeeds, feeds, a, &err) == MF_OK;
  if (!ok) printf("#   original: %s\n", err.message);
  bool ok2 = run(o, nfeeds, feeds, b, &err) == MF_OK;
  if (!ok2) printf("#   optimised: %s\n", err.message);
  ok = ok && ok2 && g->noutputs == o->noutputs;
  for (int i = 0; ok && i < g->noutputs; i++) ok = same_values(a[i], b[i]);
  for (int i = 0; i < g->noutputs; i++) {
    mf_tensor_release(a[i]);
    mf_tensor_release(b[i]);
  }
  return ok;
}

/* The node an output of o comes from. */
static const mf_node *output_node(const mf_graph *o, int i) { return &o->nodes[o->outputs[i].node]; }

typedef mf_status (*pass_fn)(mf_graph *, mf_graph **, mf_pass_stats *, mf_error *);

/* Runs pass on g; checks that g was left as it was. */
static mf_graph *apply(pass_fn pass, mf_graph *g, mf_pass_stats *st) {
  int before = g->nnodes;
  mf_graph *o = NULL;
  memset(st, 0, sizeof *st);
  mf_error err;
  if (pass(g, &o, st, &err) != MF_OK) printf("#   pass failed: %s\n", err.message);
  CHECK(o != NULL && o != g);
  CHECK(g->nnodes == before);
  return o;
}

/* ---- the copy helper ---- */

static void test_copy_keeps_everything(void) {
  mf_graph *g = new_graph();
  mf_tensor *v = make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(1, 2, 3));
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  ref unused = input(g, MF_INT32, 0, NULL, NULL);
  ref y = op2(g, "Mul", x, cnst(g, make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(2, 2, 2))));
  outputs(g, 2, REFS(y, x));
  mf_graph_copy c;
  CHECK_OK(mf_graph_copy_begin(g, &c, NULL));
  for (int i = 0; i < g->nnodes; i++) CHECK_OK(mf_graph_copy_node(&c, i, NULL));
  mf_graph *o = NULL;
  CHECK_OK(mf_graph_copy_finish(&c, &o, NULL));
  CHECK(o && o->nnodes == g->nnodes && o->ninputs == 2 && o->noutputs == 2);
  for (int i = 0; o && i < g->nnodes; i++) {
    CHECK(strcmp(o->nodes[i].name, g->nodes[i].name) == 0);
    CHECK(o->nodes[i].op == g->nodes[i].op && o->nodes[i].nin == g->nodes[i].nin);
  }
  CHECK(o && o->inputs[0] == x.node && o->inputs[1] == unused.node);
  /* The copy reserves its names: new ones stay unique. */
  char name[64];
  CHECK_OK(mf_graph_unique_name(o, "Mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "Mul_1") == 0);
  mf_tensor *i0 = make_tensor(MF_INT32, 0, NULL, VALS(7));
  CHECK(same_results(g, o, 2, (mf_tensor *[]){v, i0}));
  mf_tensor_release(i0);
  mf_tensor_release(v);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_copy_rejects_dropped_io(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  outputs(g, 1, REFS(op1(g, "Neg", x)));
  mf_graph_copy c;
  mf_graph *o = NULL;
  mf_error err;
  CHECK_OK(mf_graph_copy_begin(g, &c, NULL));
  CHECK(mf_graph_copy_finish(&c, &o, &err) == MF_ERR_INTERNAL && !o); /* nothing placed */
  CHECK_OK(mf_graph_copy_begin(g, &c, NULL));
  CHECK(mf_graph_copy_node(&c, 1, &err) == MF_ERR_INTERNAL); /* its input is not placed */
  mf_graph_copy_abort(&c);
  mf_graph_release(g);
}

/* ---- constant folding ---- */

static void test_fold_chain(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(2), NULL);
  ref a = op2(g, "AddV2", fscalar(g, 2), fscalar(g, 3)); /* 5 */
  ref b = op1(g, "Sqrt", op2(g, "Mul", a, fscalar(g, 5))); /* 5 */
  ref y = op2(g, "Mul", x, b);
  outputs(g, 1, REFS(y));
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_fold_constants, g, &st);
  CHECK(st.folded == 3);
  CHECK(count_op(o, "AddV2") == 0 && count_op(o, "Sqrt") == 0 && count_op(o, "Mul") == 1);
  /* A folded node keeps its name and becomes a Const of its value. */
  int sq = mf_graph_find(o, g->nodes[b.node].name);
  CHECK(sq >= 0 && strcmp(o->nodes[sq].op->name, "Const") == 0);
  const mf_tensor *v = mf_graph_const_value(o, (ref){sq, 0});
  CHECK(v && v->dtype == MF_FLOAT32 && v->rank == 0 && mf_tensor_get_f64(v, 0) == 5);
  CHECK(o->nodes[sq].known[0] == v);
  mf_tensor *feed = make_tensor(MF_FLOAT32, 1, DIMS(2), VALS(1.5, -2));
  CHECK(same_results(g, o, 1, &feed));
  mf_tensor_release(feed);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_fold_static_shapes(void) {
  /* Shape and Size of a static input are constants; of an unknown one not. */
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(2, 3), NULL);
  ref u = input(g, MF_FLOAT32, 1, DIMS(-1), NULL);
  ref s = op1(g, "Shape", x);
  ref n = op1(g, "Size", x);
  ref su = op1(g, "Shape", u);
  ref s2 = op2(g, "AddV2", s, ivector(g, 2, VALS(0, 0)));
  ref r = op2(g, "Reshape", x, s2); /* its shape input becomes a Const */
  ref ones = op1(g, "OnesLike", x);
  ref ones_u = op1(g, "ZerosLike", u);
  outputs(g, 6, REFS(s, n, su, op2(g, "Mul", r, r), ones, ones_u));
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_fold_constants, g, &st);
  /* Shape, Size, AddV2, OnesLike and the output Identities of three */
  CHECK(st.folded == 7);
  CHECK(count_op(o, "OnesLike") == 0 && count_op(o, "ZerosLike") == 1);
  const mf_tensor *ov = mf_graph_const_value(o, o->outputs[4]);
  CHECK(ov && ov->dtype == MF_FLOAT32 && shape_is(ov, 2, DIMS(2, 3)) && mf_tensor_get_f64(ov, 5) == 1);
  CHECK(count_op(o, "Shape") == 1 && count_op(o, "Size") == 0 && count_op(o, "AddV2") == 0);
  const mf_node *rn = &o->nodes[mf_graph_find(o, g->nodes[r.node].name)];
  CHECK(mf_graph_const_value(o, rn->inputs[1]) != NULL);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_fold_leaves_alone(void) {
  mf_graph *g = new_graph();
  mf_tensor *h = NULL;
  mf_variable *var = NULL;
  mf_tensor *init = make_tensor(MF_FLOAT32, 0, NULL, VALS(1));
  CHECK_OK(mf_variable_new("v", init, true, &var, NULL));
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 0, NULL, &h, NULL));
  *MF_DATA(h, mf_variable *) = var;
  /* A Placeholder's known value is an example, not a constant. */
  mf_tensor *example = make_tensor(MF_FLOAT32, 0, NULL, VALS(4));
  ref x = input(g, MF_FLOAT32, 0, NULL, example);
  ref vh = input(g, MF_RESOURCE, 0, NULL, h);
  ref from_x = op1(g, "Neg", x);
  ref read = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  ref rnd = op1(g, "RandomUniform", ivector(g, 1, VALS(3)));
  /* Too large to materialise: 300 x 300 ones. */
  ref big = op2(g, "Fill", ivector(g, 2, VALS(300, 300)), fscalar(g, 1));
  ref big_sum = add_op(g, "Sum", 2, REFS(big, ivector(g, 2, VALS(0, 1))), NULL);
  /* Integer division by zero: kept, fails when run, as unoptimised. */
  ref bad = op2(g, "FloorDiv", cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(7))),
                cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(0))));
  outputs(g, 5, REFS(from_x, read, rnd, big_sum, bad));
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_fold_constants, g, &st);
  CHECK(st.folded == 0);
  CHECK(count_op(o, "Neg") == 1 && count_op(o, "ReadVariableOp") == 1);
  CHECK(count_op(o, "RandomUniform") == 1 && count_op(o, "Fill") == 1 && count_op(o, "Sum") == 1);
  CHECK(count_op(o, "FloorDiv") == 1);
  mf_tensor *feeds[2] = {example, h}, *outs[5];
  mf_error err;
  CHECK(run(o, 2, feeds, outs, &err) == MF_ERR_INVALID_ARGUMENT &&
        strstr(err.message, "division by zero"));
  mf_graph_release(o);
  mf_graph_release(g);
  mf_tensor_release(example);
  mf_tensor_release(init);
  mf_tensor_release(h);
}

/* ---- algebraic simplification ---- */

static void test_simplify_units(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(2, 3), NULL);
  ref ones = cnst(g, make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(1, 1, 1)));
  ref y1 = op2(g, "Mul", x, fscalar(g, 1));
  ref y2 = op2(g, "Mul", ones, x);          /* broadcasts to x's own shape */
  ref y3 = op2(g, "AddV2", x, fscalar(g, -0.0));
  ref y4 = op2(g, "AddV2", fscalar(g, -0.0), x);
  ref y5 = op2(g, "Sub", x, fscalar(g, 0));
  ref y6 = op2(g, "RealDiv", x, fscalar(g, 1));
  ref n1 = op2(g, "Sub", fscalar(g, 0), x);  /* 0 - x is -x */
  ref n2 = op2(g, "RealDiv", fscalar(g, 1), x);
  ref n3 = op2(g, "Mul", x, fscalar(g, 2));
  /* -0.0 + 0.0 is +0.0: adding +0.0 (either side) or subtracting -0.0 is
   * not the identity on floats */
  ref n4 = op2(g, "AddV2", x, fscalar(g, 0));
  ref n5 = op2(g, "AddV2", fscalar(g, 0), x);
  ref n6 = op2(g, "Sub", x, fscalar(g, -0.0));
  outputs(g, 12, REFS(y1, y2, y3, y4, y5, y6, n1, n2, n3, n4, n5, n6));
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_simplify, g, &st);
  /* 6 units and the 12 output Identities */
  CHECK(st.simplified == 18);
  for (int i = 0; i < 6; i++) CHECK(o->outputs[i].node == x.node && o->outputs[i].index == 0);
  CHECK(strcmp(output_node(o, 6)->op->name, "Sub") == 0);
  CHECK(strcmp(output_node(o, 7)->op->name, "RealDiv") == 0);
  CHECK(strcmp(output_node(o, 8)->op->name, "Mul") == 0);
  CHECK(strcmp(output_node(o, 9)->op->name, "AddV2") == 0);
  CHECK(strcmp(output_node(o, 10)->op->name, "AddV2") == 0);
  CHECK(strcmp(output_node(o, 11)->op->name, "Sub") == 0);
  mf_tensor *feed = make_tensor(MF_FLOAT32, 2, DIMS(2, 3), VALS(1, -2, 3.5, -0.0, 5, 6));
  CHECK(same_results(g, o, 1, &feed));
  mf_tensor_release(feed);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_simplify_respects_broadcasting(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  ref u = input(g, MF_FLOAT32, 1, DIMS(-1), NULL);
  ref ones23 = cnst(g, make_tensor(MF_FLOAT32, 2, DIMS(2, 3), VALS(1, 1, 1, 1, 1, 1)));
  ref zeros3 = cnst(g, make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(0, 0, 0)));
  ref b1 = op2(g, "Mul", x, ones23);   /* (3,) * (2, 3) is (2, 3): not x */
  ref b2 = op2(g, "AddV2", u, zeros3); /* (None,) + (3,): u may be (1,) */
  ref b3 = op2(g, "Mul", u, fscalar(g, 1)); /* a scalar never enlarges */
  ref i1 = op2(g, "Mul", cnst(g, make_tensor(MF_INT32, 1, DIMS(3), VALS(1, 1, 1))),
               cnst(g, make_tensor(MF_INT32, 1, DIMS(3), VALS(4, 5, 6)))); /* both constant */
  mf_graph_set_outputs(g, 4, REFS(b1, b2, b3, i1), NULL);
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_simplify, g, &st);
  CHECK(st.simplified == 2);
  CHECK(strcmp(output_node(o, 0)->op->name, "Mul") == 0 && o->nodes[o->outputs[0].node].out_specs[0].rank == 2);
  CHECK(strcmp(output_node(o, 1)->op->name, "AddV2") == 0);
  CHECK(o->outputs[2].node == u.node);
  CHECK(strcmp(output_node(o, 3)->op->name, "Const") == 0); /* the non-unit operand */
  mf_tensor *fx = make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(1, 2, 3));
  mf_tensor *fu = make_tensor(MF_FLOAT32, 1, DIMS(1), VALS(7));
  CHECK(same_results(g, o, 2, (mf_tensor *[]){fx, fu}));
  mf_tensor_release(fx);
  mf_tensor_release(fu);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_simplify_structure(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 3, DIMS(2, 3, 4), NULL);
  ref chain = op1(g, "Identity", op1(g, "StopGradient", op1(g, "Identity", x)));
  ref p = ivector(g, 3, VALS(2, 0, 1)), q = ivector(g, 3, VALS(1, 2, 0));
  ref tt = add_op(g, "Transpose", 2, REFS(add_op(g, "Transpose", 2, REFS(x, p), NULL), q), NULL);
  ref not_inverse = add_op(g, "Transpose", 2, REFS(add_op(g, "Transpose", 2, REFS(x, p), NULL), p), NULL);
  ref same = add_op(g, "Transpose", 2, REFS(x, ivector(g, 3, VALS(0, 1, 2))), NULL);
  ref reshaped = op2(g, "Reshape", x, ivector(g, 3, VALS(2, 3, 4)));
  ref flat = op2(g, "Reshape", x, ivector(g, 1, VALS(24)));
  mf_attrs to32, to64;
  mf_attrs_init(&to32);
  mf_attrs_init(&to64);
  mf_attrs_set_type(&to32, "DstT", MF_FLOAT32, NULL);
  mf_attrs_set_type(&to64, "DstT", MF_FLOAT64, NULL);
  ref cast_same = add_op(g, "Cast", 1, REFS(x), &to32);
  ref cast_other = add_op(g, "Cast", 1, REFS(x), &to64);
  mf_attrs_free(&to32);
  mf_attrs_free(&to64);
  mf_graph_set_outputs(g, 7, REFS(chain, tt, not_inverse, same, reshaped, flat, cast_same), NULL);
  (void)cast_other;
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_simplify, g, &st);
  /* 3 chain links, the double transpose, the identity perm, the reshape, the cast */
  CHECK(st.simplified == 7);
  int at_x[] = {0, 1, 3, 4, 6};
  for (size_t i = 0; i < sizeof at_x / sizeof *at_x; i++) CHECK(o->outputs[at_x[i]].node == x.node);
  CHECK(strcmp(output_node(o, 2)->op->name, "Transpose") == 0);
  CHECK(strcmp(output_node(o, 5)->op->name, "Reshape") == 0);
  CHECK(count_op(o, "Cast") == 1);
  unsigned seed = 3;
  mf_tensor *feed = random_tensor(MF_FLOAT32, 3, DIMS(2, 3, 4), &seed);
  CHECK(same_results(g, o, 1, &feed));
  mf_tensor_release(feed);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* ---- common subexpressions ---- */

static void test_cse_merges(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  ref y = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  ref a1 = op1(g, "Tanh", op2(g, "AddV2", x, y));
  ref a2 = op1(g, "Tanh", op2(g, "AddV2", x, y)); /* the whole chain merges */
  ref b = op2(g, "AddV2", y, x);                  /* other input order: kept */
  ref c1 = op2(g, "Mul", x, fscalar(g, 0.5));
  ref c2 = op2(g, "Mul", x, fscalar(g, 0.5));     /* equal constants, then equal Muls */
  ref c3 = op2(g, "Mul", x, fscalar(g, 0.25));
  ref z1 = op2(g, "Mul", x, fscalar(g, 0.0));
  ref z2 = op2(g, "Mul", x, fscalar(g, -0.0));    /* -0.0 is another constant */
  ref d = cnst(g, make_tensor(MF_FLOAT64, 0, NULL, VALS(0.5))); /* another dtype */
  mf_graph_set_outputs(g, 9, REFS(a1, a2, b, c1, c2, c3, z1, z2, d), NULL);
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_cse, g, &st);
  /* AddV2 + Tanh, the 0.5 Const and its Mul */
  CHECK(st.merged == 4);
  CHECK(o->outputs[0].node == o->outputs[1].node && o->outputs[3].node == o->outputs[4].node);
  CHECK(o->outputs[2].node != o->outputs[0].node && o->outputs[5].node != o->outputs[3].node);
  CHECK(o->outputs[6].node != o->outputs[7].node);
  CHECK(count_op(o, "Const") == 5);
  mf_tensor *fx = make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(1, -2, 3));
  mf_tensor *fy = make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(0.5, 4, -1));
  CHECK(same_results(g, o, 2, (mf_tensor *[]){fx, fy}));
  mf_tensor_release(fx);
  mf_tensor_release(fy);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_cse_attrs_and_strings(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(2, 3), NULL);
  ref axis = ivector(g, 1, VALS(1));
  mf_attrs keep, nokeep;
  mf_attrs_init(&keep);
  mf_attrs_init(&nokeep);
  mf_attrs_set_bool(&keep, "keep_dims", true, NULL);
  mf_attrs_set_bool(&nokeep, "keep_dims", false, NULL);
  ref s1 = add_op(g, "Sum", 2, REFS(x, axis), &keep);
  ref s2 = add_op(g, "Sum", 2, REFS(x, axis), &keep);
  ref s3 = add_op(g, "Sum", 2, REFS(x, axis), &nokeep);
  mf_attrs_free(&keep);
  mf_attrs_free(&nokeep);
  ref t1 = cnst(g, make_strings(1, DIMS(2), STRS("ab", "c")));
  ref t2 = cnst(g, make_strings(1, DIMS(2), STRS("ab", "c")));
  ref t3 = cnst(g, make_strings(1, DIMS(2), STRS("a", "bc")));
  mf_graph_set_outputs(g, 6, REFS(s1, s2, s3, t1, t2, t3), NULL);
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_cse, g, &st);
  CHECK(st.merged == 2);
  CHECK(o->outputs[0].node == o->outputs[1].node && o->outputs[2].node != o->outputs[0].node);
  CHECK(o->outputs[3].node == o->outputs[4].node && o->outputs[5].node != o->outputs[3].node);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* A graph reading and writing a variable: read, add 1, read, add 2, read;
 * random numbers twice; two equal reads that must not merge. */
static mf_graph *stateful_graph(mf_tensor *h, ref *reads) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  ref vh = input(g, MF_RESOURCE, 0, NULL, h);
  ref unused = input(g, MF_INT32, 0, NULL, NULL);
  (void)unused;
  reads[0] = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  add_op(g, "AssignAddVariableOp", 2, REFS(vh, fscalar(g, 1)), NULL);
  reads[1] = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  add_op(g, "AssignAddVariableOp", 2, REFS(vh, op2(g, "Mul", x, fscalar(g, 2))), NULL);
  reads[2] = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  op1(g, "RandomUniform", ivector(g, 1, VALS(2)));
  op1(g, "RandomUniform", ivector(g, 1, VALS(2)));
  op2(g, "Mul", x, x); /* dead */
  op1(g, "Exp", fscalar(g, 3)); /* dead */
  ref sum = op2(g, "AddV2", reads[0], reads[2]);
  outputs(g, 2, REFS(sum, reads[1]));
  return g;
}

static mf_tensor *new_handle(double init, mf_variable **var) {
  mf_tensor *h = NULL, *t = make_tensor(MF_FLOAT32, 0, NULL, &init);
  mf_variable_new("v", t, true, var, NULL);
  mf_tensor_release(t);
  mf_tensor_new(MF_RESOURCE, 0, NULL, &h, NULL);
  *MF_DATA(h, mf_variable *) = *var;
  return h;
}

/* The stateful nodes of g in order, as "op,op,...". */
static void stateful_order(const mf_graph *g, char *buf, size_t n) {
  buf[0] = 0;
  for (int i = 0; i < g->nnodes; i++)
    if (g->nodes[i].op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS))
      snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? "," : "", g->nodes[i].op->name);
}

/* Each stateful node depends (control edge) on the stateful node before it. */
static bool chained(const mf_graph *g) {
  int prev = -1;
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *n = &g->nodes[i];
    if (!(n->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS))) continue;
    if (prev >= 0 && !(n->ncontrol == 1 && n->control[0] == prev)) return false;
    prev = i;
  }
  return prev < 0 || g->last_stateful == prev;
}

static void test_stateful_untouched(void) {
  mf_variable *v1, *v2;
  mf_tensor *h1 = new_handle(10, &v1), *h2 = new_handle(10, &v2);
  ref reads[3];
  mf_graph *g = stateful_graph(h1, reads);
  char before[256], after[256];
  stateful_order(g, before, sizeof before);
  CHECK(strcmp(before, "ReadVariableOp,AssignAddVariableOp,ReadVariableOp,AssignAddVariableOp,"
                       "ReadVariableOp,RandomUniform,RandomUniform") == 0);
  pass_fn passes[] = {mf_pass_fold_constants, mf_pass_simplify, mf_pass_cse, mf_pass_prune};
  for (size_t p = 0; p < sizeof passes / sizeof *passes; p++) {
    mf_pass_stats st;
    mf_graph *o = apply(passes[p], g, &st);
    stateful_order(o, after, sizeof after);
    CHECK(strcmp(before, after) == 0);
    CHECK(chained(o));
    CHECK(o->ninputs == 3 && strcmp(o->nodes[o->inputs[2]].op->name, "Placeholder") == 0);
    if (passes[p] == mf_pass_prune) CHECK(st.pruned == 3); /* x*x, Exp and its Const */
    /* Same outputs and the same variable afterwards, from the same start. */
    mf_tensor *x = make_tensor(MF_FLOAT32, 0, NULL, VALS(3));
    mf_tensor *i = make_tensor(MF_INT32, 0, NULL, VALS(0));
    mf_tensor *a[2], *b[2];
    CHECK_OK(run(g, 3, (mf_tensor *[]){x, h1, i}, a, NULL));
    CHECK_OK(run(o, 3, (mf_tensor *[]){x, h2, i}, b, NULL));
    for (int k = 0; k < 2; k++) {
      CHECK(same_values(a[k], b[k]));
      mf_tensor_release(a[k]);
      mf_tensor_release(b[k]);
    }
    CHECK(same_values(v1->value, v2->value) && mf_tensor_get_f64(v1->value, 0) == 10 + 7 * (p + 1));
    mf_tensor_release(x);
    mf_tensor_release(i);
    mf_graph_release(o);
  }
  mf_graph_release(g);
  mf_tensor_release(h1);
  mf_tensor_release(h2);
}

/* ---- pruning ---- */

static void test_prune(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  ref unused = input(g, MF_FLOAT32, 0, NULL, NULL);
  ref dead = op1(g, "Exp", op2(g, "Mul", x, x));
  ref live = op1(g, "Neg", x);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_string(&as, "template", "%s", NULL);
  mf_attrs_set_string(&as, "placeholder", "%s", NULL);
  ref fmt = add_op(g, "StringFormat", 1, REFS(x), &as);
  mf_attrs_free(&as);
  add_op(g, "PrintV2", 1, REFS(fmt), NULL); /* a side effect nobody reads */
  outputs(g, 1, REFS(live));
  (void)dead;
  mf_pass_stats st;
  mf_graph *o = apply(mf_pass_prune, g, &st);
  CHECK(st.pruned == 2 && o->nnodes == g->nnodes - 2);
  CHECK(count_op(o, "Exp") == 0 && count_op(o, "Mul") == 0);
  CHECK(count_op(o, "PrintV2") == 1 && count_op(o, "StringFormat") == 1);
  CHECK(o->ninputs == 2 && o->inputs[1] == unused.node);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* ---- the pipeline ---- */

static void test_pipeline(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(4), NULL);
  ref scale = op2(g, "Mul", fscalar(g, 2), fscalar(g, 0.5)); /* folds to 1 */
  ref y = op2(g, "Mul", x, scale);                          /* then x*1 -> x */
  ref a = op1(g, "Tanh", y);
  ref b = op1(g, "Tanh", x);                                /* then merges with a */
  ref s = op2(g, "AddV2", a, b);
  ref r = op2(g, "Reshape", s, op1(g, "Shape", x));         /* shape folds; reshape goes */
  op1(g, "Exp", r);                                         /* dead */
  outputs(g, 2, REFS(r, op2(g, "Sub", r, fscalar(g, 0))));
  int before = g->nnodes;
  mf_pass_stats st;
  mf_graph *o = apply(mf_graph_optimize, g, &st);
  CHECK(st.nodes_before == before && st.nodes_after == o->nnodes);
  CHECK(st.folded == 2 && st.simplified >= 4 && st.merged >= 1 && st.pruned >= 5);
  /* x, then one Tanh and one AddV2 fused into one node last */
  CHECK(st.fused == 2 && o->nnodes == 2);
  CHECK(o->outputs[0].node == o->outputs[1].node);
  CHECK(strcmp(output_node(o, 0)->op->name, "FusedElementwise") == 0);
  mf_tensor *feed = make_tensor(MF_FLOAT32, 1, DIMS(4), VALS(0.5, -1, 2, 0));
  CHECK(same_results(g, o, 1, &feed));
  mf_tensor_release(feed);
  /* Optimising again changes nothing. */
  mf_graph *o2 = apply(mf_graph_optimize, o, &st);
  CHECK(o2->nnodes == o->nnodes && st.folded + st.simplified + st.merged + st.pruned + st.fused == 0);
  mf_graph_release(o2);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_pipeline_merges_folded(void) {
  /* 1+2 and 2+1 fold to equal constants, which then merge, with the 3 that
   * was there already; so do the Muls reading them. */
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(2), NULL);
  ref a = op2(g, "Mul", x, op2(g, "AddV2", fscalar(g, 1), fscalar(g, 2)));
  ref b = op2(g, "Mul", x, op2(g, "AddV2", fscalar(g, 2), fscalar(g, 1)));
  ref c = op2(g, "Mul", x, fscalar(g, 3));
  mf_graph_set_outputs(g, 3, REFS(a, b, c), NULL);
  mf_pass_stats st;
  mf_graph *o = apply(mf_graph_optimize, g, &st);
  /* merged: the second 1 and 2, the 3, two Muls; pruned: the first 1 and 2 */
  CHECK(st.folded == 2 && st.merged == 5 && st.pruned == 2);
  CHECK(o->nnodes == 3 && count_op(o, "Const") == 1 && count_op(o, "Mul") == 1);
  CHECK(o->outputs[0].node == o->outputs[1].node && o->outputs[1].node == o->outputs[2].node);
  mf_tensor *feed = make_tensor(MF_FLOAT32, 1, DIMS(2), VALS(1, 2));
  CHECK(same_results(g, o, 1, &feed));
  mf_tensor_release(feed);
  mf_graph_release(o);
  mf_graph_release(g);
}

static void test_pipeline_nested(void) {
  /* A branch graph with foldable work: optimised inside the If node; the
   * traced branch stays as it was. */
  mf_graph *then_g = new_graph();
  ref t = input(then_g, MF_FLOAT32, 0, NULL, NULL);
  outputs(then_g, 1, REFS(op2(then_g, "Mul", t, op2(then_g, "AddV2", fscalar(then_g, 1), fscalar(then_g, 2)))));
  mf_graph *else_g = new_graph();
  ref e = input(else_g, MF_FLOAT32, 0, NULL, NULL);
  outputs(else_g, 1, REFS(op2(else_g, "Mul", e, fscalar(else_g, 1))));
  int then_before = then_g->nnodes;
  mf_graph *g = new_graph();
  ref p = input(g, MF_BOOL, 0, NULL, NULL);
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, "then_branch", then_g, NULL);
  mf_attrs_set_graph(&as, "else_branch", else_g, NULL);
  ref r = add_op(g, "StatelessIf", 2, REFS(p, x), &as);
  mf_attrs_free(&as);
  outputs(g, 1, REFS(r));
  mf_pass_stats st;
  mf_graph *o = apply(mf_graph_optimize, g, &st);
  const mf_node *ifn = output_node(o, 0);
  CHECK(strcmp(ifn->op->name, "StatelessIf") == 0);
  const mf_graph *ot = mf_attrs_find(ifn->attrs, "then_branch")->u.graph;
  const mf_graph *oe = mf_attrs_find(ifn->attrs, "else_branch")->u.graph;
  CHECK(ot != then_g && count_op(ot, "AddV2") == 0 && ot->ninputs == 1);
  CHECK(oe->nnodes == 1 && oe->outputs[0].node == oe->inputs[0]);
  CHECK(then_g->nnodes == then_before);
  for (int k = 0; k < 2; k++) {
    mf_tensor *fp = NULL, *fx = make_tensor(MF_FLOAT32, 0, NULL, VALS(1.5));
    mf_tensor_scalar_bool(k == 0, &fp, NULL);
    CHECK(same_results(g, o, 2, (mf_tensor *[]){fp, fx}));
    mf_tensor_release(fp);
    mf_tensor_release(fx);
  }
  mf_graph_release(o);
  mf_graph_release(g);
  mf_graph_release(then_g);
  mf_graph_release(else_g);
}

/* The executor plans a graph once: later runs reuse the plan it keeps in the
 * graph's cache, and a change to the graph drops it (the next run plans the
 * graph as it now is). */
static void test_run_cache(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
  outputs(g, 1, REFS(op2(g, "Mul", x, fscalar(g, 2))));
  mf_tensor *fx = make_tensor(MF_FLOAT32, 0, NULL, VALS(1.5)), *out = NULL;
  CHECK(g->cache->data == NULL);
  CHECK_OK(run(g, 1, &fx, &out, NULL));
  CHECK(out && mf_tensor_get_f64(out, 0) == 3.0);
  mf_tensor_release(out);
  void *plan = g->cache->data;
  CHECK(plan != NULL);
  for (int i = 0; i < 3; i++) {
    CHECK_OK(run(g, 1, &fx, &out, NULL));
    CHECK(out && mf_tensor_get_f64(out, 0) == 3.0);
    mf_tensor_release(out);
    CHECK(g->cache->data == plan);
  }
  outputs(g, 1, REFS(x));
  CHECK(g->cache->data == NULL);
  CHECK_OK(run(g, 1, &fx, &out, NULL));
  CHECK(out && mf_tensor_get_f64(out, 0) == 1.5);
  mf_tensor_release(out);
  CHECK(g->cache->data != NULL);
  mf_tensor_release(fx);
  mf_graph_release(g);
}

/* Names made unique take the first free suffix, as TF's do, also past
 * one digit and when the buffer truncates them. */
static void test_unique_names(void) {
  mf_graph *g = NULL;
  CHECK_OK(mf_graph_new("names", &g, NULL));
  char name[64];
  for (int k = 0; k <= 12; k++) {
    char want[64];
    if (k == 0)
      snprintf(want, sizeof want, "mul");
    else
      snprintf(want, sizeof want, "mul_%d", k);
    CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
    CHECK(strcmp(name, want) == 0);
  }
  CHECK_OK(mf_graph_unique_name(g, "mul_3", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_3_1") == 0);
  /* A suffixed name taken by hand is skipped, one below it still given. */
  CHECK_OK(mf_graph_unique_name(g, "mul_14", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_14") == 0);
  CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_13") == 0);
  CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_15") == 0);
  /* Many nodes after one op (the names a long trace makes). */
  for (int k = 16; k <= 5000; k++) CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_5000") == 0);
  CHECK_OK(mf_graph_unique_name(g, "add", name, sizeof name, NULL));
  CHECK(strcmp(name, "add") == 0);
  char small[6];
  CHECK_OK(mf_graph_unique_name(g, "ab", small, sizeof small, NULL));
  CHECK(strcmp(small, "ab") == 0);
  for (int k = 1; k <= 9; k++) CHECK_OK(mf_graph_unique_name(g, "ab", small, sizeof small, NULL));
  CHECK(strcmp(small, "ab_9") == 0);
  /* "ab_10" fills all 6 bytes with its terminator: still whole. */
  CHECK_OK(mf_graph_unique_name(g, "ab", small, sizeof small, NULL));
  CHECK(strcmp(small, "ab_10") == 0);
  /* A graph without nodes whose name set was dropped starts afresh. */
  mf_graph_shrink(g);
  CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul") == 0);
  CHECK_OK(mf_graph_unique_name(g, "mul", name, sizeof name, NULL));
  CHECK(strcmp(name, "mul_1") == 0);
  mf_graph_release(g);
}

int main(void) {
  RUN(test_unique_names);
  RUN(test_copy_keeps_everything);
  RUN(test_copy_rejects_dropped_io);
  RUN(test_fold_chain);
  RUN(test_fold_static_shapes);
  RUN(test_fold_leaves_alone);
  RUN(test_simplify_units);
  RUN(test_simplify_respects_broadcasting);
  RUN(test_simplify_structure);
  RUN(test_cse_merges);
  RUN(test_cse_attrs_and_strings);
  RUN(test_stateful_untouched);
  RUN(test_prune);
  RUN(test_pipeline);
  RUN(test_pipeline_merges_folded);
  RUN(test_pipeline_nested);
  RUN(test_run_cache);
  return CHECK_DONE();
}
