/* test_spec.c — the core's single answers to two questions several layers
 * ask: does a tensor of this spec fit a trace's input spec (mf_spec_fits:
 * tf.func's dispatch and concrete-function calls), and may this op be
 * computed ahead of the run and held as a constant (mf_op_call_fold: values
 * known while tracing, and the folding pass). */
#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "passes.h"

#define VALS(...) ((const double[]){__VA_ARGS__})

static mf_spec spec(mf_dtype dt, int rank, const int64_t *shape) {
  mf_spec s = {.dtype = dt, .rank = rank};
  for (int i = 0; i < rank; i++) s.shape[i] = shape[i];
  return s;
}

static void test_fits(void) {
  mf_spec s23 = spec(MF_FLOAT32, 2, DIMS(2, 3)), sN3 = spec(MF_FLOAT32, 2, DIMS(-1, 3));
  mf_spec s33 = spec(MF_FLOAT32, 2, DIMS(3, 3)), any = spec(MF_FLOAT32, -1, NULL);
  mf_spec s3 = spec(MF_FLOAT32, 1, DIMS(3)), i23 = spec(MF_INT32, 2, DIMS(2, 3));
  /* have, want */
  CHECK(mf_spec_fits(&s23, &s23, MF_FIT_EXACT));
  CHECK(!mf_spec_fits(&s23, &sN3, MF_FIT_EXACT));
  CHECK(mf_spec_fits(&sN3, &sN3, MF_FIT_EXACT));
  CHECK(mf_spec_fits(&any, &any, MF_FIT_EXACT));
  CHECK(!mf_spec_fits(&s23, &any, MF_FIT_EXACT));

  CHECK(mf_spec_fits(&s23, &sN3, MF_FIT_SUBTYPE));
  CHECK(mf_spec_fits(&s23, &any, MF_FIT_SUBTYPE));
  CHECK(!mf_spec_fits(&sN3, &s23, MF_FIT_SUBTYPE));
  CHECK(!mf_spec_fits(&any, &s23, MF_FIT_SUBTYPE));
  CHECK(!mf_spec_fits(&s33, &s23, MF_FIT_SUBTYPE));

  CHECK(mf_spec_fits(&sN3, &s23, MF_FIT_COMPATIBLE));
  CHECK(mf_spec_fits(&any, &s23, MF_FIT_COMPATIBLE));
  CHECK(mf_spec_fits(&s23, &sN3, MF_FIT_COMPATIBLE));
  CHECK(!mf_spec_fits(&s33, &s23, MF_FIT_COMPATIBLE));
  CHECK(!mf_spec_fits(&s3, &s23, MF_FIT_COMPATIBLE));

  for (int m = MF_FIT_EXACT; m <= MF_FIT_COMPATIBLE; m++) CHECK(!mf_spec_fits(&i23, &s23, (mf_fit)m));
}

/* Infers `name` on the inputs (values known) and tries to fold it; returns
 * whether it folded, releasing what it computed. */
static bool folds(const char *name, int nin, mf_tensor *const *in, const mf_attrs *attrs) {
  mf_spec specs[8];
  for (int i = 0; i < nin; i++) mf_spec_of_tensor(in[i], &specs[i]);
  mf_op_call c;
  mf_op_call_init(&c, mf_op_lookup(name), nin, specs, in, attrs);
  mf_error err;
  bool ok = mf_op_infer(&c, &err) == MF_OK && mf_op_call_fold(&c);
  for (int k = 0; ok && k < c.nout; k++) CHECK(c.out[k] != NULL);
  mf_op_call_free(&c);
  return ok;
}

static void test_fold_rule(void) {
  mf_tensor *one = make_tensor(MF_FLOAT32, 0, NULL, VALS(1));
  mf_tensor *dims_small = make_tensor(MF_INT32, 1, DIMS(2), VALS(200, 200));
  mf_tensor *dims_big = make_tensor(MF_INT32, 1, DIMS(2), VALS(300, 300));
  /* outputs up to MF_FOLD_MAX_ELEMENTS elements */
  CHECK(folds("Fill", 2, (mf_tensor *[]){dims_small, one}, NULL));
  CHECK(!folds("Fill", 2, (mf_tensor *[]){dims_big, one}, NULL));
  /* random ops never */
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "dtype", MF_FLOAT32, NULL);
  CHECK(!folds("RandomUniform", 1, (mf_tensor *[]){dims_small}, &as));
  mf_attrs_free(&as);
  /* a kernel error is no fold (the node fails when it runs) */
  mf_tensor *i1 = make_tensor(MF_INT32, 0, NULL, VALS(1)), *i0 = make_tensor(MF_INT32, 0, NULL, VALS(0));
  CHECK(!folds("FloorDiv", 2, (mf_tensor *[]){i1, i0}, NULL));
  CHECK(folds("FloorDiv", 2, (mf_tensor *[]){i1, i1}, NULL));
  /* nested graphs never (a loop could run for long) */
  mf_graph *branch = new_graph();
  ref x = input(branch, MF_FLOAT32, 0, NULL, NULL);
  outputs(branch, 1, REFS(x));
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, "then_branch", branch, NULL);
  mf_attrs_set_graph(&as, "else_branch", branch, NULL);
  mf_tensor *yes = NULL;
  mf_tensor_scalar_bool(true, &yes, NULL);
  CHECK(!folds("StatelessIf", 2, (mf_tensor *[]){yes, one}, &as));
  mf_attrs_free(&as);
  CHECK(!mf_op_is_foldable(&mf_op_AssignAddVariableOp, NULL));
  CHECK(mf_op_is_foldable(&mf_op_AddV2, NULL));
  mf_graph_release(branch);
  mf_tensor_release(yes);
  mf_tensor_release(i1);
  mf_tensor_release(i0);
  mf_tensor_release(one);
  mf_tensor_release(dims_small);
  mf_tensor_release(dims_big);
}

/* The folding pass applies the same rule: Fill of 200x200 becomes a Const,
 * Fill of 300x300 stays. */
static void test_fold_pass_same_rule(void) {
  for (int big = 0; big < 2; big++) {
    mf_graph *g = new_graph();
    double d = big ? 300 : 200;
    ref dims = cnst(g, make_tensor(MF_INT32, 1, DIMS(2), (const double[]){d, d}));
    ref fill = op2(g, "Fill", dims, cnst(g, make_tensor(MF_FLOAT32, 0, NULL, VALS(1))));
    outputs(g, 1, REFS(fill));
    mf_graph *o = NULL;
    CHECK_OK(mf_pass_fold_constants(g, &o, NULL, NULL));
    CHECK(o && count_op(o, "Fill") == (big ? 1 : 0));
    mf_graph_release(o);
    mf_graph_release(g);
  }
}

static void test_no_leaks(void) { CHECK(mf_live_bytes() == 0); }

int main(void) {
  RUN(test_fits);
  RUN(test_fold_rule);
  RUN(test_fold_pass_same_rule);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
