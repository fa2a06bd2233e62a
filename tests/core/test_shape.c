/* test_shape.c — the shape ops (ops_shape.c, ops_pad.c, ops_join.c, ops_generate.c):
 * values for every dtype family, negative axes, scalars, zero-size
 * dimensions, strings (deep-copied),
 * inference while tracing (unknown values and dimensions), and TF's error
 * text. */
#include "check.h"
#include "op_test.h"
#include "array_test.h"

static mf_tensor *m23(mf_dtype dt) { return tens(dt, 2, DIMS(2, 3), VALS(1, 2, 3, 4, 5, 6)); }

static void test_registered(void) {
  const char *names[] = {"Transpose", "Reshape",     "ConcatV2", "Pack",      "Unpack",
                         "ExpandDims", "Squeeze",    "Tile",     "Pad",       "MirrorPad",
                         "MirrorPadGrad", "BroadcastTo",
                         "Shape",     "Size",        "Rank",     "Fill",      "ZerosLike",
                         "OnesLike",  "Range",       "LinSpace"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const mf_op_def *op = mf_op_lookup(names[i]);
    CHECK(op && op->doc && op->input_names && op->infer && op->kernel);
  }
  CHECK(mf_op_lookup("Shape")->flags & MF_OP_NO_GRADIENT);
  CHECK(mf_op_lookup("Range")->flags & MF_OP_NO_GRADIENT);
  CHECK(mf_op_lookup("ZerosLike")->flags & MF_OP_NO_GRADIENT);
  CHECK(!(mf_op_lookup("Transpose")->flags & MF_OP_NO_GRADIENT));
  CHECK(strcmp(mf_op_lookup("Reshape")->input_names, "tensor,shape") == 0);
  CHECK(strcmp(mf_op_lookup("ConcatV2")->input_names, "values*,axis") == 0);
}

static void test_transpose(void) {
  mf_tensor *x = m23(MF_FLOAT32);
  CHECK(values_are(run1("Transpose", 2, INS(x, ivec(2, VALS(1, 0))), NULL), MF_FLOAT32, 2,
                   DIMS(3, 2), VALS(1, 4, 2, 5, 3, 6)));
  mf_tensor *y = tens(MF_INT64, 3, DIMS(2, 1, 3), VALS(1, 2, 3, 4, 5, 6));
  CHECK(values_are(run1("Transpose", 2, INS(y, ivec(3, VALS(2, 0, 1))), NULL), MF_INT64, 3,
                   DIMS(3, 2, 1), VALS(1, 4, 2, 5, 3, 6)));
  /* Identity and size-1 moves are views of the input. */
  mf_tensor *v = run1("Transpose", 2, INS(y, ivec(3, VALS(1, 0, 2))), NULL);
  CHECK(v && v->buf == y->buf && shape_is(v, 3, DIMS(1, 2, 3)));
  CHECK(values_are(run1("Transpose", 2, INS(scalar(MF_FLOAT64, 2.5), ivec(0, NULL)), NULL),
                   MF_FLOAT64, 0, NULL, VALS(2.5)));
  CHECK(values_are(run1("Transpose", 2, INS(tens(MF_BOOL, 2, DIMS(0, 3), NULL), ivec(2, VALS(1, 0))),
                        NULL),
                   MF_BOOL, 2, DIMS(3, 0), NULL));
  mf_tensor *s = strs(2, DIMS(2, 2), STRS("a", "bb", "ccc", ""));
  mf_tensor *st = run1("Transpose", 2, INS(s, ivec(2, VALS(1, 0))), NULL);
  CHECK(strings_are(st, 2, DIMS(2, 2), STRS("a", "ccc", "bb", "")));
  CHECK(st && MF_DATA(st, mf_string)[0].ptr != MF_DATA(s, mf_string)[0].ptr);

  CHECK(fails("Transpose", 2, INS(x, ivec(3, VALS(0, 1, 2))), NULL, MF_ERR_INVALID_ARGUMENT,
              "transpose expects a vector of size 2. But input(1) is a vector of size 3"));
  CHECK(fails("Transpose", 2, INS(x, ivec(2, VALS(0, 0))), NULL, MF_ERR_INVALID_ARGUMENT,
              "1 is missing from {0,0}."));
  CHECK(fails("Transpose", 2, INS(x, ivec(2, VALS(0, 2))), NULL, MF_ERR_INVALID_ARGUMENT,
              "2 is out of range [0 .. 2)"));
  CHECK(fails("Transpose", 2, INS(x, tens(MF_FLOAT32, 1, DIMS(2), VALS(1, 0))), NULL,
              MF_ERR_INVALID_ARGUMENT, "int32 or int64"));

  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_FLOAT32, 2, DIMS(-1, 3)), sp = spec_of(MF_INT32, 1, DIMS(2));
  CHECK_OK(infer_vals("Transpose", 2, (mf_spec[]){sx, sp}, INS(NULL, ivec(2, VALS(1, 0))), NULL,
                      &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(3, -1)));
  CHECK_OK(infer_vals("Transpose", 2, (mf_spec[]){sx, sp}, INS(NULL, NULL), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  mf_spec unk = {.dtype = MF_FLOAT32, .rank = -1};
  CHECK_OK(infer_vals("Transpose", 2, (mf_spec[]){unk, sp}, INS(NULL, NULL), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  release_all();
}

static void test_reshape(void) {
  mf_tensor *x = m23(MF_INT32);
  mf_tensor *r = run1("Reshape", 2, INS(x, ivec(2, VALS(3, 2))), NULL);
  CHECK(values_are(r, MF_INT32, 2, DIMS(3, 2), VALS(1, 2, 3, 4, 5, 6)));
  CHECK(r && r->buf == x->buf);
  CHECK(values_are(run1("Reshape", 2, INS(x, ivec(1, VALS(-1))), NULL), MF_INT32, 1, DIMS(6),
                   VALS(1, 2, 3, 4, 5, 6)));
  CHECK(shape_is(run1("Reshape", 2, INS(x, ivec(3, VALS(2, -1, 1))), NULL), 3, DIMS(2, 3, 1)));
  CHECK(shape_is(run1("Reshape", 2, INS(x, ivec(8, VALS(1, 1, 1, 1, 1, 1, 1, -1))), NULL), 8,
                 DIMS(1, 1, 1, 1, 1, 1, 1, 6)));
  CHECK(values_are(run1("Reshape", 2, INS(tens(MF_FLOAT32, 1, DIMS(1), VALS(7)), ivec(0, NULL)), NULL),
                   MF_FLOAT32, 0, NULL, VALS(7)));
  CHECK(shape_is(run1("Reshape", 2, INS(tens(MF_FLOAT32, 2, DIMS(0, 4), NULL), ivec(2, VALS(2, 0))),
                      NULL),
                 2, DIMS(2, 0)));
  CHECK(strings_are(run1("Reshape", 2,
                         INS(strs(1, DIMS(4), STRS("a", "b", "c", "d")),
                             tens(MF_INT64, 1, DIMS(2), VALS(2, 2))),
                         NULL),
                    2, DIMS(2, 2), STRS("a", "b", "c", "d")));

  CHECK(fails("Reshape", 2, INS(x, ivec(2, VALS(2, 2))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Input to reshape is a tensor with 6 values, but the requested shape has 4"));
  CHECK(fails("Reshape", 2, INS(x, ivec(2, VALS(-1, 4))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Input to reshape is a tensor with 6 values, but the requested shape requires a "
              "multiple of 4"));
  CHECK(fails("Reshape", 2, INS(x, ivec(2, VALS(-1, -1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Only one input size may be -1, not both 0 and 1"));
  CHECK(fails("Reshape", 2, INS(x, ivec(2, VALS(-2, 3))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Size 0 must be non-negative, not -2"));
  /* TF's ReshapeOp counts zeros in neither product: an empty (0,) to
   * (0, -1) is (0, 1), as TF 2 gives eagerly. */
  CHECK(shape_is(run1("Reshape", 2, INS(tens(MF_FLOAT32, 1, DIMS(0), NULL), ivec(2, VALS(0, -1))),
                      NULL),
                 2, DIMS(0, 1)));
  CHECK(fails("Reshape", 2, INS(x, ivec(9, VALS(1, 1, 1, 1, 1, 1, 1, 1, 6))), NULL,
              MF_ERR_INVALID_ARGUMENT, "too many dimensions: 9"));
  CHECK(fails("Reshape", 2, INS(x, tens(MF_INT32, 2, DIMS(1, 2), VALS(3, 2))), NULL,
              MF_ERR_INVALID_ARGUMENT, "sizes input must be 1-D, not [1,2]"));

  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_FLOAT32, 3, DIMS(-1, 2, 2)), ss = spec_of(MF_INT32, 1, DIMS(2));
  CHECK_OK(infer_vals("Reshape", 2, (mf_spec[]){sx, ss}, INS(NULL, ivec(2, VALS(-1, 4))), NULL,
                      &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 4)));
  CHECK_OK(infer_vals("Reshape", 2, (mf_spec[]){sx, ss}, INS(NULL, NULL), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  mf_spec st = spec_of(MF_FLOAT32, 2, DIMS(3, 4)), s1 = spec_of(MF_INT32, 1, DIMS(1));
  CHECK_OK(infer_vals("Reshape", 2, (mf_spec[]){st, s1}, INS(NULL, NULL), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(12)));
  release_all();
}

static void test_concat(void) {
  mf_tensor *a = tens(MF_FLOAT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4));
  mf_tensor *b = tens(MF_FLOAT32, 2, DIMS(1, 2), VALS(5, 6));
  mf_tensor *c = tens(MF_FLOAT32, 2, DIMS(2, 1), VALS(7, 8));
  CHECK(values_are(run1("ConcatV2", 3, INS(a, b, scalar(MF_INT32, 0)), NULL), MF_FLOAT32, 2,
                   DIMS(3, 2), VALS(1, 2, 3, 4, 5, 6)));
  CHECK(values_are(run1("ConcatV2", 3, INS(a, c, scalar(MF_INT64, -1)), NULL), MF_FLOAT32, 2,
                   DIMS(2, 3), VALS(1, 2, 7, 3, 4, 8)));
  mf_tensor *e = tens(MF_FLOAT32, 2, DIMS(2, 0), NULL);
  CHECK(values_are(run1("ConcatV2", 4, INS(a, e, c, scalar(MF_INT32, 1)), NULL), MF_FLOAT32, 2,
                   DIMS(2, 3), VALS(1, 2, 7, 3, 4, 8)));
  CHECK(values_are(run1("ConcatV2", 2, INS(a, scalar(MF_INT32, 0)), NULL), MF_FLOAT32, 2,
                   DIMS(2, 2), VALS(1, 2, 3, 4)));
  mf_tensor *s1 = strs(1, DIMS(2), STRS("x", "y")), *s2 = strs(1, DIMS(1), STRS("zz"));
  mf_tensor *sc = run1("ConcatV2", 3, INS(s1, s2, scalar(MF_INT32, 0)), NULL);
  CHECK(strings_are(sc, 1, DIMS(3), STRS("x", "y", "zz")));
  CHECK(sc && MF_DATA(sc, mf_string)[2].ptr != MF_DATA(s2, mf_string)[0].ptr);
  mf_tensor *bools = run1("ConcatV2", 3,
                          INS(tens(MF_BOOL, 1, DIMS(1), VALS(1)), tens(MF_BOOL, 1, DIMS(2), VALS(0, 1)),
                              scalar(MF_INT32, 0)),
                          NULL);
  CHECK(values_are(bools, MF_BOOL, 1, DIMS(3), VALS(1, 0, 1)));

  CHECK(fails("ConcatV2", 3, INS(a, b, scalar(MF_INT32, 1)), NULL, MF_ERR_INVALID_ARGUMENT,
              "ConcatOp : Dimension 0 in both shapes must be equal: shape[0] = [2,2] vs. shape[1] = "
              "[1,2]"));
  CHECK(fails("ConcatV2", 3, INS(a, b, scalar(MF_INT32, 2)), NULL, MF_ERR_INVALID_ARGUMENT,
              "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2"));
  CHECK(fails("ConcatV2", 3, INS(a, tens(MF_FLOAT32, 1, DIMS(2), NULL), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT,
              "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,2] vs. shape[1] = [2]"));
  CHECK(fails("ConcatV2", 3, INS(scalar(MF_FLOAT32, 1), scalar(MF_FLOAT32, 2), scalar(MF_INT32, 0)),
              NULL, MF_ERR_INVALID_ARGUMENT, "Can't concatenate scalars (use tf.stack instead)"));
  CHECK(fails("ConcatV2", 3, INS(a, tens(MF_INT32, 2, DIMS(1, 2), NULL), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "input #1(zero-based) was expected to be a float tensor"));
  CHECK(fails("ConcatV2", 3, INS(a, b, ivec(1, VALS(0))), NULL, MF_ERR_INVALID_ARGUMENT,
              "axis tensor should be a scalar integer"));

  mf_error err;
  mf_spec out;
  mf_spec s_a = spec_of(MF_FLOAT32, 2, DIMS(-1, 2)), s_b = spec_of(MF_FLOAT32, 2, DIMS(3, 2)),
          s_ax = spec_of(MF_INT32, 0, NULL);
  CHECK_OK(infer_vals("ConcatV2", 3, (mf_spec[]){s_a, s_b, s_ax},
                      INS(NULL, NULL, scalar(MF_INT32, 0)), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 2)));
  CHECK_OK(infer_vals("ConcatV2", 3, (mf_spec[]){s_a, s_b, s_ax},
                      INS(NULL, NULL, scalar(MF_INT32, 1)), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(3, 4)));
  CHECK_OK(infer_vals("ConcatV2", 3, (mf_spec[]){s_a, s_b, s_ax}, INS(NULL, NULL, NULL), NULL,
                      &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  release_all();
}

static void test_pack_unpack(void) {
  mf_tensor *a = tens(MF_INT32, 1, DIMS(2), VALS(1, 2)), *b = tens(MF_INT32, 1, DIMS(2), VALS(3, 4)),
            *c = tens(MF_INT32, 1, DIMS(2), VALS(5, 6));
  CHECK(values_are(run1("Pack", 3, INS(a, b, c), NULL), MF_INT32, 2, DIMS(3, 2),
                   VALS(1, 2, 3, 4, 5, 6)));
  mf_attrs ax1 = attr_int("axis", 1), axm1 = attr_int("axis", -1), ax3 = attr_int("axis", 3);
  CHECK(values_are(run1("Pack", 3, INS(a, b, c), &ax1), MF_INT32, 2, DIMS(2, 3),
                   VALS(1, 3, 5, 2, 4, 6)));
  CHECK(values_are(run1("Pack", 3, INS(a, b, c), &axm1), MF_INT32, 2, DIMS(2, 3),
                   VALS(1, 3, 5, 2, 4, 6)));
  CHECK(values_are(run1("Pack", 2, INS(scalar(MF_FLOAT64, 1.5), scalar(MF_FLOAT64, -2)), NULL),
                   MF_FLOAT64, 1, DIMS(2), VALS(1.5, -2)));
  CHECK(strings_are(run1("Pack", 2, INS(strs(0, NULL, STRS("p")), strs(0, NULL, STRS("q"))), NULL),
                    1, DIMS(2), STRS("p", "q")));
  CHECK(fails("Pack", 2, INS(a, tens(MF_INT32, 1, DIMS(3), NULL)), NULL, MF_ERR_INVALID_ARGUMENT,
              "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [3]"));
  CHECK(fails("Pack", 2, INS(a, b), &ax3, MF_ERR_INVALID_ARGUMENT, "axis = 3 not in [-2, 2)"));

  mf_tensor *m = tens(MF_FLOAT32, 2, DIMS(3, 2), VALS(1, 2, 3, 4, 5, 6));
  mf_tensor *u1 = run_out("Unpack", 1, INS(m), NULL, 1);
  CHECK(values_are(u1, MF_FLOAT32, 1, DIMS(2), VALS(3, 4)));
  CHECK(u1 && u1->buf == m->buf); /* rows of a row-major tensor are views */
  CHECK(values_are(run_out("Unpack", 1, INS(m), &ax1, 1), MF_FLOAT32, 1, DIMS(3), VALS(2, 4, 6)));
  CHECK(values_are(run_out("Unpack", 1, INS(m), &axm1, 0), MF_FLOAT32, 1, DIMS(3), VALS(1, 3, 5)));
  mf_attrs num2 = attr_int("num", 2);
  CHECK(fails("Unpack", 1, INS(m), &num2, MF_ERR_INVALID_ARGUMENT,
              "Input shape axis 0 must equal 2, got shape [3,2]"));
  CHECK(fails("Unpack", 1, INS(m), &ax3, MF_ERR_INVALID_ARGUMENT, "axis = 3 not in [-2, 2)"));
  CHECK(strings_are(run_out("Unpack", 1, INS(strs(2, DIMS(2, 2), STRS("a", "b", "c", "d"))), &ax1, 1),
                    1, DIMS(2), STRS("b", "d")));
  mf_error err;
  mf_spec outs[4];
  int nout;
  mf_spec sm = spec_of(MF_FLOAT32, 2, DIMS(3, -1));
  CHECK_OK(infer_op("Unpack", 1, &sm, NULL, outs, 4, &nout, &err));
  CHECK(nout == 3 && spec_is(&outs[2], 1, DIMS(-1)));
  mf_spec sn = spec_of(MF_FLOAT32, 2, DIMS(-1, 3));
  CHECK(infer_op("Unpack", 1, &sn, NULL, outs, 4, &nout, &err) == MF_ERR_VALUE);
  release_all();
}

static void test_expand_squeeze(void) {
  mf_tensor *x = m23(MF_FLOAT32);
  mf_tensor *e = run1("ExpandDims", 2, INS(x, scalar(MF_INT32, 0)), NULL);
  CHECK(shape_is(e, 3, DIMS(1, 2, 3)) && e->buf == x->buf);
  CHECK(shape_is(run1("ExpandDims", 2, INS(x, scalar(MF_INT32, -1)), NULL), 3, DIMS(2, 3, 1)));
  CHECK(shape_is(run1("ExpandDims", 2, INS(x, ivec(1, VALS(1))), NULL), 3, DIMS(2, 1, 3)));
  CHECK(values_are(run1("ExpandDims", 2, INS(scalar(MF_INT64, 4), scalar(MF_INT32, 0)), NULL),
                   MF_INT64, 1, DIMS(1), VALS(4)));
  CHECK(fails("ExpandDims", 2, INS(x, scalar(MF_INT32, 3)), NULL, MF_ERR_INVALID_ARGUMENT,
              "Tried to expand dim index 3 for tensor with 2 dimensions."));
  CHECK(fails("ExpandDims", 2, INS(x, ivec(2, VALS(0, 1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "'dim' must be a tensor with a single value"));

  mf_tensor *y = tens(MF_INT32, 3, DIMS(1, 2, 1), VALS(1, 2));
  mf_tensor *sq = run1("Squeeze", 1, INS(y), NULL);
  CHECK(values_are(sq, MF_INT32, 1, DIMS(2), VALS(1, 2)) && sq->buf == y->buf);
  mf_attrs d0 = attr_ints("squeeze_dims", 1, DIMS(0)), dm1 = attr_ints("squeeze_dims", 1, DIMS(-1)),
           d1 = attr_ints("squeeze_dims", 1, DIMS(1)), d3 = attr_ints("squeeze_dims", 1, DIMS(3));
  CHECK(shape_is(run1("Squeeze", 1, INS(y), &d0), 2, DIMS(2, 1)));
  CHECK(shape_is(run1("Squeeze", 1, INS(y), &dm1), 2, DIMS(1, 2)));
  CHECK(shape_is(run1("Squeeze", 1, INS(scalar(MF_BOOL, 1)), NULL), 0, NULL));
  CHECK(strings_are(run1("Squeeze", 1, INS(strs(2, DIMS(1, 1), STRS("s"))), NULL), 0, NULL,
                    STRS("s")));
  CHECK(fails("Squeeze", 1, INS(y), &d1, MF_ERR_INVALID_ARGUMENT,
              "Can not squeeze dim[1], expected a dimension of 1, got 2"));
  CHECK(fails("Squeeze", 1, INS(y), &d3, MF_ERR_INVALID_ARGUMENT,
              "Tried to squeeze dim index 3 for tensor with 3 dimensions."));
  mf_error err;
  mf_spec out;
  int nout;
  mf_spec su = spec_of(MF_FLOAT32, 2, DIMS(-1, 1));
  CHECK_OK(infer_op("Squeeze", 1, &su, NULL, &out, 1, &nout, &err));
  CHECK(out.rank == -1);
  CHECK_OK(infer_op("Squeeze", 1, &su, &d1, &out, 1, &nout, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)));
  mf_spec se[2] = {spec_of(MF_FLOAT32, 2, DIMS(2, 3)), spec_of(MF_INT32, 0, NULL)};
  CHECK_OK(infer_op("ExpandDims", 2, se, NULL, &out, 1, &nout, &err));
  CHECK(spec_is(&out, 3, DIMS(-1, -1, -1)));
  release_all();
}

static void test_tile(void) {
  mf_tensor *x = tens(MF_INT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4));
  CHECK(values_are(run1("Tile", 2, INS(x, ivec(2, VALS(2, 1))), NULL), MF_INT32, 2, DIMS(4, 2),
                   VALS(1, 2, 3, 4, 1, 2, 3, 4)));
  CHECK(values_are(run1("Tile", 2, INS(x, ivec(2, VALS(1, 3))), NULL), MF_INT32, 2, DIMS(2, 6),
                   VALS(1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4)));
  CHECK(shape_is(run1("Tile", 2, INS(x, ivec(2, VALS(0, 2))), NULL), 2, DIMS(0, 4)));
  CHECK(values_are(run1("Tile", 2, INS(scalar(MF_FLOAT32, 3), ivec(0, NULL)), NULL), MF_FLOAT32, 0,
                   NULL, VALS(3)));
  CHECK(strings_are(run1("Tile", 2, INS(strs(1, DIMS(2), STRS("a", "b")), ivec(1, VALS(2))), NULL),
                    1, DIMS(4), STRS("a", "b", "a", "b")));
  CHECK(fails("Tile", 2, INS(x, ivec(3, VALS(1, 1, 1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Expected multiples argument to be a vector of length 2 but got length 3"));
  CHECK(fails("Tile", 2, INS(x, ivec(2, VALS(1, -1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Expected multiples[1] >= 0, but got -1"));
  mf_error err;
  mf_spec out;
  mf_spec sx[2] = {spec_of(MF_INT32, 2, DIMS(-1, 2)), spec_of(MF_INT32, 1, DIMS(2))};
  CHECK_OK(infer_vals("Tile", 2, sx, INS(NULL, ivec(2, VALS(2, 3))), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 6)));
  release_all();
}

/* MirrorPad and its gradient: both modes over every dtype family, the
 * kernels' limits and TF's wording, and the fold adding each padded
 * element back where it was mirrored from. */
static void test_mirror_pad(void) {
  mf_attrs reflect, symmetric, weird;
  mf_attrs_init(&reflect);
  mf_attrs_init(&symmetric);
  mf_attrs_init(&weird);
  CHECK_OK(mf_attrs_set_string(&reflect, "mode", "REFLECT", NULL));
  CHECK_OK(mf_attrs_set_string(&symmetric, "mode", "SYMMETRIC", NULL));
  CHECK_OK(mf_attrs_set_string(&weird, "mode", "reflect", NULL));
  mf_tensor *x = m23(MF_INT32);
  mf_tensor *p = tens(MF_INT32, 2, DIMS(2, 2), VALS(1, 1, 2, 1));
  CHECK(values_are(run1("MirrorPad", 2, INS(x, p), &reflect), MF_INT32, 2, DIMS(4, 6),
                   VALS(6, 5, 4, 5, 6, 5, 3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5, 3, 2, 1, 2, 3, 2)));
  CHECK(values_are(run1("MirrorPad", 2, INS(m23(MF_FLOAT64), p), &symmetric), MF_FLOAT64, 2,
                   DIMS(4, 6), VALS(2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 5, 4, 4, 5, 6, 6, 5, 4, 4, 5, 6, 6)));
  CHECK(strings_are(run1("MirrorPad", 2,
                         INS(strs(1, DIMS(3), STRS("a", "b", "c")), tens(MF_INT64, 2, DIMS(1, 2), VALS(2, 1))),
                         &reflect),
                    1, DIMS(6), STRS("c", "b", "a", "b", "c", "b")));
  CHECK(values_are(run1("MirrorPad", 2, INS(tens(MF_BOOL, 1, DIMS(2), VALS(1, 0)), tens(MF_INT32, 2, DIMS(1, 2), VALS(2, 0))),
                        &symmetric),
                   MF_BOOL, 1, DIMS(4), VALS(0, 1, 1, 0)));
  CHECK(values_are(run1("MirrorPad", 2, INS(scalar(MF_INT32, 5), tens(MF_INT32, 2, DIMS(0, 2), NULL)), &reflect),
                   MF_INT32, 0, NULL, VALS(5)));
  CHECK(fails("MirrorPad", 2, INS(x, tens(MF_INT32, 2, DIMS(2, 2), VALS(0, 0, 3, 0))), &reflect,
              MF_ERR_INVALID_ARGUMENT, "paddings must be less than the dimension size: 3, 0 not less than 3"));
  CHECK(fails("MirrorPad", 2, INS(x, tens(MF_INT32, 2, DIMS(2, 2), VALS(0, 0, 0, 4))), &symmetric,
              MF_ERR_INVALID_ARGUMENT, "paddings must be no greater than the dimension size: 0, 4 greater than 3"));
  CHECK(fails("MirrorPad", 2, INS(x, tens(MF_INT32, 2, DIMS(2, 2), VALS(-1, 0, 0, 0))), &symmetric,
              MF_ERR_INVALID_ARGUMENT, "paddings must be non-negative: -1 0"));
  CHECK(fails("MirrorPad", 2, INS(x, tens(MF_INT32, 2, DIMS(3, 2), NULL)), &reflect, MF_ERR_INVALID_ARGUMENT,
              "The first dimension of paddings must be the rank of inputs[3,2], [2,3]"));
  CHECK(fails("MirrorPad", 2, INS(x, p), &weird, MF_ERR_INVALID_ARGUMENT,
              "mode must be either REFLECT or SYMMETRIC."));
  CHECK(fails("MirrorPad", 2, INS(x, p), NULL, MF_ERR_INVALID_ARGUMENT,
              "mode must be either REFLECT or SYMMETRIC."));
  /* The fold: [4 5 6 | 1 2 3] rows of the REFLECT pad above fold to
   * twice each row, columns 1 3 2 times. */
  mf_tensor *g = tens(MF_FLOAT32, 2, DIMS(4, 6), VALS(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
  CHECK(values_are(run1("MirrorPadGrad", 2, INS(g, p), &reflect), MF_FLOAT32, 2, DIMS(2, 3),
                   VALS(2, 6, 4, 2, 6, 4)));
  CHECK(values_are(run1("MirrorPadGrad", 2,
                        INS(tens(MF_INT64, 1, DIMS(6), VALS(1, 2, 3, 4, 5, 6)), tens(MF_INT32, 2, DIMS(1, 2), VALS(2, 1))),
                        &symmetric),
                   MF_INT64, 1, DIMS(3), VALS(2 + 3, 1 + 4, 5 + 6)));
  CHECK(fails("MirrorPadGrad", 2, INS(g, tens(MF_INT32, 2, DIMS(2, 2), VALS(2, 0, 0, 0))), &reflect,
              MF_ERR_INVALID_ARGUMENT, "paddings must be less than the output dimension size: 2, 0 not less than 2"));
  CHECK(fails("MirrorPadGrad", 2, INS(g, tens(MF_INT32, 2, DIMS(2, 2), VALS(0, -1, 0, 0))), &reflect,
              MF_ERR_INVALID_ARGUMENT, "Paddings must be non-negative: 0, -1"));
  CHECK(fails("MirrorPadGrad", 2, INS(tens(MF_BOOL, 1, DIMS(2), VALS(1, 0)), tens(MF_INT32, 2, DIMS(1, 2), VALS(0, 0))),
              &symmetric, MF_ERR_INVALID_ARGUMENT, ""));
  /* Inference with unknown paddings: the input's rank, unknown sizes. */
  mf_error err;
  mf_spec out, sx = spec_of(MF_FLOAT32, 2, DIMS(2, 3)), sp = spec_of(MF_INT32, 2, DIMS(2, 2));
  CHECK_OK(infer_vals("MirrorPad", 2, (mf_spec[]){sx, sp}, INS(NULL, NULL), &reflect, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  CHECK_OK(infer_vals("MirrorPadGrad", 2, (mf_spec[]){sx, sp}, INS(NULL, NULL), &reflect, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  mf_attrs_free(&reflect);
  mf_attrs_free(&symmetric);
  mf_attrs_free(&weird);
  release_all();
}

static void test_pad(void) {
  mf_tensor *x = tens(MF_FLOAT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4));
  mf_tensor *p = tens(MF_INT32, 2, DIMS(2, 2), VALS(1, 0, 0, 2));
  CHECK(values_are(run1("Pad", 2, INS(x, p), NULL), MF_FLOAT32, 2, DIMS(3, 4),
                   VALS(0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0)));
  CHECK(values_are(run1("Pad", 3, INS(x, p, scalar(MF_FLOAT32, 9)), NULL), MF_FLOAT32, 2,
                   DIMS(3, 4), VALS(9, 9, 9, 9, 1, 2, 9, 9, 3, 4, 9, 9)));
  CHECK(strings_are(run1("Pad", 2,
                         INS(strs(1, DIMS(1), STRS("x")), tens(MF_INT64, 2, DIMS(1, 2), VALS(1, 1))),
                         NULL),
                    1, DIMS(3), STRS("", "x", "")));
  CHECK(strings_are(run1("Pad", 3,
                         INS(strs(1, DIMS(1), STRS("x")), tens(MF_INT64, 2, DIMS(1, 2), VALS(0, 2)),
                             strs(0, NULL, STRS("-"))),
                         NULL),
                    1, DIMS(3), STRS("x", "-", "-")));
  CHECK(values_are(run1("Pad", 2, INS(scalar(MF_INT32, 5), tens(MF_INT32, 2, DIMS(0, 2), NULL)), NULL),
                   MF_INT32, 0, NULL, VALS(5)));
  CHECK(values_are(run1("Pad", 2, INS(tens(MF_BOOL, 1, DIMS(0), NULL), tens(MF_INT32, 2, DIMS(1, 2), VALS(1, 1))),
                        NULL),
                   MF_BOOL, 1, DIMS(2), VALS(0, 0)));
  CHECK(fails("Pad", 2, INS(x, tens(MF_INT32, 2, DIMS(2, 2), VALS(-1, 0, 0, 0))), NULL,
              MF_ERR_INVALID_ARGUMENT, "Paddings must be non-negative: -1 0"));
  CHECK(fails("Pad", 2, INS(x, tens(MF_INT32, 2, DIMS(3, 2), NULL)), NULL, MF_ERR_INVALID_ARGUMENT,
              "The first dimension of paddings must be the rank of inputs[3,2], [2,2]"));
  CHECK(fails("Pad", 2, INS(x, ivec(4, VALS(1, 1, 1, 1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "paddings must be a matrix with 2 columns"));
  CHECK(fails("Pad", 3, INS(x, p, scalar(MF_INT32, 1)), NULL, MF_ERR_INVALID_ARGUMENT,
              "was expected to be a float32 tensor"));
  mf_error err;
  mf_spec out, su = {.dtype = MF_FLOAT32, .rank = -1}, sp = spec_of(MF_INT32, 2, DIMS(10, 2));
  CHECK(infer_vals("Pad", 2, (mf_spec[]){su, sp}, INS(NULL, tens(MF_INT32, 2, DIMS(10, 2), NULL)),
                   NULL, &out, NULL, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_spec sp2 = spec_of(MF_INT32, 2, DIMS(3, 2));
  CHECK_OK(infer_vals("Pad", 2, (mf_spec[]){su, sp2},
                      INS(NULL, tens(MF_INT32, 2, DIMS(3, 2), VALS(1, 1, 0, 0, 2, 0))), NULL, &out,
                      NULL, &err));
  CHECK(spec_is(&out, 3, DIMS(-1, -1, -1)));
  release_all();
}

static void test_broadcast_to(void) {
  mf_tensor *v = tens(MF_INT32, 1, DIMS(3), VALS(1, 2, 3));
  CHECK(values_are(run1("BroadcastTo", 2, INS(v, ivec(2, VALS(2, 3))), NULL), MF_INT32, 2,
                   DIMS(2, 3), VALS(1, 2, 3, 1, 2, 3)));
  CHECK(values_are(run1("BroadcastTo", 2,
                        INS(tens(MF_FLOAT64, 2, DIMS(2, 1), VALS(1, 2)), ivec(2, VALS(2, 3))), NULL),
                   MF_FLOAT64, 2, DIMS(2, 3), VALS(1, 1, 1, 2, 2, 2)));
  CHECK(values_are(run1("BroadcastTo", 2, INS(scalar(MF_BOOL, 1), ivec(2, VALS(1, 2))), NULL),
                   MF_BOOL, 2, DIMS(1, 2), VALS(1, 1)));
  mf_tensor *same = run1("BroadcastTo", 2, INS(v, ivec(1, VALS(3))), NULL);
  CHECK(same && same->buf == v->buf);
  CHECK(strings_are(run1("BroadcastTo", 2, INS(strs(1, DIMS(1), STRS("k")), ivec(1, VALS(2))), NULL),
                    1, DIMS(2), STRS("k", "k")));
  CHECK(fails("BroadcastTo", 2, INS(v, ivec(1, VALS(2))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Incompatible shapes: [3] vs. [2]"));
  CHECK(fails("BroadcastTo", 2, INS(v, ivec(1, VALS(1))), NULL, MF_ERR_INVALID_ARGUMENT,
              "Unable to broadcast tensor of shape [3] to tensor of shape [1]"));
  CHECK(fails("BroadcastTo", 2, INS(tens(MF_INT32, 2, DIMS(1, 3), NULL), ivec(1, VALS(3))), NULL,
              MF_ERR_INVALID_ARGUMENT, "Unable to broadcast tensor of shape [1,3]"));
  release_all();
}

static void test_shape_size_rank(void) {
  mf_tensor *x = tens(MF_FLOAT32, 3, DIMS(2, 0, 4), NULL);
  CHECK(values_are(run1("Shape", 1, INS(x), NULL), MF_INT32, 1, DIMS(3), VALS(2, 0, 4)));
  mf_attrs i64 = attr_type("out_type", MF_INT64), bad = attr_type("out_type", MF_FLOAT32);
  CHECK(values_are(run1("Shape", 1, INS(x), &i64), MF_INT64, 1, DIMS(3), VALS(2, 0, 4)));
  CHECK(values_are(run1("Size", 1, INS(m23(MF_INT32)), NULL), MF_INT32, 0, NULL, VALS(6)));
  CHECK(values_are(run1("Size", 1, INS(x), &i64), MF_INT64, 0, NULL, VALS(0)));
  CHECK(values_are(run1("Rank", 1, INS(x), NULL), MF_INT32, 0, NULL, VALS(3)));
  mf_tensor *s = strs(0, NULL, STRS("hi"));
  CHECK(values_are(run1("Shape", 1, INS(s), NULL), MF_INT32, 1, DIMS(0), NULL));
  CHECK(values_are(run1("Rank", 1, INS(s), NULL), MF_INT32, 0, NULL, VALS(0)));
  CHECK(fails("Shape", 1, INS(x), &bad, MF_ERR_INVALID_ARGUMENT, "out_type"));

  /* While tracing: a static shape is folded into a value, an unknown one is not. */
  mf_error err;
  mf_spec out, st = spec_of(MF_FLOAT32, 2, DIMS(5, 7)), sd = spec_of(MF_FLOAT32, 2, DIMS(-1, 7)),
               su = {.dtype = MF_FLOAT32, .rank = -1};
  mf_tensor *val = NULL;
  CHECK_OK(infer_vals("Shape", 1, &st, INS(NULL), NULL, &out, &val, &err));
  CHECK(spec_is(&out, 1, DIMS(2)) && values_are(val, MF_INT32, 1, DIMS(2), VALS(5, 7)));
  CHECK_OK(infer_vals("Size", 1, &st, INS(NULL), &i64, &out, &val, &err));
  CHECK(values_are(val, MF_INT64, 0, NULL, VALS(35)));
  CHECK_OK(infer_vals("Shape", 1, &sd, INS(NULL), NULL, &out, &val, &err));
  CHECK(spec_is(&out, 1, DIMS(2)) && val == NULL);
  CHECK_OK(infer_vals("Size", 1, &sd, INS(NULL), NULL, &out, &val, &err));
  CHECK(val == NULL);
  CHECK_OK(infer_vals("Rank", 1, &sd, INS(NULL), NULL, &out, &val, &err));
  CHECK(values_are(val, MF_INT32, 0, NULL, VALS(2)));
  CHECK_OK(infer_vals("Shape", 1, &su, INS(NULL), NULL, &out, &val, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)) && val == NULL);
  CHECK_OK(infer_vals("Rank", 1, &su, INS(NULL), NULL, &out, &val, &err));
  CHECK(val == NULL);
  release_all();
}

static void test_fill_like(void) {
  CHECK(values_are(run1("Fill", 2, INS(ivec(2, VALS(2, 3)), scalar(MF_FLOAT32, 7)), NULL),
                   MF_FLOAT32, 2, DIMS(2, 3), VALS(7, 7, 7, 7, 7, 7)));
  CHECK(values_are(run1("Fill", 2, INS(ivec(0, NULL), scalar(MF_INT64, -3)), NULL), MF_INT64, 0,
                   NULL, VALS(-3)));
  CHECK(strings_are(run1("Fill", 2, INS(ivec(1, VALS(2)), strs(0, NULL, STRS("ab"))), NULL), 1,
                    DIMS(2), STRS("ab", "ab")));
  CHECK(shape_is(run1("Fill", 2, INS(ivec(2, VALS(0, 3)), scalar(MF_BOOL, 1)), NULL), 2, DIMS(0, 3)));
  CHECK(fails("Fill", 2, INS(ivec(1, VALS(-1)), scalar(MF_FLOAT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Dimension -1 must be >= 0"));
  CHECK(fails("Fill", 2, INS(ivec(1, VALS(2)), tens(MF_FLOAT32, 1, DIMS(2), NULL)), NULL,
              MF_ERR_INVALID_ARGUMENT, "value must be a scalar, got shape [2]"));

  mf_tensor *x = m23(MF_FLOAT64);
  CHECK(values_are(run1("ZerosLike", 1, INS(x), NULL), MF_FLOAT64, 2, DIMS(2, 3),
                   VALS(0, 0, 0, 0, 0, 0)));
  CHECK(values_are(run1("OnesLike", 1, INS(m23(MF_INT32)), NULL), MF_INT32, 2, DIMS(2, 3),
                   VALS(1, 1, 1, 1, 1, 1)));
  CHECK(values_are(run1("OnesLike", 1, INS(tens(MF_BOOL, 1, DIMS(2), NULL)), NULL), MF_BOOL, 1,
                   DIMS(2), VALS(1, 1)));
  CHECK(strings_are(run1("ZerosLike", 1, INS(strs(1, DIMS(2), STRS("a", "b"))), NULL), 1, DIMS(2),
                    STRS("", "")));
  CHECK(fails("OnesLike", 1, INS(strs(1, DIMS(1), STRS("a"))), NULL, MF_ERR_INVALID_ARGUMENT,
              "numeric or bool"));
  release_all();
}

static void test_range_linspace(void) {
  CHECK(values_are(run1("Range", 3, INS(scalar(MF_INT32, 0), scalar(MF_INT32, 5), scalar(MF_INT32, 1)),
                        NULL),
                   MF_INT32, 1, DIMS(5), VALS(0, 1, 2, 3, 4)));
  CHECK(values_are(run1("Range", 3, INS(scalar(MF_INT64, 1), scalar(MF_INT64, 10), scalar(MF_INT64, 3)),
                        NULL),
                   MF_INT64, 1, DIMS(3), VALS(1, 4, 7)));
  CHECK(values_are(run1("Range", 3, INS(scalar(MF_INT32, 5), scalar(MF_INT32, 0), scalar(MF_INT32, -2)),
                        NULL),
                   MF_INT32, 1, DIMS(3), VALS(5, 3, 1)));
  CHECK(values_are(run1("Range", 3,
                        INS(scalar(MF_FLOAT32, 0), scalar(MF_FLOAT32, 1), scalar(MF_FLOAT32, 0.25)),
                        NULL),
                   MF_FLOAT32, 1, DIMS(4), VALS(0, 0.25, 0.5, 0.75)));
  CHECK(values_are(run1("Range", 3,
                        INS(scalar(MF_FLOAT64, 0), scalar(MF_FLOAT64, 1), scalar(MF_FLOAT64, 0.3)),
                        NULL),
                   MF_FLOAT64, 1, DIMS(4), VALS(0, 0.3, 0.6, 0.9)));
  CHECK(shape_is(run1("Range", 3, INS(scalar(MF_INT32, 3), scalar(MF_INT32, 3), scalar(MF_INT32, 1)),
                      NULL),
                 1, DIMS(0)));
  /* A span wider than int64 is measured without overflow. */
  CHECK(shape_is(run1("Range", 3,
                      INS(scalar(MF_INT64, -4e18), scalar(MF_INT64, 4e18), scalar(MF_INT64, 4e18)),
                      NULL),
                 1, DIMS(2)));
  CHECK(fails("Range", 3, INS(scalar(MF_INT32, 0), scalar(MF_INT32, 5), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Requires delta != 0"));
  CHECK(fails("Range", 3, INS(scalar(MF_INT32, 5), scalar(MF_INT32, 0), scalar(MF_INT32, 1)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Requires start <= limit when delta > 0: 5/0"));
  CHECK(fails("Range", 3, INS(scalar(MF_INT32, 0), scalar(MF_INT32, 5), scalar(MF_INT32, -1)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Requires start >= limit when delta < 0: 0/5"));
  CHECK(fails("Range", 3, INS(scalar(MF_INT32, 0), scalar(MF_FLOAT32, 5), scalar(MF_INT32, 1)), NULL,
              MF_ERR_INVALID_ARGUMENT, "input #1(zero-based)"));
  CHECK(fails("Range", 3, INS(ivec(1, VALS(0)), scalar(MF_INT32, 5), scalar(MF_INT32, 1)), NULL,
              MF_ERR_INVALID_ARGUMENT, "start must be a scalar, not shape [1]"));
  mf_error err;
  mf_spec out, s0 = spec_of(MF_INT32, 0, NULL);
  CHECK_OK(infer_vals("Range", 3, (mf_spec[]){s0, s0, s0},
                      INS(scalar(MF_INT32, 0), NULL, scalar(MF_INT32, 1)), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)));
  CHECK_OK(infer_vals("Range", 3, (mf_spec[]){s0, s0, s0},
                      INS(scalar(MF_INT32, 0), scalar(MF_INT32, 9), scalar(MF_INT32, 2)), NULL, &out,
                      NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(5)));

  CHECK(values_are(run1("LinSpace", 3,
                        INS(scalar(MF_FLOAT32, 0), scalar(MF_FLOAT32, 1), scalar(MF_INT32, 5)), NULL),
                   MF_FLOAT32, 1, DIMS(5), VALS(0, 0.25, 0.5, 0.75, 1)));
  CHECK(values_are(run1("LinSpace", 3,
                        INS(scalar(MF_FLOAT64, 3), scalar(MF_FLOAT64, -3), scalar(MF_INT64, 3)), NULL),
                   MF_FLOAT64, 1, DIMS(3), VALS(3, 0, -3)));
  CHECK(values_are(run1("LinSpace", 3,
                        INS(scalar(MF_FLOAT64, 2), scalar(MF_FLOAT64, 9), scalar(MF_INT32, 1)), NULL),
                   MF_FLOAT64, 1, DIMS(1), VALS(2)));
  CHECK(fails("LinSpace", 3, INS(scalar(MF_FLOAT32, 0), scalar(MF_FLOAT32, 1), scalar(MF_INT32, 0)),
              NULL, MF_ERR_INVALID_ARGUMENT, "Requires num > 0: 0"));
  CHECK(fails("LinSpace", 3, INS(scalar(MF_INT32, 0), scalar(MF_INT32, 1), scalar(MF_INT32, 2)),
              NULL, MF_ERR_INVALID_ARGUMENT, "float"));
  release_all();
}

/* Every walk at the maximum rank, and a transpose big enough to take
 * several runs per row. */
static void test_high_rank(void) {
  int64_t shape[MF_MAX_RANK] = {2, 1, 2, 1, 2, 1, 2, 2};
  mf_tensor *x = tens(MF_INT32, MF_MAX_RANK, shape, NULL);
  for (int64_t i = 0; i < x->size; i++) mf_tensor_set_i64(x, i, i);
  mf_tensor *t = run1("Transpose", 2, INS(x, ivec(8, VALS(7, 6, 5, 4, 3, 2, 1, 0))), NULL);
  mf_tensor *back = run1("Transpose", 2, INS(t, ivec(8, VALS(7, 6, 5, 4, 3, 2, 1, 0))), NULL);
  CHECK(back && max_abs_diff(back, x) == 0 && back->buf != x->buf);
  CHECK(t && mf_tensor_get_i64(t, 1) == 16); /* t[0..,1] = x[1,0,...] */
  /* Larger than one 32x32 tile in both directions, and not a multiple. */
  mf_tensor *m = tens(MF_INT32, 2, DIMS(37, 70), NULL);
  for (int64_t i = 0; i < m->size; i++) mf_tensor_set_i64(m, i, i);
  mf_tensor *mt = run1("Transpose", 2, INS(m, ivec(2, VALS(1, 0))), NULL);
  bool ok = shape_is(mt, 2, DIMS(70, 37));
  for (int64_t i = 0; ok && i < 70; i++)
    for (int64_t j = 0; j < 37; j++) ok &= mf_tensor_get_i64(mt, i * 37 + j) == j * 70 + i;
  CHECK(ok);
  mf_tensor *tile = run1("Tile", 2, INS(x, ivec(8, VALS(1, 2, 1, 1, 1, 1, 1, 1))), NULL);
  CHECK(tile && tile->size == 64 && mf_tensor_get_i64(tile, 16) == 0 &&
        mf_tensor_get_i64(tile, 31) == 15);
  release_all();
}

static void test_no_leaks(void) { CHECK(mf_live_bytes() == 0); }

int main(void) {
  RUN(test_registered);
  RUN(test_transpose);
  RUN(test_reshape);
  RUN(test_concat);
  RUN(test_pack_unpack);
  RUN(test_expand_squeeze);
  RUN(test_tile);
  RUN(test_pad);
  RUN(test_mirror_pad);
  RUN(test_broadcast_to);
  RUN(test_shape_size_rank);
  RUN(test_fill_like);
  RUN(test_range_linspace);
  RUN(test_high_rank);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
