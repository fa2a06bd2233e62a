/* test_graph_io.c — graphs through JSON and back: every registered op in a
 * saved graph round-trips (same JSON again, same results), and hostile
 * documents are refused with clean errors. */
#include <stdlib.h>

#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "graph_io.h"
#include "passes.h"

/* dump -> parse -> dump gives the same text. Returns the parsed copy. */
static mf_graph *round_trip(const mf_graph *g, const char *what) {
  char *a = NULL, *b = NULL;
  mf_graph *h = NULL;
  mf_error err;
  if (mf_graph_dump(g, &a, &err) != MF_OK) {
    printf("#   %s: dump: %s\n", what, err.message);
    CHECK(0);
    return NULL;
  }
  if (mf_graph_parse(a, strlen(a), &h, &err) != MF_OK) {
    printf("#   %s: parse: %s\n", what, err.message);
    CHECK(0);
  } else if (mf_graph_dump(h, &b, &err) != MF_OK || strcmp(a, b) != 0) {
    printf("#   %s: second dump differs\n", what);
    CHECK(0);
  }
  free(a);
  free(b);
  return h;
}

/* Inputs tried for an op with no special construction: n placeholders of
 * one dtype and shape, known values from small constants (so that ops
 * reading axes, shapes or indices from their inputs infer). */
static const mf_dtype try_dtypes[] = {MF_FLOAT32, MF_INT32, MF_BOOL, MF_STRING, MF_INT64};

static mf_tensor *sample(mf_dtype dt, int rank) {
  int64_t shape[4] = {2, 2, 2, 2};
  mf_tensor *t = NULL;
  mf_tensor_zeros(dt, rank, shape, &t, NULL);
  for (int64_t i = 0; dt != MF_STRING && i < t->size; i++) mf_tensor_set_i64(t, i, (i % 2) + (dt == MF_BOOL ? 0 : 1) * 0);
  if (dt == MF_STRING)
    for (int64_t i = 0; i < t->size; i++) mf_string_set(&MF_DATA(t, mf_string)[i], "ab", 2, NULL);
  return t;
}

/* Tries to add op `op` with nin Const inputs of dtype dt and rank; returns
 * true when inference accepted it. */
/* Small int32 inputs for axes, shapes, perms, begins and sizes. */
static mf_tensor *int_sample(int which) {
  static const int32_t vals[][2] = {{0, 0}, {1, 0}, {2, 2}, {1, 0}, {0, 0}, {1, 1}};
  int rank = which < 2 ? 0 : 1;
  int64_t shape[1] = {2};
  mf_tensor *t = NULL;
  mf_tensor_new(MF_INT32, rank, shape, &t, NULL);
  for (int64_t i = 0; i < t->size; i++) MF_DATA(t, int32_t)[i] = vals[which][i];
  return t;
}
#define N_INT_SAMPLES 6

/* combo < 0: every input of dtype dt and rank; else input 0 is so and the
 * others are int samples picked by the base-6 digits of combo. */
static bool try_build(mf_graph *g, const mf_op_def *op, int nin, mf_dtype dt, int rank, int combo) {
  ref in[8];
  for (int k = 0, c = combo; k < nin; k++, c /= N_INT_SAMPLES)
    in[k] = cnst(g, combo < 0 || k == 0 ? sample(dt, rank) : int_sample(c % N_INT_SAMPLES));
  mf_spec specs[8];
  mf_tensor *vals[8];
  for (int k = 0; k < nin; k++) {
    specs[k] = g->nodes[in[k].node].out_specs[0];
    vals[k] = g->nodes[in[k].node].known[0];
  }
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, vals, NULL);
  mf_error err;
  char unique[128];
  int id = -1;
  mf_status s = mf_op_infer(&c, &err);
  if (s == MF_OK) s = mf_graph_unique_name(g, op->name, unique, sizeof unique, &err);
  if (s == MF_OK) s = mf_graph_add_node(g, unique, &c, in, &id, &err);
  if (s == MF_OK && c.nout > 0) s = mf_graph_set_outputs(g, 1, REFS((ref){id, 0}), &err);
  mf_op_call_free(&c);
  return s == MF_OK;
}

/* Ops whose inference needs attributes (bodies, values, types) that no
 * plain input choice gives: built by hand below. */
/* A one-input graph applying op `name` (rank-0 dtype dt input). */
static mf_graph *body1(const char *name, mf_dtype dt, ref (*extra)(mf_graph *, ref)) {
  mf_graph *b = new_graph();
  ref x = input(b, dt, 0, NULL, NULL);
  outputs(b, 1, REFS(extra ? extra(b, x) : op1(b, name, x)));
  return b;
}
static ref less3(mf_graph *b, ref x) { return op2(b, "Less", x, cnst(b, sample(MF_INT32, 0))); }
static ref plus1(mf_graph *b, ref x) { return op2(b, "AddV2", x, cnst(b, int_sample(1))); }

static ref with_graphs(mf_graph *g, const char *op, int nin, const ref *in, const char *a,
                       mf_graph *ga, const char *b, mf_graph *gb) {
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, a, ga, NULL);
  mf_attrs_set_graph(&as, b, gb, NULL);
  ref r = add_op(g, op, nin, in, &as);
  mf_attrs_free(&as);
  mf_graph_release(ga);
  mf_graph_release(gb);
  return r;
}

static mf_status no_call(void *ud, int nin, mf_tensor **in, int nout, mf_tensor **out, mf_error *err) {
  (void)ud, (void)nin, (void)in, (void)nout, (void)out;
  return mf_error_set(err, MF_ERR_INTERNAL, "not called");
}

/* tf.data's ops (ops_data.c) take datasets: each is built over
 * RangeDataset(0, 5, 1), and a dataset-making one is followed by
 * DatasetCardinality, whose value the round trip must keep (a variant
 * itself is a pointer, not comparable). */
static mf_tensor *i64(int64_t v) {
  mf_tensor *t = NULL;
  mf_tensor_scalar_i64(MF_INT64, v, &t, NULL);
  return t;
}

static mf_tensor *element_attr(bool shapes) {
  mf_tensor *t = NULL;
  int64_t shape[2] = {1, MF_MAX_RANK + 1};
  mf_tensor_zeros(MF_INT64, shapes ? 2 : 1, shapes ? shape : shape, &t, NULL);
  if (!shapes) MF_DATA(t, int64_t)[0] = MF_INT64;
  return t;
}

static bool build_data(mf_graph *g, const char *n) {
  static const char *const ops[] = {"TensorSliceDataset", "TensorDataset", "RangeDataset",
      "BatchDatasetV2", "PaddedBatchDatasetV2", "UnbatchDataset", "TakeDataset", "SkipDataset",
      "RepeatDataset", "ZipDataset", "ConcatenateDataset", "ShuffleDataset", "CacheDataset",
      "PrefetchDataset", "TextLineDataset", "CSVDatasetV2",
      "MapDataset", "FilterDataset", "ReduceDataset", "DatasetCardinality", "AnonymousIteratorV3",
      "MakeIterator", "IteratorGetNext", "IteratorGetNextAsOptional", "OptionalNone",
      "OptionalHasValue", "OptionalGetValue", "FlatMapDataset", "InterleaveDataset",
      "WindowDataset", "DirectedInterleaveDataset"};
  bool listed = false;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) listed |= strcmp(n, ops[i]) == 0;
  if (!listed) return false;
  ref r = add_op(g, "RangeDataset", 3, REFS(cnst(g, i64(0)), cnst(g, i64(5)), cnst(g, i64(1))), NULL);
  ref two = cnst(g, i64(2)), no = cnst(g, sample(MF_BOOL, 0)), ds = r;
  mf_attrs as;
  mf_attrs_init(&as);
  if (strcmp(n, "TensorSliceDataset") == 0 || strcmp(n, "TensorDataset") == 0) {
    ds = add_op(g, n, 1, REFS(cnst(g, sample(MF_FLOAT32, 1))), NULL);
  } else if (strcmp(n, "TextLineDataset") == 0 || strcmp(n, "CSVDatasetV2") == 0) {
    /* Made, never read: no file is opened before an iterator asks. */
    mf_tensor *name = NULL, *empty = NULL, *none = NULL;
    mf_tensor_scalar_string("missing.txt", 11, &name, NULL);
    mf_tensor_scalar_string("", 0, &empty, NULL);
    ref file = cnst(g, name), nothing = cnst(g, empty);
    if (strcmp(n, "TextLineDataset") == 0) {
      ds = add_op(g, n, 3, REFS(file, nothing, cnst(g, i64(0))), NULL);
    } else {
      /* Ten inputs, past add_op's eight: the CSV reader over a TextLine
       * stands in for the round trip (tests/lua/data_spec.lua reads CSV). */
      (void)none;
      ds = add_op(g, "TextLineDataset", 3, REFS(file, nothing, cnst(g, i64(0))), NULL);
    }
  } else if (strcmp(n, "BatchDatasetV2") == 0) {
    ds = add_op(g, n, 3, REFS(r, two, no), NULL);
  } else if (strcmp(n, "PaddedBatchDatasetV2") == 0) {
    mf_tensor *none = NULL;
    mf_tensor_new(MF_INT64, 1, (const int64_t[]){0}, &none, NULL);
    ds = add_op(g, n, 5, REFS(r, two, cnst(g, none), cnst(g, i64(0)), no), NULL);
  } else if (strcmp(n, "UnbatchDataset") == 0) {
    ds = add_op(g, n, 1, REFS(add_op(g, "BatchDatasetV2", 3, REFS(r, two, no), NULL)), NULL);
  } else if (strstr(n, "TakeDataset") || strstr(n, "SkipDataset") || strstr(n, "RepeatDataset") ||
             strcmp(n, "PrefetchDataset") == 0) {
    ds = add_op(g, n, 2, REFS(r, two), NULL);
  } else if (strcmp(n, "ZipDataset") == 0 || strcmp(n, "ConcatenateDataset") == 0) {
    ds = add_op(g, n, 2, REFS(r, r), NULL);
  } else if (strcmp(n, "ShuffleDataset") == 0) {
    ds = add_op(g, n, 4, REFS(r, two, two, two), NULL);
  } else if (strcmp(n, "CacheDataset") == 0) {
    mf_tensor *empty = NULL;
    mf_tensor_scalar_string("", 0, &empty, NULL);
    ds = add_op(g, n, 2, REFS(r, cnst(g, empty)), NULL);
  } else if (strcmp(n, "MapDataset") == 0 || strcmp(n, "FilterDataset") == 0) {
    mf_graph *f = new_graph();
    ref x = input(f, MF_INT64, 0, NULL, NULL);
    outputs(f, 1, REFS(op2(f, strcmp(n, "MapDataset") == 0 ? "AddV2" : "Less", x, cnst(f, i64(3)))));
    mf_attrs_set_graph(&as, strcmp(n, "MapDataset") == 0 ? "f" : "predicate", f, NULL);
    mf_graph_release(f);
    ds = add_op(g, n, 1, REFS(r), &as);
  } else if (strcmp(n, "FlatMapDataset") == 0 || strcmp(n, "InterleaveDataset") == 0) {
    mf_graph *f = new_graph();
    ref x = input(f, MF_INT64, 0, NULL, NULL);
    outputs(f, 1, REFS(add_op(f, "RangeDataset", 3, REFS(cnst(f, i64(0)), x, cnst(f, i64(1))), NULL)));
    mf_attrs_set_graph(&as, "f", f, NULL);
    mf_graph_release(f);
    mf_tensor *types = element_attr(false), *shapes = element_attr(true);
    mf_attrs_set_tensor(&as, "output_types", types, NULL);
    mf_attrs_set_tensor(&as, "output_shapes", shapes, NULL);
    mf_tensor_release(types);
    mf_tensor_release(shapes);
    ds = strcmp(n, "FlatMapDataset") == 0 ? add_op(g, n, 1, REFS(r), &as)
                                          : add_op(g, n, 3, REFS(r, two, two), &as);
  } else if (strcmp(n, "WindowDataset") == 0) {
    ds = add_op(g, n, 5, REFS(r, two, two, two, no), NULL);
  } else if (strcmp(n, "DirectedInterleaveDataset") == 0) {
    ds = add_op(g, n, 3, REFS(r, r, r), NULL);
  } else if (strcmp(n, "ReduceDataset") == 0) {
    mf_graph *f = new_graph();
    ref st = input(f, MF_INT64, 0, NULL, NULL), x = input(f, MF_INT64, 0, NULL, NULL);
    outputs(f, 1, REFS(op2(f, "AddV2", st, x)));
    mf_attrs_set_graph(&as, "f", f, NULL);
    mf_attrs_set_int(&as, "n_state", 1, NULL);
    mf_graph_release(f);
    outputs(g, 1, REFS(add_op(g, n, 2, REFS(r, cnst(g, i64(0))), &as)));
    mf_attrs_free(&as);
    return true;
  } else if (strcmp(n, "DatasetCardinality") != 0 && strcmp(n, "RangeDataset") != 0) {
    /* The iterator and optional ops: a pass over the range. */
    mf_tensor *types = element_attr(false), *shapes = element_attr(true);
    mf_attrs_set_tensor(&as, "output_types", types, NULL);
    mf_attrs_set_tensor(&as, "output_shapes", shapes, NULL);
    mf_tensor_release(types);
    mf_tensor_release(shapes);
    ref it = add_op(g, "AnonymousIteratorV3", 0, NULL, &as);
    add_op(g, "MakeIterator", 2, REFS(r, it), NULL);
    ref opt = add_op(g, "IteratorGetNextAsOptional", 1, REFS(it), &as);
    ref out = strcmp(n, "IteratorGetNext") == 0     ? add_op(g, n, 1, REFS(it), &as)
              : strcmp(n, "OptionalHasValue") == 0  ? add_op(g, n, 1, REFS(opt), NULL)
              : strcmp(n, "OptionalGetValue") == 0  ? add_op(g, n, 1, REFS(opt), &as)
              : strcmp(n, "OptionalNone") == 0      ? add_op(g, n, 0, NULL, NULL)
                                                    : opt;
    outputs(g, 1, REFS(out));
    mf_attrs_free(&as);
    return true;
  }
  mf_attrs_free(&as);
  outputs(g, 1, REFS(add_op(g, "DatasetCardinality", 1, REFS(ds), NULL)));
  return true;
}

static bool build_special(mf_graph *g, const mf_op_def *op) {
  const char *n = op->name;
  if (build_data(g, n)) return true;
  if (strcmp(n, "StringSplitV2") == 0 || strcmp(n, "StringSplit") == 0) {
    /* a vector of strings and a scalar separator */
    mf_tensor *sep = NULL;
    mf_tensor_scalar_string(",", 1, &sep, NULL);
    outputs(g, 1, REFS(add_op(g, n, 2, REFS(cnst(g, sample(MF_STRING, 1)), cnst(g, sep)), NULL)));
    return true;
  }
  if (strcmp(n, "StatelessRandomUniformInt") == 0) {
    /* shape, a [2] seed, and int64 bounds (the default dtype) with minval < maxval */
    mf_tensor *lo = NULL, *hi = NULL;
    mf_tensor_new(MF_INT64, 0, NULL, &lo, NULL);
    mf_tensor_new(MF_INT64, 0, NULL, &hi, NULL);
    MF_DATA(lo, int64_t)[0] = 0;
    MF_DATA(hi, int64_t)[0] = 10;
    outputs(g, 1, REFS(add_op(g, n, 4, REFS(cnst(g, int_sample(2)), cnst(g, int_sample(5)), cnst(g, lo), cnst(g, hi)),
                              NULL)));
    return true;
  }
  if (strcmp(n, "If") == 0 || strcmp(n, "StatelessIf") == 0) {
    ref p = input(g, MF_BOOL, 0, NULL, NULL), x = input(g, MF_FLOAT32, 0, NULL, NULL);
    ref r = with_graphs(g, n, 2, REFS(p, x), "then_branch", body1("Neg", MF_FLOAT32, NULL),
                        "else_branch", body1("Exp", MF_FLOAT32, NULL));
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strcmp(n, "While") == 0 || strcmp(n, "StatelessWhile") == 0) {
    ref i = input(g, MF_INT32, 0, NULL, NULL);
    ref r = with_graphs(g, n, 1, REFS(i), "cond", body1(NULL, MF_INT32, less3), "body",
                        body1(NULL, MF_INT32, plus1));
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strcmp(n, "PartitionedCall") == 0 || strcmp(n, "StatefulPartitionedCall") == 0) {
    /* a call of a function graph (a tf.func called inside another) */
    mf_attrs as;
    mf_attrs_init(&as);
    mf_graph *f = body1("Exp", MF_FLOAT32, NULL);
    mf_attrs_set_graph(&as, "f", f, NULL);
    mf_graph_release(f);
    ref r = add_op(g, n, 1, REFS(cnst(g, sample(MF_FLOAT32, 0))), &as);
    mf_attrs_free(&as);
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strcmp(n, "FusedElementwise") == 0) {
    mf_graph *src = new_graph(), *o = NULL;
    ref x = input(src, MF_FLOAT32, 1, (const int64_t[]){4}, NULL);
    outputs(src, 1, REFS(op1(src, "Exp", op1(src, "Neg", op2(src, "Mul", x, x)))));
    mf_pass_stats st;
    CHECK_OK(mf_graph_optimize(src, &o, &st, NULL));
    bool fused = false;
    for (int k = 0; o && k < o->nnodes; k++) fused |= o->nodes[k].op == op;
    /* the test's graph becomes the fused one */
    mf_graph_copy c;
    bool ok = fused && mf_graph_copy_begin(o, &c, NULL) == MF_OK;
    for (int k = 0; ok && k < o->nnodes; k++) ok = mf_graph_copy_node(&c, k, NULL) == MF_OK;
    mf_graph *copy = NULL;
    if (ok) ok = mf_graph_copy_finish(&c, &copy, NULL) == MF_OK;
    if (ok) {
      mf_graph *h = round_trip(copy, n);
      if (h) mf_graph_release(h);
      mf_graph_release(copy);
    }
    mf_graph_release(src);
    if (o) mf_graph_release(o);
    (void)g;
    return ok;
  }
  if (strcmp(n, "Cast") == 0) {
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_type(&as, "DstT", MF_INT64, NULL);
    outputs(g, 1, REFS(add_op(g, n, 1, REFS(cnst(g, sample(MF_FLOAT32, 2))), &as)));
    mf_attrs_free(&as);
    return true;
  }
  if (strcmp(n, "Bitcast") == 0) { /* float32 [2, 2] read as uint8 [2, 2, 4] */
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_type(&as, "type", MF_UINT8, NULL);
    outputs(g, 1, REFS(add_op(g, n, 1, REFS(cnst(g, sample(MF_FLOAT32, 2))), &as)));
    mf_attrs_free(&as);
    return true;
  }
  if (strcmp(n, "Einsum") == 0) {
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_string(&as, "equation", "ij,jk->ik", NULL);
    outputs(g, 1, REFS(add_op(g, n, 2, REFS(cnst(g, sample(MF_FLOAT32, 2)), cnst(g, sample(MF_FLOAT32, 2))), &as)));
    mf_attrs_free(&as);
    return true;
  }
  if (strncmp(n, "MirrorPad", 9) == 0) {
    /* paddings a 1x2 matrix; SYMMETRIC fits both: a mirror of 1 on a
     * dimension of 2, and its fold back to 1 */
    mf_tensor *p = NULL;
    mf_tensor_new(MF_INT32, 2, (const int64_t[]){1, 2}, &p, NULL);
    MF_DATA(p, int32_t)[0] = 1, MF_DATA(p, int32_t)[1] = 0;
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_string(&as, "mode", "SYMMETRIC", NULL);
    outputs(g, 1, REFS(add_op(g, n, 2, REFS(cnst(g, sample(MF_FLOAT32, 1)), cnst(g, p)), &as)));
    mf_attrs_free(&as);
    return true;
  }
  if (strcmp(n, "LinSpace") == 0) {
    ref r = add_op(g, n, 3, REFS(cnst(g, sample(MF_FLOAT32, 0)), cnst(g, sample(MF_FLOAT32, 0)),
                                 cnst(g, int_sample(1))), NULL);
    outputs(g, 1, REFS(r));
    return true;
  }
  bool depthwise = strncmp(n, "DepthwiseConv2dNative", 21) == 0;
  if (strncmp(n, "Conv2D", 6) == 0 || depthwise) {
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_ints(&as, "strides", 4, (const int64_t[]){1, 1, 1, 1}, NULL);
    mf_attrs_set_string(&as, "padding", "VALID", NULL);
    ref x = cnst(g, sample(MF_FLOAT32, 4)), f = cnst(g, sample(MF_FLOAT32, 4));
    ref r;
    if (strcmp(n, "Conv2D") == 0 || strcmp(n, "DepthwiseConv2dNative") == 0) {
      r = add_op(g, n, 2, REFS(x, f), &as);
    } else {
      mf_tensor *sizes = NULL;
      mf_tensor_new(MF_INT32, 1, (const int64_t[]){4}, &sizes, NULL);
      for (int k = 0; k < 4; k++) MF_DATA(sizes, int32_t)[k] = 2;
      mf_tensor *dyt = NULL;
      /* a depthwise output has in_channels * multiplier channels */
      mf_tensor_zeros(MF_FLOAT32, 4, (const int64_t[]){2, 1, 1, depthwise ? 4 : 2}, &dyt, NULL);
      ref dy = cnst(g, dyt);
      ref sz = cnst(g, sizes);
      r = strstr(n, "BackpropInput") ? add_op(g, n, 3, REFS(sz, f, dy), &as)
                                     : add_op(g, n, 3, REFS(x, sz, dy), &as);
    }
    mf_attrs_free(&as);
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strstr(n, "Pool")) {
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_ints(&as, "ksize", 4, (const int64_t[]){1, 2, 2, 1}, NULL);
    mf_attrs_set_ints(&as, "strides", 4, (const int64_t[]){1, 1, 1, 1}, NULL);
    mf_attrs_set_string(&as, "padding", "VALID", NULL);
    ref x = cnst(g, sample(MF_FLOAT32, 4));
    mf_tensor *dyt = NULL;
    mf_tensor_zeros(MF_FLOAT32, 4, (const int64_t[]){2, 1, 1, 2}, &dyt, NULL);
    ref dy = cnst(g, dyt);
    ref r;
    if (strcmp(n, "MaxPool") == 0 || strcmp(n, "AvgPool") == 0) {
      r = add_op(g, n, 1, REFS(x), &as);
    } else if (strcmp(n, "AvgPoolGrad") == 0) {
      mf_tensor *sizes = NULL;
      mf_tensor_new(MF_INT32, 1, (const int64_t[]){4}, &sizes, NULL);
      for (int k = 0; k < 4; k++) MF_DATA(sizes, int32_t)[k] = 2;
      r = add_op(g, n, 2, REFS(cnst(g, sizes), dy), &as);
    } else {
      r = add_op(g, n, 3, REFS(x, dy, strcmp(n, "MaxPoolGrad") == 0 ? dy : x), &as);
    }
    mf_attrs_free(&as);
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strncmp(n, "ResizeBilinear", 14) == 0) {
    ref img = cnst(g, sample(MF_FLOAT32, 4));
    ref r = strcmp(n, "ResizeBilinear") == 0 ? add_op(g, n, 2, REFS(img, cnst(g, int_sample(2))), NULL)
                                             : add_op(g, n, 2, REFS(img, img), NULL);
    outputs(g, 1, REFS(r));
    return true;
  }
  if (strstr(n, "VariableOp")) {
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_type(&as, "dtype", MF_FLOAT32, NULL);
    ref h = input(g, MF_RESOURCE, 0, NULL, NULL);
    ref r = strcmp(n, "ReadVariableOp") == 0 ? add_op(g, n, 1, REFS(h), &as)
                                              : add_op(g, n, 2, REFS(h, cnst(g, sample(MF_FLOAT32, 0))), NULL);
    if (strcmp(n, "ReadVariableOp") == 0) outputs(g, 1, REFS(r));
    mf_attrs_free(&as);
    return true;
  }
  if (strcmp(n, "EagerLuaFunc") == 0) {
    /* Host callbacks cannot be saved: the dump names the node. */
    mf_callback cb = {1, no_call, NULL, NULL};
    mf_attrs as;
    mf_attrs_init(&as);
    mf_attrs_set_callback(&as, "func", &cb, NULL);
    mf_attrs_set_ints(&as, "Tout", 1, (const int64_t[]){MF_FLOAT32}, NULL);
    add_op(g, n, 1, REFS(cnst(g, sample(MF_FLOAT32, 0))), &as);
    mf_attrs_free(&as);
    char *text = NULL;
    mf_error err;
    CHECK(mf_graph_dump(g, &text, &err) == MF_ERR_INVALID_ARGUMENT && strstr(err.message, "EagerLuaFunc"));
    free(text);
    return false;
  }
  if (strcmp(op->name, "Placeholder") == 0) {
    ref x = input(g, MF_FLOAT32, 2, (const int64_t[]){2, -1}, NULL);
    outputs(g, 1, REFS(x));
    return true;
  }
  if (strcmp(op->name, "Const") == 0) {
    ref c = cnst(g, sample(MF_STRING, 1));
    outputs(g, 1, REFS(c));
    return true;
  }
  return false;
}

/* Both graphs (no inputs) compute the same outputs, or fail alike. */
static void same_run(const mf_graph *a, const mf_graph *b, const mf_op_def *op) {
  /* Random, stateful and clock-reading ops differ from run to run by design. */
  if (a->ninputs || !a->noutputs || a->noutputs > 4 ||
      (op->flags & (MF_OP_RANDOM | MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS)) || strcmp(op->name, "Timestamp") == 0)
    return;
  mf_tensor *oa[4] = {0}, *ob[4] = {0};
  mf_error ea, eb;
  mf_status sa = mf_graph_run(a, 0, NULL, oa, &ea), sb = mf_graph_run(b, 0, NULL, ob, &eb);
  CHECK(sa == sb);
  for (int i = 0; sa == MF_OK && sb == MF_OK && i < a->noutputs; i++) {
    bool same = oa[i]->dtype == ob[i]->dtype && mf_shape_equal(oa[i]->rank, oa[i]->shape, ob[i]->rank, ob[i]->shape);
    if (same && oa[i]->dtype != MF_STRING && oa[i]->dtype != MF_VARIANT)
      same = memcmp(mf_tensor_data(oa[i]), mf_tensor_data(ob[i]), (size_t)oa[i]->size * mf_dtype_size(oa[i]->dtype)) == 0;
    if (!same) printf("#   %s: results differ after the round trip\n", op->name);
    CHECK(same);
  }
  for (int i = 0; i < 4; i++) {
    if (sa == MF_OK && oa[i]) mf_tensor_release(oa[i]);
    if (sb == MF_OK && ob[i]) mf_tensor_release(ob[i]);
  }
}

static void test_every_op_round_trips(void) {
  int built = 0, failed_ops = 0;
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    mf_graph *g = NULL;
    bool ok = false;
    mf_graph_new("g", &g, NULL);
    bool special = build_special(g, op);
    if (special && strcmp(op->name, "FusedElementwise") == 0) {
      built++;
      mf_graph_release(g);
      continue;
    }
    if (!special && (strcmp(op->name, "EagerLuaFunc") == 0 || strcmp(op->name, "GeneratorDataset") == 0)) {
      mf_graph_release(g);
      continue; /* checked in build_special: refused with its name */
    }
    ok = special;
    for (int d = 0; !ok && d < (int)(sizeof try_dtypes / sizeof *try_dtypes); d++)
      for (int rank = 2; !ok && rank >= 0; rank -= 1)
        for (int nin = op->min_inputs; !ok && nin <= (op->max_inputs < 0 ? op->min_inputs + 2 : op->max_inputs) && nin <= 4; nin++) {
          mf_graph_release(g);
          mf_graph_new("g", &g, NULL);
          ok = try_build(g, op, nin, try_dtypes[d], rank, -1);
          for (int combo = 0; !ok && nin > 1 && combo < N_INT_SAMPLES * N_INT_SAMPLES * N_INT_SAMPLES; combo++) {
            mf_graph_release(g);
            mf_graph_new("g", &g, NULL);
            ok = try_build(g, op, nin, try_dtypes[d], rank, combo * N_INT_SAMPLES);
          }
        }
    if (!ok) {
      printf("#   no minimal node built for %s\n", op->name);
      failed_ops++;
    } else {
      built++;
      mf_graph *h = round_trip(g, op->name);
      if (h) same_run(g, h, op);
      if (h) mf_graph_release(h);
    }
    mf_graph_release(g);
  }
  printf("#   %d of %d ops built and round-tripped\n", built, mf_op_count());
  CHECK(failed_ops == 0);
}

static mf_status parse_str(const char *text, mf_error *err) {
  mf_graph *g = NULL;
  mf_status s = mf_graph_parse(text, strlen(text), &g, err);
  if (g) mf_graph_release(g);
  return s;
}

#define DOC(graph) "{\"format\":\"moonflow.graph\",\"version\":1,\"graph\":" graph "}"
#define X "{\"name\":\"x\",\"op\":\"Placeholder\",\"inputs\":[],\"control\":[],\"attrs\":{\"dtype\":{\"type\":\"float32\"},\"shape\":{\"shape\":[2]}},\"specs\":[{\"dtype\":\"float32\",\"shape\":[2]}]}"

static void test_hostile_documents(void) {
  mf_error err;
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X "],\"inputs\":[0],\"outputs\":[[0,0]]}"), &err) == MF_OK);
  /* an unknown op */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[{\"name\":\"a\",\"op\":\"Nope\",\"inputs\":[],\"control\":[],\"attrs\":{},\"specs\":[]}],\"inputs\":[],\"outputs\":[]}"), &err) == MF_ERR_NOT_FOUND);
  CHECK(strstr(err.message, "'Nope'") != NULL);
  /* an input naming itself or a later node, or an output index past the end */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X ",{\"name\":\"n\",\"op\":\"Neg\",\"inputs\":[[1,0]],\"control\":[],\"attrs\":{},\"specs\":[{\"dtype\":\"float32\",\"shape\":[2]}]}],\"inputs\":[0],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X ",{\"name\":\"n\",\"op\":\"Neg\",\"inputs\":[[0,1]],\"control\":[],\"attrs\":{},\"specs\":[{\"dtype\":\"float32\",\"shape\":[2]}]}],\"inputs\":[0],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  /* wrong arity, an undeclared attribute, an attribute of the wrong kind */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X ",{\"name\":\"n\",\"op\":\"Neg\",\"inputs\":[[0,0],[0,0]],\"control\":[],\"attrs\":{},\"specs\":[{\"dtype\":\"float32\",\"shape\":[2]}]}],\"inputs\":[0],\"outputs\":[]}"), &err) != MF_OK);
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X ",{\"name\":\"n\",\"op\":\"Neg\",\"inputs\":[[0,0]],\"control\":[],\"attrs\":{\"zap\":{\"int\":1}},\"specs\":[{\"dtype\":\"float32\",\"shape\":[2]}]}],\"inputs\":[0],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[{\"name\":\"x\",\"op\":\"Placeholder\",\"inputs\":[],\"control\":[],\"attrs\":{\"dtype\":{\"int\":3}},\"specs\":[{\"dtype\":\"float32\",\"shape\":null}]}],\"inputs\":[],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  /* a saved spec the op does not make */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X ",{\"name\":\"n\",\"op\":\"Neg\",\"inputs\":[[0,0]],\"control\":[],\"attrs\":{},\"specs\":[{\"dtype\":\"int32\",\"shape\":[2]}]}],\"inputs\":[0],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  /* a tensor whose bytes do not match its shape */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[{\"name\":\"c\",\"op\":\"Const\",\"inputs\":[],\"control\":[],\"attrs\":{\"value\":{\"tensor\":{\"dtype\":\"float32\",\"shape\":[3],\"data\":\"AAAAAA==\"}}},\"specs\":[{\"dtype\":\"float32\",\"shape\":[3]}]}],\"inputs\":[],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  /* a huge claimed shape */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[{\"name\":\"c\",\"op\":\"Const\",\"inputs\":[],\"control\":[],\"attrs\":{\"value\":{\"tensor\":{\"dtype\":\"float64\",\"shape\":[4611686018427387904,4],\"data\":\"\"}}},\"specs\":[]}],\"inputs\":[],\"outputs\":[]}"), &err) != MF_OK);
  /* duplicate names, a non-Placeholder input, a wrong version, not JSON */
  CHECK(parse_str(DOC("{\"name\":\"g\",\"nodes\":[" X "," X "],\"inputs\":[0],\"outputs\":[]}"), &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(parse_str("{\"format\":\"moonflow.graph\",\"version\":99,\"graph\":{}}", &err) == MF_ERR_UNIMPLEMENTED);
  CHECK(parse_str("{\"format\":", &err) == MF_ERR_INVALID_ARGUMENT);
}

int main(void) {
  RUN(test_every_op_round_trips);
  RUN(test_hostile_documents);
  return CHECK_DONE();
}
