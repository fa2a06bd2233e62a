/* dtype.h — element types of moonflow tensors.
 *
 * One tensor type carries its dtype at run time (no class per dtype).
 * Numeric dtypes store plain C values; MF_STRING stores mf_string records
 * (each owning its bytes); MF_RESOURCE stores mf_variable pointers (each a
 * counted reference). */
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
  MF_DTYPE_COUNT
} mf_dtype;

/* A string element: owns `len` bytes at `ptr` (not NUL-terminated in
 * general, though moonflow always allocates one extra NUL byte). */
typedef struct mf_string {
  char *ptr;
  size_t len;
} mf_string;

size_t mf_dtype_size(mf_dtype dt);
/* "float32", "int32", ... as TensorFlow spells them. */
const char *mf_dtype_name(mf_dtype dt);
/* Returns false when `name` is not a dtype name. */
bool mf_dtype_from_name(const char *name, mf_dtype *out);
bool mf_dtype_is_float(mf_dtype dt);
bool mf_dtype_is_integer(mf_dtype dt);
/* float or integer: what arithmetic kernels accept. */
bool mf_dtype_is_numeric(mf_dtype dt);

#endif
