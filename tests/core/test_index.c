/* test_index.c — the indexing ops (ops_index.c): Slice, StridedSlice with
 * every mask (checked against the NumPy expression each case spells),
 * GatherV2 (axis, batch_dims), Where, OneHot, UnsortedSegmentSum; strings,
 * zero-size results, views for contiguous slices, inference while tracing,
 * and TF's error text. */
#include "check.h"
#include "op_test.h"
#include "array_test.h"

/* 0..11 as a [3, 4] int32 matrix. */
static mf_tensor *x34(void) {
  return tens(MF_INT32, 2, DIMS(3, 4), VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
}

static void test_slice(void) {
  mf_tensor *x = x34();
  CHECK(values_are(run1("Slice", 3, INS(x, ivec(2, VALS(1, 1)), ivec(2, VALS(2, -1))), NULL),
                   MF_INT32, 2, DIMS(2, 3), VALS(5, 6, 7, 9, 10, 11)));
  mf_tensor *row = run1("Slice", 3, INS(x, ivec(2, VALS(1, 0)), ivec(2, VALS(1, 4))), NULL);
  CHECK(values_are(row, MF_INT32, 2, DIMS(1, 4), VALS(4, 5, 6, 7)) && row->buf == x->buf);
  CHECK(shape_is(run1("Slice", 3, INS(x, ivec(2, VALS(3, 0)), ivec(2, VALS(0, 2))), NULL), 2,
                 DIMS(0, 2)));
  CHECK(values_are(run1("Slice", 3, INS(scalar(MF_FLOAT32, 4), ivec(0, NULL), ivec(0, NULL)), NULL),
                   MF_FLOAT32, 0, NULL, VALS(4)));
  mf_tensor *s = strs(1, DIMS(3), STRS("a", "b", "c"));
  CHECK(strings_are(run1("Slice", 3,
                         INS(s, tens(MF_INT64, 1, DIMS(1), VALS(1)), tens(MF_INT64, 1, DIMS(1), VALS(2))),
                         NULL),
                    1, DIMS(2), STRS("b", "c")));
  CHECK(fails("Slice", 3, INS(x, ivec(2, VALS(4, 0)), ivec(2, VALS(1, 1))), NULL,
              MF_ERR_INVALID_ARGUMENT, "Expected begin[0] in [0, 3], but got 4"));
  CHECK(fails("Slice", 3, INS(x, ivec(2, VALS(0, 1)), ivec(2, VALS(1, 4))), NULL,
              MF_ERR_INVALID_ARGUMENT, "Expected size[1] in [0, 3], but got 4"));
  CHECK(fails("Slice", 3, INS(x, ivec(2, VALS(0, 1)), ivec(2, VALS(1, -2))), NULL,
              MF_ERR_INVALID_ARGUMENT, "Expected size[1] in [0, 3], but got -2"));
  CHECK(fails("Slice", 3, INS(x, ivec(1, VALS(0)), ivec(2, VALS(1, 1))), NULL,
              MF_ERR_INVALID_ARGUMENT,
              "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes [1] and "
              "[2] instead."));
  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_INT32, 2, DIMS(3, 4)), sv = spec_of(MF_INT32, 1, DIMS(2));
  CHECK_OK(infer_vals("Slice", 3, (mf_spec[]){sx, sv, sv}, INS(NULL, NULL, ivec(2, VALS(2, -1))),
                      NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(2, -1)));
  mf_spec su = {.dtype = MF_INT32, .rank = -1};
  CHECK_OK(infer_vals("Slice", 3, (mf_spec[]){su, sv, sv}, INS(NULL, NULL, NULL), NULL, &out, NULL,
                      &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  mf_spec s10 = spec_of(MF_INT32, 1, DIMS(10));
  CHECK(infer_vals("Slice", 3, (mf_spec[]){su, s10, s10}, INS(NULL, NULL, NULL), NULL, &out, NULL,
                   &err) == MF_ERR_INVALID_ARGUMENT);
  release_all();
}

/* x[...] as StridedSlice: begin/end/strides vectors and the five masks
 * (begin, end, ellipsis, new_axis, shrink_axis). */
typedef struct masks {
  int b, e, ell, na, sh;
} masks;

static mf_attrs mask_attrs(masks m) {
  mf_attrs a;
  mf_attrs_init(&a);
  mf_attrs_set_int(&a, "begin_mask", m.b, NULL);
  mf_attrs_set_int(&a, "end_mask", m.e, NULL);
  mf_attrs_set_int(&a, "ellipsis_mask", m.ell, NULL);
  mf_attrs_set_int(&a, "new_axis_mask", m.na, NULL);
  mf_attrs_set_int(&a, "shrink_axis_mask", m.sh, NULL);
  return a;
}

static mf_tensor *ss(mf_tensor *x, int n, const double *b, const double *e, const double *s,
                     masks m) {
  mf_attrs a = mask_attrs(m);
  return run1("StridedSlice", 4, INS(x, ivec(n, b), ivec(n, e), ivec(n, s)), &a);
}

static bool ss_fails(mf_tensor *x, int n, const double *b, const double *e, const double *s,
                     masks m, const char *text) {
  mf_attrs a = mask_attrs(m);
  return fails("StridedSlice", 4, INS(x, ivec(n, b), ivec(n, e), ivec(n, s)), &a,
               MF_ERR_INVALID_ARGUMENT, text);
}

static void test_strided_slice(void) {
  mf_tensor *x = x34();
  mf_tensor *r1 = ss(x, 1, VALS(1), VALS(2), VALS(1), (masks){.sh = 1}); /* x[1] */
  CHECK(values_are(r1, MF_INT32, 1, DIMS(4), VALS(4, 5, 6, 7)) && r1->buf == x->buf);
  CHECK(values_are(ss(x, 1, VALS(-1), VALS(0), VALS(1), (masks){.sh = 1}), MF_INT32, 1, DIMS(4),
                   VALS(8, 9, 10, 11))); /* x[-1] */
  CHECK(values_are(ss(x, 2, VALS(0, 1), VALS(0, 2), VALS(1, 1), (masks){.b = 1, .e = 1, .sh = 2}),
                   MF_INT32, 1, DIMS(3), VALS(1, 5, 9))); /* x[:, 1] */
  CHECK(values_are(ss(x, 1, VALS(0), VALS(0), VALS(-1), (masks){.b = 1, .e = 1}), MF_INT32, 2,
                   DIMS(3, 4), VALS(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3))); /* x[::-1] */
  CHECK(values_are(ss(x, 2, VALS(0, 0), VALS(0, 0), VALS(1, -2), (masks){.b = 3, .e = 3}),
                   MF_INT32, 2, DIMS(3, 2), VALS(3, 1, 7, 5, 11, 9))); /* x[:, ::-2] */
  CHECK(values_are(ss(x, 1, VALS(1), VALS(10), VALS(1), (masks){0}), MF_INT32, 2, DIMS(2, 4),
                   VALS(4, 5, 6, 7, 8, 9, 10, 11))); /* x[1:10] */
  CHECK(shape_is(ss(x, 1, VALS(5), VALS(1), VALS(1), (masks){0}), 2, DIMS(0, 4))); /* x[5:1] */
  CHECK(values_are(ss(x, 1, VALS(-5), VALS(1), VALS(1), (masks){.e = 0}), MF_INT32, 2, DIMS(1, 4),
                   VALS(0, 1, 2, 3))); /* x[-5:1] */
  CHECK(values_are(ss(x, 1, VALS(2), VALS(0), VALS(-1), (masks){0}), MF_INT32, 2, DIMS(2, 4),
                   VALS(8, 9, 10, 11, 4, 5, 6, 7))); /* x[2:0:-1] */
  CHECK(values_are(ss(x, 2, VALS(0, 1), VALS(0, 2), VALS(1, 1), (masks){.ell = 1, .sh = 2}),
                   MF_INT32, 1, DIMS(3), VALS(1, 5, 9))); /* x[..., 1] */
  CHECK(values_are(ss(x, 2, VALS(0, 1), VALS(0, 2), VALS(1, 1), (masks){.na = 1, .sh = 2}),
                   MF_INT32, 2, DIMS(1, 4), VALS(4, 5, 6, 7))); /* x[None, 1] */
  CHECK(shape_is(ss(x, 2, VALS(1, 0), VALS(2, 0), VALS(1, 1), (masks){.na = 2, .sh = 1}), 2,
                 DIMS(1, 4))); /* x[1, None] */
  CHECK(shape_is(ss(x, 2, VALS(0, 0), VALS(0, 0), VALS(1, 1), (masks){.ell = 1, .na = 2}), 3,
                 DIMS(3, 4, 1))); /* x[..., None] */
  CHECK(values_are(ss(x, 2, VALS(2, 3), VALS(3, 4), VALS(1, 1), (masks){.sh = 3}), MF_INT32, 0,
                   NULL, VALS(11))); /* x[2, 3] */
  CHECK(values_are(ss(scalar(MF_FLOAT64, 1.5), 1, VALS(0), VALS(0), VALS(1), (masks){.ell = 1}),
                   MF_FLOAT64, 0, NULL, VALS(1.5))); /* s[...] */
  mf_tensor *s = strs(1, DIMS(3), STRS("a", "b", "c"));
  mf_tensor *rs = ss(s, 1, VALS(0), VALS(0), VALS(-1), (masks){.b = 1, .e = 1});
  CHECK(strings_are(rs, 1, DIMS(3), STRS("c", "b", "a")));
  CHECK(rs && MF_DATA(rs, mf_string)[0].ptr != MF_DATA(s, mf_string)[2].ptr);

  CHECK(ss_fails(x, 1, VALS(5), VALS(6), VALS(1), (masks){.sh = 1},
                 "slice index 5 of dimension 0 out of bounds."));
  CHECK(ss_fails(x, 1, VALS(-4), VALS(-3), VALS(1), (masks){.sh = 1},
                 "slice index -1 of dimension 0 out of bounds."));
  CHECK(ss_fails(x, 2, VALS(0, 7), VALS(1, 8), VALS(1, 1), (masks){.sh = 2},
                 "slice index 7 of dimension 1 out of bounds."));
  CHECK(ss_fails(x, 1, VALS(0), VALS(1), VALS(0), (masks){0}, "strides[0] must be non-zero"));
  CHECK(ss_fails(x, 2, VALS(0, 0), VALS(0, 0), VALS(1, 1), (masks){.ell = 3},
                 "Multiple ellipses in slice spec not allowed"));
  CHECK(ss_fails(x, 1, VALS(1), VALS(0), VALS(-1), (masks){.sh = 1},
                 "only stride 1 allowed on non-range indexing."));
  CHECK(ss_fails(x, 3, VALS(0, 0, 0), VALS(1, 1, 1), VALS(1, 1, 1), (masks){0},
                 "Index out of range using input dim 2; input has only 2 dims"));
  mf_attrs none = mask_attrs((masks){0});
  CHECK(fails("StridedSlice", 4, INS(x, ivec(1, VALS(0)), ivec(2, VALS(1, 1)), ivec(1, VALS(1))),
              &none, MF_ERR_INVALID_ARGUMENT,
              "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [1], "
              "[2], and [1] instead."));

  mf_error err;
  mf_spec out;
  mf_spec sx = spec_of(MF_INT32, 2, DIMS(-1, 4)), sv = spec_of(MF_INT32, 1, DIMS(2)),
          s1 = spec_of(MF_INT32, 1, DIMS(1));
  mf_attrs col = mask_attrs((masks){.b = 1, .e = 1, .sh = 2});
  CHECK_OK(infer_vals("StridedSlice", 4, (mf_spec[]){sx, sv, sv, sv},
                      INS(NULL, ivec(2, VALS(0, 1)), ivec(2, VALS(0, 2)), ivec(2, VALS(1, 1))), &col,
                      &out, NULL, &err));
  CHECK(spec_is(&out, 1, DIMS(-1)));
  mf_spec sk = spec_of(MF_INT32, 2, DIMS(3, 4));
  CHECK_OK(infer_vals("StridedSlice", 4, (mf_spec[]){sk, s1, s1, s1},
                      INS(NULL, NULL, NULL, ivec(1, VALS(1))), &none, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 4)));
  CHECK_OK(infer_vals("StridedSlice", 4, (mf_spec[]){sk, s1, s1, s1}, INS(NULL, NULL, NULL, NULL),
                      &none, &out, NULL, &err));
  CHECK(out.rank == -1);
  release_all();
}

static void test_gather(void) {
  mf_tensor *p = tens(MF_FLOAT32, 2, DIMS(3, 2), VALS(1, 2, 3, 4, 5, 6));
  CHECK(values_are(run1("GatherV2", 3, INS(p, ivec(2, VALS(2, 0)), scalar(MF_INT32, 0)), NULL),
                   MF_FLOAT32, 2, DIMS(2, 2), VALS(5, 6, 1, 2)));
  CHECK(values_are(run1("GatherV2", 3, INS(p, ivec(1, VALS(1)), scalar(MF_INT32, -1)), NULL),
                   MF_FLOAT32, 2, DIMS(3, 1), VALS(2, 4, 6)));
  CHECK(values_are(run1("GatherV2", 3,
                        INS(p, tens(MF_INT64, 2, DIMS(2, 2), VALS(0, 1, 2, 0)), scalar(MF_INT64, 0)),
                        NULL),
                   MF_FLOAT32, 3, DIMS(2, 2, 2), VALS(1, 2, 3, 4, 5, 6, 1, 2)));
  CHECK(values_are(run1("GatherV2", 3, INS(p, scalar(MF_INT32, 1), scalar(MF_INT32, 0)), NULL),
                   MF_FLOAT32, 1, DIMS(2), VALS(3, 4)));
  CHECK(shape_is(run1("GatherV2", 3, INS(p, ivec(0, NULL), scalar(MF_INT32, 0)), NULL), 2,
                 DIMS(0, 2)));
  mf_tensor *s = strs(1, DIMS(3), STRS("x", "yy", "zzz"));
  mf_tensor *gs = run1("GatherV2", 3, INS(s, ivec(3, VALS(2, 2, 0)), scalar(MF_INT32, 0)), NULL);
  CHECK(strings_are(gs, 1, DIMS(3), STRS("zzz", "zzz", "x")));
  CHECK(gs && MF_DATA(gs, mf_string)[0].ptr != MF_DATA(gs, mf_string)[1].ptr);
  mf_attrs bd1 = attr_int("batch_dims", 1), bd2 = attr_int("batch_dims", 2);
  mf_tensor *q = tens(MF_INT32, 2, DIMS(2, 3), VALS(1, 2, 3, 4, 5, 6));
  CHECK(values_are(run1("GatherV2", 3,
                        INS(q, tens(MF_INT32, 2, DIMS(2, 2), VALS(2, 0, 1, 1)), scalar(MF_INT32, 1)),
                        &bd1),
                   MF_INT32, 2, DIMS(2, 2), VALS(3, 1, 5, 5)));

  CHECK(fails("GatherV2", 3, INS(tens(MF_FLOAT32, 1, DIMS(3), NULL), ivec(2, VALS(0, 7)),
                                 scalar(MF_INT32, 0)),
              NULL, MF_ERR_INVALID_ARGUMENT, "indices[1] = 7 is not in [0, 3)"));
  CHECK(fails("GatherV2", 3,
              INS(p, tens(MF_INT32, 2, DIMS(2, 2), VALS(0, 1, -1, 0)), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "indices[1,0] = -1 is not in [0, 3)"));
  CHECK(fails("GatherV2", 3, INS(p, ivec(1, VALS(0)), scalar(MF_INT32, 2)), NULL,
              MF_ERR_INVALID_ARGUMENT, "Expected axis in the range [-2, 2), but got 2"));
  CHECK(fails("GatherV2", 3, INS(scalar(MF_FLOAT32, 1), ivec(1, VALS(0)), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "params must be at least 1 dimensional"));
  CHECK(fails("GatherV2", 3, INS(q, tens(MF_INT32, 2, DIMS(2, 1), NULL), scalar(MF_INT32, 0)), &bd1,
              MF_ERR_INVALID_ARGUMENT, "batch_dims (1) must be less than or equal to axis (0)."));
  CHECK(fails("GatherV2", 3, INS(q, tens(MF_INT32, 2, DIMS(2, 1), NULL), scalar(MF_INT32, 1)), &bd2,
              MF_ERR_INVALID_ARGUMENT, "batch_dims (2) must be less than rank(params) (2)."));
  CHECK(fails("GatherV2", 3, INS(q, tens(MF_INT32, 2, DIMS(3, 1), NULL), scalar(MF_INT32, 1)), &bd1,
              MF_ERR_INVALID_ARGUMENT, "params.shape[0]: 2 should be equal to indices.shape[0]: 3"));
  CHECK(fails("GatherV2", 3, INS(p, tens(MF_FLOAT32, 1, DIMS(1), NULL), scalar(MF_INT32, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "int32 or int64"));

  mf_error err;
  mf_spec out;
  mf_spec sp = spec_of(MF_FLOAT32, 2, DIMS(-1, 5)), si = spec_of(MF_INT32, 1, DIMS(7)),
          sa = spec_of(MF_INT32, 0, NULL);
  CHECK_OK(infer_vals("GatherV2", 3, (mf_spec[]){sp, si, sa}, INS(NULL, NULL, scalar(MF_INT32, 0)),
                      NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(7, 5)));
  CHECK_OK(infer_vals("GatherV2", 3, (mf_spec[]){sp, si, sa}, INS(NULL, NULL, NULL), NULL, &out,
                      NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, -1)));
  release_all();
}

static void test_where(void) {
  CHECK(values_are(run1("Where", 1, INS(tens(MF_BOOL, 2, DIMS(2, 2), VALS(1, 0, 0, 1))), NULL),
                   MF_INT64, 2, DIMS(2, 2), VALS(0, 0, 1, 1)));
  CHECK(values_are(run1("Where", 1, INS(tens(MF_FLOAT32, 1, DIMS(4), VALS(0, 2, 0, -1))), NULL),
                   MF_INT64, 2, DIMS(2, 1), VALS(1, 3)));
  CHECK(shape_is(run1("Where", 1, INS(scalar(MF_BOOL, 1)), NULL), 2, DIMS(1, 0)));
  CHECK(shape_is(run1("Where", 1, INS(tens(MF_INT32, 2, DIMS(2, 3), NULL)), NULL), 2, DIMS(0, 2)));
  CHECK(values_are(run1("Where", 1, INS(tens(MF_INT64, 3, DIMS(2, 1, 2), VALS(0, 0, 0, 5))), NULL),
                   MF_INT64, 2, DIMS(1, 3), VALS(1, 0, 1)));
  CHECK(fails("Where", 1, INS(strs(1, DIMS(1), STRS("a"))), NULL, MF_ERR_INVALID_ARGUMENT,
              "numeric or bool"));
  mf_error err;
  mf_spec out;
  int nout;
  mf_spec sx = spec_of(MF_BOOL, 2, DIMS(3, 3));
  CHECK_OK(infer_op("Where", 1, &sx, NULL, &out, 1, &nout, &err));
  CHECK(spec_is(&out, 2, DIMS(-1, 2)) && out.dtype == MF_INT64);
  CHECK(mf_op_lookup("Where")->flags & MF_OP_NO_GRADIENT);
  release_all();
}

static void test_one_hot(void) {
  mf_tensor *ix = ivec(4, VALS(0, 2, -1, 1));
  mf_tensor *on = scalar(MF_FLOAT32, 5), *off = scalar(MF_FLOAT32, -1);
  CHECK(values_are(run1("OneHot", 4, INS(ix, scalar(MF_INT32, 3), on, off), NULL), MF_FLOAT32, 2,
                   DIMS(4, 3), VALS(5, -1, -1, -1, -1, 5, -1, -1, -1, -1, 5, -1)));
  mf_attrs ax0 = attr_int("axis", 0), ax1 = attr_int("axis", 1), ax3 = attr_int("axis", 3);
  CHECK(values_are(run1("OneHot", 4, INS(ix, scalar(MF_INT32, 3), on, off), &ax0), MF_FLOAT32, 2,
                   DIMS(3, 4), VALS(5, -1, -1, -1, -1, -1, -1, 5, -1, 5, -1, -1)));
  mf_tensor *ix2 = tens(MF_INT64, 2, DIMS(2, 2), VALS(0, 1, 1, 0));
  CHECK(values_are(run1("OneHot", 4, INS(ix2, scalar(MF_INT32, 2), scalar(MF_INT32, 1),
                                         scalar(MF_INT32, 0)),
                        &ax1),
                   MF_INT32, 3, DIMS(2, 2, 2), VALS(1, 0, 0, 1, 0, 1, 1, 0)));
  CHECK(strings_are(run1("OneHot", 4, INS(ivec(2, VALS(1, 0)), scalar(MF_INT32, 2),
                                          strs(0, NULL, STRS("on")), strs(0, NULL, STRS("off"))),
                         NULL),
                    2, DIMS(2, 2), STRS("off", "on", "on", "off")));
  CHECK(shape_is(run1("OneHot", 4, INS(ix, scalar(MF_INT32, 0), on, off), NULL), 2, DIMS(4, 0)));
  CHECK(fails("OneHot", 4, INS(ix, scalar(MF_INT32, -1), on, off), NULL, MF_ERR_INVALID_ARGUMENT,
              "depth must be non-negative, got: -1"));
  CHECK(fails("OneHot", 4, INS(ix, scalar(MF_INT32, 3), on, off), &ax3, MF_ERR_INVALID_ARGUMENT,
              "Expected axis to be -1 or between [0, 2).  But received: 3"));
  CHECK(fails("OneHot", 4, INS(ix, scalar(MF_INT32, 3), on, scalar(MF_FLOAT64, 0)), NULL,
              MF_ERR_INVALID_ARGUMENT, "input #3(zero-based)"));
  CHECK(fails("OneHot", 4, INS(ix, scalar(MF_INT32, 3), ivec(1, VALS(1)), ivec(1, VALS(0))), NULL,
              MF_ERR_INVALID_ARGUMENT, "on_value must be a scalar, but got: [1]"));
  mf_error err;
  mf_spec out;
  mf_spec s4 = spec_of(MF_INT32, 1, DIMS(4)), s0 = spec_of(MF_INT32, 0, NULL),
          sf = spec_of(MF_FLOAT32, 0, NULL);
  CHECK_OK(infer_vals("OneHot", 4, (mf_spec[]){s4, s0, sf, sf}, INS(NULL, NULL, NULL, NULL), NULL,
                      &out, NULL, &err));
  CHECK(spec_is(&out, 2, DIMS(4, -1)) && out.dtype == MF_FLOAT32);
  release_all();
}

static void test_segment_sum(void) {
  mf_tensor *data = tens(MF_FLOAT32, 2, DIMS(4, 2), VALS(1, 2, 3, 4, 5, 6, 7, 8));
  CHECK(values_are(run1("UnsortedSegmentSum", 3, INS(data, ivec(4, VALS(0, 2, 0, -1)), scalar(MF_INT32, 3)),
                        NULL),
                   MF_FLOAT32, 2, DIMS(3, 2), VALS(6, 8, 0, 0, 3, 4)));
  CHECK(values_are(run1("UnsortedSegmentSum", 3,
                        INS(tens(MF_INT32, 2, DIMS(2, 2), VALS(1, 2, 3, 4)),
                            tens(MF_INT64, 2, DIMS(2, 2), VALS(1, 0, 1, 1)), scalar(MF_INT64, 2)),
                        NULL),
                   MF_INT32, 1, DIMS(2), VALS(2, 8)));
  CHECK(values_are(run1("UnsortedSegmentSum", 3, INS(tens(MF_FLOAT64, 1, DIMS(0), NULL), ivec(0, NULL),
                                                     scalar(MF_INT32, 2)),
                        NULL),
                   MF_FLOAT64, 1, DIMS(2), VALS(0, 0)));
  CHECK(fails("UnsortedSegmentSum", 3, INS(data, ivec(4, VALS(0, 5, 0, 0)), scalar(MF_INT32, 3)), NULL,
              MF_ERR_INVALID_ARGUMENT, "segment_ids[1] = 5 is out of range [0, 3)"));
  CHECK(fails("UnsortedSegmentSum", 3, INS(data, ivec(3, VALS(0, 0, 0)), scalar(MF_INT32, 3)), NULL,
              MF_ERR_INVALID_ARGUMENT, "data.shape = [4,2] does not start with segment_ids.shape = [3]"));
  CHECK(fails("UnsortedSegmentSum", 3, INS(data, ivec(4, VALS(0, 0, 0, 0)), scalar(MF_INT32, -1)),
              NULL, MF_ERR_INVALID_ARGUMENT, "Input num_segments == -1 must not be negative."));
  mf_error err;
  mf_spec out;
  mf_spec sd = spec_of(MF_FLOAT32, 3, DIMS(-1, 2, 3)), si = spec_of(MF_INT32, 1, DIMS(-1)),
          sn = spec_of(MF_INT32, 0, NULL);
  CHECK_OK(infer_vals("UnsortedSegmentSum", 3, (mf_spec[]){sd, si, sn},
                      INS(NULL, NULL, scalar(MF_INT32, 10)), NULL, &out, NULL, &err));
  CHECK(spec_is(&out, 3, DIMS(10, 2, 3)));
  mf_spec s8 = spec_of(MF_FLOAT32, 8, DIMS(1, 1, 1, 1, 1, 1, 1, 1)), s0 = spec_of(MF_INT32, 0, NULL);
  CHECK(infer_vals("UnsortedSegmentSum", 3, (mf_spec[]){s8, s0, sn}, INS(NULL, NULL, NULL), NULL,
                   &out, NULL, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(!(mf_op_lookup("UnsortedSegmentSum")->flags & MF_OP_NO_GRADIENT));
  release_all();
}

static void test_no_leaks(void) { CHECK(mf_live_bytes() == 0); }

int main(void) {
  RUN(test_slice);
  RUN(test_strided_slice);
  RUN(test_gather);
  RUN(test_where);
  RUN(test_one_hot);
  RUN(test_segment_sum);
  RUN(test_no_leaks);
  return CHECK_DONE();
}
