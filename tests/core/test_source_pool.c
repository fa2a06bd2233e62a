/* test_source_pool.c — node sources are interned per graph (source_pool.h):
 * one record per distinct (chunk, line, code, variable), strings shared,
 * no allocation per node, the optimiser's copy keeping the very records,
 * and running out of memory leaving a node without a source, nothing
 * worse. */
#include "check.h"

#include "op_test.h"
#include "graph_test.h"

#include "alloc.h"
#include "graph.h"
#include "passes.h"
#include "source_pool.h"

static void test_equal_sources_are_one_record(void) {
  mf_source_pool *p = mf_source_pool_new();
  char chunk[] = "@/tmp/lesson.lua", again[] = "@/tmp/lesson.lua";
  const mf_node_source *a = mf_source_pool_intern(p, chunk, 3, NULL, NULL);
  const mf_node_source *b = mf_source_pool_intern(p, again, 3, NULL, NULL);
  const mf_node_source *c = mf_source_pool_intern(p, chunk, 4, NULL, NULL);
  const mf_node_source *d = mf_source_pool_intern(p, chunk, 3, "y = x * 2", "y");
  const mf_node_source *e = mf_source_pool_intern(p, chunk, 3, "y = x * 2", NULL);
  const mf_node_source *f = mf_source_pool_intern(p, chunk, 3, "y = x * 2", "y");
  CHECK(a && b && c && d && e && f);
  CHECK(a == b);
  CHECK(a != c && a != d && d != e && a != e);
  CHECK(d == f);
  /* the records keep copies, and share one copy of a string */
  CHECK(a->chunk != chunk && strcmp(a->chunk, "@/tmp/lesson.lua") == 0);
  CHECK(a->chunk == c->chunk && a->chunk == d->chunk);
  CHECK(a->line == 3 && c->line == 4 && !a->text && !a->name);
  CHECK(strcmp(d->text, "y = x * 2") == 0 && strcmp(d->name, "y") == 0 && d->text == e->text);
  /* a record asked for again after others is still the same one */
  CHECK(mf_source_pool_intern(p, chunk, 4, NULL, NULL) == c);
  CHECK(mf_source_pool_intern(p, NULL, 1, NULL, NULL) == mf_source_pool_intern(p, "?", 1, NULL, NULL));
  mf_source_pool_release(p);
}

static void test_many_distinct_sources(void) {
  mf_source_pool *p = mf_source_pool_new();
  const mf_node_source *r[3000];
  char chunk[32];
  for (int i = 0; i < 3000; i++) {
    snprintf(chunk, sizeof chunk, "@f%d.lua", i % 7);
    r[i] = mf_source_pool_intern(p, chunk, i, NULL, NULL);
  }
  bool ok = true;
  for (int i = 0; i < 3000; i++) {
    snprintf(chunk, sizeof chunk, "@f%d.lua", i % 7);
    ok = ok && r[i] && r[i]->line == i && strcmp(r[i]->chunk, chunk) == 0 &&
         mf_source_pool_intern(p, chunk, i, NULL, NULL) == r[i];
  }
  CHECK(ok);
  mf_source_pool_release(p);
}

/* A chain of n Exp nodes on one input. */
static mf_graph *chain(int n, ref *last) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  for (int i = 0; i < n; i++) x = op1(g, "Exp", x);
  outputs(g, 1, REFS(x));
  *last = x;
  return g;
}

static void test_a_line_of_many_nodes_costs_no_allocation_per_node(void) {
  ref last;
  mf_graph *g = chain(1000, &last);
  mf_error err;
  /* the first node makes the pool; the others only look it up */
  CHECK_OK(mf_graph_set_source_range(g, 1, 1, "@/tmp/loop.lua", 7, NULL, &err));
  int64_t before = mf_alloc_count();
  for (int i = 2; i <= last.node; i++) {
    CHECK_OK(mf_graph_set_source(g, i, "@/tmp/loop.lua", 7, &err));
    CHECK_OK(mf_graph_set_source_text(g, i, "x = tf.exp(x)", i % 2 ? "x" : NULL, &err));
  }
  CHECK_OK(mf_graph_set_source_range(g, 0, last.node, "@/tmp/other.lua", 1, NULL, &err));
  /* one new string and a record or two: at most a block, never per node */
  CHECK(mf_alloc_count() - before <= 2);
  CHECK(g->nodes[0].source && g->nodes[0].source->line == 1); /* the range filled only the input */
  CHECK(g->nodes[1].source && !g->nodes[1].source->text && g->nodes[1].source->line == 7);
  CHECK(g->nodes[3].source == g->nodes[5].source && strcmp(g->nodes[3].source->name, "x") == 0);
  CHECK(g->nodes[2].source == g->nodes[4].source && !g->nodes[2].source->name);
  char where[64];
  CHECK(mf_node_source_where(&g->nodes[2], where, sizeof where) && strcmp(where, "loop.lua:7: x = tf.exp(x)") == 0);
  mf_graph_release(g);
}

static void test_copies_share_the_records(void) {
  /* MatMuls: the optimiser copies them (an elementwise chain becomes one
   * fused node) */
  mf_graph *g = new_graph();
  ref last = input(g, MF_FLOAT32, 2, DIMS(3, 3), NULL);
  for (int i = 0; i < 3; i++) last = op2(g, "MatMul", last, last);
  outputs(g, 1, REFS(last));
  mf_error err;
  CHECK_OK(mf_graph_set_source_range(g, 1, last.node, "=stdin", 2, NULL, &err));
  CHECK_OK(mf_graph_set_source_text(g, last.node, "y = x @ x", "y", &err));
  mf_graph *opt = NULL;
  mf_pass_stats st;
  CHECK_OK(mf_graph_optimize(g, &opt, &st, &err));
  const mf_node_source *src = g->nodes[last.node].source;
  bool found = false;
  for (int i = 0; i < opt->nnodes; i++) found = found || opt->nodes[i].source == src;
  CHECK(found);
  CHECK(opt->sources == g->sources);
  /* the copy outlives its source graph, with its sources */
  mf_graph_release(g);
  char where[64];
  found = false;
  for (int i = 0; i < opt->nnodes; i++)
    found = found || (mf_node_source_where(&opt->nodes[i], where, sizeof where) &&
                      strcmp(where, "stdin:2: y = x @ x") == 0);
  CHECK(found);
  mf_graph_release(opt);
}

static void test_out_of_memory_leaves_no_source(void) {
  ref last;
  mf_graph *g = chain(2, &last);
  mf_error err;
  mf_alloc_fail_after(1, 1);
  mf_status s = mf_graph_set_source(g, last.node, "@/tmp/a.lua", 1, &err);
  mf_alloc_fail_after(0, 0);
  CHECK(s == MF_ERR_RESOURCE_EXHAUSTED);
  CHECK(!g->nodes[last.node].source);
  CHECK_OK(mf_graph_set_source(g, last.node, "@/tmp/a.lua", 1, &err));
  /* a new string past a full block fails alone; the record kept stays */
  mf_alloc_fail_after(1, 1);
  char big[5000];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  s = mf_graph_set_source_text(g, last.node, big, NULL, &err);
  mf_alloc_fail_after(0, 0);
  CHECK(s == MF_ERR_RESOURCE_EXHAUSTED);
  CHECK(g->nodes[last.node].source && g->nodes[last.node].source->line == 1 && !g->nodes[last.node].source->text);
  CHECK_OK(mf_graph_set_source_text(g, last.node, big, NULL, &err));
  CHECK(strlen(g->nodes[last.node].source->text) == sizeof big - 1);
  mf_graph_release(g);
}

int main(void) {
  RUN(test_equal_sources_are_one_record);
  RUN(test_many_distinct_sources);
  RUN(test_a_line_of_many_nodes_costs_no_allocation_per_node);
  RUN(test_copies_share_the_records);
  RUN(test_out_of_memory_leaves_no_source);
  return CHECK_DONE();
}
