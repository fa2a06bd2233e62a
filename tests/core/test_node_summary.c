/* test_node_summary.c — the errors an op raises while a graph is built
 * (node_summary.h, shape_fn.h): inference as TF's shape function, the
 * failure turned into TF's ValueError with the node's summary, the texts
 * of SummarizeNodeDef / SummarizeAttrValue / SummarizeValue, the checks a
 * shape function leaves to the kernel (deferred to the run), shapes known
 * in part (partial.h) as the error shows them, and the argument names of
 * list inputs. */
#include "check.h"
#include "op_test.h"
#include "array_test.h"
#include "graph_test.h"

#include "node_summary.h"

/* Infers op `name` on `in` (nodes of g) as tracing does, while the graph
 * is built; on failure returns TF's error for node `node` in err. */
static mf_status build(mf_graph *g, const char *name, const char *node, int nin, const ref *in,
                       const mf_attrs *attrs, bool *deferred, mf_error *err) {
  mf_spec specs[8];
  mf_tensor *vals[8];
  const mf_partial *partials[8];
  for (int k = 0; k < nin; k++) {
    specs[k] = g->nodes[in[k].node].out_specs[in[k].index];
    vals[k] = g->nodes[in[k].node].known[in[k].index];
    partials[k] = mf_graph_partial(g, in[k]);
  }
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup(name), nin, specs, vals, attrs);
  c.building = true;
  c.in_partial = partials;
  mf_status s = mf_op_infer(&c, err);
  if (s != MF_OK) s = mf_node_construction_error(g, node, &c, in, err);
  if (deferred) *deferred = c.deferred;
  mf_op_call_free(&c);
  return s;
}

/* True when building fails with `status` and exactly `message`. */
static bool fails_with(mf_graph *g, const char *name, const char *node, int nin, const ref *in,
                       const mf_attrs *attrs, mf_status status, const char *message) {
  mf_error err;
  mf_error_clear(&err);
  mf_status s = build(g, name, node, nin, in, attrs, NULL, &err);
  bool ok = s == status && err.status == status && strcmp(err.message, message) == 0;
  if (!ok) printf("#   %s: got %s: %s\n#   wanted: %s\n", name, mf_status_name(s), err.message, message);
  return ok;
}

static ref ivector(mf_graph *g, int n, const double *v) {
  return cnst(g, make_tensor(MF_INT32, 1, DIMS(n), v));
}

static void test_broadcast(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL);
  ref y = input(g, MF_FLOAT32, 2, DIMS(2, 2), NULL);
  /* Compared from the outermost dimension; a 1 (or a missing one) yields. */
  CHECK(fails_with(g, "AddV2", "add", 2, REFS(x, y), NULL, MF_ERR_VALUE,
                   "Dimensions must be equal, but are 3 and 2 for '{{node add}} = "
                   "AddV2[T=DT_FLOAT](x, x_1)' with input shapes: [3], [2,2]."));
  ref a = input(g, MF_INT32, 3, DIMS(1, 2, 3), NULL), b = input(g, MF_INT32, 3, DIMS(4, 5, 6), NULL);
  CHECK(fails_with(g, "Equal", "Equal", 2, REFS(a, b), NULL, MF_ERR_VALUE,
                   "Dimensions must be equal, but are 2 and 5 for '{{node Equal}} = "
                   "Equal[T=DT_INT32, incompatible_shape_error=true](x_2, x_3)' with input "
                   "shapes: [1,2,3], [4,5,6]."));
  /* Eagerly the kernel's message, as before. */
  mf_tensor *tx = make_tensor(MF_FLOAT32, 1, DIMS(3), VALS(1, 2, 3));
  mf_tensor *ty = make_tensor(MF_FLOAT32, 1, DIMS(4), VALS(1, 2, 3, 4));
  mf_tensor *out[1];
  mf_error err;
  CHECK(run_op("AddV2", 2, (mf_tensor *[]){tx, ty}, NULL, 1, out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "Incompatible shapes: [3] vs. [4] [Op:AddV2]") == 0);
  mf_tensor_release(tx);
  mf_tensor_release(ty);
  mf_graph_release(g);
}

static void test_summary_texts(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT64, 3, DIMS(1, -1, 3), NULL);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_ints(&as, "squeeze_dims", 2, (const int64_t[]){0, 2}, NULL);
  /* A list attribute, "?" for an unknown dimension. */
  CHECK(fails_with(g, "Squeeze", "s/Squeeze", 1, REFS(x), &as, MF_ERR_VALUE,
                   "Can not squeeze dim[2], expected a dimension of 1, got 3 for '{{node "
                   "s/Squeeze}} = Squeeze[T=DT_DOUBLE, squeeze_dims=[0, 2]](x)' with input "
                   "shapes: [1,?,3]."));
  mf_attrs_free(&as);
  /* TF's defaults for attributes the call does not give; a string in quotes. */
  ref v = input(g, MF_FLOAT32, 1, DIMS(2), NULL), bias = input(g, MF_FLOAT32, 1, DIMS(1), NULL);
  CHECK(fails_with(g, "BiasAdd", "BiasAdd", 2, REFS(v, bias), NULL, MF_ERR_VALUE,
                   "Shape must be at least rank 2 but is rank 1 for '{{node BiasAdd}} = "
                   "BiasAdd[T=DT_FLOAT, data_format=\"NHWC\"](x_1, x_2)' with input shapes: [2], "
                   "[1]."));
  ref m = input(g, MF_FLOAT32, 2, DIMS(2, 3), NULL);
  CHECK(fails_with(g, "MatMul", "MatMul", 2, REFS(m, m), NULL, MF_ERR_VALUE,
                   "Dimensions must be equal, but are 3 and 2 for '{{node MatMul}} = "
                   "MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, transpose_a=false, "
                   "transpose_b=false](x_3, x_3)' with input shapes: [2,3], [2,3]."));
  /* A list argument's count, the index type from the last input, the
   * value the shape function read, an output past the first ("split:1"). */
  ref p = input(g, MF_FLOAT32, 2, DIMS(2, 3), NULL);
  mf_attrs sp;
  mf_attrs_init(&sp);
  mf_attrs_set_int(&sp, "num_split", 2, NULL);
  ref halves = add_op(g, "Split", 2, REFS(cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(0))), m), &sp);
  mf_attrs_free(&sp);
  ref second = {halves.node, 1};
  ref axis = cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(1)));
  CHECK(fails_with(g, "ConcatV2", "concat", 3, REFS(p, second, axis), NULL, MF_ERR_VALUE,
                   "Dimension 0 in both shapes must be equal, but are 2 and 1. Shapes are [2] and "
                   "[1]. for '{{node concat}} = ConcatV2[N=2, T=DT_FLOAT, Tidx=DT_INT32](x_4, "
                   "Split:1, Const_1)' with input shapes: [2,3], [1,3], [] and with computed "
                   "input tensors: input[2] = <1>."));
  mf_graph_release(g);
}

static void test_values_read(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 3, DIMS(2, 3, 5), NULL);
  /* A value as Tensor::SummarizeValue prints it: nested rows in brackets. */
  ref perm = cnst(g, make_tensor(MF_INT32, 2, DIMS(2, 2), VALS(0, 1, 2, 3)));
  CHECK(fails_with(g, "Transpose", "Transpose", 2, REFS(x, perm), NULL, MF_ERR_VALUE,
                   "Shape must be rank 1 but is rank 2 for '{{node Transpose}} = "
                   "Transpose[T=DT_FLOAT, Tperm=DT_INT32](x, Const)' with input shapes: [2,3,5], "
                   "[2,2] and with computed input tensors: input[1] = <[0 1][2 3]>."));
  /* A shape read as one: a partial shape, -1 an unknown dimension. */
  ref shape = ivector(g, 2, VALS(7, -1));
  CHECK(fails_with(g, "Reshape", "Reshape", 2, REFS(x, shape), NULL, MF_ERR_VALUE,
                   "Dimension size must be evenly divisible by 7 but is 30 for '{{node Reshape}} "
                   "= Reshape[T=DT_FLOAT, Tshape=DT_INT32](x, Const_1)' with input shapes: "
                   "[2,3,5], [2] and with input tensors computed as partial shapes: input[1] = "
                   "[7,?]."));
  /* A shape known in part (partial.h): what is known of it. */
  ref n = input(g, MF_INT32, 0, NULL, NULL);
  ref packed = add_op(g, "Pack", 2, REFS(n, cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(7)))), NULL);
  CHECK(fails_with(g, "Reshape", "Reshape", 2, REFS(x, packed), NULL, MF_ERR_VALUE,
                   "Dimension size must be evenly divisible by 7 but is 30 for '{{node Reshape}} "
                   "= Reshape[T=DT_FLOAT, Tshape=DT_INT32](x, Pack)' with input shapes: "
                   "[2,3,5], [2] and with input tensors computed as partial shapes: input[1] = "
                   "[?,7]."));
  /* A tensor attribute: Tensor::DebugString, its first three values. */
  mf_tensor *t = make_tensor(MF_INT32, 1, DIMS(5), VALS(0, 1, 2, 3, 4));
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_tensor(&as, "value", t, NULL);
  mf_attrs_set_type(&as, "dtype", MF_INT32, NULL);
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup("Const"), 0, NULL, NULL, &as);
  char text[256];
  mf_node_summary(g, "Const_9", &c, NULL, text, sizeof text);
  CHECK(strcmp(text, "{{node Const_9}} = Const[dtype=DT_INT32, value=Tensor<type: int32 shape: "
                     "[5] values: 0 1 2...>]()") == 0);
  mf_attrs_free(&as);
  mf_tensor_release(t);
  mf_graph_release(g);
}

static void test_other_errors_pass(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 1, DIMS(3), NULL), y = input(g, MF_INT32, 1, DIMS(3), NULL);
  /* A dtype TF's op refuses is op_def_library's TypeError, no summary. */
  CHECK(fails_with(g, "AddV2", "add", 2, REFS(x, y), NULL, MF_ERR_TYPE,
                   "Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of "
                   "argument 'x'."));
  CHECK(fails_with(g, "ConcatV2", "concat", 3, REFS(x, y, cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(0)))),
                   NULL, MF_ERR_TYPE,
                   "Tensors in list passed to 'values' of 'ConcatV2' Op have types [float32, "
                   "int32] that don't all match."));
  CHECK(fails_with(g, "Sqrt", "Sqrt", 1, REFS(y), NULL, MF_ERR_TYPE,
                   "Value passed to parameter 'x' has DataType int32 not in list of allowed "
                   "values: float32, float64"));
  mf_graph_release(g);
}

static void test_deferred(void) {
  /* A repeated axis passes TF's Transpose shape function: the node is
   * added, never folded, and the run reports the kernel's error. */
  mf_graph *g = new_graph();
  mf_tensor *v = make_tensor(MF_FLOAT32, 2, DIMS(2, 3), VALS(1, 2, 3, 4, 5, 6));
  ref x = input(g, MF_FLOAT32, 2, DIMS(2, 3), v);
  ref perm = ivector(g, 2, VALS(1, 1));
  bool deferred = false;
  mf_error err;
  CHECK(build(g, "Transpose", "Transpose", 2, REFS(x, perm), NULL, &deferred, &err) == MF_OK);
  CHECK(deferred);
  mf_spec specs[2] = {g->nodes[x.node].out_specs[0], g->nodes[perm.node].out_specs[0]};
  mf_tensor *vals[2] = {v, g->nodes[perm.node].known[0]};
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup("Transpose"), 2, specs, vals, NULL);
  c.building = true;
  CHECK(mf_op_infer(&c, &err) == MF_OK && c.deferred && !mf_op_call_fold(&c));
  int id;
  char name[32];
  CHECK_OK(mf_graph_unique_name(g, "Transpose", name, sizeof name, &err));
  CHECK_OK(mf_graph_add_node(g, name, &c, REFS(x, perm), &id, &err));
  mf_op_call_free(&c);
  CHECK(g->nodes[id].deferred);
  /* Every output spec is static, yet the executor infers the node again. */
  outputs(g, 1, REFS((ref){id, 0}));
  mf_tensor *out[1];
  CHECK(run(g, 1, &v, out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "0 is missing from {1,1}.") != NULL);
  /* BroadcastTo merges each input dimension above 1 with the target's,
   * from the last; an unknown input dimension is left to the kernel. */
  ref three = input(g, MF_FLOAT32, 1, DIMS(3), NULL), some = input(g, MF_FLOAT32, 1, DIMS(-1), NULL);
  CHECK(build(g, "BroadcastTo", "BroadcastTo", 2, REFS(some, ivector(g, 1, VALS(6))), NULL, &deferred,
              &err) == MF_OK && !deferred);
  CHECK(fails_with(g, "BroadcastTo", "BroadcastTo", 2, REFS(three, ivector(g, 2, VALS(3, 2))), NULL,
                   MF_ERR_VALUE,
                   "Dimensions must be equal, but are 3 and 2 for '{{node BroadcastTo}} = "
                   "BroadcastTo[T=DT_FLOAT, Tidx=DT_INT32](x_1, Const_2)' with input shapes: [3], [2] "
                   "and with input tensors computed as partial shapes: input[1] = [3,2]."));
  CHECK(fails_with(g, "BroadcastTo", "BroadcastTo", 2, REFS(x, ivector(g, 1, VALS(6))), NULL, MF_ERR_VALUE,
                   "Shape must be at most rank 1 but is rank 2 for '{{node BroadcastTo}} = "
                   "BroadcastTo[T=DT_FLOAT, Tidx=DT_INT32](x, Const_3)' with input shapes: [2,3], [1] "
                   "and with input tensors computed as partial shapes: input[1] = [6]."));
  /* A context TF appends on a line of its own. */
  mf_attrs sp;
  mf_attrs_init(&sp);
  mf_attrs_set_int(&sp, "num_split", 2, NULL);
  CHECK(fails_with(g, "Split", "split", 2, REFS(cnst(g, make_tensor(MF_INT32, 0, NULL, VALS(0))), three),
                   &sp, MF_ERR_VALUE,
                   "Dimension size must be evenly divisible by 2 but is 3\n\tNumber of ways to split "
                   "should evenly divide the split dimension for '{{node split}} = Split[T=DT_FLOAT, "
                   "num_split=2](Const_4, x_1)' with input shapes: [], [3] and with computed input "
                   "tensors: input[0] = <0>."));
  mf_attrs_free(&sp);
  /* A valid permutation is not deferred. */
  ref ok_perm = ivector(g, 2, VALS(1, 0));
  CHECK(build(g, "Transpose", "Transpose_1", 2, REFS(x, ok_perm), NULL, &deferred, &err) == MF_OK);
  CHECK(!deferred);
  mf_tensor_release(v);
  mf_graph_release(g);
}

static void test_list_arguments(void) {
  char buf[32];
  const mf_op_def *concat = mf_op_lookup("ConcatV2"), *add = mf_op_lookup("AddV2");
  CHECK(mf_op_input_arg(concat, 0, 4, buf, sizeof buf) == 0 && strcmp(buf, "values") == 0);
  CHECK(mf_op_input_arg(concat, 2, 4, buf, sizeof buf) == 0 && strcmp(buf, "values") == 0);
  CHECK(mf_op_input_arg(concat, 3, 4, buf, sizeof buf) == 1 && strcmp(buf, "axis") == 0);
  CHECK(mf_op_input_arg(add, 1, 2, buf, sizeof buf) == 1 && strcmp(buf, "y") == 0);
  CHECK(mf_op_input_arg(mf_op_lookup("Pack"), 5, 6, buf, sizeof buf) == 0 && strcmp(buf, "values") == 0);
  mf_op_input_arg(mf_op_lookup("Const"), 0, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "input_0") == 0);
}

int main(void) {
  RUN(test_broadcast);
  RUN(test_summary_texts);
  RUN(test_values_read);
  RUN(test_other_errors_pass);
  RUN(test_deferred);
  RUN(test_list_arguments);
  return CHECK_DONE();
}
