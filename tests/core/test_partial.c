/* test_partial.c — partial values (core/ops/partial.h): what the producers TF's
 * shape refiner reads through (Shape, Pack, ConcatV2, StridedSlice, Cast,
 * Unpack) make known element by element, what the shape functions make of
 * it, and that copies, optimised graphs, graphs loaded from JSON and the
 * executor's plans keep to it. Graphs are built as tracing builds them
 * (graph_test.h passes known and partial values along). */
#include <stdlib.h>

#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "graph_io.h"
#include "partial.h"
#include "passes.h"

#define V(...) ((const double[]){__VA_ARGS__})

static mf_tensor *ints(mf_dtype dt, int n, const double *vals) {
  int64_t len = n;
  return make_tensor(dt, 1, &len, vals);
}

static ref ivec_const(mf_graph *g, int n, const double *vals) { return cnst(g, ints(MF_INT32, n, vals)); }

/* Whether r's partial value is exactly v[0..n) (n -1: none). */
static bool partial_is(const mf_graph *g, ref r, int n, const int64_t *v) {
  const mf_partial *p = mf_graph_partial(g, r);
  if (n < 0) return p == NULL;
  if (!p || p->n != n) return false;
  for (int i = 0; i < n; i++)
    if (p->v[i] != v[i]) return false;
  return true;
}

/* Whether r's known value is the integer scalar v (v < 0: no known value). */
static bool known_is(const mf_graph *g, ref r, int64_t v) {
  const mf_tensor *t = g->nodes[r.node].known[r.index];
  if (v < 0) return t == NULL;
  return t && t->rank == 0 && mf_tensor_get_i64(t, 0) == v;
}

static ref strided(mf_graph *g, ref x, double b, double e, double s, int64_t begin_mask,
                   int64_t end_mask, int64_t shrink) {
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_int(&as, "begin_mask", begin_mask, NULL);
  mf_attrs_set_int(&as, "end_mask", end_mask, NULL);
  mf_attrs_set_int(&as, "ellipsis_mask", 0, NULL);
  mf_attrs_set_int(&as, "new_axis_mask", 0, NULL);
  mf_attrs_set_int(&as, "shrink_axis_mask", shrink, NULL);
  ref r = add_op(g, "StridedSlice", 4,
                 REFS(x, ivec_const(g, 1, V(b)), ivec_const(g, 1, V(e)), ivec_const(g, 1, V(s))),
                 &as);
  mf_attrs_free(&as);
  return r;
}

static ref concat(mf_graph *g, ref a, ref b) {
  return add_op(g, "ConcatV2", 3, REFS(a, b, cnst(g, make_tensor(MF_INT32, 0, NULL, V(0)))), NULL);
}

/* The shape of `x` (None, 74), a scalar n, and what the producers make of
 * them. */
static void test_producers(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(-1, 74), NULL);
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref s = op1(g, "Shape", x);
  CHECK(partial_is(g, s, 2, DIMS(-1, 74)));
  CHECK(mf_graph_partial(g, s)->of_shape);
  /* tf.shape(x)[1] of a known dimension is a constant; [0] is not */
  CHECK(known_is(g, strided(g, s, 1, 2, 1, 0, 0, 1), 74));
  CHECK(known_is(g, strided(g, s, -1, 0, 1, 0, 0, 1), 74));
  CHECK(known_is(g, strided(g, s, 0, 1, 1, 0, 0, 1), -1));
  /* tf.unstack(tf.shape(x)) */
  mf_attrs un;
  mf_attrs_init(&un);
  mf_attrs_set_int(&un, "num", 2, NULL);
  ref u = add_op(g, "Unpack", 1, REFS(s), &un);
  mf_attrs_free(&un);
  CHECK(known_is(g, u, -1));
  CHECK(known_is(g, (ref){u.node, 1}, 74));
  /* Pack: known scalars, negative ones unknown */
  ref p = add_op(g, "Pack", 3,
                 REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, V(37))),
                      cnst(g, make_tensor(MF_INT32, 0, NULL, V(-1)))),
                 NULL);
  CHECK(partial_is(g, p, 3, DIMS(-1, 37, -1)));
  CHECK(!mf_graph_partial(g, p)->of_shape);
  /* ConcatV2 joins; a constant part keeps its values; of_shape is lost */
  ref c = concat(g, s, ivec_const(g, 2, V(2, -2)));
  CHECK(partial_is(g, c, 4, DIMS(-1, 74, 2, -2)));
  CHECK(!mf_graph_partial(g, c)->of_shape);
  CHECK(known_is(g, strided(g, c, 1, 2, 1, 0, 0, 1), -1));
  /* a vector of unknown length makes the whole concatenation unknown */
  ref any = input(g, MF_INT32, 1, DIMS(-1), NULL);
  CHECK(partial_is(g, concat(g, s, any), -1, NULL));
  /* StridedSlice counts as Python slices: [2::-1], [:1:-2], [-3:], [1:3:1] */
  CHECK(partial_is(g, strided(g, c, 2, 0, -1, 0, 1, 0), 3, DIMS(2, 74, -1)));
  CHECK(partial_is(g, strided(g, c, 0, 1, -2, 1, 0, 0), 1, DIMS(-2)));
  CHECK(partial_is(g, strided(g, c, -3, 0, 1, 0, 1, 0), 3, DIMS(74, 2, -2)));
  CHECK(partial_is(g, strided(g, c, 1, 3, 1, 0, 0, 0), 2, DIMS(74, 2)));
  /* nothing known in the slice taken: no partial value */
  CHECK(partial_is(g, strided(g, c, 0, 1, 1, 0, 0, 0), -1, NULL));
  mf_graph_release(g);
}

/* Cast between integer types keeps the elements (not of_shape); to a float
 * it keeps nothing. */
static void test_cast(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(-1, 74), NULL);
  ref s = op1(g, "Shape", x);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "DstT", MF_INT64, NULL);
  ref k = add_op(g, "Cast", 1, REFS(s), &as);
  mf_attrs_free(&as);
  CHECK(partial_is(g, k, 2, DIMS(-1, 74)));
  CHECK(!mf_graph_partial(g, k)->of_shape);
  CHECK(g->nodes[k.node].out_specs[0].dtype == MF_INT64);
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "DstT", MF_FLOAT32, NULL);
  CHECK(partial_is(g, add_op(g, "Cast", 1, REFS(s), &as), -1, NULL));
  mf_attrs_free(&as);
  mf_graph_release(g);
}

/* Infers `name` on `in` as tracing does and expects TF's error text. */
static bool infer_fails(mf_graph *g, const char *name, int nin, const ref *in, const char *text) {
  mf_spec specs[8];
  mf_tensor *vals[8];
  const mf_partial *partials[8];
  for (int k = 0; k < nin; k++) {
    specs[k] = g->nodes[in[k].node].out_specs[in[k].index];
    vals[k] = g->nodes[in[k].node].known[in[k].index];
    partials[k] = mf_graph_partial(g, in[k]);
  }
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup(name), nin, specs, vals, NULL);
  c.building = true;
  c.in_partial = partials;
  mf_error err;
  mf_status s = mf_op_infer(&c, &err);
  mf_op_call_free(&c);
  if (s != MF_OK && strstr(err.message, text)) return true;
  printf("#   %s: wanted \"%s\", got %s\n", name, text, s == MF_OK ? "success" : err.message);
  return false;
}

static bool spec_of_is(const mf_graph *g, ref r, int rank, const int64_t *shape) {
  return spec_is(&g->nodes[r.node].out_specs[r.index], rank, shape);
}

/* The shape functions reading them (MakeShapeFromShapeTensor). */
static void test_consumers(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(-1, 74), NULL);
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref s = op1(g, "Shape", x);
  ref p = add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, V(37)))), NULL);
  ref zero = cnst(g, make_tensor(MF_FLOAT32, 0, NULL, V(0)));
  CHECK(spec_of_is(g, op2(g, "Fill", s, zero), 2, DIMS(-1, 74)));
  CHECK(spec_of_is(g, op2(g, "Reshape", x, p), 2, DIMS(-1, 37)));
  ref y = input(g, MF_FLOAT32, 1, DIMS(74), NULL);
  CHECK(spec_of_is(g, op2(g, "Reshape", y, p), 2, DIMS(2, 37)));
  CHECK(spec_of_is(g, op2(g, "Tile", x, p), 2, DIMS(-1, 74 * 37)));
  CHECK(infer_fails(g, "Fill", 2, REFS(concat(g, s, ivec_const(g, 1, V(-2))), zero),
                    "Invalid value in tensor used for shape: -2"));
  CHECK(infer_fails(g, "BroadcastTo", 2, REFS(y, p), "Dimensions must be equal, but are 74 and 37"));
  mf_graph_release(g);
}

/* A graph whose output shapes rest on partial values: copies, optimised
 * graphs and graphs loaded from JSON keep both. */
static mf_graph *partial_graph(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(-1, 74), NULL);
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref s = op1(g, "Shape", x);
  ref first = strided(g, s, 0, 1, 1, 0, 0, 1);
  ref p = add_op(g, "Pack", 3,
                 REFS(first, cnst(g, make_tensor(MF_INT32, 0, NULL, V(37))),
                      cnst(g, make_tensor(MF_INT32, 0, NULL, V(2)))),
                 NULL);
  ref r = op2(g, "Reshape", x, p);
  ref b = op2(g, "BroadcastTo", cnst(g, make_tensor(MF_FLOAT32, 1, DIMS(3), V(1, 2, 3))),
              add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, V(3)))), NULL));
  /* {-1, tf.shape(x)[1]}: every element known, so the Pack is folded */
  ref second = strided(g, s, 1, 2, 1, 0, 0, 1);
  ref q = add_op(g, "Pack", 2, REFS(cnst(g, make_tensor(MF_INT32, 0, NULL, V(-1))), second), NULL);
  ref z = op2(g, "Reshape", x, q);
  outputs(g, 3, REFS(r, b, z));
  return g;
}

static bool outputs_are(const mf_graph *g) {
  return spec_of_is(g, g->outputs[0], 3, DIMS(-1, 37, 2)) &&
         spec_of_is(g, g->outputs[1], 2, DIMS(-1, 3)) && spec_of_is(g, g->outputs[2], 2, DIMS(-1, 74));
}

/* Every node of b that a has too (by name) holds the same partial value,
 * but where b knows the value (loading folds what it can, as tracing does;
 * add_op does not). */
static bool same_partials(const mf_graph *a, const mf_graph *b) {
  int seen = 0;
  for (int i = 0; i < b->nnodes; i++) {
    int j = mf_graph_find(a, b->nodes[i].name);
    if (j < 0 || a->nodes[j].nout != b->nodes[i].nout || a->nodes[j].op != b->nodes[i].op) continue;
    for (int k = 0; k < b->nodes[i].nout; k++) {
      if (b->nodes[i].known[k]) continue;
      const mf_partial *p = mf_graph_partial(a, (ref){j, k}), *q = mf_graph_partial(b, (ref){i, k});
      if (!p != !q || (p && (p->n != q->n || p->of_shape != q->of_shape ||
                             memcmp(p->v, q->v, (size_t)p->n * sizeof p->v[0]) != 0)))
        return false;
      seen += p != NULL;
    }
  }
  return seen > 0;
}

static void test_graphs_keep_them(void) {
  mf_graph *g = partial_graph();
  CHECK(outputs_are(g));
  /* a plain copy */
  mf_graph_copy c;
  mf_graph *copy = NULL;
  CHECK_OK(mf_graph_copy_begin(g, &c, NULL));
  for (int i = 0; i < g->nnodes; i++) CHECK_OK(mf_graph_copy_node(&c, i, NULL));
  CHECK_OK(mf_graph_copy_finish(&c, &copy, NULL));
  CHECK(copy && outputs_are(copy) && same_partials(g, copy));
  mf_graph_release(copy);
  /* the optimised graph */
  mf_graph *opt = NULL;
  CHECK_OK(mf_graph_optimize(g, &opt, NULL, NULL));
  CHECK(opt && outputs_are(opt) && same_partials(g, opt));
  mf_graph_release(opt);
  /* through JSON: the loaded graph infers them again */
  char *text = NULL;
  mf_graph *loaded = NULL;
  mf_error err;
  CHECK_OK(mf_graph_dump(g, &text, NULL));
  mf_status s = text ? mf_graph_parse(text, strlen(text), &loaded, &err) : MF_ERR_INTERNAL;
  if (s != MF_OK && text) printf("#   parse: %s\n", err.message);
  CHECK(s == MF_OK && loaded && outputs_are(loaded) && same_partials(g, loaded));
  free(text);
  mf_graph_release(loaded);
  mf_graph_release(g);
}

/* A static shape that rests on a partial value is checked when the graph
 * runs: tf.broadcast_to(v, {n}) of a (3,) v is (3,) while tracing, and a
 * run with n = 5 fails as TF's kernel does; so does a slice of a static
 * shape whose begin was not known. */
static void test_runs_check_values(void) {
  mf_graph *g = new_graph();
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref v = cnst(g, make_tensor(MF_FLOAT32, 1, DIMS(3), V(1, 2, 3)));
  ref b = op2(g, "BroadcastTo", v, add_op(g, "Pack", 1, REFS(n), NULL));
  CHECK(spec_of_is(g, b, 1, DIMS(3)));
  ref params = cnst(g, make_tensor(MF_FLOAT32, 2, DIMS(2, 4), V(0, 1, 2, 3, 4, 5, 6, 7)));
  ref begin = add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, V(0)))), NULL);
  ref sl = add_op(g, "Slice", 3, REFS(params, begin, ivec_const(g, 2, V(2, 2))), NULL);
  CHECK(spec_of_is(g, sl, 2, DIMS(2, 2)));
  outputs(g, 2, REFS(b, sl));
  mf_tensor *outs[2];
  mf_error err;
  mf_tensor *three = make_tensor(MF_INT32, 0, NULL, V(3)), *big = make_tensor(MF_INT32, 0, NULL, V(5));
  /* n = 3 broadcasts, but begins past the 2 rows */
  CHECK(run(g, 1, &three, outs, &err) != MF_OK && strstr(err.message, "begin"));
  mf_tensor_release(outs[0]);
  mf_tensor_release(outs[1]);
  CHECK(run(g, 1, &big, outs, &err) != MF_OK);
  mf_tensor_release(outs[0]);
  mf_tensor_release(outs[1]);
  mf_tensor_release(three);
  mf_tensor_release(big);
  mf_graph_release(g);
}

/* Reshape(x, s) whose static result is x's shape is dropped by the
 * optimiser only when s is a constant: a partial s may still say otherwise
 * when the graph runs. */
static void test_simplify_keeps_partial_reshape(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, DIMS(2, 37), NULL);
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref r = op2(g, "Reshape", x,
              add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, V(37)))), NULL));
  CHECK(spec_of_is(g, r, 2, DIMS(2, 37)));
  ref same = op2(g, "Reshape", r, ivec_const(g, 2, V(2, 37)));
  outputs(g, 1, REFS(same));
  mf_graph *opt = NULL;
  CHECK_OK(mf_graph_optimize(g, &opt, NULL, NULL));
  CHECK(opt && count_op(opt, "Reshape") == 1);
  mf_graph_release(opt);
  mf_graph_release(g);
}

static void test_no_leaks(void) { CHECK(mf_live_bytes() == 0); }

int main(void) {
  RUN(test_producers);
  RUN(test_cast);
  RUN(test_consumers);
  RUN(test_graphs_keep_them);
  RUN(test_runs_check_values);
  RUN(test_simplify_keeps_partial_reshape);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
