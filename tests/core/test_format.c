/* test_format.c — the printed forms of format.h and the StringFormat op.
 *
 * The table's expectations were generated with NumPy 1.24.2 — str(a),
 * repr(a) (a NumPy scalar for rank 0, an object array of bytes for
 * strings), TF's `tf.Tensor(...)` / `<tf.Tensor: ...>` wrappers around
 * those — and with a line-by-line Python transcription of TF's
 * Tensor::SummarizeValue(3, print_v2=true) for the tf.print column. Every
 * comparison is character for character. */
#include <stdlib.h>

#include "check.h"
#include "format.h"
#include "op.h"
#include "variable.h"

extern const mf_op_def mf_op_StringFormat;

typedef struct bytes {
  const char *p;
  size_t len;
} bytes;

/* Values come from one of f (floats), i (ints, bools), s (strings); with
 * none of them, element k is k * step (bools: k % 3 == 0). */
typedef struct format_case {
  const char *name;
  mf_dtype dtype;
  int rank;
  int64_t shape[4];
  const double *f;
  const int64_t *i;
  const bytes *s;
  double step;
  const char *expect[5]; /* numpy str, numpy repr, tensor str, tensor repr, tf.print */
} format_case;

static const format_case cases[] = {
    {.name = "int32 vector", .dtype = MF_INT32, .rank = 1, .shape = {2},
     .i = (const int64_t[]){4LL, 1LL},
     .expect = {
         /* numpy_str */ "[4 1]",
         /* numpy_repr */ "array([4, 1], dtype=int32)",
         /* tensor_str */ "tf.Tensor([4 1], shape=(2,), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 1], dtype=int32)>",
         /* tf_print */ "[4 1]",
     }},
    {.name = "int32 matrix", .dtype = MF_INT32, .rank = 2, .shape = {2, 2},
     .i = (const int64_t[]){1LL, 2LL, 3LL, 4LL},
     .expect = {
         /* numpy_str */ "[[1 2]\n"
                         " [3 4]]",
         /* numpy_repr */ "array([[1, 2],\n"
                          "       [3, 4]], dtype=int32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[1 2]\n"
                          " [3 4]], shape=(2, 2), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\n"
                           "array([[1, 2],\n"
                           "       [3, 4]], dtype=int32)>",
         /* tf_print */ "[[1 2]\n"
                        " [3 4]]",
     }},
    {.name = "int32 scalar", .dtype = MF_INT32, .rank = 0, .shape = {0},
     .i = (const int64_t[]){4LL},
     .expect = {
         /* numpy_str */ "4",
         /* numpy_repr */ "4",
         /* tensor_str */ "tf.Tensor(4, shape=(), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=int32, numpy=4>",
         /* tf_print */ "4",
     }},
    {.name = "int32 widths", .dtype = MF_INT32, .rank = 1, .shape = {4},
     .i = (const int64_t[]){-5LL, 10LL, 100LL, 7LL},
     .expect = {
         /* numpy_str */ "[ -5  10 100   7]",
         /* numpy_repr */ "array([ -5,  10, 100,   7], dtype=int32)",
         /* tensor_str */ "tf.Tensor([ -5  10 100   7], shape=(4,), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([ -5,  10, 100,   7], dtype=int32)>",
         /* tf_print */ "[-5 10 100 7]",
     }},
    {.name = "int64 vector", .dtype = MF_INT64, .rank = 1, .shape = {2},
     .i = (const int64_t[]){1LL, 2LL},
     .expect = {
         /* numpy_str */ "[1 2]",
         /* numpy_repr */ "array([1, 2])",
         /* tensor_str */ "tf.Tensor([1 2], shape=(2,), dtype=int64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 2])>",
         /* tf_print */ "[1 2]",
     }},
    {.name = "int64 extremes", .dtype = MF_INT64, .rank = 1, .shape = {3},
     .i = (const int64_t[]){INT64_MIN, 9223372036854775807LL, 0LL},
     .expect = {
         /* numpy_str */ "[-9223372036854775808  9223372036854775807                    0]",
         /* numpy_repr */ "array([-9223372036854775808,  9223372036854775807,                    0])",
         /* tensor_str */ "tf.Tensor([-9223372036854775808  9223372036854775807                    0], shape=(3,), dtype=int64)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=int64, numpy=array([-9223372036854775808,  9223372036854775807,                    0])>",
         /* tf_print */ "[-9223372036854775808 9223372036854775807 0]",
     }},
    {.name = "float32 scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.19999a0000000p+1},
     .expect = {
         /* numpy_str */ "2.2",
         /* numpy_repr */ "2.2",
         /* tensor_str */ "tf.Tensor(2.2, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=2.2>",
         /* tf_print */ "2.2",
     }},
    {.name = "float32 maxprec padding", .dtype = MF_FLOAT32, .rank = 1, .shape = {3},
     .f = (const double[]){0x1.8000000000000p+0, 0x1.0000000000000p+1, 0x1.a000000000000p+1},
     .expect = {
         /* numpy_str */ "[1.5  2.   3.25]",
         /* numpy_repr */ "array([1.5 , 2.  , 3.25], dtype=float32)",
         /* tensor_str */ "tf.Tensor([1.5  2.   3.25], shape=(3,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1.5 , 2.  , 3.25], dtype=float32)>",
         /* tf_print */ "[1.5 2 3.25]",
     }},
    {.name = "float32 2x2", .dtype = MF_FLOAT32, .rank = 2, .shape = {2, 2},
     .f = (const double[]){0x1.0000000000000p+1, 0x1.0000000000000p+1, 0x1.0000000000000p+1, 0x1.0000000000000p+1},
     .expect = {
         /* numpy_str */ "[[2. 2.]\n"
                         " [2. 2.]]",
         /* numpy_repr */ "array([[2., 2.],\n"
                          "       [2., 2.]], dtype=float32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[2. 2.]\n"
                          " [2. 2.]], shape=(2, 2), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                           "array([[2., 2.],\n"
                           "       [2., 2.]], dtype=float32)>",
         /* tf_print */ "[[2 2]\n"
                        " [2 2]]",
     }},
    {.name = "float32 scientific", .dtype = MF_FLOAT32, .rank = 1, .shape = {2},
     .f = (const double[]){0.0, 0x1.4f8b580000000p-17},
     .expect = {
         /* numpy_str */ "[0.e+00 1.e-05]",
         /* numpy_repr */ "array([0.e+00, 1.e-05], dtype=float32)",
         /* tensor_str */ "tf.Tensor([0.e+00 1.e-05], shape=(2,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.e+00, 1.e-05], dtype=float32)>",
         /* tf_print */ "[0 1e-05]",
     }},
    {.name = "float32 1e-4 is scientific", .dtype = MF_FLOAT32, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.a36e2e0000000p-14, 0x1.0000000000000p-1},
     .expect = {
         /* numpy_str */ "[1.e-04 5.e-01]",
         /* numpy_repr */ "array([1.e-04, 5.e-01], dtype=float32)",
         /* tensor_str */ "tf.Tensor([1.e-04 5.e-01], shape=(2,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.e-04, 5.e-01], dtype=float32)>",
         /* tf_print */ "[0.0001 0.5]",
     }},
    {.name = "float32 shortest", .dtype = MF_FLOAT32, .rank = 1, .shape = {4},
     .f = (const double[]){0x1.99999a0000000p-4, 0x1.99999a0000000p-3, 0x1.3333340000000p-2, 0x1.5555560000000p-2},
     .expect = {
         /* numpy_str */ "[0.1        0.2        0.3        0.33333334]",
         /* numpy_repr */ "array([0.1       , 0.2       , 0.3       , 0.33333334], dtype=float32)",
         /* tensor_str */ "tf.Tensor([0.1        0.2        0.3        0.33333334], shape=(4,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0.1       , 0.2       , 0.3       , 0.33333334], dtype=float32)>",
         /* tf_print */ "[0.1 0.2 0.3 0.333333343]",
     }},
    {.name = "float32 integer digits exact", .dtype = MF_FLOAT32, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.ea96600000000p+25, 0x1.0000000000000p+0},
     .expect = {
         /* numpy_str */ "[6.430227e+07 1.000000e+00]",
         /* numpy_repr */ "array([6.430227e+07, 1.000000e+00], dtype=float32)",
         /* tensor_str */ "tf.Tensor([6.430227e+07 1.000000e+00], shape=(2,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([6.430227e+07, 1.000000e+00], dtype=float32)>",
         /* tf_print */ "[64302272 1]",
     }},
    {.name = "float32 nan inf", .dtype = MF_FLOAT32, .rank = 1, .shape = {3},
     .f = (const double[]){NAN, 0x1.8000000000000p+0, -INFINITY},
     .expect = {
         /* numpy_str */ "[ nan  1.5 -inf]",
         /* numpy_repr */ "array([ nan,  1.5, -inf], dtype=float32)",
         /* tensor_str */ "tf.Tensor([ nan  1.5 -inf], shape=(3,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ nan,  1.5, -inf], dtype=float32)>",
         /* tf_print */ "[nan 1.5 -inf]",
     }},
    {.name = "float32 all nonfinite", .dtype = MF_FLOAT32, .rank = 1, .shape = {2},
     .f = (const double[]){NAN, INFINITY},
     .expect = {
         /* numpy_str */ "[nan inf]",
         /* numpy_repr */ "array([nan, inf], dtype=float32)",
         /* tensor_str */ "tf.Tensor([nan inf], shape=(2,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([nan, inf], dtype=float32)>",
         /* tf_print */ "[nan inf]",
     }},
    {.name = "float32 negative zero scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){-0.0},
     .expect = {
         /* numpy_str */ "-0.0",
         /* numpy_repr */ "-0.0",
         /* tensor_str */ "tf.Tensor(-0.0, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=-0.0>",
         /* tf_print */ "-0",
     }},
    {.name = "float32 nan scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){NAN},
     .expect = {
         /* numpy_str */ "nan",
         /* numpy_repr */ "nan",
         /* tensor_str */ "tf.Tensor(nan, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=nan>",
         /* tf_print */ "nan",
     }},
    {.name = "float32 inf scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){-INFINITY},
     .expect = {
         /* numpy_str */ "-inf",
         /* numpy_repr */ "-inf",
         /* tensor_str */ "tf.Tensor(-inf, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=-inf>",
         /* tf_print */ "-inf",
     }},
    {.name = "float32 small scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.a36e2e0000000p-14},
     .expect = {
         /* numpy_str */ "1e-04",
         /* numpy_repr */ "1e-04",
         /* tensor_str */ "tf.Tensor(1e-04, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=1e-04>",
         /* tf_print */ "0.0001",
     }},
    {.name = "float32 large scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.ea96600000000p+25},
     .expect = {
         /* numpy_str */ "64302270.0",
         /* numpy_repr */ "64302270.0",
         /* tensor_str */ "tf.Tensor(64302270.0, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=64302270.0>",
         /* tf_print */ "64302272",
     }},
    {.name = "float32 1e16 scalar", .dtype = MF_FLOAT32, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.1c37940000000p+53},
     .expect = {
         /* numpy_str */ "1e+16",
         /* numpy_repr */ "1e+16",
         /* tensor_str */ "tf.Tensor(1e+16, shape=(), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float32, numpy=1e+16>",
         /* tf_print */ "1e+16",
     }},
    {.name = "float32 mixed signs", .dtype = MF_FLOAT32, .rank = 1, .shape = {3},
     .f = (const double[]){-0x1.4000000000000p+0, 0x1.0000000000000p-1, 0x1.9000000000000p+6},
     .expect = {
         /* numpy_str */ "[ -1.25   0.5  100.  ]",
         /* numpy_repr */ "array([ -1.25,   0.5 , 100.  ], dtype=float32)",
         /* tensor_str */ "tf.Tensor([ -1.25   0.5  100.  ], shape=(3,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ -1.25,   0.5 , 100.  ], dtype=float32)>",
         /* tf_print */ "[-1.25 0.5 100]",
     }},
    {.name = "float32 min digits exact", .dtype = MF_FLOAT32, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.b435260000000p-17, 0x1.9e40940000000p-17},
     .expect = {
         /* numpy_str */ "[1.3000000e-05 1.2345679e-05]",
         /* numpy_repr */ "array([1.3000000e-05, 1.2345679e-05], dtype=float32)",
         /* tensor_str */ "tf.Tensor([1.3000000e-05 1.2345679e-05], shape=(2,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.3000000e-05, 1.2345679e-05], dtype=float32)>",
         /* tf_print */ "[1.3e-05 1.23456794e-05]",
     }},
    {.name = "float64 vector", .dtype = MF_FLOAT64, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.0000000000000p+0, 0x1.0000000000000p+1},
     .expect = {
         /* numpy_str */ "[1. 2.]",
         /* numpy_repr */ "array([1., 2.])",
         /* tensor_str */ "tf.Tensor([1. 2.], shape=(2,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1., 2.])>",
         /* tf_print */ "[1 2]",
     }},
    {.name = "float64 negative zero", .dtype = MF_FLOAT64, .rank = 1, .shape = {2},
     .f = (const double[]){-0.0, 0x1.0000000000000p+0},
     .expect = {
         /* numpy_str */ "[-0.  1.]",
         /* numpy_repr */ "array([-0.,  1.])",
         /* tensor_str */ "tf.Tensor([-0.  1.], shape=(2,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([-0.,  1.])>",
         /* tf_print */ "[-0 1]",
     }},
    {.name = "float64 mixed magnitudes", .dtype = MF_FLOAT64, .rank = 1, .shape = {3},
     .f = (const double[]){0x1.0624dd2f1a9fcp-10, 0x1.0000000000000p+0, 0x1.86a0000000000p+16},
     .expect = {
         /* numpy_str */ "[1.e-03 1.e+00 1.e+05]",
         /* numpy_repr */ "array([1.e-03, 1.e+00, 1.e+05])",
         /* tensor_str */ "tf.Tensor([1.e-03 1.e+00 1.e+05], shape=(3,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float64, numpy=array([1.e-03, 1.e+00, 1.e+05])>",
         /* tf_print */ "[0.001 1 100000]",
     }},
    {.name = "float64 ratio", .dtype = MF_FLOAT64, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.e240c9fbe76c9p+16, 0x1.0624dd2f1a9fcp-10},
     .expect = {
         /* numpy_str */ "[1.23456789e+05 1.00000000e-03]",
         /* numpy_repr */ "array([1.23456789e+05, 1.00000000e-03])",
         /* tensor_str */ "tf.Tensor([1.23456789e+05 1.00000000e-03], shape=(2,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1.23456789e+05, 1.00000000e-03])>",
         /* tf_print */ "[123456.789 0.001]",
     }},
    {.name = "float64 large", .dtype = MF_FLOAT64, .rank = 1, .shape = {2},
     .f = (const double[]){0x1.7d78400000000p+26, 0x1.4000000000000p+1},
     .expect = {
         /* numpy_str */ "[1.0e+08 2.5e+00]",
         /* numpy_repr */ "array([1.0e+08, 2.5e+00])",
         /* tensor_str */ "tf.Tensor([1.0e+08 2.5e+00], shape=(2,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1.0e+08, 2.5e+00])>",
         /* tf_print */ "[100000000 2.5]",
     }},
    {.name = "float64 huge exponent", .dtype = MF_FLOAT64, .rank = 1, .shape = {3},
     .f = (const double[]){0x1.56e1fc2f8f359p-997, 0x1.7e43c8800759cp+996, 0x1.0000000000000p+0},
     .expect = {
         /* numpy_str */ "[1.e-300 1.e+300 1.e+000]",
         /* numpy_repr */ "array([1.e-300, 1.e+300, 1.e+000])",
         /* tensor_str */ "tf.Tensor([1.e-300 1.e+300 1.e+000], shape=(3,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float64, numpy=array([1.e-300, 1.e+300, 1.e+000])>",
         /* tf_print */ "[1e-300 1e+300 1]",
     }},
    {.name = "float64 precision 8", .dtype = MF_FLOAT64, .rank = 1, .shape = {3},
     .f = (const double[]){0x1.5555555555555p-2, 0x1.5555555555555p-1, 0x1.4000000000000p+3},
     .expect = {
         /* numpy_str */ "[ 0.33333333  0.66666667 10.        ]",
         /* numpy_repr */ "array([ 0.33333333,  0.66666667, 10.        ])",
         /* tensor_str */ "tf.Tensor([ 0.33333333  0.66666667 10.        ], shape=(3,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(3,), dtype=float64, numpy=array([ 0.33333333,  0.66666667, 10.        ])>",
         /* tf_print */ "[0.33333333333333331 0.66666666666666663 10]",
     }},
    {.name = "float64 scalar third", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.5555555555555p-2},
     .expect = {
         /* numpy_str */ "0.3333333333333333",
         /* numpy_repr */ "0.3333333333333333",
         /* tensor_str */ "tf.Tensor(0.3333333333333333, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=0.3333333333333333>",
         /* tf_print */ "0.33333333333333331",
     }},
    {.name = "float64 scalar 1e16", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.1c37937e08000p+53},
     .expect = {
         /* numpy_str */ "1e+16",
         /* numpy_repr */ "1e+16",
         /* tensor_str */ "tf.Tensor(1e+16, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=1e+16>",
         /* tf_print */ "1e+16",
     }},
    {.name = "float64 scalar 1e15", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.c6bf526340000p+49},
     .expect = {
         /* numpy_str */ "1000000000000000.0",
         /* numpy_repr */ "1000000000000000.0",
         /* tensor_str */ "tf.Tensor(1000000000000000.0, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=1000000000000000.0>",
         /* tf_print */ "1e+15",
     }},
    {.name = "float64 scalar 1e-5", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.4f8b588e368f1p-17},
     .expect = {
         /* numpy_str */ "1e-05",
         /* numpy_repr */ "1e-05",
         /* tensor_str */ "tf.Tensor(1e-05, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=1e-05>",
         /* tf_print */ "1e-05",
     }},
    {.name = "float64 scalar 0.1", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.999999999999ap-4},
     .expect = {
         /* numpy_str */ "0.1",
         /* numpy_repr */ "0.1",
         /* tensor_str */ "tf.Tensor(0.1, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=0.1>",
         /* tf_print */ "0.1",
     }},
    {.name = "float64 scalar 123", .dtype = MF_FLOAT64, .rank = 0, .shape = {0},
     .f = (const double[]){0x1.ec00000000000p+6},
     .expect = {
         /* numpy_str */ "123.0",
         /* numpy_repr */ "123.0",
         /* tensor_str */ "tf.Tensor(123.0, shape=(), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=float64, numpy=123.0>",
         /* tf_print */ "123",
     }},
    {.name = "float64 pi columns", .dtype = MF_FLOAT64, .rank = 2, .shape = {2, 2},
     .f = (const double[]){0x1.921fb54442d18p+1, -0x1.5bf0a8b145769p+1, 0x1.df5e7689309b6p+24, 0.0},
     .expect = {
         /* numpy_str */ "[[ 3.14159265e+00 -2.71828183e+00]\n"
                         " [ 3.14159265e+07  0.00000000e+00]]",
         /* numpy_repr */ "array([[ 3.14159265e+00, -2.71828183e+00],\n"
                          "       [ 3.14159265e+07,  0.00000000e+00]])",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[ 3.14159265e+00 -2.71828183e+00]\n"
                          " [ 3.14159265e+07  0.00000000e+00]], shape=(2, 2), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2), dtype=float64, numpy=\n"
                           "array([[ 3.14159265e+00, -2.71828183e+00],\n"
                           "       [ 3.14159265e+07,  0.00000000e+00]])>",
         /* tf_print */ "[[3.1415926535897931 -2.7182818284590451]\n"
                        " [31415926.535897933 0]]",
     }},
    {.name = "bool vector", .dtype = MF_BOOL, .rank = 1, .shape = {2},
     .i = (const int64_t[]){1, 0},
     .expect = {
         /* numpy_str */ "[ True False]",
         /* numpy_repr */ "array([ True, False])",
         /* tensor_str */ "tf.Tensor([ True False], shape=(2,), dtype=bool)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>",
         /* tf_print */ "[1 0]",
     }},
    {.name = "bool scalar", .dtype = MF_BOOL, .rank = 0, .shape = {0},
     .i = (const int64_t[]){1},
     .expect = {
         /* numpy_str */ "True",
         /* numpy_repr */ "True",
         /* tensor_str */ "tf.Tensor(True, shape=(), dtype=bool)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=bool, numpy=True>",
         /* tf_print */ "1",
     }},
    {.name = "bool matrix", .dtype = MF_BOOL, .rank = 2, .shape = {2, 2},
     .i = (const int64_t[]){0, 1, 1, 1},
     .expect = {
         /* numpy_str */ "[[False  True]\n"
                         " [ True  True]]",
         /* numpy_repr */ "array([[False,  True],\n"
                          "       [ True,  True]])",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[False  True]\n"
                          " [ True  True]], shape=(2, 2), dtype=bool)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2), dtype=bool, numpy=\n"
                           "array([[False,  True],\n"
                           "       [ True,  True]])>",
         /* tf_print */ "[[0 1]\n"
                        " [1 1]]",
     }},
    {.name = "float32 3-d", .dtype = MF_FLOAT32, .rank = 3, .shape = {2, 2, 2},
     .f = (const double[]){-0x1.c000000000000p+1, -0x1.4000000000000p+1, -0x1.8000000000000p+0, -0x1.0000000000000p-1, 0x1.0000000000000p-1, 0x1.8000000000000p+0, 0x1.4000000000000p+1, 0x1.c000000000000p+1},
     .expect = {
         /* numpy_str */ "[[[-3.5 -2.5]\n"
                         "  [-1.5 -0.5]]\n"
                         "\n"
                         " [[ 0.5  1.5]\n"
                         "  [ 2.5  3.5]]]",
         /* numpy_repr */ "array([[[-3.5, -2.5],\n"
                          "        [-1.5, -0.5]],\n"
                          "\n"
                          "       [[ 0.5,  1.5],\n"
                          "        [ 2.5,  3.5]]], dtype=float32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[[-3.5 -2.5]\n"
                          "  [-1.5 -0.5]]\n"
                          "\n"
                          " [[ 0.5  1.5]\n"
                          "  [ 2.5  3.5]]], shape=(2, 2, 2), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2, 2), dtype=float32, numpy=\n"
                           "array([[[-3.5, -2.5],\n"
                           "        [-1.5, -0.5]],\n"
                           "\n"
                           "       [[ 0.5,  1.5],\n"
                           "        [ 2.5,  3.5]]], dtype=float32)>",
         /* tf_print */ "[[[-3.5 -2.5]\n"
                        "  [-1.5 -0.5]]\n"
                        "\n"
                        " [[0.5 1.5]\n"
                        "  [2.5 3.5]]]",
     }},
    {.name = "int32 3-d", .dtype = MF_INT32, .rank = 3, .shape = {2, 3, 4},
     .i = (const int64_t[]){0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL, 23LL},
     .expect = {
         /* numpy_str */ "[[[ 0  1  2  3]\n"
                         "  [ 4  5  6  7]\n"
                         "  [ 8  9 10 11]]\n"
                         "\n"
                         " [[12 13 14 15]\n"
                         "  [16 17 18 19]\n"
                         "  [20 21 22 23]]]",
         /* numpy_repr */ "array([[[ 0,  1,  2,  3],\n"
                          "        [ 4,  5,  6,  7],\n"
                          "        [ 8,  9, 10, 11]],\n"
                          "\n"
                          "       [[12, 13, 14, 15],\n"
                          "        [16, 17, 18, 19],\n"
                          "        [20, 21, 22, 23]]], dtype=int32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[[ 0  1  2  3]\n"
                          "  [ 4  5  6  7]\n"
                          "  [ 8  9 10 11]]\n"
                          "\n"
                          " [[12 13 14 15]\n"
                          "  [16 17 18 19]\n"
                          "  [20 21 22 23]]], shape=(2, 3, 4), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 3, 4), dtype=int32, numpy=\n"
                           "array([[[ 0,  1,  2,  3],\n"
                           "        [ 4,  5,  6,  7],\n"
                           "        [ 8,  9, 10, 11]],\n"
                           "\n"
                           "       [[12, 13, 14, 15],\n"
                           "        [16, 17, 18, 19],\n"
                           "        [20, 21, 22, 23]]], dtype=int32)>",
         /* tf_print */ "[[[0 1 2 3]\n"
                        "  [4 5 6 7]\n"
                        "  [8 9 10 11]]\n"
                        "\n"
                        " [[12 13 14 15]\n"
                        "  [16 17 18 19]\n"
                        "  [20 21 22 23]]]",
     }},
    {.name = "int32 4-d", .dtype = MF_INT32, .rank = 4, .shape = {2, 2, 2, 2},
     .i = (const int64_t[]){0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL},
     .expect = {
         /* numpy_str */ "[[[[ 0  1]\n"
                         "   [ 2  3]]\n"
                         "\n"
                         "  [[ 4  5]\n"
                         "   [ 6  7]]]\n"
                         "\n"
                         "\n"
                         " [[[ 8  9]\n"
                         "   [10 11]]\n"
                         "\n"
                         "  [[12 13]\n"
                         "   [14 15]]]]",
         /* numpy_repr */ "array([[[[ 0,  1],\n"
                          "         [ 2,  3]],\n"
                          "\n"
                          "        [[ 4,  5],\n"
                          "         [ 6,  7]]],\n"
                          "\n"
                          "\n"
                          "       [[[ 8,  9],\n"
                          "         [10, 11]],\n"
                          "\n"
                          "        [[12, 13],\n"
                          "         [14, 15]]]], dtype=int32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[[[ 0  1]\n"
                          "   [ 2  3]]\n"
                          "\n"
                          "  [[ 4  5]\n"
                          "   [ 6  7]]]\n"
                          "\n"
                          "\n"
                          " [[[ 8  9]\n"
                          "   [10 11]]\n"
                          "\n"
                          "  [[12 13]\n"
                          "   [14 15]]]], shape=(2, 2, 2, 2), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2, 2, 2), dtype=int32, numpy=\n"
                           "array([[[[ 0,  1],\n"
                           "         [ 2,  3]],\n"
                           "\n"
                           "        [[ 4,  5],\n"
                           "         [ 6,  7]]],\n"
                           "\n"
                           "\n"
                           "       [[[ 8,  9],\n"
                           "         [10, 11]],\n"
                           "\n"
                           "        [[12, 13],\n"
                           "         [14, 15]]]], dtype=int32)>",
         /* tf_print */ "[[[[0 1]\n"
                        "   [2 3]]\n"
                        "\n"
                        "  [[4 5]\n"
                        "   [6 7]]]\n"
                        "\n"
                        "\n"
                        " [[[8 9]\n"
                        "   [10 11]]\n"
                        "\n"
                        "  [[12 13]\n"
                        "   [14 15]]]]",
     }},
    {.name = "float32 wraps at 75", .dtype = MF_FLOAT32, .rank = 1, .shape = {30},
     .f = (const double[]){0.0, 0x1.19999a0000000p+0, 0x1.19999a0000000p+1, 0x1.a666680000000p+1, 0x1.19999a0000000p+2, 0x1.6000000000000p+2, 0x1.a666680000000p+2, 0x1.ecccce0000000p+2, 0x1.19999a0000000p+3, 0x1.3cccce0000000p+3, 0x1.6000000000000p+3, 0x1.8333340000000p+3, 0x1.a666680000000p+3, 0x1.c9999a0000000p+3, 0x1.ecccce0000000p+3, 0x1.0800000000000p+4, 0x1.19999a0000000p+4, 0x1.2b33340000000p+4, 0x1.3cccce0000000p+4, 0x1.4e66660000000p+4, 0x1.6000000000000p+4, 0x1.71999a0000000p+4, 0x1.8333340000000p+4, 0x1.94ccce0000000p+4, 0x1.a666680000000p+4, 0x1.b800000000000p+4, 0x1.c9999a0000000p+4, 0x1.db33340000000p+4, 0x1.ecccce0000000p+4, 0x1.fe66680000000p+4},
     .expect = {
         /* numpy_str */ "[ 0.         1.1        2.2        3.3000002  4.4        5.5\n"
                         "  6.6000004  7.7000003  8.8        9.900001  11.        12.1\n"
                         " 13.200001  14.3       15.400001  16.5       17.6       18.7\n"
                         " 19.800001  20.9       22.        23.1       24.2       25.300001\n"
                         " 26.400002  27.5       28.6       29.7       30.800001  31.900002 ]",
         /* numpy_repr */ "array([ 0.       ,  1.1      ,  2.2      ,  3.3000002,  4.4      ,\n"
                          "        5.5      ,  6.6000004,  7.7000003,  8.8      ,  9.900001 ,\n"
                          "       11.       , 12.1      , 13.200001 , 14.3      , 15.400001 ,\n"
                          "       16.5      , 17.6      , 18.7      , 19.800001 , 20.9      ,\n"
                          "       22.       , 23.1      , 24.2      , 25.300001 , 26.400002 ,\n"
                          "       27.5      , 28.6      , 29.7      , 30.800001 , 31.900002 ],\n"
                          "      dtype=float32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[ 0.         1.1        2.2        3.3000002  4.4        5.5\n"
                          "  6.6000004  7.7000003  8.8        9.900001  11.        12.1\n"
                          " 13.200001  14.3       15.400001  16.5       17.6       18.7\n"
                          " 19.800001  20.9       22.        23.1       24.2       25.300001\n"
                          " 26.400002  27.5       28.6       29.7       30.800001  31.900002 ], shape=(30,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(30,), dtype=float32, numpy=\n"
                           "array([ 0.       ,  1.1      ,  2.2      ,  3.3000002,  4.4      ,\n"
                           "        5.5      ,  6.6000004,  7.7000003,  8.8      ,  9.900001 ,\n"
                           "       11.       , 12.1      , 13.200001 , 14.3      , 15.400001 ,\n"
                           "       16.5      , 17.6      , 18.7      , 19.800001 , 20.9      ,\n"
                           "       22.       , 23.1      , 24.2      , 25.300001 , 26.400002 ,\n"
                           "       27.5      , 28.6      , 29.7      , 30.800001 , 31.900002 ],\n"
                           "      dtype=float32)>",
         /* tf_print */ "[0 1.1 2.2 ... 29.7 30.8000011 31.9000015]",
     }},
    {.name = "float64 rows wrap", .dtype = MF_FLOAT64, .rank = 2, .shape = {2, 20},
     .f = (const double[]){0x1.f400000000000p+9, 0x1.f410000000000p+9, 0x1.f420000000000p+9, 0x1.f430000000000p+9, 0x1.f440000000000p+9, 0x1.f450000000000p+9, 0x1.f460000000000p+9, 0x1.f470000000000p+9, 0x1.f480000000000p+9, 0x1.f490000000000p+9, 0x1.f4a0000000000p+9, 0x1.f4b0000000000p+9, 0x1.f4c0000000000p+9, 0x1.f4d0000000000p+9, 0x1.f4e0000000000p+9, 0x1.f4f0000000000p+9, 0x1.f500000000000p+9, 0x1.f510000000000p+9, 0x1.f520000000000p+9, 0x1.f530000000000p+9, 0x1.f540000000000p+9, 0x1.f550000000000p+9, 0x1.f560000000000p+9, 0x1.f570000000000p+9, 0x1.f580000000000p+9, 0x1.f590000000000p+9, 0x1.f5a0000000000p+9, 0x1.f5b0000000000p+9, 0x1.f5c0000000000p+9, 0x1.f5d0000000000p+9, 0x1.f5e0000000000p+9, 0x1.f5f0000000000p+9, 0x1.f600000000000p+9, 0x1.f610000000000p+9, 0x1.f620000000000p+9, 0x1.f630000000000p+9, 0x1.f640000000000p+9, 0x1.f650000000000p+9, 0x1.f660000000000p+9, 0x1.f670000000000p+9},
     .expect = {
         /* numpy_str */ "[[1000.    1000.125 1000.25  1000.375 1000.5   1000.625 1000.75  1000.875\n"
                         "  1001.    1001.125 1001.25  1001.375 1001.5   1001.625 1001.75  1001.875\n"
                         "  1002.    1002.125 1002.25  1002.375]\n"
                         " [1002.5   1002.625 1002.75  1002.875 1003.    1003.125 1003.25  1003.375\n"
                         "  1003.5   1003.625 1003.75  1003.875 1004.    1004.125 1004.25  1004.375\n"
                         "  1004.5   1004.625 1004.75  1004.875]]",
         /* numpy_repr */ "array([[1000.   , 1000.125, 1000.25 , 1000.375, 1000.5  , 1000.625,\n"
                          "        1000.75 , 1000.875, 1001.   , 1001.125, 1001.25 , 1001.375,\n"
                          "        1001.5  , 1001.625, 1001.75 , 1001.875, 1002.   , 1002.125,\n"
                          "        1002.25 , 1002.375],\n"
                          "       [1002.5  , 1002.625, 1002.75 , 1002.875, 1003.   , 1003.125,\n"
                          "        1003.25 , 1003.375, 1003.5  , 1003.625, 1003.75 , 1003.875,\n"
                          "        1004.   , 1004.125, 1004.25 , 1004.375, 1004.5  , 1004.625,\n"
                          "        1004.75 , 1004.875]])",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[1000.    1000.125 1000.25  1000.375 1000.5   1000.625 1000.75  1000.875\n"
                          "  1001.    1001.125 1001.25  1001.375 1001.5   1001.625 1001.75  1001.875\n"
                          "  1002.    1002.125 1002.25  1002.375]\n"
                          " [1002.5   1002.625 1002.75  1002.875 1003.    1003.125 1003.25  1003.375\n"
                          "  1003.5   1003.625 1003.75  1003.875 1004.    1004.125 1004.25  1004.375\n"
                          "  1004.5   1004.625 1004.75  1004.875]], shape=(2, 20), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 20), dtype=float64, numpy=\n"
                           "array([[1000.   , 1000.125, 1000.25 , 1000.375, 1000.5  , 1000.625,\n"
                           "        1000.75 , 1000.875, 1001.   , 1001.125, 1001.25 , 1001.375,\n"
                           "        1001.5  , 1001.625, 1001.75 , 1001.875, 1002.   , 1002.125,\n"
                           "        1002.25 , 1002.375],\n"
                           "       [1002.5  , 1002.625, 1002.75 , 1002.875, 1003.   , 1003.125,\n"
                           "        1003.25 , 1003.375, 1003.5  , 1003.625, 1003.75 , 1003.875,\n"
                           "        1004.   , 1004.125, 1004.25 , 1004.375, 1004.5  , 1004.625,\n"
                           "        1004.75 , 1004.875]])>",
         /* tf_print */ "[[1000 1000.125 1000.25 ... 1002.125 1002.25 1002.375]\n"
                        " [1002.5 1002.625 1002.75 ... 1004.625 1004.75 1004.875]]",
     }},
    {.name = "int64 long row", .dtype = MF_INT64, .rank = 1, .shape = {40},
     .i = (const int64_t[]){0LL, 1000003LL, 2000006LL, 3000009LL, 4000012LL, 5000015LL, 6000018LL, 7000021LL, 8000024LL, 9000027LL, 10000030LL, 11000033LL, 12000036LL, 13000039LL, 14000042LL, 15000045LL, 16000048LL, 17000051LL, 18000054LL, 19000057LL, 20000060LL, 21000063LL, 22000066LL, 23000069LL, 24000072LL, 25000075LL, 26000078LL, 27000081LL, 28000084LL, 29000087LL, 30000090LL, 31000093LL, 32000096LL, 33000099LL, 34000102LL, 35000105LL, 36000108LL, 37000111LL, 38000114LL, 39000117LL},
     .expect = {
         /* numpy_str */ "[       0  1000003  2000006  3000009  4000012  5000015  6000018  7000021\n"
                         "  8000024  9000027 10000030 11000033 12000036 13000039 14000042 15000045\n"
                         " 16000048 17000051 18000054 19000057 20000060 21000063 22000066 23000069\n"
                         " 24000072 25000075 26000078 27000081 28000084 29000087 30000090 31000093\n"
                         " 32000096 33000099 34000102 35000105 36000108 37000111 38000114 39000117]",
         /* numpy_repr */ "array([       0,  1000003,  2000006,  3000009,  4000012,  5000015,\n"
                          "        6000018,  7000021,  8000024,  9000027, 10000030, 11000033,\n"
                          "       12000036, 13000039, 14000042, 15000045, 16000048, 17000051,\n"
                          "       18000054, 19000057, 20000060, 21000063, 22000066, 23000069,\n"
                          "       24000072, 25000075, 26000078, 27000081, 28000084, 29000087,\n"
                          "       30000090, 31000093, 32000096, 33000099, 34000102, 35000105,\n"
                          "       36000108, 37000111, 38000114, 39000117])",
         /* tensor_str */ "tf.Tensor(\n"
                          "[       0  1000003  2000006  3000009  4000012  5000015  6000018  7000021\n"
                          "  8000024  9000027 10000030 11000033 12000036 13000039 14000042 15000045\n"
                          " 16000048 17000051 18000054 19000057 20000060 21000063 22000066 23000069\n"
                          " 24000072 25000075 26000078 27000081 28000084 29000087 30000090 31000093\n"
                          " 32000096 33000099 34000102 35000105 36000108 37000111 38000114 39000117], shape=(40,), dtype=int64)",
         /* tensor_repr */ "<tf.Tensor: shape=(40,), dtype=int64, numpy=\n"
                           "array([       0,  1000003,  2000006,  3000009,  4000012,  5000015,\n"
                           "        6000018,  7000021,  8000024,  9000027, 10000030, 11000033,\n"
                           "       12000036, 13000039, 14000042, 15000045, 16000048, 17000051,\n"
                           "       18000054, 19000057, 20000060, 21000063, 22000066, 23000069,\n"
                           "       24000072, 25000075, 26000078, 27000081, 28000084, 29000087,\n"
                           "       30000090, 31000093, 32000096, 33000099, 34000102, 35000105,\n"
                           "       36000108, 37000111, 38000114, 39000117])>",
         /* tf_print */ "[0 1000003 2000006 ... 37000111 38000114 39000117]",
     }},
    {.name = "float32 empty", .dtype = MF_FLOAT32, .rank = 1, .shape = {0},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], dtype=float32)",
         /* tensor_str */ "tf.Tensor([], shape=(0,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>",
         /* tf_print */ "[]",
     }},
    {.name = "float32 empty 0x3", .dtype = MF_FLOAT32, .rank = 2, .shape = {0, 3},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], shape=(0, 3), dtype=float32)",
         /* tensor_str */ "tf.Tensor([], shape=(0, 3), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(0, 3), dtype=float32, numpy=array([], shape=(0, 3), dtype=float32)>",
         /* tf_print */ "[]",
     }},
    {.name = "float64 empty", .dtype = MF_FLOAT64, .rank = 1, .shape = {0},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], dtype=float64)",
         /* tensor_str */ "tf.Tensor([], shape=(0,), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(0,), dtype=float64, numpy=array([], dtype=float64)>",
         /* tf_print */ "[]",
     }},
    {.name = "int32 empty 2x0x4", .dtype = MF_INT32, .rank = 3, .shape = {2, 0, 4},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], shape=(2, 0, 4), dtype=int32)",
         /* tensor_str */ "tf.Tensor([], shape=(2, 0, 4), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 0, 4), dtype=int32, numpy=array([], shape=(2, 0, 4), dtype=int32)>",
         /* tf_print */ "[\n"
                        "\n"
                        " ...]",
     }},
    {.name = "bool empty", .dtype = MF_BOOL, .rank = 1, .shape = {0},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], dtype=bool)",
         /* tensor_str */ "tf.Tensor([], shape=(0,), dtype=bool)",
         /* tensor_repr */ "<tf.Tensor: shape=(0,), dtype=bool, numpy=array([], dtype=bool)>",
         /* tf_print */ "",
     }},
    {.name = "string scalar", .dtype = MF_STRING, .rank = 0, .shape = {0},
     .s = (const bytes[]){{"aa", 2}},
     .expect = {
         /* numpy_str */ "b'aa'",
         /* numpy_repr */ "b'aa'",
         /* tensor_str */ "tf.Tensor(b'aa', shape=(), dtype=string)",
         /* tensor_repr */ "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>",
         /* tf_print */ "\"aa\"",
     }},
    {.name = "string vector", .dtype = MF_STRING, .rank = 1, .shape = {2},
     .s = (const bytes[]){{"a", 1}, {"bc", 2}},
     .expect = {
         /* numpy_str */ "[b'a' b'bc']",
         /* numpy_repr */ "array([b'a', b'bc'], dtype=object)",
         /* tensor_str */ "tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)",
         /* tensor_repr */ "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>",
         /* tf_print */ "[\"a\" \"bc\"]",
     }},
    {.name = "string escapes", .dtype = MF_STRING, .rank = 1, .shape = {4},
     .s = (const bytes[]){{"it's", 4}, {"a\"b", 3}, {"both'\"", 6}, {"\\\n\011\000\377", 5}},
     .expect = {
         /* numpy_str */ "[b\"it's\" b'a\"b' b'both\\'\"' b'\\\\\\n\\t\\x00\\xff']",
         /* numpy_repr */ "array([b\"it's\", b'a\"b', b'both\\'\"', b'\\\\\\n\\t\\x00\\xff'], dtype=object)",
         /* tensor_str */ "tf.Tensor([b\"it's\" b'a\"b' b'both\\'\"' b'\\\\\\n\\t\\x00\\xff'], shape=(4,), dtype=string)",
         /* tensor_repr */ "<tf.Tensor: shape=(4,), dtype=string, numpy=array([b\"it's\", b'a\"b', b'both\\'\"', b'\\\\\\n\\t\\x00\\xff'], dtype=object)>",
         /* tf_print */ "[\"it\\'s\" \"a\\\"b\" \"both\\'\\\"\" \"\\\\\\n\\t\\000\377\"]",
     }},
    {.name = "string matrix", .dtype = MF_STRING, .rank = 2, .shape = {2, 2},
     .s = (const bytes[]){{"x", 1}, {"", 0}, {"yy", 2}, {"z", 1}},
     .expect = {
         /* numpy_str */ "[[b'x' b'']\n"
                         " [b'yy' b'z']]",
         /* numpy_repr */ "array([[b'x', b''],\n"
                          "       [b'yy', b'z']], dtype=object)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[b'x' b'']\n"
                          " [b'yy' b'z']], shape=(2, 2), dtype=string)",
         /* tensor_repr */ "<tf.Tensor: shape=(2, 2), dtype=string, numpy=\n"
                           "array([[b'x', b''],\n"
                           "       [b'yy', b'z']], dtype=object)>",
         /* tf_print */ "[[\"x\" \"\"]\n"
                        " [\"yy\" \"z\"]]",
     }},
    {.name = "string empty", .dtype = MF_STRING, .rank = 1, .shape = {0},
     .expect = {
         /* numpy_str */ "[]",
         /* numpy_repr */ "array([], dtype=object)",
         /* tensor_str */ "tf.Tensor([], shape=(0,), dtype=string)",
         /* tensor_repr */ "<tf.Tensor: shape=(0,), dtype=string, numpy=array([], dtype=object)>",
         /* tf_print */ "[]",
     }},
    {.name = "float32 summarised 2000", .dtype = MF_FLOAT32, .rank = 1, .shape = {2000},
     .step = 0.5,
     .expect = {
         /* numpy_str */ "[0.000e+00 5.000e-01 1.000e+00 ... 9.985e+02 9.990e+02 9.995e+02]",
         /* numpy_repr */ "array([0.000e+00, 5.000e-01, 1.000e+00, ..., 9.985e+02, 9.990e+02,\n"
                          "       9.995e+02], dtype=float32)",
         /* tensor_str */ "tf.Tensor([0.000e+00 5.000e-01 1.000e+00 ... 9.985e+02 9.990e+02 9.995e+02], shape=(2000,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2000,), dtype=float32, numpy=\n"
                           "array([0.000e+00, 5.000e-01, 1.000e+00, ..., 9.985e+02, 9.990e+02,\n"
                           "       9.995e+02], dtype=float32)>",
         /* tf_print */ "[0 0.5 1 ... 998.5 999 999.5]",
     }},
    {.name = "int32 summarised 2000", .dtype = MF_INT32, .rank = 1, .shape = {2000},
     .step = 1.0,
     .expect = {
         /* numpy_str */ "[   0    1    2 ... 1997 1998 1999]",
         /* numpy_repr */ "array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)",
         /* tensor_str */ "tf.Tensor([   0    1    2 ... 1997 1998 1999], shape=(2000,), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(2000,), dtype=int32, numpy=array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)>",
         /* tf_print */ "[0 1 2 ... 1997 1998 1999]",
     }},
    {.name = "float64 summarised 7x200", .dtype = MF_FLOAT64, .rank = 2, .shape = {7, 200},
     .step = 0.125,
     .expect = {
         /* numpy_str */ "[[0.00000e+00 1.25000e-01 2.50000e-01 ... 2.46250e+01 2.47500e+01\n"
                         "  2.48750e+01]\n"
                         " [2.50000e+01 2.51250e+01 2.52500e+01 ... 4.96250e+01 4.97500e+01\n"
                         "  4.98750e+01]\n"
                         " [5.00000e+01 5.01250e+01 5.02500e+01 ... 7.46250e+01 7.47500e+01\n"
                         "  7.48750e+01]\n"
                         " ...\n"
                         " [1.00000e+02 1.00125e+02 1.00250e+02 ... 1.24625e+02 1.24750e+02\n"
                         "  1.24875e+02]\n"
                         " [1.25000e+02 1.25125e+02 1.25250e+02 ... 1.49625e+02 1.49750e+02\n"
                         "  1.49875e+02]\n"
                         " [1.50000e+02 1.50125e+02 1.50250e+02 ... 1.74625e+02 1.74750e+02\n"
                         "  1.74875e+02]]",
         /* numpy_repr */ "array([[0.00000e+00, 1.25000e-01, 2.50000e-01, ..., 2.46250e+01,\n"
                          "        2.47500e+01, 2.48750e+01],\n"
                          "       [2.50000e+01, 2.51250e+01, 2.52500e+01, ..., 4.96250e+01,\n"
                          "        4.97500e+01, 4.98750e+01],\n"
                          "       [5.00000e+01, 5.01250e+01, 5.02500e+01, ..., 7.46250e+01,\n"
                          "        7.47500e+01, 7.48750e+01],\n"
                          "       ...,\n"
                          "       [1.00000e+02, 1.00125e+02, 1.00250e+02, ..., 1.24625e+02,\n"
                          "        1.24750e+02, 1.24875e+02],\n"
                          "       [1.25000e+02, 1.25125e+02, 1.25250e+02, ..., 1.49625e+02,\n"
                          "        1.49750e+02, 1.49875e+02],\n"
                          "       [1.50000e+02, 1.50125e+02, 1.50250e+02, ..., 1.74625e+02,\n"
                          "        1.74750e+02, 1.74875e+02]])",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[0.00000e+00 1.25000e-01 2.50000e-01 ... 2.46250e+01 2.47500e+01\n"
                          "  2.48750e+01]\n"
                          " [2.50000e+01 2.51250e+01 2.52500e+01 ... 4.96250e+01 4.97500e+01\n"
                          "  4.98750e+01]\n"
                          " [5.00000e+01 5.01250e+01 5.02500e+01 ... 7.46250e+01 7.47500e+01\n"
                          "  7.48750e+01]\n"
                          " ...\n"
                          " [1.00000e+02 1.00125e+02 1.00250e+02 ... 1.24625e+02 1.24750e+02\n"
                          "  1.24875e+02]\n"
                          " [1.25000e+02 1.25125e+02 1.25250e+02 ... 1.49625e+02 1.49750e+02\n"
                          "  1.49875e+02]\n"
                          " [1.50000e+02 1.50125e+02 1.50250e+02 ... 1.74625e+02 1.74750e+02\n"
                          "  1.74875e+02]], shape=(7, 200), dtype=float64)",
         /* tensor_repr */ "<tf.Tensor: shape=(7, 200), dtype=float64, numpy=\n"
                           "array([[0.00000e+00, 1.25000e-01, 2.50000e-01, ..., 2.46250e+01,\n"
                           "        2.47500e+01, 2.48750e+01],\n"
                           "       [2.50000e+01, 2.51250e+01, 2.52500e+01, ..., 4.96250e+01,\n"
                           "        4.97500e+01, 4.98750e+01],\n"
                           "       [5.00000e+01, 5.01250e+01, 5.02500e+01, ..., 7.46250e+01,\n"
                           "        7.47500e+01, 7.48750e+01],\n"
                           "       ...,\n"
                           "       [1.00000e+02, 1.00125e+02, 1.00250e+02, ..., 1.24625e+02,\n"
                           "        1.24750e+02, 1.24875e+02],\n"
                           "       [1.25000e+02, 1.25125e+02, 1.25250e+02, ..., 1.49625e+02,\n"
                           "        1.49750e+02, 1.49875e+02],\n"
                           "       [1.50000e+02, 1.50125e+02, 1.50250e+02, ..., 1.74625e+02,\n"
                           "        1.74750e+02, 1.74875e+02]])>",
         /* tf_print */ "[[0 0.125 0.25 ... 24.625 24.75 24.875]\n"
                        " [25 25.125 25.25 ... 49.625 49.75 49.875]\n"
                        " [50 50.125 50.25 ... 74.625 74.75 74.875]\n"
                        " ...\n"
                        " [100 100.125 100.25 ... 124.625 124.75 124.875]\n"
                        " [125 125.125 125.25 ... 149.625 149.75 149.875]\n"
                        " [150 150.125 150.25 ... 174.625 174.75 174.875]]",
     }},
    {.name = "int32 summarised 11x11x11", .dtype = MF_INT32, .rank = 3, .shape = {11, 11, 11},
     .step = 1.0,
     .expect = {
         /* numpy_str */ "[[[   0    1    2 ...    8    9   10]\n"
                         "  [  11   12   13 ...   19   20   21]\n"
                         "  [  22   23   24 ...   30   31   32]\n"
                         "  ...\n"
                         "  [  88   89   90 ...   96   97   98]\n"
                         "  [  99  100  101 ...  107  108  109]\n"
                         "  [ 110  111  112 ...  118  119  120]]\n"
                         "\n"
                         " [[ 121  122  123 ...  129  130  131]\n"
                         "  [ 132  133  134 ...  140  141  142]\n"
                         "  [ 143  144  145 ...  151  152  153]\n"
                         "  ...\n"
                         "  [ 209  210  211 ...  217  218  219]\n"
                         "  [ 220  221  222 ...  228  229  230]\n"
                         "  [ 231  232  233 ...  239  240  241]]\n"
                         "\n"
                         " [[ 242  243  244 ...  250  251  252]\n"
                         "  [ 253  254  255 ...  261  262  263]\n"
                         "  [ 264  265  266 ...  272  273  274]\n"
                         "  ...\n"
                         "  [ 330  331  332 ...  338  339  340]\n"
                         "  [ 341  342  343 ...  349  350  351]\n"
                         "  [ 352  353  354 ...  360  361  362]]\n"
                         "\n"
                         " ...\n"
                         "\n"
                         " [[ 968  969  970 ...  976  977  978]\n"
                         "  [ 979  980  981 ...  987  988  989]\n"
                         "  [ 990  991  992 ...  998  999 1000]\n"
                         "  ...\n"
                         "  [1056 1057 1058 ... 1064 1065 1066]\n"
                         "  [1067 1068 1069 ... 1075 1076 1077]\n"
                         "  [1078 1079 1080 ... 1086 1087 1088]]\n"
                         "\n"
                         " [[1089 1090 1091 ... 1097 1098 1099]\n"
                         "  [1100 1101 1102 ... 1108 1109 1110]\n"
                         "  [1111 1112 1113 ... 1119 1120 1121]\n"
                         "  ...\n"
                         "  [1177 1178 1179 ... 1185 1186 1187]\n"
                         "  [1188 1189 1190 ... 1196 1197 1198]\n"
                         "  [1199 1200 1201 ... 1207 1208 1209]]\n"
                         "\n"
                         " [[1210 1211 1212 ... 1218 1219 1220]\n"
                         "  [1221 1222 1223 ... 1229 1230 1231]\n"
                         "  [1232 1233 1234 ... 1240 1241 1242]\n"
                         "  ...\n"
                         "  [1298 1299 1300 ... 1306 1307 1308]\n"
                         "  [1309 1310 1311 ... 1317 1318 1319]\n"
                         "  [1320 1321 1322 ... 1328 1329 1330]]]",
         /* numpy_repr */ "array([[[   0,    1,    2, ...,    8,    9,   10],\n"
                          "        [  11,   12,   13, ...,   19,   20,   21],\n"
                          "        [  22,   23,   24, ...,   30,   31,   32],\n"
                          "        ...,\n"
                          "        [  88,   89,   90, ...,   96,   97,   98],\n"
                          "        [  99,  100,  101, ...,  107,  108,  109],\n"
                          "        [ 110,  111,  112, ...,  118,  119,  120]],\n"
                          "\n"
                          "       [[ 121,  122,  123, ...,  129,  130,  131],\n"
                          "        [ 132,  133,  134, ...,  140,  141,  142],\n"
                          "        [ 143,  144,  145, ...,  151,  152,  153],\n"
                          "        ...,\n"
                          "        [ 209,  210,  211, ...,  217,  218,  219],\n"
                          "        [ 220,  221,  222, ...,  228,  229,  230],\n"
                          "        [ 231,  232,  233, ...,  239,  240,  241]],\n"
                          "\n"
                          "       [[ 242,  243,  244, ...,  250,  251,  252],\n"
                          "        [ 253,  254,  255, ...,  261,  262,  263],\n"
                          "        [ 264,  265,  266, ...,  272,  273,  274],\n"
                          "        ...,\n"
                          "        [ 330,  331,  332, ...,  338,  339,  340],\n"
                          "        [ 341,  342,  343, ...,  349,  350,  351],\n"
                          "        [ 352,  353,  354, ...,  360,  361,  362]],\n"
                          "\n"
                          "       ...,\n"
                          "\n"
                          "       [[ 968,  969,  970, ...,  976,  977,  978],\n"
                          "        [ 979,  980,  981, ...,  987,  988,  989],\n"
                          "        [ 990,  991,  992, ...,  998,  999, 1000],\n"
                          "        ...,\n"
                          "        [1056, 1057, 1058, ..., 1064, 1065, 1066],\n"
                          "        [1067, 1068, 1069, ..., 1075, 1076, 1077],\n"
                          "        [1078, 1079, 1080, ..., 1086, 1087, 1088]],\n"
                          "\n"
                          "       [[1089, 1090, 1091, ..., 1097, 1098, 1099],\n"
                          "        [1100, 1101, 1102, ..., 1108, 1109, 1110],\n"
                          "        [1111, 1112, 1113, ..., 1119, 1120, 1121],\n"
                          "        ...,\n"
                          "        [1177, 1178, 1179, ..., 1185, 1186, 1187],\n"
                          "        [1188, 1189, 1190, ..., 1196, 1197, 1198],\n"
                          "        [1199, 1200, 1201, ..., 1207, 1208, 1209]],\n"
                          "\n"
                          "       [[1210, 1211, 1212, ..., 1218, 1219, 1220],\n"
                          "        [1221, 1222, 1223, ..., 1229, 1230, 1231],\n"
                          "        [1232, 1233, 1234, ..., 1240, 1241, 1242],\n"
                          "        ...,\n"
                          "        [1298, 1299, 1300, ..., 1306, 1307, 1308],\n"
                          "        [1309, 1310, 1311, ..., 1317, 1318, 1319],\n"
                          "        [1320, 1321, 1322, ..., 1328, 1329, 1330]]], dtype=int32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[[[   0    1    2 ...    8    9   10]\n"
                          "  [  11   12   13 ...   19   20   21]\n"
                          "  [  22   23   24 ...   30   31   32]\n"
                          "  ...\n"
                          "  [  88   89   90 ...   96   97   98]\n"
                          "  [  99  100  101 ...  107  108  109]\n"
                          "  [ 110  111  112 ...  118  119  120]]\n"
                          "\n"
                          " [[ 121  122  123 ...  129  130  131]\n"
                          "  [ 132  133  134 ...  140  141  142]\n"
                          "  [ 143  144  145 ...  151  152  153]\n"
                          "  ...\n"
                          "  [ 209  210  211 ...  217  218  219]\n"
                          "  [ 220  221  222 ...  228  229  230]\n"
                          "  [ 231  232  233 ...  239  240  241]]\n"
                          "\n"
                          " [[ 242  243  244 ...  250  251  252]\n"
                          "  [ 253  254  255 ...  261  262  263]\n"
                          "  [ 264  265  266 ...  272  273  274]\n"
                          "  ...\n"
                          "  [ 330  331  332 ...  338  339  340]\n"
                          "  [ 341  342  343 ...  349  350  351]\n"
                          "  [ 352  353  354 ...  360  361  362]]\n"
                          "\n"
                          " ...\n"
                          "\n"
                          " [[ 968  969  970 ...  976  977  978]\n"
                          "  [ 979  980  981 ...  987  988  989]\n"
                          "  [ 990  991  992 ...  998  999 1000]\n"
                          "  ...\n"
                          "  [1056 1057 1058 ... 1064 1065 1066]\n"
                          "  [1067 1068 1069 ... 1075 1076 1077]\n"
                          "  [1078 1079 1080 ... 1086 1087 1088]]\n"
                          "\n"
                          " [[1089 1090 1091 ... 1097 1098 1099]\n"
                          "  [1100 1101 1102 ... 1108 1109 1110]\n"
                          "  [1111 1112 1113 ... 1119 1120 1121]\n"
                          "  ...\n"
                          "  [1177 1178 1179 ... 1185 1186 1187]\n"
                          "  [1188 1189 1190 ... 1196 1197 1198]\n"
                          "  [1199 1200 1201 ... 1207 1208 1209]]\n"
                          "\n"
                          " [[1210 1211 1212 ... 1218 1219 1220]\n"
                          "  [1221 1222 1223 ... 1229 1230 1231]\n"
                          "  [1232 1233 1234 ... 1240 1241 1242]\n"
                          "  ...\n"
                          "  [1298 1299 1300 ... 1306 1307 1308]\n"
                          "  [1309 1310 1311 ... 1317 1318 1319]\n"
                          "  [1320 1321 1322 ... 1328 1329 1330]]], shape=(11, 11, 11), dtype=int32)",
         /* tensor_repr */ "<tf.Tensor: shape=(11, 11, 11), dtype=int32, numpy=\n"
                           "array([[[   0,    1,    2, ...,    8,    9,   10],\n"
                           "        [  11,   12,   13, ...,   19,   20,   21],\n"
                           "        [  22,   23,   24, ...,   30,   31,   32],\n"
                           "        ...,\n"
                           "        [  88,   89,   90, ...,   96,   97,   98],\n"
                           "        [  99,  100,  101, ...,  107,  108,  109],\n"
                           "        [ 110,  111,  112, ...,  118,  119,  120]],\n"
                           "\n"
                           "       [[ 121,  122,  123, ...,  129,  130,  131],\n"
                           "        [ 132,  133,  134, ...,  140,  141,  142],\n"
                           "        [ 143,  144,  145, ...,  151,  152,  153],\n"
                           "        ...,\n"
                           "        [ 209,  210,  211, ...,  217,  218,  219],\n"
                           "        [ 220,  221,  222, ...,  228,  229,  230],\n"
                           "        [ 231,  232,  233, ...,  239,  240,  241]],\n"
                           "\n"
                           "       [[ 242,  243,  244, ...,  250,  251,  252],\n"
                           "        [ 253,  254,  255, ...,  261,  262,  263],\n"
                           "        [ 264,  265,  266, ...,  272,  273,  274],\n"
                           "        ...,\n"
                           "        [ 330,  331,  332, ...,  338,  339,  340],\n"
                           "        [ 341,  342,  343, ...,  349,  350,  351],\n"
                           "        [ 352,  353,  354, ...,  360,  361,  362]],\n"
                           "\n"
                           "       ...,\n"
                           "\n"
                           "       [[ 968,  969,  970, ...,  976,  977,  978],\n"
                           "        [ 979,  980,  981, ...,  987,  988,  989],\n"
                           "        [ 990,  991,  992, ...,  998,  999, 1000],\n"
                           "        ...,\n"
                           "        [1056, 1057, 1058, ..., 1064, 1065, 1066],\n"
                           "        [1067, 1068, 1069, ..., 1075, 1076, 1077],\n"
                           "        [1078, 1079, 1080, ..., 1086, 1087, 1088]],\n"
                           "\n"
                           "       [[1089, 1090, 1091, ..., 1097, 1098, 1099],\n"
                           "        [1100, 1101, 1102, ..., 1108, 1109, 1110],\n"
                           "        [1111, 1112, 1113, ..., 1119, 1120, 1121],\n"
                           "        ...,\n"
                           "        [1177, 1178, 1179, ..., 1185, 1186, 1187],\n"
                           "        [1188, 1189, 1190, ..., 1196, 1197, 1198],\n"
                           "        [1199, 1200, 1201, ..., 1207, 1208, 1209]],\n"
                           "\n"
                           "       [[1210, 1211, 1212, ..., 1218, 1219, 1220],\n"
                           "        [1221, 1222, 1223, ..., 1229, 1230, 1231],\n"
                           "        [1232, 1233, 1234, ..., 1240, 1241, 1242],\n"
                           "        ...,\n"
                           "        [1298, 1299, 1300, ..., 1306, 1307, 1308],\n"
                           "        [1309, 1310, 1311, ..., 1317, 1318, 1319],\n"
                           "        [1320, 1321, 1322, ..., 1328, 1329, 1330]]], dtype=int32)>",
         /* tf_print */ "[[[0 1 2 ... 8 9 10]\n"
                        "  [11 12 13 ... 19 20 21]\n"
                        "  [22 23 24 ... 30 31 32]\n"
                        "  ...\n"
                        "  [88 89 90 ... 96 97 98]\n"
                        "  [99 100 101 ... 107 108 109]\n"
                        "  [110 111 112 ... 118 119 120]]\n"
                        "\n"
                        " [[121 122 123 ... 129 130 131]\n"
                        "  [132 133 134 ... 140 141 142]\n"
                        "  [143 144 145 ... 151 152 153]\n"
                        "  ...\n"
                        "  [209 210 211 ... 217 218 219]\n"
                        "  [220 221 222 ... 228 229 230]\n"
                        "  [231 232 233 ... 239 240 241]]\n"
                        "\n"
                        " [[242 243 244 ... 250 251 252]\n"
                        "  [253 254 255 ... 261 262 263]\n"
                        "  [264 265 266 ... 272 273 274]\n"
                        "  ...\n"
                        "  [330 331 332 ... 338 339 340]\n"
                        "  [341 342 343 ... 349 350 351]\n"
                        "  [352 353 354 ... 360 361 362]]\n"
                        "\n"
                        " ...\n"
                        "\n"
                        " [[968 969 970 ... 976 977 978]\n"
                        "  [979 980 981 ... 987 988 989]\n"
                        "  [990 991 992 ... 998 999 1000]\n"
                        "  ...\n"
                        "  [1056 1057 1058 ... 1064 1065 1066]\n"
                        "  [1067 1068 1069 ... 1075 1076 1077]\n"
                        "  [1078 1079 1080 ... 1086 1087 1088]]\n"
                        "\n"
                        " [[1089 1090 1091 ... 1097 1098 1099]\n"
                        "  [1100 1101 1102 ... 1108 1109 1110]\n"
                        "  [1111 1112 1113 ... 1119 1120 1121]\n"
                        "  ...\n"
                        "  [1177 1178 1179 ... 1185 1186 1187]\n"
                        "  [1188 1189 1190 ... 1196 1197 1198]\n"
                        "  [1199 1200 1201 ... 1207 1208 1209]]\n"
                        "\n"
                        " [[1210 1211 1212 ... 1218 1219 1220]\n"
                        "  [1221 1222 1223 ... 1229 1230 1231]\n"
                        "  [1232 1233 1234 ... 1240 1241 1242]\n"
                        "  ...\n"
                        "  [1298 1299 1300 ... 1306 1307 1308]\n"
                        "  [1309 1310 1311 ... 1317 1318 1319]\n"
                        "  [1320 1321 1322 ... 1328 1329 1330]]]",
     }},
    {.name = "bool summarised 1001", .dtype = MF_BOOL, .rank = 1, .shape = {1001},
     .step = 0.0,
     .expect = {
         /* numpy_str */ "[ True False False ... False  True False]",
         /* numpy_repr */ "array([ True, False, False, ..., False,  True, False])",
         /* tensor_str */ "tf.Tensor([ True False False ... False  True False], shape=(1001,), dtype=bool)",
         /* tensor_repr */ "<tf.Tensor: shape=(1001,), dtype=bool, numpy=array([ True, False, False, ..., False,  True, False])>",
         /* tf_print */ "[1 0 0 ... 0 1 0]",
     }},
    {.name = "float32 exactly 1000", .dtype = MF_FLOAT32, .rank = 1, .shape = {1000},
     .step = 1.0,
     .expect = {
         /* numpy_str */ "[  0.   1.   2.   3.   4.   5.   6.   7.   8.   9.  10.  11.  12.  13.\n"
                         "  14.  15.  16.  17.  18.  19.  20.  21.  22.  23.  24.  25.  26.  27.\n"
                         "  28.  29.  30.  31.  32.  33.  34.  35.  36.  37.  38.  39.  40.  41.\n"
                         "  42.  43.  44.  45.  46.  47.  48.  49.  50.  51.  52.  53.  54.  55.\n"
                         "  56.  57.  58.  59.  60.  61.  62.  63.  64.  65.  66.  67.  68.  69.\n"
                         "  70.  71.  72.  73.  74.  75.  76.  77.  78.  79.  80.  81.  82.  83.\n"
                         "  84.  85.  86.  87.  88.  89.  90.  91.  92.  93.  94.  95.  96.  97.\n"
                         "  98.  99. 100. 101. 102. 103. 104. 105. 106. 107. 108. 109. 110. 111.\n"
                         " 112. 113. 114. 115. 116. 117. 118. 119. 120. 121. 122. 123. 124. 125.\n"
                         " 126. 127. 128. 129. 130. 131. 132. 133. 134. 135. 136. 137. 138. 139.\n"
                         " 140. 141. 142. 143. 144. 145. 146. 147. 148. 149. 150. 151. 152. 153.\n"
                         " 154. 155. 156. 157. 158. 159. 160. 161. 162. 163. 164. 165. 166. 167.\n"
                         " 168. 169. 170. 171. 172. 173. 174. 175. 176. 177. 178. 179. 180. 181.\n"
                         " 182. 183. 184. 185. 186. 187. 188. 189. 190. 191. 192. 193. 194. 195.\n"
                         " 196. 197. 198. 199. 200. 201. 202. 203. 204. 205. 206. 207. 208. 209.\n"
                         " 210. 211. 212. 213. 214. 215. 216. 217. 218. 219. 220. 221. 222. 223.\n"
                         " 224. 225. 226. 227. 228. 229. 230. 231. 232. 233. 234. 235. 236. 237.\n"
                         " 238. 239. 240. 241. 242. 243. 244. 245. 246. 247. 248. 249. 250. 251.\n"
                         " 252. 253. 254. 255. 256. 257. 258. 259. 260. 261. 262. 263. 264. 265.\n"
                         " 266. 267. 268. 269. 270. 271. 272. 273. 274. 275. 276. 277. 278. 279.\n"
                         " 280. 281. 282. 283. 284. 285. 286. 287. 288. 289. 290. 291. 292. 293.\n"
                         " 294. 295. 296. 297. 298. 299. 300. 301. 302. 303. 304. 305. 306. 307.\n"
                         " 308. 309. 310. 311. 312. 313. 314. 315. 316. 317. 318. 319. 320. 321.\n"
                         " 322. 323. 324. 325. 326. 327. 328. 329. 330. 331. 332. 333. 334. 335.\n"
                         " 336. 337. 338. 339. 340. 341. 342. 343. 344. 345. 346. 347. 348. 349.\n"
                         " 350. 351. 352. 353. 354. 355. 356. 357. 358. 359. 360. 361. 362. 363.\n"
                         " 364. 365. 366. 367. 368. 369. 370. 371. 372. 373. 374. 375. 376. 377.\n"
                         " 378. 379. 380. 381. 382. 383. 384. 385. 386. 387. 388. 389. 390. 391.\n"
                         " 392. 393. 394. 395. 396. 397. 398. 399. 400. 401. 402. 403. 404. 405.\n"
                         " 406. 407. 408. 409. 410. 411. 412. 413. 414. 415. 416. 417. 418. 419.\n"
                         " 420. 421. 422. 423. 424. 425. 426. 427. 428. 429. 430. 431. 432. 433.\n"
                         " 434. 435. 436. 437. 438. 439. 440. 441. 442. 443. 444. 445. 446. 447.\n"
                         " 448. 449. 450. 451. 452. 453. 454. 455. 456. 457. 458. 459. 460. 461.\n"
                         " 462. 463. 464. 465. 466. 467. 468. 469. 470. 471. 472. 473. 474. 475.\n"
                         " 476. 477. 478. 479. 480. 481. 482. 483. 484. 485. 486. 487. 488. 489.\n"
                         " 490. 491. 492. 493. 494. 495. 496. 497. 498. 499. 500. 501. 502. 503.\n"
                         " 504. 505. 506. 507. 508. 509. 510. 511. 512. 513. 514. 515. 516. 517.\n"
                         " 518. 519. 520. 521. 522. 523. 524. 525. 526. 527. 528. 529. 530. 531.\n"
                         " 532. 533. 534. 535. 536. 537. 538. 539. 540. 541. 542. 543. 544. 545.\n"
                         " 546. 547. 548. 549. 550. 551. 552. 553. 554. 555. 556. 557. 558. 559.\n"
                         " 560. 561. 562. 563. 564. 565. 566. 567. 568. 569. 570. 571. 572. 573.\n"
                         " 574. 575. 576. 577. 578. 579. 580. 581. 582. 583. 584. 585. 586. 587.\n"
                         " 588. 589. 590. 591. 592. 593. 594. 595. 596. 597. 598. 599. 600. 601.\n"
                         " 602. 603. 604. 605. 606. 607. 608. 609. 610. 611. 612. 613. 614. 615.\n"
                         " 616. 617. 618. 619. 620. 621. 622. 623. 624. 625. 626. 627. 628. 629.\n"
                         " 630. 631. 632. 633. 634. 635. 636. 637. 638. 639. 640. 641. 642. 643.\n"
                         " 644. 645. 646. 647. 648. 649. 650. 651. 652. 653. 654. 655. 656. 657.\n"
                         " 658. 659. 660. 661. 662. 663. 664. 665. 666. 667. 668. 669. 670. 671.\n"
                         " 672. 673. 674. 675. 676. 677. 678. 679. 680. 681. 682. 683. 684. 685.\n"
                         " 686. 687. 688. 689. 690. 691. 692. 693. 694. 695. 696. 697. 698. 699.\n"
                         " 700. 701. 702. 703. 704. 705. 706. 707. 708. 709. 710. 711. 712. 713.\n"
                         " 714. 715. 716. 717. 718. 719. 720. 721. 722. 723. 724. 725. 726. 727.\n"
                         " 728. 729. 730. 731. 732. 733. 734. 735. 736. 737. 738. 739. 740. 741.\n"
                         " 742. 743. 744. 745. 746. 747. 748. 749. 750. 751. 752. 753. 754. 755.\n"
                         " 756. 757. 758. 759. 760. 761. 762. 763. 764. 765. 766. 767. 768. 769.\n"
                         " 770. 771. 772. 773. 774. 775. 776. 777. 778. 779. 780. 781. 782. 783.\n"
                         " 784. 785. 786. 787. 788. 789. 790. 791. 792. 793. 794. 795. 796. 797.\n"
                         " 798. 799. 800. 801. 802. 803. 804. 805. 806. 807. 808. 809. 810. 811.\n"
                         " 812. 813. 814. 815. 816. 817. 818. 819. 820. 821. 822. 823. 824. 825.\n"
                         " 826. 827. 828. 829. 830. 831. 832. 833. 834. 835. 836. 837. 838. 839.\n"
                         " 840. 841. 842. 843. 844. 845. 846. 847. 848. 849. 850. 851. 852. 853.\n"
                         " 854. 855. 856. 857. 858. 859. 860. 861. 862. 863. 864. 865. 866. 867.\n"
                         " 868. 869. 870. 871. 872. 873. 874. 875. 876. 877. 878. 879. 880. 881.\n"
                         " 882. 883. 884. 885. 886. 887. 888. 889. 890. 891. 892. 893. 894. 895.\n"
                         " 896. 897. 898. 899. 900. 901. 902. 903. 904. 905. 906. 907. 908. 909.\n"
                         " 910. 911. 912. 913. 914. 915. 916. 917. 918. 919. 920. 921. 922. 923.\n"
                         " 924. 925. 926. 927. 928. 929. 930. 931. 932. 933. 934. 935. 936. 937.\n"
                         " 938. 939. 940. 941. 942. 943. 944. 945. 946. 947. 948. 949. 950. 951.\n"
                         " 952. 953. 954. 955. 956. 957. 958. 959. 960. 961. 962. 963. 964. 965.\n"
                         " 966. 967. 968. 969. 970. 971. 972. 973. 974. 975. 976. 977. 978. 979.\n"
                         " 980. 981. 982. 983. 984. 985. 986. 987. 988. 989. 990. 991. 992. 993.\n"
                         " 994. 995. 996. 997. 998. 999.]",
         /* numpy_repr */ "array([  0.,   1.,   2.,   3.,   4.,   5.,   6.,   7.,   8.,   9.,  10.,\n"
                          "        11.,  12.,  13.,  14.,  15.,  16.,  17.,  18.,  19.,  20.,  21.,\n"
                          "        22.,  23.,  24.,  25.,  26.,  27.,  28.,  29.,  30.,  31.,  32.,\n"
                          "        33.,  34.,  35.,  36.,  37.,  38.,  39.,  40.,  41.,  42.,  43.,\n"
                          "        44.,  45.,  46.,  47.,  48.,  49.,  50.,  51.,  52.,  53.,  54.,\n"
                          "        55.,  56.,  57.,  58.,  59.,  60.,  61.,  62.,  63.,  64.,  65.,\n"
                          "        66.,  67.,  68.,  69.,  70.,  71.,  72.,  73.,  74.,  75.,  76.,\n"
                          "        77.,  78.,  79.,  80.,  81.,  82.,  83.,  84.,  85.,  86.,  87.,\n"
                          "        88.,  89.,  90.,  91.,  92.,  93.,  94.,  95.,  96.,  97.,  98.,\n"
                          "        99., 100., 101., 102., 103., 104., 105., 106., 107., 108., 109.,\n"
                          "       110., 111., 112., 113., 114., 115., 116., 117., 118., 119., 120.,\n"
                          "       121., 122., 123., 124., 125., 126., 127., 128., 129., 130., 131.,\n"
                          "       132., 133., 134., 135., 136., 137., 138., 139., 140., 141., 142.,\n"
                          "       143., 144., 145., 146., 147., 148., 149., 150., 151., 152., 153.,\n"
                          "       154., 155., 156., 157., 158., 159., 160., 161., 162., 163., 164.,\n"
                          "       165., 166., 167., 168., 169., 170., 171., 172., 173., 174., 175.,\n"
                          "       176., 177., 178., 179., 180., 181., 182., 183., 184., 185., 186.,\n"
                          "       187., 188., 189., 190., 191., 192., 193., 194., 195., 196., 197.,\n"
                          "       198., 199., 200., 201., 202., 203., 204., 205., 206., 207., 208.,\n"
                          "       209., 210., 211., 212., 213., 214., 215., 216., 217., 218., 219.,\n"
                          "       220., 221., 222., 223., 224., 225., 226., 227., 228., 229., 230.,\n"
                          "       231., 232., 233., 234., 235., 236., 237., 238., 239., 240., 241.,\n"
                          "       242., 243., 244., 245., 246., 247., 248., 249., 250., 251., 252.,\n"
                          "       253., 254., 255., 256., 257., 258., 259., 260., 261., 262., 263.,\n"
                          "       264., 265., 266., 267., 268., 269., 270., 271., 272., 273., 274.,\n"
                          "       275., 276., 277., 278., 279., 280., 281., 282., 283., 284., 285.,\n"
                          "       286., 287., 288., 289., 290., 291., 292., 293., 294., 295., 296.,\n"
                          "       297., 298., 299., 300., 301., 302., 303., 304., 305., 306., 307.,\n"
                          "       308., 309., 310., 311., 312., 313., 314., 315., 316., 317., 318.,\n"
                          "       319., 320., 321., 322., 323., 324., 325., 326., 327., 328., 329.,\n"
                          "       330., 331., 332., 333., 334., 335., 336., 337., 338., 339., 340.,\n"
                          "       341., 342., 343., 344., 345., 346., 347., 348., 349., 350., 351.,\n"
                          "       352., 353., 354., 355., 356., 357., 358., 359., 360., 361., 362.,\n"
                          "       363., 364., 365., 366., 367., 368., 369., 370., 371., 372., 373.,\n"
                          "       374., 375., 376., 377., 378., 379., 380., 381., 382., 383., 384.,\n"
                          "       385., 386., 387., 388., 389., 390., 391., 392., 393., 394., 395.,\n"
                          "       396., 397., 398., 399., 400., 401., 402., 403., 404., 405., 406.,\n"
                          "       407., 408., 409., 410., 411., 412., 413., 414., 415., 416., 417.,\n"
                          "       418., 419., 420., 421., 422., 423., 424., 425., 426., 427., 428.,\n"
                          "       429., 430., 431., 432., 433., 434., 435., 436., 437., 438., 439.,\n"
                          "       440., 441., 442., 443., 444., 445., 446., 447., 448., 449., 450.,\n"
                          "       451., 452., 453., 454., 455., 456., 457., 458., 459., 460., 461.,\n"
                          "       462., 463., 464., 465., 466., 467., 468., 469., 470., 471., 472.,\n"
                          "       473., 474., 475., 476., 477., 478., 479., 480., 481., 482., 483.,\n"
                          "       484., 485., 486., 487., 488., 489., 490., 491., 492., 493., 494.,\n"
                          "       495., 496., 497., 498., 499., 500., 501., 502., 503., 504., 505.,\n"
                          "       506., 507., 508., 509., 510., 511., 512., 513., 514., 515., 516.,\n"
                          "       517., 518., 519., 520., 521., 522., 523., 524., 525., 526., 527.,\n"
                          "       528., 529., 530., 531., 532., 533., 534., 535., 536., 537., 538.,\n"
                          "       539., 540., 541., 542., 543., 544., 545., 546., 547., 548., 549.,\n"
                          "       550., 551., 552., 553., 554., 555., 556., 557., 558., 559., 560.,\n"
                          "       561., 562., 563., 564., 565., 566., 567., 568., 569., 570., 571.,\n"
                          "       572., 573., 574., 575., 576., 577., 578., 579., 580., 581., 582.,\n"
                          "       583., 584., 585., 586., 587., 588., 589., 590., 591., 592., 593.,\n"
                          "       594., 595., 596., 597., 598., 599., 600., 601., 602., 603., 604.,\n"
                          "       605., 606., 607., 608., 609., 610., 611., 612., 613., 614., 615.,\n"
                          "       616., 617., 618., 619., 620., 621., 622., 623., 624., 625., 626.,\n"
                          "       627., 628., 629., 630., 631., 632., 633., 634., 635., 636., 637.,\n"
                          "       638., 639., 640., 641., 642., 643., 644., 645., 646., 647., 648.,\n"
                          "       649., 650., 651., 652., 653., 654., 655., 656., 657., 658., 659.,\n"
                          "       660., 661., 662., 663., 664., 665., 666., 667., 668., 669., 670.,\n"
                          "       671., 672., 673., 674., 675., 676., 677., 678., 679., 680., 681.,\n"
                          "       682., 683., 684., 685., 686., 687., 688., 689., 690., 691., 692.,\n"
                          "       693., 694., 695., 696., 697., 698., 699., 700., 701., 702., 703.,\n"
                          "       704., 705., 706., 707., 708., 709., 710., 711., 712., 713., 714.,\n"
                          "       715., 716., 717., 718., 719., 720., 721., 722., 723., 724., 725.,\n"
                          "       726., 727., 728., 729., 730., 731., 732., 733., 734., 735., 736.,\n"
                          "       737., 738., 739., 740., 741., 742., 743., 744., 745., 746., 747.,\n"
                          "       748., 749., 750., 751., 752., 753., 754., 755., 756., 757., 758.,\n"
                          "       759., 760., 761., 762., 763., 764., 765., 766., 767., 768., 769.,\n"
                          "       770., 771., 772., 773., 774., 775., 776., 777., 778., 779., 780.,\n"
                          "       781., 782., 783., 784., 785., 786., 787., 788., 789., 790., 791.,\n"
                          "       792., 793., 794., 795., 796., 797., 798., 799., 800., 801., 802.,\n"
                          "       803., 804., 805., 806., 807., 808., 809., 810., 811., 812., 813.,\n"
                          "       814., 815., 816., 817., 818., 819., 820., 821., 822., 823., 824.,\n"
                          "       825., 826., 827., 828., 829., 830., 831., 832., 833., 834., 835.,\n"
                          "       836., 837., 838., 839., 840., 841., 842., 843., 844., 845., 846.,\n"
                          "       847., 848., 849., 850., 851., 852., 853., 854., 855., 856., 857.,\n"
                          "       858., 859., 860., 861., 862., 863., 864., 865., 866., 867., 868.,\n"
                          "       869., 870., 871., 872., 873., 874., 875., 876., 877., 878., 879.,\n"
                          "       880., 881., 882., 883., 884., 885., 886., 887., 888., 889., 890.,\n"
                          "       891., 892., 893., 894., 895., 896., 897., 898., 899., 900., 901.,\n"
                          "       902., 903., 904., 905., 906., 907., 908., 909., 910., 911., 912.,\n"
                          "       913., 914., 915., 916., 917., 918., 919., 920., 921., 922., 923.,\n"
                          "       924., 925., 926., 927., 928., 929., 930., 931., 932., 933., 934.,\n"
                          "       935., 936., 937., 938., 939., 940., 941., 942., 943., 944., 945.,\n"
                          "       946., 947., 948., 949., 950., 951., 952., 953., 954., 955., 956.,\n"
                          "       957., 958., 959., 960., 961., 962., 963., 964., 965., 966., 967.,\n"
                          "       968., 969., 970., 971., 972., 973., 974., 975., 976., 977., 978.,\n"
                          "       979., 980., 981., 982., 983., 984., 985., 986., 987., 988., 989.,\n"
                          "       990., 991., 992., 993., 994., 995., 996., 997., 998., 999.],\n"
                          "      dtype=float32)",
         /* tensor_str */ "tf.Tensor(\n"
                          "[  0.   1.   2.   3.   4.   5.   6.   7.   8.   9.  10.  11.  12.  13.\n"
                          "  14.  15.  16.  17.  18.  19.  20.  21.  22.  23.  24.  25.  26.  27.\n"
                          "  28.  29.  30.  31.  32.  33.  34.  35.  36.  37.  38.  39.  40.  41.\n"
                          "  42.  43.  44.  45.  46.  47.  48.  49.  50.  51.  52.  53.  54.  55.\n"
                          "  56.  57.  58.  59.  60.  61.  62.  63.  64.  65.  66.  67.  68.  69.\n"
                          "  70.  71.  72.  73.  74.  75.  76.  77.  78.  79.  80.  81.  82.  83.\n"
                          "  84.  85.  86.  87.  88.  89.  90.  91.  92.  93.  94.  95.  96.  97.\n"
                          "  98.  99. 100. 101. 102. 103. 104. 105. 106. 107. 108. 109. 110. 111.\n"
                          " 112. 113. 114. 115. 116. 117. 118. 119. 120. 121. 122. 123. 124. 125.\n"
                          " 126. 127. 128. 129. 130. 131. 132. 133. 134. 135. 136. 137. 138. 139.\n"
                          " 140. 141. 142. 143. 144. 145. 146. 147. 148. 149. 150. 151. 152. 153.\n"
                          " 154. 155. 156. 157. 158. 159. 160. 161. 162. 163. 164. 165. 166. 167.\n"
                          " 168. 169. 170. 171. 172. 173. 174. 175. 176. 177. 178. 179. 180. 181.\n"
                          " 182. 183. 184. 185. 186. 187. 188. 189. 190. 191. 192. 193. 194. 195.\n"
                          " 196. 197. 198. 199. 200. 201. 202. 203. 204. 205. 206. 207. 208. 209.\n"
                          " 210. 211. 212. 213. 214. 215. 216. 217. 218. 219. 220. 221. 222. 223.\n"
                          " 224. 225. 226. 227. 228. 229. 230. 231. 232. 233. 234. 235. 236. 237.\n"
                          " 238. 239. 240. 241. 242. 243. 244. 245. 246. 247. 248. 249. 250. 251.\n"
                          " 252. 253. 254. 255. 256. 257. 258. 259. 260. 261. 262. 263. 264. 265.\n"
                          " 266. 267. 268. 269. 270. 271. 272. 273. 274. 275. 276. 277. 278. 279.\n"
                          " 280. 281. 282. 283. 284. 285. 286. 287. 288. 289. 290. 291. 292. 293.\n"
                          " 294. 295. 296. 297. 298. 299. 300. 301. 302. 303. 304. 305. 306. 307.\n"
                          " 308. 309. 310. 311. 312. 313. 314. 315. 316. 317. 318. 319. 320. 321.\n"
                          " 322. 323. 324. 325. 326. 327. 328. 329. 330. 331. 332. 333. 334. 335.\n"
                          " 336. 337. 338. 339. 340. 341. 342. 343. 344. 345. 346. 347. 348. 349.\n"
                          " 350. 351. 352. 353. 354. 355. 356. 357. 358. 359. 360. 361. 362. 363.\n"
                          " 364. 365. 366. 367. 368. 369. 370. 371. 372. 373. 374. 375. 376. 377.\n"
                          " 378. 379. 380. 381. 382. 383. 384. 385. 386. 387. 388. 389. 390. 391.\n"
                          " 392. 393. 394. 395. 396. 397. 398. 399. 400. 401. 402. 403. 404. 405.\n"
                          " 406. 407. 408. 409. 410. 411. 412. 413. 414. 415. 416. 417. 418. 419.\n"
                          " 420. 421. 422. 423. 424. 425. 426. 427. 428. 429. 430. 431. 432. 433.\n"
                          " 434. 435. 436. 437. 438. 439. 440. 441. 442. 443. 444. 445. 446. 447.\n"
                          " 448. 449. 450. 451. 452. 453. 454. 455. 456. 457. 458. 459. 460. 461.\n"
                          " 462. 463. 464. 465. 466. 467. 468. 469. 470. 471. 472. 473. 474. 475.\n"
                          " 476. 477. 478. 479. 480. 481. 482. 483. 484. 485. 486. 487. 488. 489.\n"
                          " 490. 491. 492. 493. 494. 495. 496. 497. 498. 499. 500. 501. 502. 503.\n"
                          " 504. 505. 506. 507. 508. 509. 510. 511. 512. 513. 514. 515. 516. 517.\n"
                          " 518. 519. 520. 521. 522. 523. 524. 525. 526. 527. 528. 529. 530. 531.\n"
                          " 532. 533. 534. 535. 536. 537. 538. 539. 540. 541. 542. 543. 544. 545.\n"
                          " 546. 547. 548. 549. 550. 551. 552. 553. 554. 555. 556. 557. 558. 559.\n"
                          " 560. 561. 562. 563. 564. 565. 566. 567. 568. 569. 570. 571. 572. 573.\n"
                          " 574. 575. 576. 577. 578. 579. 580. 581. 582. 583. 584. 585. 586. 587.\n"
                          " 588. 589. 590. 591. 592. 593. 594. 595. 596. 597. 598. 599. 600. 601.\n"
                          " 602. 603. 604. 605. 606. 607. 608. 609. 610. 611. 612. 613. 614. 615.\n"
                          " 616. 617. 618. 619. 620. 621. 622. 623. 624. 625. 626. 627. 628. 629.\n"
                          " 630. 631. 632. 633. 634. 635. 636. 637. 638. 639. 640. 641. 642. 643.\n"
                          " 644. 645. 646. 647. 648. 649. 650. 651. 652. 653. 654. 655. 656. 657.\n"
                          " 658. 659. 660. 661. 662. 663. 664. 665. 666. 667. 668. 669. 670. 671.\n"
                          " 672. 673. 674. 675. 676. 677. 678. 679. 680. 681. 682. 683. 684. 685.\n"
                          " 686. 687. 688. 689. 690. 691. 692. 693. 694. 695. 696. 697. 698. 699.\n"
                          " 700. 701. 702. 703. 704. 705. 706. 707. 708. 709. 710. 711. 712. 713.\n"
                          " 714. 715. 716. 717. 718. 719. 720. 721. 722. 723. 724. 725. 726. 727.\n"
                          " 728. 729. 730. 731. 732. 733. 734. 735. 736. 737. 738. 739. 740. 741.\n"
                          " 742. 743. 744. 745. 746. 747. 748. 749. 750. 751. 752. 753. 754. 755.\n"
                          " 756. 757. 758. 759. 760. 761. 762. 763. 764. 765. 766. 767. 768. 769.\n"
                          " 770. 771. 772. 773. 774. 775. 776. 777. 778. 779. 780. 781. 782. 783.\n"
                          " 784. 785. 786. 787. 788. 789. 790. 791. 792. 793. 794. 795. 796. 797.\n"
                          " 798. 799. 800. 801. 802. 803. 804. 805. 806. 807. 808. 809. 810. 811.\n"
                          " 812. 813. 814. 815. 816. 817. 818. 819. 820. 821. 822. 823. 824. 825.\n"
                          " 826. 827. 828. 829. 830. 831. 832. 833. 834. 835. 836. 837. 838. 839.\n"
                          " 840. 841. 842. 843. 844. 845. 846. 847. 848. 849. 850. 851. 852. 853.\n"
                          " 854. 855. 856. 857. 858. 859. 860. 861. 862. 863. 864. 865. 866. 867.\n"
                          " 868. 869. 870. 871. 872. 873. 874. 875. 876. 877. 878. 879. 880. 881.\n"
                          " 882. 883. 884. 885. 886. 887. 888. 889. 890. 891. 892. 893. 894. 895.\n"
                          " 896. 897. 898. 899. 900. 901. 902. 903. 904. 905. 906. 907. 908. 909.\n"
                          " 910. 911. 912. 913. 914. 915. 916. 917. 918. 919. 920. 921. 922. 923.\n"
                          " 924. 925. 926. 927. 928. 929. 930. 931. 932. 933. 934. 935. 936. 937.\n"
                          " 938. 939. 940. 941. 942. 943. 944. 945. 946. 947. 948. 949. 950. 951.\n"
                          " 952. 953. 954. 955. 956. 957. 958. 959. 960. 961. 962. 963. 964. 965.\n"
                          " 966. 967. 968. 969. 970. 971. 972. 973. 974. 975. 976. 977. 978. 979.\n"
                          " 980. 981. 982. 983. 984. 985. 986. 987. 988. 989. 990. 991. 992. 993.\n"
                          " 994. 995. 996. 997. 998. 999.], shape=(1000,), dtype=float32)",
         /* tensor_repr */ "<tf.Tensor: shape=(1000,), dtype=float32, numpy=\n"
                           "array([  0.,   1.,   2.,   3.,   4.,   5.,   6.,   7.,   8.,   9.,  10.,\n"
                           "        11.,  12.,  13.,  14.,  15.,  16.,  17.,  18.,  19.,  20.,  21.,\n"
                           "        22.,  23.,  24.,  25.,  26.,  27.,  28.,  29.,  30.,  31.,  32.,\n"
                           "        33.,  34.,  35.,  36.,  37.,  38.,  39.,  40.,  41.,  42.,  43.,\n"
                           "        44.,  45.,  46.,  47.,  48.,  49.,  50.,  51.,  52.,  53.,  54.,\n"
                           "        55.,  56.,  57.,  58.,  59.,  60.,  61.,  62.,  63.,  64.,  65.,\n"
                           "        66.,  67.,  68.,  69.,  70.,  71.,  72.,  73.,  74.,  75.,  76.,\n"
                           "        77.,  78.,  79.,  80.,  81.,  82.,  83.,  84.,  85.,  86.,  87.,\n"
                           "        88.,  89.,  90.,  91.,  92.,  93.,  94.,  95.,  96.,  97.,  98.,\n"
                           "        99., 100., 101., 102., 103., 104., 105., 106., 107., 108., 109.,\n"
                           "       110., 111., 112., 113., 114., 115., 116., 117., 118., 119., 120.,\n"
                           "       121., 122., 123., 124., 125., 126., 127., 128., 129., 130., 131.,\n"
                           "       132., 133., 134., 135., 136., 137., 138., 139., 140., 141., 142.,\n"
                           "       143., 144., 145., 146., 147., 148., 149., 150., 151., 152., 153.,\n"
                           "       154., 155., 156., 157., 158., 159., 160., 161., 162., 163., 164.,\n"
                           "       165., 166., 167., 168., 169., 170., 171., 172., 173., 174., 175.,\n"
                           "       176., 177., 178., 179., 180., 181., 182., 183., 184., 185., 186.,\n"
                           "       187., 188., 189., 190., 191., 192., 193., 194., 195., 196., 197.,\n"
                           "       198., 199., 200., 201., 202., 203., 204., 205., 206., 207., 208.,\n"
                           "       209., 210., 211., 212., 213., 214., 215., 216., 217., 218., 219.,\n"
                           "       220., 221., 222., 223., 224., 225., 226., 227., 228., 229., 230.,\n"
                           "       231., 232., 233., 234., 235., 236., 237., 238., 239., 240., 241.,\n"
                           "       242., 243., 244., 245., 246., 247., 248., 249., 250., 251., 252.,\n"
                           "       253., 254., 255., 256., 257., 258., 259., 260., 261., 262., 263.,\n"
                           "       264., 265., 266., 267., 268., 269., 270., 271., 272., 273., 274.,\n"
                           "       275., 276., 277., 278., 279., 280., 281., 282., 283., 284., 285.,\n"
                           "       286., 287., 288., 289., 290., 291., 292., 293., 294., 295., 296.,\n"
                           "       297., 298., 299., 300., 301., 302., 303., 304., 305., 306., 307.,\n"
                           "       308., 309., 310., 311., 312., 313., 314., 315., 316., 317., 318.,\n"
                           "       319., 320., 321., 322., 323., 324., 325., 326., 327., 328., 329.,\n"
                           "       330., 331., 332., 333., 334., 335., 336., 337., 338., 339., 340.,\n"
                           "       341., 342., 343., 344., 345., 346., 347., 348., 349., 350., 351.,\n"
                           "       352., 353., 354., 355., 356., 357., 358., 359., 360., 361., 362.,\n"
                           "       363., 364., 365., 366., 367., 368., 369., 370., 371., 372., 373.,\n"
                           "       374., 375., 376., 377., 378., 379., 380., 381., 382., 383., 384.,\n"
                           "       385., 386., 387., 388., 389., 390., 391., 392., 393., 394., 395.,\n"
                           "       396., 397., 398., 399., 400., 401., 402., 403., 404., 405., 406.,\n"
                           "       407., 408., 409., 410., 411., 412., 413., 414., 415., 416., 417.,\n"
                           "       418., 419., 420., 421., 422., 423., 424., 425., 426., 427., 428.,\n"
                           "       429., 430., 431., 432., 433., 434., 435., 436., 437., 438., 439.,\n"
                           "       440., 441., 442., 443., 444., 445., 446., 447., 448., 449., 450.,\n"
                           "       451., 452., 453., 454., 455., 456., 457., 458., 459., 460., 461.,\n"
                           "       462., 463., 464., 465., 466., 467., 468., 469., 470., 471., 472.,\n"
                           "       473., 474., 475., 476., 477., 478., 479., 480., 481., 482., 483.,\n"
                           "       484., 485., 486., 487., 488., 489., 490., 491., 492., 493., 494.,\n"
                           "       495., 496., 497., 498., 499., 500., 501., 502., 503., 504., 505.,\n"
                           "       506., 507., 508., 509., 510., 511., 512., 513., 514., 515., 516.,\n"
                           "       517., 518., 519., 520., 521., 522., 523., 524., 525., 526., 527.,\n"
                           "       528., 529., 530., 531., 532., 533., 534., 535., 536., 537., 538.,\n"
                           "       539., 540., 541., 542., 543., 544., 545., 546., 547., 548., 549.,\n"
                           "       550., 551., 552., 553., 554., 555., 556., 557., 558., 559., 560.,\n"
                           "       561., 562., 563., 564., 565., 566., 567., 568., 569., 570., 571.,\n"
                           "       572., 573., 574., 575., 576., 577., 578., 579., 580., 581., 582.,\n"
                           "       583., 584., 585., 586., 587., 588., 589., 590., 591., 592., 593.,\n"
                           "       594., 595., 596., 597., 598., 599., 600., 601., 602., 603., 604.,\n"
                           "       605., 606., 607., 608., 609., 610., 611., 612., 613., 614., 615.,\n"
                           "       616., 617., 618., 619., 620., 621., 622., 623., 624., 625., 626.,\n"
                           "       627., 628., 629., 630., 631., 632., 633., 634., 635., 636., 637.,\n"
                           "       638., 639., 640., 641., 642., 643., 644., 645., 646., 647., 648.,\n"
                           "       649., 650., 651., 652., 653., 654., 655., 656., 657., 658., 659.,\n"
                           "       660., 661., 662., 663., 664., 665., 666., 667., 668., 669., 670.,\n"
                           "       671., 672., 673., 674., 675., 676., 677., 678., 679., 680., 681.,\n"
                           "       682., 683., 684., 685., 686., 687., 688., 689., 690., 691., 692.,\n"
                           "       693., 694., 695., 696., 697., 698., 699., 700., 701., 702., 703.,\n"
                           "       704., 705., 706., 707., 708., 709., 710., 711., 712., 713., 714.,\n"
                           "       715., 716., 717., 718., 719., 720., 721., 722., 723., 724., 725.,\n"
                           "       726., 727., 728., 729., 730., 731., 732., 733., 734., 735., 736.,\n"
                           "       737., 738., 739., 740., 741., 742., 743., 744., 745., 746., 747.,\n"
                           "       748., 749., 750., 751., 752., 753., 754., 755., 756., 757., 758.,\n"
                           "       759., 760., 761., 762., 763., 764., 765., 766., 767., 768., 769.,\n"
                           "       770., 771., 772., 773., 774., 775., 776., 777., 778., 779., 780.,\n"
                           "       781., 782., 783., 784., 785., 786., 787., 788., 789., 790., 791.,\n"
                           "       792., 793., 794., 795., 796., 797., 798., 799., 800., 801., 802.,\n"
                           "       803., 804., 805., 806., 807., 808., 809., 810., 811., 812., 813.,\n"
                           "       814., 815., 816., 817., 818., 819., 820., 821., 822., 823., 824.,\n"
                           "       825., 826., 827., 828., 829., 830., 831., 832., 833., 834., 835.,\n"
                           "       836., 837., 838., 839., 840., 841., 842., 843., 844., 845., 846.,\n"
                           "       847., 848., 849., 850., 851., 852., 853., 854., 855., 856., 857.,\n"
                           "       858., 859., 860., 861., 862., 863., 864., 865., 866., 867., 868.,\n"
                           "       869., 870., 871., 872., 873., 874., 875., 876., 877., 878., 879.,\n"
                           "       880., 881., 882., 883., 884., 885., 886., 887., 888., 889., 890.,\n"
                           "       891., 892., 893., 894., 895., 896., 897., 898., 899., 900., 901.,\n"
                           "       902., 903., 904., 905., 906., 907., 908., 909., 910., 911., 912.,\n"
                           "       913., 914., 915., 916., 917., 918., 919., 920., 921., 922., 923.,\n"
                           "       924., 925., 926., 927., 928., 929., 930., 931., 932., 933., 934.,\n"
                           "       935., 936., 937., 938., 939., 940., 941., 942., 943., 944., 945.,\n"
                           "       946., 947., 948., 949., 950., 951., 952., 953., 954., 955., 956.,\n"
                           "       957., 958., 959., 960., 961., 962., 963., 964., 965., 966., 967.,\n"
                           "       968., 969., 970., 971., 972., 973., 974., 975., 976., 977., 978.,\n"
                           "       979., 980., 981., 982., 983., 984., 985., 986., 987., 988., 989.,\n"
                           "       990., 991., 992., 993., 994., 995., 996., 997., 998., 999.],\n"
                           "      dtype=float32)>",
         /* tf_print */ "[0 1 2 ... 997 998 999]",
     }},
};

static mf_tensor *case_tensor(const format_case *c) {
  mf_tensor *t;
  mf_error err;
  if (mf_tensor_new(c->dtype, c->rank, c->shape, &t, &err) != MF_OK) return NULL;
  for (int64_t k = 0; k < t->size; k++) {
    if (c->dtype == MF_STRING)
      mf_string_set(&MF_DATA(t, mf_string)[k], c->s[k].p, c->s[k].len, &err);
    else if (c->f)
      mf_tensor_set_f64(t, k, c->f[k]);
    else if (c->i)
      mf_tensor_set_i64(t, k, c->i[k]);
    else if (c->dtype == MF_BOOL)
      mf_tensor_set_i64(t, k, k % 3 == 0);
    else
      mf_tensor_set_f64(t, k, (double)k * c->step);
  }
  return t;
}

static void print_escaped(const char *s) {
  putchar('"');
  for (; s && *s; s++) {
    if (*s == '\n')
      fputs("\\n", stdout);
    else
      putchar(*s);
  }
  puts("\"");
}

/* Compares and frees `got`. */
static void check_text(const char *what, char *got, const char *want) {
  if (!got || strcmp(got, want) != 0) {
    printf("#   %s differs\n#     got:  ", what);
    print_escaped(got ? got : "(NULL)");
    printf("#     want: ");
    print_escaped(want);
    check_current_failed = 1;
  }
  free(got);
}

static void check_case(const format_case *c) {
  mf_tensor *t = case_tensor(c);
  CHECK(t != NULL);
  if (!t) return;
  check_text("numpy str", mf_format_numpy_str(t), c->expect[0]);
  check_text("numpy repr", mf_format_numpy_repr(t), c->expect[1]);
  check_text("tensor str", mf_format_tensor_str(t), c->expect[2]);
  check_text("tensor repr", mf_format_tensor_repr(t), c->expect[3]);
  check_text("tf.print", mf_format_tf_print(t, 3), c->expect[4]);
  mf_tensor_release(t);
}

/* One TAP line per table row, so a failure names its case. */
static void run_cases(void) {
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    check_current_failed = 0;
    check_case(&cases[k]);
    check_count++;
    if (check_current_failed) check_failed++;
    printf("%s %d - %s\n", check_current_failed ? "not ok" : "ok", check_count, cases[k].name);
  }
}

static mf_tensor *int32_range(int rank, const int64_t *shape) {
  mf_tensor *t;
  mf_error err;
  if (mf_tensor_new(MF_INT32, rank, shape, &t, &err) != MF_OK) return NULL;
  for (int64_t k = 0; k < t->size; k++) mf_tensor_set_i64(t, k, k);
  return t;
}

static void test_tf_print_summarize(void) {
  mf_tensor *v = int32_range(1, (int64_t[]){10});
  check_text("summarize 3", mf_format_tf_print(v, 3), "[0 1 2 ... 7 8 9]");
  check_text("summarize -1", mf_format_tf_print(v, -1), "[0 1 2 3 4 5 6 7 8 9]");
  check_text("summarize 5", mf_format_tf_print(v, 5), "[0 1 2 3 4 5 6 7 8 9]");
  check_text("summarize 1", mf_format_tf_print(v, 1), "[0 ... 9]");
  check_text("summarize 0", mf_format_tf_print(v, 0), "[ ...]");
  mf_tensor_release(v);
  mf_tensor *m = int32_range(2, (int64_t[]){4, 5});
  check_text("matrix 1", mf_format_tf_print(m, 1), "[[0 ... 4]\n ...\n [15 ... 19]]");
  check_text("matrix 2", mf_format_tf_print(m, 2),
             "[[0 1 ... 3 4]\n [5 6 ... 8 9]\n [10 11 ... 13 14]\n [15 16 ... 18 19]]");
  mf_tensor_release(m);
  mf_tensor *c = int32_range(3, (int64_t[]){2, 3, 4});
  check_text("3-d 1", mf_format_tf_print(c, 1),
             "[[[0 ... 3]\n  ...\n  [8 ... 11]]\n\n [[12 ... 15]\n  ...\n  [20 ... 23]]]");
  mf_tensor_release(c);
  mf_tensor *s;
  mf_error err;
  CHECK_OK(mf_tensor_scalar_i64(MF_INT32, 5, &s, &err));
  check_text("scalar, summarize 0", mf_format_tf_print(s, 0), "...");
  mf_tensor_release(s);
}

/* TF's quirks, kept: a bool summary that reads no data is empty, and an
 * empty tensor summarised to zero items per axis still shows "...". */
static void test_tf_print_edges(void) {
  mf_tensor *b, *e;
  mf_error err;
  CHECK_OK(mf_tensor_zeros(MF_BOOL, 1, (int64_t[]){2}, &b, &err));
  check_text("bool, summarize 0", mf_format_tf_print(b, 0), "");
  MF_DATA(b, unsigned char)[1] = 2; /* any nonzero byte is true */
  check_text("bool byte 2", mf_format_tf_print(b, 3), "[0 1]");
  check_text("bool byte 2 str", mf_format_numpy_str(b), "[False  True]");
  mf_tensor_release(b);
  CHECK_OK(mf_tensor_zeros(MF_FLOAT32, 2, (int64_t[]){2, 0}, &e, &err));
  check_text("2x0", mf_format_tf_print(e, 3), "[\n ...]");
  check_text("2x0 str", mf_format_numpy_str(e), "[]");
  mf_tensor_release(e);
}

static void test_tf_print_numbers(void) {
  static const double f32[] = {0.1, 1.0 / 3, 1e-5, 1e8, -0.0, NAN, -INFINITY, 2.5, 30.8};
  static const double f64[] = {0.1, 1.0 / 3, 2.5, 1e100, 9007199254740993.0, 1e-320};
  mf_tensor *a, *b;
  mf_error err;
  CHECK_OK(mf_tensor_new(MF_FLOAT32, 1, (int64_t[]){9}, &a, &err));
  for (int k = 0; k < 9; k++) mf_tensor_set_f64(a, k, f32[k]);
  check_text("float32", mf_format_tf_print(a, -1),
             "[0.1 0.333333343 1e-05 1e+08 -0 nan -inf 2.5 30.8]");
  mf_tensor_release(a);
  CHECK_OK(mf_tensor_new(MF_FLOAT64, 1, (int64_t[]){6}, &b, &err));
  for (int k = 0; k < 6; k++) mf_tensor_set_f64(b, k, f64[k]);
  check_text("float64", mf_format_tf_print(b, -1),
             "[0.1 0.33333333333333331 2.5 1e+100 9007199254740992 9.99988867182683e-321]");
  mf_tensor_release(b);
}

static void test_views(void) {
  mf_tensor *base = int32_range(1, (int64_t[]){6}), *row;
  mf_error err;
  CHECK_OK(mf_tensor_view(base, 2, (int64_t[]){2, 2}, 2, &row, &err));
  check_text("view str", mf_format_numpy_str(row), "[[2 3]\n [4 5]]");
  check_text("view tf.print", mf_format_tf_print(row, 3), "[[2 3]\n [4 5]]");
  mf_tensor_release(row);
  mf_tensor_release(base);
}

static void test_resource(void) {
  mf_tensor *init, *h, *hv, *h0;
  mf_variable *v;
  mf_error err;
  CHECK_OK(mf_tensor_scalar_f64(MF_FLOAT32, 1, &init, &err));
  CHECK_OK(mf_variable_new("v", init, true, &v, &err));
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 0, NULL, &h, &err));
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 1, (int64_t[]){2}, &hv, &err));
  CHECK_OK(mf_tensor_new(MF_RESOURCE, 1, (int64_t[]){0}, &h0, &err));
  mf_variable_retain(v);
  MF_DATA(h, mf_variable *)[0] = v;
  mf_variable_retain(v);
  MF_DATA(hv, mf_variable *)[0] = v; /* element 1 left empty: must not crash */
  check_text("numpy str", mf_format_numpy_str(h), "<ResourceHandle>");
  check_text("numpy repr", mf_format_numpy_repr(hv), "<ResourceHandle>");
  check_text("tensor str", mf_format_tensor_str(h),
             "tf.Tensor(<ResourceHandle>, shape=(), dtype=resource)");
  check_text("tensor repr", mf_format_tensor_repr(hv),
             "<tf.Tensor: shape=(2,), dtype=resource, numpy=<ResourceHandle>>");
  check_text("tf.print", mf_format_tf_print(h, 3), "<ResourceHandle(name=\"v\")>");
  check_text("tf.print vector", mf_format_tf_print(hv, 1), "[<ResourceHandle(name=\"v\")>...]");
  check_text("tf.print all", mf_format_tf_print(hv, -1),
             "[<ResourceHandle(name=\"v\")> <ResourceHandle(name=\"\")>]");
  check_text("tf.print empty", mf_format_tf_print(h0, 3), "[]");
  check_text("empty str", mf_format_tensor_str(h0),
             "tf.Tensor(<ResourceHandle>, shape=(0,), dtype=resource)");
  mf_tensor_release(h0);
  mf_tensor_release(hv);
  mf_tensor_release(h);
  mf_variable_release(v);
  mf_tensor_release(init);
}

/* Runs StringFormat eagerly; returns the text (malloc'd) or NULL with the
 * status in *status. */
static char *string_format(const char *tmpl, const char *ph, int64_t summarize, int nin,
                           mf_tensor **in, mf_status *status) {
  mf_attrs attrs;
  mf_error err;
  mf_spec specs[4];
  mf_attrs_init(&attrs);
  if (tmpl) mf_attrs_set_string(&attrs, "template", tmpl, &err);
  if (ph) mf_attrs_set_string(&attrs, "placeholder", ph, &err);
  if (summarize != 3) mf_attrs_set_int(&attrs, "summarize", summarize, &err);
  for (int k = 0; k < nin; k++) mf_spec_of_tensor(in[k], &specs[k]);
  mf_op_call c;
  mf_op_call_init(&c, &mf_op_StringFormat, nin, specs, in, &attrs);
  *status = mf_op_execute(&c, &err);
  char *text = NULL;
  if (*status == MF_OK) {
    mf_tensor *out = mf_op_call_take_output(&c, 0);
    CHECK(out->dtype == MF_STRING && out->rank == 0);
    text = strdup(MF_DATA(out, mf_string)->ptr);
    mf_tensor_release(out);
  }
  mf_op_call_free(&c);
  mf_attrs_free(&attrs);
  return text;
}

static void test_string_format(void) {
  mf_tensor *v, *x, *s;
  mf_error err;
  mf_status st;
  CHECK_OK(mf_tensor_new(MF_INT32, 1, (int64_t[]){4}, &v, &err));
  for (int k = 0; k < 4; k++) mf_tensor_set_i64(v, k, (int64_t[]){1, 100, 100, 3}[k]);
  CHECK_OK(mf_tensor_scalar_f64(MF_FLOAT32, 2.5, &x, &err));
  CHECK_OK(mf_tensor_scalar_string("a\"b", 3, &s, &err));
  check_text("two placeholders",
             string_format("Executing with {} and {}!", "{}", 3, 2, (mf_tensor *[]){v, x}, &st),
             "Executing with [1 100 100 3] and 2.5!");
  check_text("op defaults", string_format(NULL, NULL, 3, 1, (mf_tensor *[]){x}, &st), "2.5");
  check_text("summarize", string_format("{}", "{}", 1, 1, (mf_tensor *[]){v}, &st), "[1 ... 3]");
  check_text("string input", string_format("s={}", "{}", 3, 1, (mf_tensor *[]){s}, &st),
             "s=\"a\\\"b\"");
  check_text("no inputs", string_format("plain", "{}", 3, 0, NULL, &st), "plain");
  CHECK(string_format("{} {}", "{}", 3, 1, (mf_tensor *[]){v}, &st) == NULL);
  CHECK(st == MF_ERR_INVALID_ARGUMENT);
  CHECK(string_format("{}", "", 3, 1, (mf_tensor *[]){v}, &st) == NULL);
  CHECK(st == MF_ERR_INVALID_ARGUMENT);
  mf_tensor_release(v);
  mf_tensor_release(x);
  mf_tensor_release(s);
}

/* Tracing: no input values, unknown shapes; the count is an attribute
 * matter, and the output is always a string scalar. */
static void test_string_format_infer(void) {
  mf_attrs attrs;
  mf_error err;
  mf_spec specs[2] = {{.dtype = MF_FLOAT32, .rank = -1},
                      {.dtype = MF_INT32, .rank = 2, .shape = {-1, 3}}};
  mf_tensor *in[2] = {NULL, NULL};
  mf_attrs_init(&attrs);
  mf_attrs_set_string(&attrs, "template", "a={} b={}", &err);
  mf_attrs_set_string(&attrs, "placeholder", "{}", &err);
  mf_op_call c;
  mf_op_call_init(&c, &mf_op_StringFormat, 2, specs, in, &attrs);
  CHECK_OK(mf_op_infer(&c, &err));
  CHECK(c.nout == 1 && c.out_specs[0].dtype == MF_STRING && c.out_specs[0].rank == 0);
  mf_op_call_free(&c);
  mf_op_call_init(&c, &mf_op_StringFormat, 1, specs, in, &attrs);
  CHECK(mf_op_infer(&c, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "num placeholders in template and num inputs must match: 2 vs. 1") ==
        0);
  mf_op_call_free(&c);
  mf_attrs_free(&attrs);
  CHECK(mf_op_lookup("StringFormat") == &mf_op_StringFormat);
  CHECK(mf_op_StringFormat.flags & MF_OP_NO_GRADIENT);
}

int main(void) {
  run_cases();
  RUN(test_tf_print_summarize);
  RUN(test_tf_print_edges);
  RUN(test_tf_print_numbers);
  RUN(test_views);
  RUN(test_resource);
  RUN(test_string_format);
  RUN(test_string_format_infer);
  return CHECK_DONE();
}
