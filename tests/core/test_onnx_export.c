/* test_onnx_export.c — the ONNX writer at the C level (the sanitizer build
 * runs it under ASan): a graph with a variable, MatMul, If and While
 * exports to well-formed protobuf with the model's top-level fields; the
 * table of emitters names registered ops only, and every op without an
 * entry is UnimplementedError naming it. (The models' validity and
 * results are checked by tests/onnx/ with python3-onnx.) */
#include <stdlib.h>

#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "onnx_export.h"

static ref scalar_body(mf_graph *b, const char *op, ref x, double v) {
  mf_tensor *c = NULL;
  mf_tensor_scalar_i64(MF_INT32, (int64_t)v, &c, NULL);
  return op2(b, op, x, cnst(b, c));
}

static mf_graph *loop_graph(bool cond) {
  mf_graph *b = new_graph();
  ref i = input(b, MF_INT32, 0, NULL, NULL);
  outputs(b, 1, REFS(scalar_body(b, cond ? "Less" : "AddV2", i, cond ? 5 : 1)));
  return b;
}

/* Reads a varint at *p (bounded by end); false when malformed. */
static bool varint(const unsigned char **p, const unsigned char *end, uint64_t *v) {
  *v = 0;
  for (int s = 0; *p < end && s < 64; s += 7) {
    unsigned char c = *(*p)++;
    *v |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) return true;
  }
  return false;
}

static void test_model_fields(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  ref k = input(g, MF_INT32, 0, NULL, NULL);
  ref h = input(g, MF_RESOURCE, 0, NULL, NULL);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "dtype", MF_FLOAT32, NULL);
  ref w = add_op(g, "ReadVariableOp", 1, REFS(h), &as);
  mf_attrs_free(&as);
  ref y = op2(g, "MatMul", x, w);
  mf_graph *then_b = new_graph(), *else_b = new_graph();
  ref tx = input(then_b, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  outputs(then_b, 1, REFS(op1(then_b, "Exp", tx)));
  ref ex = input(else_b, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  outputs(else_b, 1, REFS(op1(else_b, "Neg", ex)));
  ref p = scalar_body(g, "Greater", k, 0);
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, "then_branch", then_b, NULL);
  mf_attrs_set_graph(&as, "else_branch", else_b, NULL);
  ref c = add_op(g, "If", 2, REFS(p, y), &as);
  mf_attrs_free(&as);
  mf_graph *cg = loop_graph(true), *bg = loop_graph(false);
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, "cond", cg, NULL);
  mf_attrs_set_graph(&as, "body", bg, NULL);
  ref l = add_op(g, "While", 1, REFS(k), &as);
  mf_attrs_free(&as);
  mf_graph_release(then_b), mf_graph_release(else_b), mf_graph_release(cg), mf_graph_release(bg);
  outputs(g, 2, REFS(c, l));
  mf_tensor *wv = NULL;
  mf_tensor_zeros(MF_FLOAT32, 2, (const int64_t[]){2, 2}, &wv, NULL);
  const char *names[] = {"x", "k"};
  unsigned char *bytes = NULL;
  size_t len = 0;
  mf_error err;
  mf_status s = mf_onnx_export(g, 2, names, 1, &wv, 17, &bytes, &len, &err);
  if (s != MF_OK) printf("#   %s\n", err.message);
  CHECK(s == MF_OK);
  /* top level: ir_version (1) = 8, a graph (7), opset_import (8) */
  bool ir = false, graph = false, opset = false, ok = true;
  for (const unsigned char *q = bytes, *end = bytes + len; ok && q < end;) {
    uint64_t key, v;
    ok = varint(&q, end, &key);
    if (!ok) break;
    if ((key & 7) == 0) {
      ok = varint(&q, end, &v);
      if (key >> 3 == 1) ir = v == 8;
    } else if ((key & 7) == 2) {
      ok = varint(&q, end, &v) && v <= (uint64_t)(end - q);
      if (key >> 3 == 7) graph = v > 0;
      if (key >> 3 == 8) opset = v > 0;
      q += ok ? v : 0;
    } else {
      ok = false;
    }
  }
  CHECK(ok && ir && graph && opset);
  free(bytes);
  /* opsets before 17 are refused */
  CHECK(mf_onnx_export(g, 2, names, 1, &wv, 13, &bytes, &len, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_tensor_release(wv);
  mf_graph_release(g);
}

static void test_unsupported_op_named(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, (const int64_t[]){3}, NULL);
  outputs(g, 1, REFS(op1(g, "Log1p", x)));
  const char *names[] = {"x"};
  unsigned char *bytes = NULL;
  size_t len;
  mf_error err;
  CHECK(mf_onnx_export(g, 1, names, 0, NULL, 17, &bytes, &len, &err) == MF_ERR_UNIMPLEMENTED);
  CHECK(strstr(err.message, "Log1p") != NULL);
  CHECK(bytes == NULL);
  mf_graph_release(g);
}

/* The emitter table names registered ops, each once. */
static void test_table_names_registered_ops(void) {
  int n = mf_onnx_op_count();
  CHECK(n > 0);
  CHECK(mf_onnx_op_name(n) == NULL);
  for (int i = 0; i < n; i++) {
    const char *name = mf_onnx_op_name(i);
    if (!mf_op_lookup(name)) printf("#   ONNX table entry %s is not a registered op\n", name);
    CHECK(mf_op_lookup(name) != NULL);
    for (int k = i + 1; k < n; k++) CHECK(strcmp(name, mf_onnx_op_name(k)) != 0);
  }
}

static bool has_emitter(const char *op) {
  for (int i = 0; i < mf_onnx_op_count(); i++)
    if (strcmp(mf_onnx_op_name(i), op) == 0) return true;
  return false;
}

/* Every registered op without an entry (but Placeholder, a graph input,
 * and NoOp, which has nothing to export) is refused with the error naming
 * it. The node is added without inference: the exporter refuses it before
 * it reads anything of it. */
static void test_every_op_without_entry_refused(void) {
  int refused = 0;
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    if (has_emitter(op->name) || strcmp(op->name, "Placeholder") == 0 || strcmp(op->name, "NoOp") == 0)
      continue;
    mf_graph *g = new_graph();
    ref x = input(g, MF_FLOAT32, 0, NULL, NULL);
    int nin = op->min_inputs;
    ref in[16]; /* CSVDatasetV2 takes ten */
    mf_spec specs[16];
    for (int k = 0; k < nin && k < 16; k++) {
      in[k] = x;
      specs[k] = g->nodes[x.node].out_specs[0];
    }
    mf_op_call c;
    mf_op_call_init(&c, op, nin, specs, NULL, NULL);
    mf_error err;
    int id = -1;
    CHECK_OK(mf_op_call_set_nout(&c, 1, &err));
    c.out_specs[0] = (mf_spec){.dtype = MF_FLOAT32, .rank = 0};
    CHECK_OK(mf_graph_add_node(g, "node", &c, in, &id, &err));
    mf_op_call_free(&c);
    CHECK_OK(mf_graph_set_outputs(g, 1, REFS((ref){id, 0}), &err));
    const char *names[] = {"x"};
    unsigned char *bytes = NULL;
    size_t len;
    mf_status s = mf_onnx_export(g, 1, names, 0, NULL, 17, &bytes, &len, &err);
    bool named = s == MF_ERR_UNIMPLEMENTED && strstr(err.message, op->name) != NULL &&
                 strstr(err.message, "has no ONNX translation") != NULL;
    if (!named) printf("#   %s: not refused as untranslatable\n", op->name);
    CHECK(named);
    refused += named;
    free(bytes);
    mf_graph_release(g);
  }
  CHECK(refused + mf_onnx_op_count() + 2 == mf_op_count());
}

int main(void) {
  RUN(test_model_fields);
  RUN(test_unsupported_op_named);
  RUN(test_table_names_registered_ops);
  RUN(test_every_op_without_entry_refused);
  return CHECK_DONE();
}
