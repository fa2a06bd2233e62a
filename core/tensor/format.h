/* format.h — the printed forms of a tensor's value.
 *
 * Two families, because TensorFlow itself has two:
 *   - NumPy's text (what TF's str/repr embed): str(t.numpy()) and
 *     repr(t.numpy()) exactly as NumPy >= 1.24 prints them with default
 *     print options (precision 8, threshold 1000, edgeitems 3, linewidth 75,
 *     floatmode "maxprec"), and TF's `tf.Tensor(...)` / `<tf.Tensor: ...>`
 *     wrappers around them. String tensors print as NumPy prints TF's object
 *     arrays of bytes (b'..'); resource tensors, which NumPy cannot hold,
 *     print as the placeholder <ResourceHandle>.
 *   - TF's C++ Tensor::SummarizeValue(summarize, print_v2=true): the text
 *     tf.print and the StringFormat op produce (`[1 2 ... 9 10]`, floats as
 *     %g with 6 then 9 digits, bools as 1/0, strings quoted and C-escaped).
 *
 * Every function borrows `t`, never fails on any dtype or shape (zero-size
 * included), and returns a malloc'd NUL-terminated string the caller frees,
 * or NULL when memory runs out. */
#ifndef MF_FORMAT_H
#define MF_FORMAT_H

#include "tensor.h"

/* str(t.numpy()): "[4 1]", "[[1 2]\n [3 4]]", "2.2", "[ True False]",
 * "[b'a' b'bc']". */
char *mf_format_numpy_str(const mf_tensor *t);
/* repr(t.numpy()): "array([4, 1], dtype=int32)", "array([1., 2.])"; a
 * rank-0 tensor gives its bare scalar ("2.2", "b'aa'", "True"), as TF's
 * numpy() returns a NumPy scalar there. */
char *mf_format_numpy_repr(const mf_tensor *t);
/* TF's str: "tf.Tensor([4 1], shape=(2,), dtype=int32)"; a value spanning
 * lines starts on a new line after "tf.Tensor(". */
char *mf_format_tensor_str(const mf_tensor *t);
/* TF's repr: "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 1], dtype=int32)>". */
char *mf_format_tensor_repr(const mf_tensor *t);
/* How tf.print / StringFormat show a tensor: at most `summarize` items at
 * each end of every axis (-1: all). */
char *mf_format_tf_print(const mf_tensor *t, int summarize);
/* strings::AlphaNum of a float (single) or double, as TF's messages print
 * numbers (FloatToBuffer, DoubleToBuffer): %g with FLT_DIG/DBL_DIG digits,
 * more when that does not read back. Written to buf (64 bytes suffice). */
void mf_format_tf_float(double x, bool single, char *buf, size_t n);

#endif
