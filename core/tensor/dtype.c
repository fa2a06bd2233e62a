#include "dtype.h"

#include <stdatomic.h>
#include <string.h>

#include "variable.h"

static const struct {
  const char *name;
  size_t size;
} dtype_info[MF_DTYPE_COUNT] = {
    [MF_FLOAT32] = {"float32", sizeof(float)},
    [MF_FLOAT64] = {"float64", sizeof(double)},
    [MF_INT32] = {"int32", sizeof(int32_t)},
    [MF_INT64] = {"int64", sizeof(int64_t)},
    [MF_BOOL] = {"bool", sizeof(bool)},
    [MF_STRING] = {"string", sizeof(mf_string)},
    [MF_RESOURCE] = {"resource", sizeof(mf_variable *)},
    [MF_VARIANT] = {"variant", sizeof(mf_variant *)},
};

size_t mf_dtype_size(mf_dtype dt) { return dtype_info[dt].size; }

const char *mf_dtype_name(mf_dtype dt) {
  return (unsigned)dt < MF_DTYPE_COUNT ? dtype_info[dt].name : "invalid";
}

const char *mf_dtype_kernel_name(mf_dtype dt) {
  switch (dt) {
    case MF_FLOAT32: return "float";
    case MF_FLOAT64: return "double";
    default: return mf_dtype_name(dt);
  }
}

bool mf_dtype_from_name(const char *name, mf_dtype *out) {
  for (int i = 0; i < MF_DTYPE_COUNT; i++) {
    if (strcmp(name, dtype_info[i].name) == 0) {
      *out = (mf_dtype)i;
      return true;
    }
  }
  return false;
}

bool mf_dtype_is_float(mf_dtype dt) { return dt == MF_FLOAT32 || dt == MF_FLOAT64; }
bool mf_dtype_is_integer(mf_dtype dt) { return dt == MF_INT32 || dt == MF_INT64; }
bool mf_dtype_is_numeric(mf_dtype dt) { return mf_dtype_is_float(dt) || mf_dtype_is_integer(dt); }

void mf_variant_init(mf_variant *v, const mf_variant_type *type) {
  atomic_init(&v->refcount, 1);
  v->type = type;
}

void mf_variant_retain(mf_variant *v) {
  if (v) atomic_fetch_add(&v->refcount, 1);
}

void mf_variant_release(mf_variant *v) {
  if (v && atomic_fetch_sub(&v->refcount, 1) == 1) v->type->free(v);
}
