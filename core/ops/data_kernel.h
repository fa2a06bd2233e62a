/* data_kernel.h — the kernel helpers every dataset op shares (ops_data.c,
 * ops_nested.c): checking inputs, reading the element spec and function
 * attributes, and handing a new dataset out as a scalar variant. */
#ifndef MF_DATA_KERNEL_H
#define MF_DATA_KERNEL_H

#include "dataset.h"
#include "op.h"

/* A kernel failure with TF's eager suffix " [Op:NAME]" (once). */
mf_status mf_data_op_failed(const mf_op_call *c, mf_status s, mf_error *err);
/* The op's one output: a scalar variant. */
mf_status mf_data_op_variant_output(mf_op_call *c, mf_error *err);
mf_status mf_data_op_need_dtype(const mf_op_call *c, int i, mf_dtype dt, const char *what,
                                mf_error *err);
mf_status mf_data_op_need_scalar(const mf_op_call *c, int i, mf_dtype dt, const char *what,
                                 mf_error *err);
/* Input i's dataset (borrowed from the variant). */
mf_status mf_data_op_input_dataset(const mf_op_call *c, int i, mf_dataset **ds, mf_error *err);
static inline int64_t mf_data_i64(const mf_op_call *c, int i) {
  return mf_tensor_get_i64(c->in[i], 0);
}
/* Every dataset op's kernel ends here: `made` is the status of making
 * ds; on success ds (whose reference this takes) becomes the output. */
mf_status mf_data_op_output(mf_op_call *c, mf_status made, mf_dataset *ds, mf_error *err);
/* The element spec attributes output_types and output_shapes into spec;
 * n = -1 when the op has neither. */
mf_status mf_data_op_spec_attrs(const mf_op_call *c, int *n, mf_spec *spec, mf_error *err);
/* The function graph attribute `name`, or NULL. */
const mf_graph *mf_data_op_fn(const mf_op_call *c, const char *name);

#endif
