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
    [MF_FLOAT16] = {"float16", sizeof(uint16_t)},
    [MF_BFLOAT16] = {"bfloat16", sizeof(uint16_t)},
    [MF_INT8] = {"int8", sizeof(int8_t)},
    [MF_INT16] = {"int16", sizeof(int16_t)},
    [MF_UINT8] = {"uint8", sizeof(uint8_t)},
    [MF_UINT16] = {"uint16", sizeof(uint16_t)},
    [MF_UINT32] = {"uint32", sizeof(uint32_t)},
    [MF_UINT64] = {"uint64", sizeof(uint64_t)},
};

size_t mf_dtype_size(mf_dtype dt) { return dtype_info[dt].size; }

const char *mf_dtype_name(mf_dtype dt) {
  return (unsigned)dt < MF_DTYPE_COUNT ? dtype_info[dt].name : "invalid";
}

const char *mf_dtype_kernel_name(mf_dtype dt) {
  switch (dt) {
    case MF_FLOAT32: return "float";
    case MF_FLOAT64: return "double";
    case MF_FLOAT16: return "half";
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

bool mf_dtype_is_any_float(mf_dtype dt) {
  return mf_dtype_is_float(dt) || dt == MF_FLOAT16 || dt == MF_BFLOAT16;
}

bool mf_dtype_is_unsigned(mf_dtype dt) {
  return dt == MF_UINT8 || dt == MF_UINT16 || dt == MF_UINT32 || dt == MF_UINT64;
}

bool mf_dtype_is_any_integer(mf_dtype dt) {
  return mf_dtype_is_integer(dt) || dt == MF_INT8 || dt == MF_INT16 || mf_dtype_is_unsigned(dt);
}

const char *mf_dtype_enum_name(mf_dtype dt) {
  static const char *const names[MF_DTYPE_COUNT] = {
      [MF_FLOAT32] = "DT_FLOAT",   [MF_FLOAT64] = "DT_DOUBLE",   [MF_INT32] = "DT_INT32",
      [MF_INT64] = "DT_INT64",     [MF_BOOL] = "DT_BOOL",        [MF_STRING] = "DT_STRING",
      [MF_RESOURCE] = "DT_RESOURCE", [MF_VARIANT] = "DT_VARIANT", [MF_FLOAT16] = "DT_HALF",
      [MF_BFLOAT16] = "DT_BFLOAT16", [MF_INT8] = "DT_INT8",      [MF_INT16] = "DT_INT16",
      [MF_UINT8] = "DT_UINT8",     [MF_UINT16] = "DT_UINT16",    [MF_UINT32] = "DT_UINT32",
      [MF_UINT64] = "DT_UINT64",
  };
  return (unsigned)dt < MF_DTYPE_COUNT ? names[dt] : "DT_INVALID";
}

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
