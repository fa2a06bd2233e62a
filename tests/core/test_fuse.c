/* test_fuse.c — elementwise fusion: the pass (mf_pass_fuse_elementwise),
 * the FusedElementwise kernel and the block functions of elementwise.h
 * (the thread pool's tests are in test_threadpool.c). Graphs are built
 * with the core API as tracing builds them; every fused graph is run
 * beside the graph it came from and must give the same bits. What must
 * not fuse: intermediates read elsewhere or returned, stateful nodes,
 * integer division, strings, inputs broadcast other than as one element. */
#include "check.h"

#include <float.h>
#include <time.h>
#include "op_test.h"
#include "array_test.h"
#include "graph_test.h"

#include "elementwise.h"
#include "executor.h"
#include "graph.h"
#include "interrupt.h"
#include "passes.h"
#include "variable.h"

/* ---- building graphs (more in graph_test.h) ---- */

static ref cast(mf_graph *g, ref a, mf_dtype dt) {
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "DstT", dt, NULL);
  ref r = add_op(g, "Cast", 1, REFS(a), &as);
  mf_attrs_free(&as);
  return r;
}

static ref scalar_of(mf_graph *g, mf_dtype dt, double v) {
  return cnst(g, make_tensor(dt, 0, NULL, &v));
}

/* ---- running and comparing ---- */

static const mf_graph *first_body(const mf_graph *g) {
  for (int i = 0; i < g->nnodes; i++)
    if (strcmp(g->nodes[i].op->name, "FusedElementwise") == 0)
      return mf_attrs_find(g->nodes[i].attrs, "body")->u.graph;
  return NULL;
}

/* Same dtype, shape and bytes. */
static bool same_bits(const mf_tensor *a, const mf_tensor *b) {
  if (!a || !b || a->dtype != b->dtype || !mf_shape_equal(a->rank, a->shape, b->rank, b->shape))
    return false;
  return memcmp(mf_tensor_data(a), mf_tensor_data(b), (size_t)a->size * mf_dtype_size(a->dtype)) ==
         0;
}

/* Runs g and its fused copy o on the same feeds: every output bitwise equal. */
static bool same_results(mf_graph *g, mf_graph *o, int nfeeds, mf_tensor *const *feeds) {
  mf_tensor *a[16], *b[16];
  mf_error err;
  bool ok = run(g, nfeeds, feeds, a, &err) == MF_OK;
  if (!ok) printf("#   original: %s\n", err.message);
  bool ok2 = run(o, nfeeds, feeds, b, &err) == MF_OK;
  if (!ok2) printf("#   fused: %s\n", err.message);
  ok = ok && ok2 && g->noutputs == o->noutputs;
  for (int i = 0; ok && i < g->noutputs; i++) {
    ok = same_bits(a[i], b[i]);
    if (!ok) printf("#   output %d differs\n", i);
  }
  for (int i = 0; i < g->noutputs; i++) {
    mf_tensor_release(a[i]);
    mf_tensor_release(b[i]);
  }
  return ok;
}

static mf_graph *fuse(mf_graph *g, mf_pass_stats *st) {
  int before = g->nnodes;
  mf_graph *o = NULL;
  memset(st, 0, sizeof *st);
  mf_error err;
  if (mf_pass_fuse_elementwise(g, &o, st, &err) != MF_OK) printf("#   pass failed: %s\n", err.message);
  CHECK(o != NULL && o != g);
  CHECK(g->nnodes == before);
  return o;
}

/* A float tensor of `n` values spread over [-6, 6] with some specials. */
static mf_tensor *spread(mf_dtype dt, int rank, const int64_t *shape) {
  mf_tensor *t = NULL;
  mf_tensor_new(dt, rank, shape, &t, NULL);
  for (int64_t i = 0; i < t->size; i++) {
    double v = -6.0 + 12.0 * (double)((i * 7919) % 100003) / 100003.0;
    if (i % 997 == 5) v = 0.0;
    if (i % 991 == 7) v = -0.0;
    mf_tensor_set_f64(t, i, v);
  }
  return t;
}

/* The benchmark's chain: x * 1.0001, + 0.5, tanh, repeated; `ops` ops. */
static mf_graph *chain_graph(mf_dtype dt, int rank, const int64_t *shape, int ops) {
  mf_graph *g = new_graph();
  ref x = input(g, dt, rank, shape, NULL);
  for (int i = 1; i <= ops; i++) {
    if (i % 3 == 1)
      x = op2(g, "Mul", x, scalar_of(g, dt, 1.0001));
    else if (i % 3 == 2)
      x = op2(g, "AddV2", x, scalar_of(g, dt, 0.5));
    else
      x = op1(g, "Tanh", x);
  }
  outputs(g, 1, REFS(x));
  return g;
}

/* ---- the pass ---- */

static void test_chain_becomes_one_node(void) {
  const int64_t sizes[] = {1, 16, 1000, 1024, 1025, 3001, 70001, 1 << 20};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    for (int d = 0; d < 2; d++) {
      mf_dtype dt = d ? MF_FLOAT64 : MF_FLOAT32;
      mf_graph *g = chain_graph(dt, 1, &sizes[k], 30);
      mf_pass_stats st;
      mf_graph *o = fuse(g, &st);
      /* Placeholder, FusedElementwise (named after the output Identity) */
      CHECK(o->nnodes == 2 && count_op(o, "FusedElementwise") == 1);
      CHECK(st.fused == 31 && st.nodes_after == 2);
      CHECK(strcmp(o->nodes[o->outputs[0].node].name, g->nodes[g->outputs[0].node].name) == 0);
      const mf_graph *body = first_body(o);
      CHECK(body && body->ninputs == 1 && count_op(body, "Tanh") == 10 &&
            count_op(body, "Mul") == 10 && count_op(body, "Const") == 20 &&
            count_op(body, "Identity") == 0);
      mf_tensor *x = spread(dt, 1, &sizes[k]);
      CHECK(same_results(g, o, 1, &x));
      mf_tensor_release(x);
      mf_graph_release(o);
      mf_graph_release(g);
    }
  }
}

/* A value read outside the group stays a node of its own. */
static void test_shared_intermediate_not_fused(void) {
  int64_t n = 3000;
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, &n, NULL);
  ref t = op1(g, "Tanh", op2(g, "Mul", x, scalar_of(g, MF_FLOAT32, 2)));
  ref b = op2(g, "AddV2", op1(g, "Exp", t), scalar_of(g, MF_FLOAT32, 1));
  ref s = add_op(g, "Sum", 2, REFS(t, cnst(g, make_tensor(MF_INT32, 1, DIMS(1), VALS(0)))), NULL);
  outputs(g, 2, REFS(b, s));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  /* t = tanh(x * 2) is read by Sum: {Mul, Tanh} and {Exp, AddV2, Identity} */
  CHECK(count_op(o, "FusedElementwise") == 2 && count_op(o, "Tanh") == 0);
  CHECK(count_op(o, "Sum") == 1 && count_op(o, "Exp") == 0);
  mf_tensor *xv = spread(MF_FLOAT32, 1, &n);
  CHECK(same_results(g, o, 1, &xv));
  mf_graph_release(o);
  mf_graph_release(g);

  /* An intermediate that is also returned ends its group. */
  g = new_graph();
  x = input(g, MF_FLOAT32, 1, &n, NULL);
  t = op1(g, "Tanh", x);
  ref u = op2(g, "Mul", op1(g, "Sigmoid", t), t);
  mf_graph_set_outputs(g, 2, REFS(u, t), NULL);
  o = fuse(g, &st);
  CHECK(count_op(o, "FusedElementwise") == 1 && count_op(o, "Tanh") == 1);
  CHECK(strcmp(o->nodes[o->outputs[1].node].op->name, "Tanh") == 0);
  CHECK(same_results(g, o, 1, &xv));
  mf_graph_release(o);
  mf_graph_release(g);

  /* Two readers in different groups: the value is a root. */
  g = new_graph();
  x = input(g, MF_FLOAT32, 1, &n, NULL);
  t = op1(g, "Exp", op1(g, "Neg", x));
  ref p = add_op(g, "Max", 2, REFS(op1(g, "Tanh", op1(g, "Sqrt", t)),
                                 cnst(g, make_tensor(MF_INT32, 1, DIMS(1), VALS(0)))), NULL);
  ref q = op1(g, "Log", op1(g, "Square", t));
  outputs(g, 2, REFS(p, q));
  o = fuse(g, &st);
  CHECK(count_op(o, "FusedElementwise") == 3 && count_op(o, "Exp") == 0);
  CHECK(same_results(g, o, 1, &xv));
  mf_graph_release(o);
  mf_graph_release(g);
  mf_tensor_release(xv);
}

static mf_tensor *new_handle(mf_tensor *init, mf_variable **var) {
  mf_tensor *h = NULL;
  mf_variable_new("v", init, true, var, NULL);
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

static void test_stateful_untouched(void) {
  int64_t n = 2000;
  mf_tensor *init = spread(MF_FLOAT32, 1, &n);
  mf_variable *v1, *v2;
  mf_tensor *h1 = new_handle(init, &v1), *h2 = new_handle(init, &v2);
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, &n, NULL);
  ref vh = input(g, MF_RESOURCE, 0, NULL, h1);
  ref r = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  ref c = op2(g, "AddV2", op1(g, "Tanh", op2(g, "Mul", r, x)), scalar_of(g, MF_FLOAT32, 1));
  add_op(g, "AssignVariableOp", 2, REFS(vh, c), NULL);
  ref r2 = add_op(g, "ReadVariableOp", 1, REFS(vh), NULL);
  ref d = op2(g, "Sub", op1(g, "Exp", r2), c);
  outputs(g, 2, REFS(d, r2));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  char before[256], after[256];
  stateful_order(g, before, sizeof before);
  stateful_order(o, after, sizeof after);
  CHECK(strcmp(before, after) == 0);
  CHECK(strcmp(after, "ReadVariableOp,AssignVariableOp,ReadVariableOp") == 0);
  /* {Mul, Tanh, AddV2} (c is read by the assignment: a root) and {Exp, Sub, Identity} */
  CHECK(count_op(o, "FusedElementwise") == 2);
  for (int i = 0; i < o->nnodes; i++)
    if (o->nodes[i].op->flags & MF_OP_STATEFUL) {
      const mf_node *nd = &o->nodes[i];
      /* every stateful node after the first keeps its control edge */
      CHECK(strcmp(nd->name, "ReadVariableOp") == 0 || nd->ncontrol >= 1);
    }
  mf_tensor *xv = spread(MF_FLOAT32, 1, &n);
  mf_tensor *a[2], *b[2];
  CHECK_OK(run(g, 2, (mf_tensor *[]){xv, h1}, a, NULL));
  CHECK_OK(run(o, 2, (mf_tensor *[]){xv, h2}, b, NULL));
  CHECK(same_bits(a[0], b[0]) && same_bits(a[1], b[1]));
  CHECK(same_bits(v1->value, v2->value));
  for (int i = 0; i < 2; i++) {
    mf_tensor_release(a[i]);
    mf_tensor_release(b[i]);
  }
  mf_tensor_release(xv);
  mf_graph_release(o);
  mf_graph_release(g);
  mf_tensor_release(h1); /* the handles own the variables */
  mf_tensor_release(h2);
  mf_tensor_release(init);
}

/* Scalars (inputs and Consts) are read as one element; broadcasting other
 * than that keeps the node out. */
static void test_broadcast_inputs(void) {
  int64_t n = 5000;
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(50, 100), NULL);
  ref y = input(g, MF_FLOAT32, 0, NULL, NULL);
  ref row = input(g, MF_FLOAT32, 1, DIMS(100), NULL);
  ref one = cnst(g, make_tensor(MF_FLOAT32, 2, DIMS(1, 1), VALS(1)));
  ref a = op1(g, "Tanh", op2(g, "AddV2", op2(g, "Mul", x, y), one));
  ref b = op2(g, "AddV2", a, row);            /* [50,100] + [100]: not fused */
  ref c = op1(g, "Sigmoid", op2(g, "Mul", b, b));
  outputs(g, 1, REFS(c));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  CHECK(count_op(o, "FusedElementwise") == 2 && count_op(o, "AddV2") == 1);
  const mf_graph *body = first_body(o);
  CHECK(body && body->ninputs == 2 && count_op(body, "Const") == 1);
  mf_tensor *xv = spread(MF_FLOAT32, 2, DIMS(50, 100));
  mf_tensor *yv = make_tensor(MF_FLOAT32, 0, NULL, VALS(0.25));
  mf_tensor *rv = spread(MF_FLOAT32, 1, DIMS(100));
  CHECK(same_results(g, o, 3, (mf_tensor *[]){xv, yv, rv}));
  (void)n;
  mf_tensor_release(xv);
  mf_tensor_release(yv);
  mf_tensor_release(rv);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* bool conditions, Cast and float64 inside one group. */
static void test_mixed_dtypes(void) {
  int64_t n = 4099;
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, &n, NULL);
  ref pos = op2(g, "Greater", x, scalar_of(g, MF_FLOAT32, 0));
  ref s = add_op(g, "SelectV2",
                 3, REFS(pos, op1(g, "Tanh", x), op2(g, "Mul", x, scalar_of(g, MF_FLOAT32, 0.1))),
                 NULL);
  ref d = op2(g, "Mul", cast(g, s, MF_FLOAT64), scalar_of(g, MF_FLOAT64, 3));
  ref i = cast(g, op1(g, "Floor", op2(g, "Mul", d, scalar_of(g, MF_FLOAT64, 10))), MF_INT32);
  ref k = op2(g, "AddV2", op2(g, "Mul", i, i), scalar_of(g, MF_INT32, 7));
  ref nb = op1(g, "LogicalNot", op2(g, "Less", k, scalar_of(g, MF_INT32, 100)));
  outputs(g, 2, REFS(k, nb));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  /* k is read by the output and by Less: two groups */
  CHECK(count_op(o, "FusedElementwise") == 2 && count_op(o, "Cast") == 0);
  mf_tensor *xv = spread(MF_FLOAT32, 1, &n);
  CHECK(same_results(g, o, 1, &xv));
  mf_tensor_release(xv);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* Integer division keeps its error; strings are not blocks. */
static void test_not_fusable(void) {
  int64_t n = 100;
  mf_graph *g = new_graph();
  ref x = input(g, MF_INT32, 1, &n, NULL);
  ref y = input(g, MF_INT32, 1, &n, NULL);
  ref q = op2(g, "FloorDiv", op2(g, "Mul", x, x), y);
  ref r = op2(g, "AddV2", op2(g, "Sub", q, y), x);
  ref s = input(g, MF_STRING, 1, &n, NULL);
  ref t = op2(g, "AddV2", op2(g, "AddV2", s, s), s);
  outputs(g, 2, REFS(r, t));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  CHECK(count_op(o, "FloorDiv") == 1 && count_op(o, "FusedElementwise") == 1);
  mf_tensor *xv = make_tensor(MF_INT32, 1, &n, NULL), *yv = make_tensor(MF_INT32, 1, &n, NULL);
  const char *words[100];
  for (int i = 0; i < 100; i++) {
    mf_tensor_set_i64(xv, i, i * 12345 - 600000);
    mf_tensor_set_i64(yv, i, i % 7 - 3 + (i % 7 == 3));
    words[i] = i % 2 ? "ab" : "c";
  }
  mf_tensor *sv = make_strings(1, &n, words);
  mf_tensor *a[2], *b[2];
  CHECK_OK(run(g, 3, (mf_tensor *[]){xv, yv, sv}, a, NULL));
  CHECK_OK(run(o, 3, (mf_tensor *[]){xv, yv, sv}, b, NULL));
  CHECK(same_bits(a[0], b[0]));
  CHECK(b[1] && MF_DATA(b[1], mf_string)[1].len == 6);
  for (int i = 0; i < 2; i++) {
    mf_tensor_release(a[i]);
    mf_tensor_release(b[i]);
  }
  /* a zero divisor still fails as TF's does */
  mf_tensor_set_i64(yv, 3, 0);
  mf_error err;
  mf_tensor *c[2];
  CHECK(run(o, 3, (mf_tensor *[]){xv, yv, sv}, c, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Integer division by zero") != NULL);
  mf_tensor_release(xv);
  mf_tensor_release(yv);
  mf_tensor_release(sv);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* Unknown dimensions fuse; at run time a broadcast the blocks cannot read
 * runs the body unfused, with the same results. */
static void test_unknown_dims(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(-1, -1), NULL);
  ref y = input(g, MF_FLOAT32, 2, DIMS(-1, -1), NULL);
  ref a = op1(g, "Exp", op2(g, "Sub", op1(g, "Tanh", x), y));
  outputs(g, 1, REFS(op2(g, "Mul", a, scalar_of(g, MF_FLOAT32, 2))));
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  CHECK(count_op(o, "FusedElementwise") == 1 && o->nnodes == 3);
  const int64_t shapes[][2][2] = {
      {{3, 4}, {3, 4}}, {{3, 4}, {1, 1}}, {{1, 1}, {300, 400}}, {{3, 4}, {1, 4}}, {{5, 1}, {1, 7}},
      {{0, 4}, {1, 4}}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    mf_tensor *xv = spread(MF_FLOAT32, 2, shapes[k][0]);
    mf_tensor *yv = spread(MF_FLOAT32, 2, shapes[k][1]);
    CHECK(same_results(g, o, 2, (mf_tensor *[]){xv, yv}));
    mf_tensor_release(xv);
    mf_tensor_release(yv);
  }
  mf_graph_release(o);
  mf_graph_release(g);
}

/* Fusing again changes nothing, and a body is left alone. */
static void test_idempotent(void) {
  int64_t n = 64;
  mf_graph *g = chain_graph(MF_FLOAT32, 1, &n, 12);
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  mf_graph *o2 = fuse(o, &st);
  CHECK(o2->nnodes == o->nnodes && st.fused == 0 && count_op(o2, "FusedElementwise") == 1);
  mf_graph *body = (mf_graph *)first_body(o);
  mf_graph *b2 = fuse(body, &st);
  CHECK(b2->nnodes == body->nnodes && count_op(b2, "FusedElementwise") == 0 && st.fused == 0);
  mf_tensor *x = spread(MF_FLOAT32, 1, &n);
  CHECK(same_results(g, o2, 1, &x));
  mf_tensor_release(x);
  mf_graph_release(b2);
  mf_graph_release(o2);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* ---- the kernel ---- */

/* Ctrl-C during a long fused run: InterruptedError, flag cleared. */
static void test_interrupt(void) {
  int64_t n = 1 << 21;
  mf_graph *g = chain_graph(MF_FLOAT32, 1, &n, 6);
  mf_pass_stats st;
  mf_graph *o = fuse(g, &st);
  int f = o->outputs[0].node;
  mf_tensor *x = spread(MF_FLOAT32, 1, &n);
  mf_spec spec;
  mf_spec_of_tensor(x, &spec);
  mf_op_call c;
  mf_op_call_init(&c, o->nodes[f].op, 1, &spec, &x, o->nodes[f].attrs);
  mf_interrupt_request();
  mf_error err;
  CHECK(mf_op_execute(&c, &err) == MF_ERR_INTERRUPTED);
  CHECK(mf_interrupt_flag == 0);
  mf_op_call_free(&c);
  mf_tensor_release(x);
  mf_graph_release(o);
  mf_graph_release(g);
}

/* ---- block functions ---- */

extern const mf_op_def mf_op_FusedElementwise;

static void test_block_api(void) {
  float a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50}, z[5];
  const void *in[3] = {a, b};
  CHECK(mf_elementwise_block(&mf_op_Sub, MF_FLOAT32, 2, in, (const int64_t[]){1, 1}, z, 5, NULL));
  CHECK(z[0] == -9 && z[4] == -45);
  CHECK(mf_elementwise_block(&mf_op_Sub, MF_FLOAT32, 2, in, (const int64_t[]){0, 1}, z, 5, NULL));
  CHECK(z[0] == -9 && z[4] == -49);
  CHECK(mf_elementwise_block(&mf_op_Sub, MF_FLOAT32, 2, in, (const int64_t[]){1, 0}, z, 5, NULL));
  CHECK(z[0] == -9 && z[4] == -5);
  CHECK(mf_elementwise_block(&mf_op_Sub, MF_FLOAT32, 2, in, (const int64_t[]){0, 0}, z, 5, NULL));
  CHECK(z[0] == -9 && z[4] == -9);
  CHECK(mf_elementwise_block(&mf_op_Neg, MF_FLOAT32, 1, in, (const int64_t[]){0}, z, 5, NULL));
  CHECK(z[0] == -1 && z[4] == -1);
  bool cond[5] = {true, false, true, false, true}, bz[5];
  in[0] = cond, in[1] = a, in[2] = b;
  CHECK(mf_elementwise_block(&mf_op_SelectV2, MF_FLOAT32, 3, in, (const int64_t[]){1, 1, 0}, z,
                             5, NULL));
  CHECK(z[0] == 1 && z[1] == 10 && z[4] == 5);
  in[0] = a, in[1] = b;
  CHECK(mf_elementwise_block(&mf_op_Less, MF_FLOAT32, 2, in, (const int64_t[]){1, 0}, bz, 5, NULL));
  CHECK(bz[0] && bz[4]);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "DstT", MF_INT64, NULL);
  int64_t iz[5];
  double dv[5] = {-1.5, 2.7, NAN, 1e30, -0.0};
  in[0] = dv;
  CHECK(mf_elementwise_block(&mf_op_Cast, MF_FLOAT64, 1, in, (const int64_t[]){1}, iz, 5, &as));
  /* NaN and out of range: the minimum integer, as the Cast kernel (TF on x86) */
  CHECK(iz[0] == -1 && iz[1] == 2 && iz[2] == INT64_MIN && iz[3] == INT64_MIN && iz[4] == 0);
  mf_elementwise_fn fn;
  CHECK(mf_elementwise_resolve(&mf_op_Cast, MF_FLOAT64, &as, &fn) && fn.out_dtype == MF_INT64);
  CHECK(!mf_elementwise_resolve(&mf_op_Cast, MF_FLOAT64, NULL, &fn)); /* no DstT */
  mf_attrs_free(&as);
  CHECK(mf_elementwise_resolve(&mf_op_Equal, MF_INT32, NULL, &fn) && fn.out_dtype == MF_BOOL);
  /* no block: strings, non-elementwise ops, the fused op, missing dtypes */
  CHECK(!mf_elementwise_resolve(&mf_op_AddV2, MF_STRING, NULL, &fn));
  CHECK(!mf_elementwise_resolve(&mf_op_MatMul, MF_FLOAT32, NULL, &fn));
  CHECK(!mf_elementwise_resolve(&mf_op_FusedElementwise, MF_FLOAT32, NULL, &fn));
  CHECK(!mf_elementwise_resolve(&mf_op_Tanh, MF_INT32, NULL, &fn));
  CHECK(!mf_elementwise_block(&mf_op_AddV2, MF_FLOAT32, 1, in, (const int64_t[]){1}, z, 5, NULL));
  /* integer division has a block but is not fusable; float division is */
  CHECK(mf_elementwise_resolve(&mf_op_FloorDiv, MF_INT32, NULL, &fn));
  CHECK(!mf_elementwise_fusable(&mf_op_FloorDiv, MF_INT32, NULL));
  CHECK(mf_elementwise_fusable(&mf_op_FloorDiv, MF_FLOAT32, NULL));
  CHECK(mf_elementwise_fusable(&mf_op_Identity, MF_BOOL, NULL));
  /* every elementwise op of the registry but Identity's strings has float32 or bool blocks */
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    if (!(op->flags & MF_OP_ELEMENTWISE) || op == &mf_op_FusedElementwise || op == &mf_op_Cast)
      continue;
    bool any = mf_elementwise_resolve(op, MF_FLOAT32, NULL, &fn) ||
               mf_elementwise_resolve(op, MF_BOOL, NULL, &fn);
    if (!any) printf("#   %s has no block function\n", op->name);
    CHECK(any);
  }
}

/* Every op's block over a block equals its own kernel over the tensor. */
static void test_blocks_match_kernels(void) {
  int64_t n = 777;
  mf_tensor *x = spread(MF_FLOAT64, 1, &n), *y = spread(MF_FLOAT64, 1, &n);
  for (int64_t i = 0; i < n; i++) mf_tensor_set_f64(y, i, mf_tensor_get_f64(y, n - 1 - i) + 0.5);
  const mf_dtype dts[] = {MF_FLOAT32, MF_FLOAT64, MF_INT32, MF_INT64, MF_BOOL};
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    if (!(op->flags & MF_OP_ELEMENTWISE) || op->min_inputs > 2 || op == &mf_op_Cast) continue;
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
      if (!mf_elementwise_fusable(op, dts[d], NULL)) continue;
      mf_tensor *in[2] = {NULL, NULL}, *out = NULL;
      mf_tensor_copy(x, &in[0], NULL);
      mf_tensor_copy(y, &in[1], NULL);
      mf_tensor *cx = NULL, *cy = NULL;
      mf_attrs as;
      mf_attrs_init(&as);
      mf_attrs_set_type(&as, "DstT", dts[d], NULL);
      mf_error err;
      CHECK_OK(run_op("Cast", 1, &in[0], &as, 1, &cx, &err));
      CHECK_OK(run_op("Cast", 1, &in[1], &as, 1, &cy, &err));
      mf_attrs_free(&as);
      mf_tensor *args[2] = {cx, cy};
      CHECK_OK(run_op(op->name, op->min_inputs, args, NULL, 1, &out, &err));
      if (out) {
        char *z = malloc((size_t)n * 8);
        const void *ins[2] = {mf_tensor_data(cx), mf_tensor_data(cy)};
        CHECK(mf_elementwise_block(op, dts[d], op->min_inputs, ins, (const int64_t[]){1, 1}, z,
                                   n, NULL));
        bool same = memcmp(z, mf_tensor_data(out), (size_t)n * mf_dtype_size(out->dtype)) == 0;
        if (!same) printf("#   %s %s: block differs from kernel\n", op->name, mf_dtype_name(dts[d]));
        CHECK(same);
        free(z);
      }
      mf_tensor_release(out);
      mf_tensor_release(cx);
      mf_tensor_release(cy);
      mf_tensor_release(in[0]);
      mf_tensor_release(in[1]);
    }
  }
  mf_tensor_release(x);
  mf_tensor_release(y);
}

/* ---- chunks (elementwise.h: whole programs a chunk at a time) ---- */

/* Values of every kind the ops treat specially, then a spread. */
static double special(int64_t i, mf_dtype dt) {
  static const double f[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-310, -1e-310, 1e-40,
                             FLT_MAX, -FLT_MAX, 1e30, 88.8, -104.5, 9.03, -9.01, 0.625, 20.5,
                             1.0, -1.0, 0.5, -0.5, 3.0, 2.5, -2.5};
  static const double k[] = {0, 1, -1, 2, -2, 7, -7, 100, 2147483647.0, -2147483648.0, 65536, -3};
  int64_t nf = sizeof f / sizeof f[0], nk = sizeof k / sizeof k[0];
  if (dt == MF_BOOL) return (double)((i * 7 + i / 3) % 2);
  if (mf_dtype_is_integer(dt)) return i < nk ? k[i] : (double)((i * 7919) % 2001 - 1000);
  return i < nf ? f[i] : -6.0 + 12.0 * (double)((i * 7919) % 100003) / 100003.0;
}

static mf_tensor *specials(mf_dtype dt, int64_t n, int64_t shift) {
  mf_tensor *t = NULL;
  mf_tensor_new(dt, 1, &n, &t, NULL);
  for (int64_t i = 0; i < n; i++) mf_tensor_set_f64(t, i, special((i + shift) % (n + 3), dt));
  return t;
}

/* Every op with a block function has a chunk code, for every dtype. */
static void test_chunk_codes(void) {
  const mf_dtype dts[] = {MF_FLOAT32, MF_FLOAT64, MF_INT32, MF_INT64, MF_BOOL};
  int seen = 0;
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
      for (size_t e = 0; e < (op == &mf_op_Cast ? sizeof dts / sizeof dts[0] : 1); e++) {
        mf_attrs as;
        mf_attrs_init(&as);
        mf_attrs_set_type(&as, "DstT", dts[e], NULL);
        mf_elementwise_fn fn;
        int code = -1;
        bool block = mf_elementwise_resolve(op, dts[d], &as, &fn);
        bool chunk = mf_elementwise_chunk_code(op, dts[d], &as, &code);
        if (block != chunk) printf("#   %s %s: block %d, chunk %d\n", op->name, mf_dtype_name(dts[d]), block, chunk);
        CHECK(block == chunk && (code > 0) == chunk);
        seen += chunk;
        mf_attrs_free(&as);
      }
    }
  }
  CHECK(seen > 150);
  int code = -1;
  CHECK(!mf_elementwise_chunk_code(&mf_op_AddV2, MF_STRING, NULL, &code) && code == 0);
}

/* The same bits, a NaN matching any NaN: which NaN an op on two NaNs
 * gives depends on its operands' order in the instruction, which the
 * instruction sets' versions need not share (as the differential tests). */
static bool same_or_nan(const char *a, const char *b, mf_dtype dt, int64_t n) {
  size_t size = mf_dtype_size(dt);
  for (int64_t i = 0; i < n; i++) {
    const char *x = a + (size_t)i * size, *y = b + (size_t)i * size;
    if (memcmp(x, y, size) == 0) continue;
    if (dt == MF_FLOAT32 && isnan(*(const float *)x) && isnan(*(const float *)y)) continue;
    if (dt == MF_FLOAT64 && isnan(*(const double *)x) && isnan(*(const double *)y)) continue;
    return false;
  }
  return true;
}

/* Runs steps (values 0..nleaves-1 are leaves of n elements; step k writes
 * value nleaves + k; the last is the result) by blocks over all n, and
 * as compiled chunks with the tail by blocks, as the fused kernel does;
 * the results must have the same bits. */
static bool chunks_match_blocks(mf_elementwise_step *steps, int nsteps, int nleaves,
                                char *const *leaves, const size_t *leaf_size, int64_t n,
                                int *kind_out) {
  int nvalues = nleaves + nsteps, result = nvalues - 1;
  char *full[16];
  size_t size[16];
  for (int v = 0; v < nvalues; v++) {
    size[v] = v < nleaves ? leaf_size[v] : mf_dtype_size(steps[v - nleaves].fn.out_dtype);
    full[v] = v < nleaves ? leaves[v] : calloc((size_t)n + 1, size[v]);
  }
  int64_t ones[3] = {1, 1, 1};
  for (int st = 0; st < nsteps; st++) {
    const void *in[3] = {full[steps[st].in[0]], full[steps[st].in[1]], full[steps[st].in[2]]};
    mf_elementwise_run(&steps[st].fn, in, ones, full[steps[st].out], n);
  }
  /* by chunks: every computed value gets a slot; the leaves and the
   * result move through their tensors */
  for (int st = 0; st < nsteps; st++) {
    steps[st].keep = steps[st].out == result;
    for (int later = st + 2; later < nsteps; later++)
      for (int k = 0; k < 3; k++) steps[st].keep |= steps[later].in[k] == steps[st].out;
  }
  mf_chunk_op ops[48];
  int kind, len;
  int nops = mf_elementwise_chunk_compile(steps, nsteps, ops, &kind, &len);
  *kind_out = kind;
  char *out = calloc((size_t)n + 1, size[result]);
  uint64_t scratch[16][MF_ELEMENTWISE_CHUNK];
  char *ptr[16];
  mf_chunk_cursor move[16];
  int nmove = 0;
  for (int v = 0; v < nvalues; v++) {
    bool moves = v < nleaves || v == result;
    ptr[v] = v < nleaves ? leaves[v] : v == result ? out : (char *)scratch[v];
    if (moves) move[nmove++] = (mf_chunk_cursor){v, len * (int)size[v]};
  }
  int64_t nchunks = n / len;
  mf_elementwise_chunks(kind, ops, nops, ptr, move, nmove, nchunks);
  bool same = out + (size_t)(nchunks * len) * size[result] == ptr[result];
  /* the tail by blocks into the output */
  int64_t at = nchunks * len, rest = n - at;
  if (rest > 0) {
    char *tail[16];
    for (int v = 0; v < nvalues; v++)
      tail[v] = v < nleaves ? leaves[v] + (size_t)at * size[v]
                : v == result ? out + (size_t)at * size[v] : (char *)scratch[v];
    for (int st = 0; st < nsteps; st++) {
      const void *in[3] = {tail[steps[st].in[0]], tail[steps[st].in[1]], tail[steps[st].in[2]]};
      mf_elementwise_run(&steps[st].fn, in, ones, tail[steps[st].out], rest);
    }
  }
  same = same && same_or_nan(out, full[result], steps[nsteps - 1].fn.out_dtype, n);
  free(out);
  for (int v = nleaves; v < nvalues; v++) free(full[v]);
  return same;
}

static mf_elementwise_step step_of(const mf_op_def *op, mf_dtype dt, const mf_attrs *as, int out,
                                   int a, int b, int c) {
  mf_elementwise_step s = {.nin = op->min_inputs, .in = {a, b, c}, .out = out};
  CHECK(mf_elementwise_resolve(op, dt, as, &s.fn));
  CHECK(mf_elementwise_chunk_code(op, dt, as, &s.chunk));
  return s;
}

/* Each op alone, and float ops with their operands in each place the
 * accumulator can hold them (first, second, both, neither), over sizes
 * around the chunk lengths, on special values. */
static void test_chunks_match_blocks(void) {
  const mf_dtype dts[] = {MF_FLOAT32, MF_FLOAT64, MF_INT32, MF_INT64, MF_BOOL};
  const int64_t sizes[] = {128, 129, 200, 255, 256, 257, 300, 1025};
  int kinds[3] = {0, 0, 0};
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    if (!(op->flags & MF_OP_ELEMENTWISE) || op->min_inputs > 3 || op == &mf_op_Identity) continue;
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
      for (size_t e = 0; e < (op == &mf_op_Cast ? sizeof dts / sizeof dts[0] : 1); e++) {
        mf_attrs as;
        mf_attrs_init(&as);
        mf_attrs_set_type(&as, "DstT", dts[e], NULL);
        mf_dtype dt = dts[d];
        if (!mf_elementwise_fusable(op, dt, &as)) {
          mf_attrs_free(&as);
          continue;
        }
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
          int64_t n = sizes[k];
          bool sel = op == &mf_op_SelectV2;
          mf_tensor *x = specials(sel ? MF_BOOL : dt, n, 0), *y = specials(dt, n, 5),
                    *z = specials(dt, n, 11);
          char *leaves[3] = {mf_tensor_data(x), mf_tensor_data(y), mf_tensor_data(z)};
          size_t lsz[3] = {mf_dtype_size(x->dtype), mf_dtype_size(dt), mf_dtype_size(dt)};
          int kind = -1;
          /* the op alone: value 3 = op(0, 1, 2) */
          mf_elementwise_step one[1] = {step_of(op, dt, &as, 3, 0, op->min_inputs > 1 ? 1 : 0,
                                                op->min_inputs > 2 ? 2 : 0)};
          bool ok = chunks_match_blocks(one, 1, 3, leaves, lsz, n, &kind);
          kinds[kind]++;
          /* float binary ops after Neg: 3 = -x; 4 = op(3, y); 5 = op(y, 4); 6 = op(5, 5) */
          if (ok && op->min_inputs == 2 && !mf_dtype_is_integer(dt) && dt != MF_BOOL) {
            mf_elementwise_step st[4] = {step_of(&mf_op_Neg, dt, NULL, 3, 1, 1, 1),
                                         step_of(op, dt, &as, 4, 3, 2, 3),
                                         step_of(op, dt, &as, 5, 2, 4, 2),
                                         step_of(op, dt, &as, 6, 5, 5, 5)};
            if (st[1].fn.out_dtype == dt) ok = chunks_match_blocks(st, 4, 3, leaves, lsz, n, &kind);
            kinds[kind]++;
          }
          if (!ok) printf("#   %s %s (DstT %s), %lld elements: chunks differ from blocks\n", op->name,
                          mf_dtype_name(dt), mf_dtype_name(dts[e]), (long long)n);
          CHECK(ok);
          mf_tensor_release(x);
          mf_tensor_release(y);
          mf_tensor_release(z);
        }
        mf_attrs_free(&as);
      }
    }
  }
  /* all three interpreters ran */
  CHECK(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
}

/* Fused graphs against the unfused ones at sizes around vector widths,
 * chunk lengths and blocks, one and several threads' worth, with
 * broadcast scalars (an input, Consts) and special values: the chain
 * (register program), a mixed one (scratch program), float64. */
static void test_fused_sizes(void) {
  const int64_t sizes[] = {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257,
                           1023, 1024, 1025, 4097, 70001, 140003};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k];
    for (int d = 0; d < 2; d++) {
      mf_dtype dt = d ? MF_FLOAT64 : MF_FLOAT32;
      mf_graph *g = chain_graph(dt, 1, &n, 40);
      mf_pass_stats st;
      mf_graph *o = fuse(g, &st);
      mf_tensor *x = specials(dt, n, 0);
      CHECK(same_results(g, o, 1, &x));
      CHECK(same_results(g, o, 1, &x)); /* the cached program */
      mf_tensor_release(x);
      mf_graph_release(o);
      mf_graph_release(g);
      /* math with a scalar input, reads of older values, x * x, a - b both ways */
      g = new_graph();
      ref a = input(g, dt, 1, &n, NULL), c = input(g, dt, 0, NULL, NULL);
      ref t = op1(g, "Tanh", op2(g, "Mul", a, c));
      ref e = op1(g, "Exp", op2(g, "Sub", scalar_of(g, dt, 0.5), t));
      ref q = op2(g, "RealDiv", op2(g, "Mul", e, e), op2(g, "Sub", t, a));
      ref r = op2(g, "Maximum", op1(g, "Sigmoid", q), op2(g, "Minimum", a, op1(g, "Log1p", e)));
      ref f = op2(g, "SquaredDifference", r, op1(g, "Sqrt", op1(g, "Abs", q)));
      outputs(g, 1, REFS(f));
      o = fuse(g, &st);
      CHECK(count_op(o, "FusedElementwise") == 1);
      mf_tensor *xs[2] = {specials(dt, n, 3), make_tensor(dt, 0, NULL, VALS(-1.75))};
      CHECK(same_results(g, o, 2, xs));
      mf_tensor_release(xs[0]);
      mf_tensor_release(xs[1]);
      mf_graph_release(o);
      mf_graph_release(g);
    }
    /* comparisons, selects, casts and an integer tail */
    mf_graph *g = new_graph();
    ref x = input(g, MF_FLOAT32, 1, &n, NULL);
    ref pos = op2(g, "Greater", x, scalar_of(g, MF_FLOAT32, 0));
    ref s = add_op(g, "SelectV2", 3,
                   REFS(pos, op1(g, "Tanh", x), op2(g, "Mul", x, scalar_of(g, MF_FLOAT32, 0.1))),
                   NULL);
    ref i = cast(g, op1(g, "Floor", op2(g, "Mul", cast(g, s, MF_FLOAT64), scalar_of(g, MF_FLOAT64, 1e3))),
                 MF_INT32);
    ref m = op2(g, "AddV2", op2(g, "Mul", i, i), scalar_of(g, MF_INT32, 7));
    outputs(g, 1, REFS(op1(g, "LogicalNot", op2(g, "Less", m, scalar_of(g, MF_INT32, 100)))));
    mf_pass_stats st;
    mf_graph *o = fuse(g, &st);
    CHECK(count_op(o, "FusedElementwise") == 1);
    mf_tensor *xv = specials(MF_FLOAT32, n, 1);
    CHECK(same_results(g, o, 1, &xv));
    mf_tensor_release(xv);
    mf_graph_release(o);
    mf_graph_release(g);
  }
}

/* ---- the thread pool ---- */

int main(void) {
  RUN(test_chain_becomes_one_node);
  RUN(test_shared_intermediate_not_fused);
  RUN(test_stateful_untouched);
  RUN(test_broadcast_inputs);
  RUN(test_mixed_dtypes);
  RUN(test_not_fusable);
  RUN(test_unknown_dims);
  RUN(test_idempotent);
  RUN(test_interrupt);
  RUN(test_block_api);
  RUN(test_blocks_match_kernels);
  RUN(test_chunk_codes);
  RUN(test_chunks_match_blocks);
  RUN(test_fused_sizes);
  release_all();
  return CHECK_DONE();
}
