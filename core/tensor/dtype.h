/* dtype.h — element types of moonflow tensors.
 *
 * One tensor type carries its dtype at run time (no class per dtype).
 * Numeric dtypes store plain C values; MF_STRING stores mf_string records
 * (each owning its bytes); MF_RESOURCE stores mf_variable pointers (each a
 * counted reference); MF_VARIANT (TF's DT_VARIANT) stores mf_variant
 * pointers, each a counted reference to an object the dtype knows only by
 * its header (a dataset, an iterator, an optional: core/data/). */
#ifndef MF_DTYPE_H
#define MF_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum mf_dtype {
  MF_FLOAT32,
  MF_FLOAT64,
  MF_INT32,
  MF_INT64,
  MF_BOOL,
  MF_STRING,
  MF_RESOURCE,
  MF_VARIANT,
  /* The small and half-precision dtypes (after the rest, so the codes
   * above never move). The arithmetic kernels compute them through a
   * wider dtype (dtype_widen.h); data-moving kernels copy their bytes. */
  MF_FLOAT16,  /* IEEE half: TF's half, Eigen::half */
  MF_BFLOAT16, /* the top 16 bits of a float32 */
  MF_INT8,
  MF_INT16,
  MF_UINT8,
  MF_UINT16,
  MF_UINT32,
  MF_UINT64,
  MF_DTYPE_COUNT
} mf_dtype;

/* A string element: owns `len` bytes at `ptr` (not NUL-terminated in
 * general, though moonflow always allocates one extra NUL byte). */
typedef struct mf_string {
  char *ptr;
  size_t len;
} mf_string;

/* The header every variant object starts with. The count is atomic: a
 * dataset is shared by the thread that made it and the producer threads
 * of its prefetching iterators. free runs when the last reference goes. */
typedef struct mf_variant_type {
  const char *name; /* what holds the value: "Dataset", "Iterator", "Optional" */
  void (*free)(void *obj);
} mf_variant_type;

typedef struct mf_variant {
  _Atomic long refcount;
  const mf_variant_type *type;
} mf_variant;

/* Sets the header of a new object: one reference, held by the caller. */
void mf_variant_init(mf_variant *v, const mf_variant_type *type);
void mf_variant_retain(mf_variant *v);   /* NULL: nothing */
void mf_variant_release(mf_variant *v);  /* NULL: nothing */

size_t mf_dtype_size(mf_dtype dt);
/* "float32", "int32", ... as TensorFlow spells them. */
const char *mf_dtype_name(mf_dtype dt);
/* TF's DataTypeString, in its kernel messages: "float", "double", "int32". */
const char *mf_dtype_kernel_name(mf_dtype dt);
/* Returns false when `name` is not a dtype name. */
bool mf_dtype_from_name(const char *name, mf_dtype *out);
/* float32/64, int32/64: the dtypes the numeric kernels compute in (the
 * others reach them widened: dtype_widen.h). */
bool mf_dtype_is_float(mf_dtype dt);
bool mf_dtype_is_integer(mf_dtype dt);
/* float or integer: what arithmetic kernels accept. */
bool mf_dtype_is_numeric(mf_dtype dt);
/* Every real number dtype, as TF's is_floating / is_integer say. */
bool mf_dtype_is_any_float(mf_dtype dt);
bool mf_dtype_is_any_integer(mf_dtype dt);
bool mf_dtype_is_unsigned(mf_dtype dt);
/* TF's enum name: "DT_HALF", "DT_UINT8", as its kernel-lookup errors print. */
const char *mf_dtype_enum_name(mf_dtype dt);

/* A double converted to an integer as TensorFlow's static_cast does on
 * x86 (cvttsd2si): truncated toward zero, and the minimum integer (the
 * "integer indefinite") for NaN and anything out of range. C leaves those
 * undefined, so the range is checked first. */
static inline int32_t mf_f64_to_i32(double v) {
  return v >= -0x1p31 && v < 0x1p31 ? (int32_t)v : INT32_MIN;
}
static inline int64_t mf_f64_to_i64(double v) {
  return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : INT64_MIN;
}

#endif
