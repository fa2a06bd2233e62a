/* test_node_run.c — one node run on its own (node_run.h: the stepper's
 * executor) gives the bits the planned run gives; node sources are kept
 * by copies and quoted in run errors; a profile (profile.h) times every
 * node of a run, once per call, with self times that add up. */
#include "check.h"

#include "op_test.h"
#include "graph_test.h"

#include "executor.h"
#include "graph.h"
#include "node_run.h"
#include "passes.h"
#include "profile.h"

static bool same_bits(const mf_tensor *a, const mf_tensor *b) {
  if (!a || !b || a->dtype != b->dtype || !mf_shape_equal(a->rank, a->shape, b->rank, b->shape))
    return false;
  return memcmp(mf_tensor_data(a), mf_tensor_data(b), (size_t)a->size * mf_dtype_size(a->dtype)) == 0;
}

/* (x * 3 + x) / 7, x float32 [5] */
static mf_graph *small_graph(ref *mul, ref *add, ref *div) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(5), NULL);
  double three = 3, seven = 7;
  *mul = op2(g, "Mul", x, cnst(g, make_tensor(MF_FLOAT32, 0, NULL, &three)));
  *add = op2(g, "AddV2", *mul, x);
  *div = op2(g, "RealDiv", *add, cnst(g, make_tensor(MF_FLOAT32, 0, NULL, &seven)));
  outputs(g, 1, REFS(*div));
  return g;
}

static void test_node_by_node_gives_the_run_bits(void) {
  ref mul, add, div;
  mf_graph *g = small_graph(&mul, &add, &div);
  mf_tensor *x = make_tensor(MF_FLOAT32, 1, DIMS(5), (double[]){0.1, -2.5, 3.3, 1e-7, 9});
  mf_tensor *want = NULL;
  mf_error err;
  CHECK_OK(run(g, 1, &x, &want, &err));
  /* the same nodes one at a time */
  mf_tensor *three = g->nodes[g->nodes[mul.node].inputs[1].node].known[0];
  mf_tensor *seven = g->nodes[g->nodes[div.node].inputs[1].node].known[0];
  mf_tensor *m = NULL, *a = NULL, *d = NULL, *id = NULL;
  CHECK_OK(mf_node_run(g, mul.node, (mf_tensor *[]){x, three}, &m, &err));
  CHECK_OK(mf_node_run(g, add.node, (mf_tensor *[]){m, x}, &a, &err));
  CHECK_OK(mf_node_run(g, div.node, (mf_tensor *[]){a, seven}, &d, &err));
  CHECK_OK(mf_node_run(g, g->outputs[0].node, (mf_tensor *[]){d}, &id, &err));
  CHECK(same_bits(id, want));
  /* a missing input is refused, not run */
  mf_tensor *none = NULL;
  CHECK(mf_node_run(g, add.node, (mf_tensor *[]){m, NULL}, &none, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(mf_node_run(g, 99, NULL, &none, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_tensor_release(m);
  mf_tensor_release(a);
  mf_tensor_release(d);
  mf_tensor_release(id);
  mf_tensor_release(want);
  mf_tensor_release(x);
  mf_graph_release(g);
}

static void test_sources_are_copied_and_quoted(void) {
  mf_graph *g = new_graph();
  ref v = input(g, MF_FLOAT32, 1, DIMS(2), NULL);
  ref i = input(g, MF_INT32, 0, NULL, NULL);
  double zero = 0;
  ref gather = add_op(g, "GatherV2", 3, REFS(v, i, cnst(g, make_tensor(MF_INT32, 0, NULL, &zero))), NULL);
  outputs(g, 1, REFS(gather));
  mf_error err;
  CHECK_OK(mf_graph_set_source(g, gather.node, "@/tmp/lesson.lua", 3, &err));
  CHECK_OK(mf_graph_set_source_text(g, gather.node, "z = tf.gather(y, i)", "z", &err));
  char where[128];
  CHECK(mf_node_source_where(&g->nodes[gather.node], where, sizeof where));
  CHECK(strcmp(where, "lesson.lua:3: z = tf.gather(y, i)") == 0);
  CHECK(!mf_node_source_where(&g->nodes[v.node], where, sizeof where));
  /* the optimiser's copy keeps it, and a failing run names it */
  mf_graph *opt = NULL;
  mf_pass_stats st;
  CHECK_OK(mf_graph_optimize(g, &opt, &st, &err));
  double five = 5;
  mf_tensor *fv = make_tensor(MF_FLOAT32, 1, DIMS(2), (double[]){1, 2});
  mf_tensor *fi = make_tensor(MF_INT32, 0, NULL, &five);
  mf_tensor *out = NULL;
  CHECK(run(opt, 2, (mf_tensor *[]){fv, fi}, &out, &err) != MF_OK);
  CHECK(strstr(err.message, "[[node GatherV2]] (made at lesson.lua:3: z = tf.gather(y, i))") != NULL);
  if (!strstr(err.message, "made at")) printf("#   %s\n", err.message);
  mf_tensor_release(fv);
  mf_tensor_release(fi);
  mf_graph_release(opt);
  mf_graph_release(g);
}

static void test_profile_times_each_node_once_per_run(void) {
  ref mul, add, div;
  mf_graph *g = small_graph(&mul, &add, &div);
  mf_tensor *x = make_tensor(MF_FLOAT32, 1, DIMS(5), (double[]){1, 2, 3, 4, 5});
  mf_profile p = {0};
  mf_profile_install(&p);
  mf_error err;
  for (int r = 0; r < 3; r++) {
    mf_tensor *out = NULL;
    CHECK_OK(run(g, 1, &x, &out, &err));
    mf_tensor_release(out);
  }
  mf_profile_install(NULL);
  CHECK(p.runs == 3);
  /* Mul, AddV2, RealDiv and the output Identity: the Consts are the plan's */
  CHECK(p.n == 4);
  int64_t self = 0;
  for (int i = 0; i < p.cap; i++) {
    if (!p.e[i].g) continue;
    CHECK(p.e[i].calls == 3);
    CHECK(p.e[i].depth == 0);
    CHECK(p.e[i].bytes == 3 * 5 * 4);
    CHECK(p.e[i].self_ns == p.e[i].total_ns);
    self += p.e[i].self_ns;
  }
  CHECK(self <= p.run_ns);
  mf_profile_clear(&p);
  /* off: nothing recorded */
  mf_tensor *out = NULL;
  CHECK_OK(run(g, 1, &x, &out, &err));
  CHECK(p.n == 0 && p.runs == 0);
  mf_tensor_release(out);
  mf_tensor_release(x);
  mf_graph_release(g);
}

int main(void) {
  RUN(test_node_by_node_gives_the_run_bits);
  RUN(test_sources_are_copied_and_quoted);
  RUN(test_profile_times_each_node_once_per_run);
  return CHECK_DONE();
}
