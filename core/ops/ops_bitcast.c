/* ops_bitcast.c — Bitcast: a tensor's bytes read as another dtype.
 *
 * TF's rules: equal element sizes keep the shape; a larger input element
 * adds a last dimension of in/out elements; a smaller one needs a last
 * dimension of exactly out/in elements, which goes. Bytes are copied as
 * they lie (little-endian on every machine moonflow builds for). */
#include <string.h>

#include "array_util.h"
#include "op.h"

/* The dtypes TF's Bitcast takes: the numeric ones (no bool, no string). */
static bool bitcastable(mf_dtype dt) {
  return mf_dtype_is_any_float(dt) || mf_dtype_is_any_integer(dt);
}

/* TF_DataType's numbers, which the kernel's message prints. */
static int tf_enum(mf_dtype dt) {
  static const int codes[MF_DTYPE_COUNT] = {
      [MF_FLOAT32] = 1,  [MF_FLOAT64] = 2, [MF_INT32] = 3,   [MF_UINT8] = 4,
      [MF_INT16] = 5,    [MF_INT8] = 6,    [MF_STRING] = 7,  [MF_INT64] = 9,
      [MF_BOOL] = 10,    [MF_BFLOAT16] = 14, [MF_UINT16] = 17, [MF_FLOAT16] = 19,
      [MF_RESOURCE] = 20, [MF_VARIANT] = 21, [MF_UINT32] = 22, [MF_UINT64] = 23,
  };
  return codes[dt];
}

static mf_status bitcast_infer(mf_op_call *c, mf_error *err) {
  mf_dtype in = c->in_specs[0].dtype, out = mf_attr_type(c->attrs, "type", MF_DTYPE_COUNT);
  if ((unsigned)out >= MF_DTYPE_COUNT)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Bitcast needs a 'type' attribute");
  MF_TRY(mf_infer_check_dtype(c, 0, bitcastable, "numeric", err));
  if (!bitcastable(out))
    return mf_error_set(err, MF_ERR_TYPE,
                        "Value passed to parameter 'type' has DataType %s not in list of allowed "
                        "values",
                        mf_dtype_name(out));
  const mf_spec *x = &c->in_specs[0];
  size_t in_size = mf_dtype_size(in), out_size = mf_dtype_size(out);
  mf_spec o = *x;
  o.dtype = out;
  if (in_size > out_size && x->rank >= 0) {
    if (x->rank + 1 > MF_MAX_RANK)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Bitcast would give rank %d", x->rank + 1);
    o.shape[o.rank++] = (int64_t)(in_size / out_size);
  } else if (in_size < out_size && x->rank >= 0) {
    int64_t want = (int64_t)(out_size / in_size), last = x->rank ? x->shape[x->rank - 1] : 0;
    bool fits = x->rank > 0 && (last == want || last == MF_UNKNOWN_DIM);
    /* While a graph is built: TF's shape function, its message (which the
     * builder makes TF's ValueError naming the node). */
    if (!fits && c->building)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Cannot bitcast from %s to %s due to shape. %lld does not match %lld",
                          mf_dtype_name(in), mf_dtype_name(out), (long long)last,
                          (long long)want);
    if (!fits)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Cannot bitcast from %d to %d",
                        tf_enum(in), tf_enum(out));
    o.rank--;
  }
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = o;
  return MF_OK;
}

static mf_status bitcast_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  size_t bytes = (size_t)c->in[0]->size * mf_dtype_size(c->in[0]->dtype);
  if (bytes) memcpy(mf_tensor_data(out), mf_tensor_data(c->in[0]), bytes);
  return MF_OK;
}

const mf_op_def mf_op_Bitcast = {
    .name = "Bitcast", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"type", MF_ATTR_TYPE}}, .infer = bitcast_infer, .kernel = bitcast_kernel,
    .flags = MF_OP_NO_GRADIENT, .tf_attrs = "T:0 type",
    .doc = "Reads the bytes of input as dtype `type` (TF's shape rules when the sizes differ).",
};
