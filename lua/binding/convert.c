/* convert.c — dtype objects and the conversion of Lua values (numbers,
 * booleans, strings, nested sequence tables) into eager tensors, following
 * API.md: integer -> int32 (int64 when it does not fit), float -> float32,
 * boolean -> bool, string -> string; ragged tables are a ValueError. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "binding.h"

#define MFL_DTYPES "moonflow.dtypes"
#define MFL_NONE "moonflow.None"
#define MFL_DTYPE "moonflow.DType"

void mfL_push_dtype(lua_State *L, mf_dtype dt) {
  lua_getfield(L, LUA_REGISTRYINDEX, MFL_DTYPES);
  lua_rawgeti(L, -1, (lua_Integer)dt + 1);
  lua_remove(L, -2);
}

int mfL_to_dtype(lua_State *L, int idx) {
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return -1;
  luaL_getmetatable(L, MFL_DTYPE);
  int is = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!is) return -1;
  lua_getfield(L, idx, "_enum");
  int dt = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return dt;
}

mf_dtype mfL_check_dtype(lua_State *L, int idx) {
  int dt = mfL_to_dtype(L, idx);
  if (dt < 0) {
    if (lua_type(L, idx) == LUA_TSTRING) {
      mf_dtype named;
      if (mf_dtype_from_name(lua_tostring(L, idx), &named)) return named;
    }
    mfL_raise(L, "TypeError", "expected a dtype such as tf.float32, got %s", luaL_typename(L, idx));
  }
  return (mf_dtype)dt;
}

/* What a scan of a nested table found. */
typedef struct scan {
  int rank;
  int64_t shape[MF_MAX_RANK];
  bool has_int, has_float, has_bool, has_string, int_overflows;
} scan;

static bool is_sequence(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TTABLE && !mfL_test_tensor(L, idx);
}

static mf_status scan_shape(lua_State *L, int idx, scan *sc, mf_error *err) {
  sc->rank = 0;
  idx = lua_absindex(L, idx);
  lua_pushvalue(L, idx);
  while (is_sequence(L, -1)) {
    if (sc->rank == MF_MAX_RANK) {
      lua_pop(L, 1);
      return mf_error_set(err, MF_ERR_VALUE, "nested tables deeper than %d levels", MF_MAX_RANK);
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    sc->shape[sc->rank++] = n;
    if (n == 0) break;
    lua_rawgeti(L, -1, 1);
    lua_remove(L, -2);
  }
  lua_pop(L, 1);
  return MF_OK;
}

/* A ValueError unless the table at the top has no keys but 1..n (n its
 * length): {a = 1} or {1, 2, b = 3} would otherwise convert as if the
 * other keys were not there. TF refuses a dict the same way. */
static mf_status sequence_keys_only(lua_State *L, lua_Integer n, mf_error *err) {
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_Integer k;
    bool in_seq = lua_isinteger(L, -1) && (k = lua_tointeger(L, -1)) >= 1 && k <= n;
    if (!in_seq) {
      char key[64];
      if (lua_type(L, -1) == LUA_TSTRING)
        snprintf(key, sizeof key, "\"%.40s\"", lua_tostring(L, -1));
      else if (lua_type(L, -1) == LUA_TNUMBER)
        snprintf(key, sizeof key, "%.17g", (double)lua_tonumber(L, -1));
      else
        snprintf(key, sizeof key, "a %s", luaL_typename(L, -1));
      lua_pop(L, 1);
      return mf_error_set(err, MF_ERR_VALUE,
                          "Can't convert a Lua table with the key %s to a Tensor: only sequences "
                          "(keys 1..n, nested for more dimensions) convert",
                          key);
    }
  }
  return MF_OK;
}

static mf_status ragged(int axis, mf_error *err) {
  return mf_error_set(err, MF_ERR_VALUE,
                      "Can't convert non-rectangular Lua sequence to Tensor (ragged at axis %d)",
                      axis);
}

/* Checks that the value at the top matches the scanned shape from `axis`,
 * noting the element kinds. */
static mf_status scan_check(lua_State *L, int axis, scan *sc, mf_error *err) {
  mfL_checkstack(L, 4, "nested table");
  if (axis == sc->rank) {
    switch (lua_type(L, -1)) {
      case LUA_TNUMBER:
        if (lua_isinteger(L, -1)) {
          lua_Integer v = lua_tointeger(L, -1);
          sc->has_int = true;
          if (v < INT32_MIN || v > INT32_MAX) sc->int_overflows = true;
        } else {
          sc->has_float = true;
        }
        return MF_OK;
      case LUA_TBOOLEAN: sc->has_bool = true; return MF_OK;
      case LUA_TSTRING: sc->has_string = true; return MF_OK;
      case LUA_TTABLE: return ragged(axis, err);
      default:
        return mf_error_set(err, MF_ERR_TYPE, "Can't convert a Lua %s to a Tensor",
                            luaL_typename(L, -1));
    }
  }
  if (!is_sequence(L, -1) || (int64_t)lua_rawlen(L, -1) != sc->shape[axis]) return ragged(axis, err);
  MF_TRY(sequence_keys_only(L, (lua_Integer)sc->shape[axis], err));
  for (int64_t i = 1; i <= sc->shape[axis]; i++) {
    lua_rawgeti(L, -1, i);
    mf_status s = scan_check(L, axis + 1, sc, err);
    lua_pop(L, 1);
    if (s != MF_OK) return s;
  }
  return MF_OK;
}

static bool small_int_fits(mf_dtype dt, lua_Integer v) {
  switch (dt) {
    case MF_INT8: return v >= INT8_MIN && v <= INT8_MAX;
    case MF_INT16: return v >= INT16_MIN && v <= INT16_MAX;
    case MF_UINT8: return v >= 0 && v <= UINT8_MAX;
    case MF_UINT16: return v >= 0 && v <= UINT16_MAX;
    case MF_UINT32: return v >= 0 && v <= (lua_Integer)UINT32_MAX;
    case MF_UINT64: return v >= 0;
    default: return true;
  }
}

static mf_status store(lua_State *L, mf_tensor *t, int64_t i, mf_error *err) {
  int type = lua_type(L, -1);
  switch (t->dtype) {
    case MF_STRING: {
      if (type != LUA_TSTRING)
        return mf_error_set(err, MF_ERR_TYPE, "Can't convert a Lua %s to a string tensor",
                            lua_typename(L, type));
      size_t len;
      const char *p = lua_tolstring(L, -1, &len);
      return mf_string_set(&MF_DATA(t, mf_string)[i], p, len, err);
    }
    case MF_BOOL:
      if (type != LUA_TBOOLEAN)
        return mf_error_set(err, MF_ERR_TYPE, "Can't convert a Lua %s to a bool tensor",
                            lua_typename(L, type));
      MF_DATA(t, bool)[i] = lua_toboolean(L, -1);
      return MF_OK;
    case MF_INT32:
    case MF_INT64:
    case MF_INT8:
    case MF_INT16:
    case MF_UINT8:
    case MF_UINT16:
    case MF_UINT32:
    case MF_UINT64: {
      if (type != LUA_TNUMBER)
        return mf_error_set(err, MF_ERR_TYPE, "Can't convert a Lua %s to an %s tensor",
                            lua_typename(L, type), mf_dtype_name(t->dtype));
      lua_Integer v;
      if (lua_isinteger(L, -1)) {
        v = lua_tointeger(L, -1);
      } else {
        lua_Number f = lua_tonumber(L, -1);
        if (!lua_numbertointeger(f, &v) || (lua_Number)v != f)
          return mf_error_set(err, MF_ERR_TYPE,
                              "Cannot convert %s to EagerTensor of dtype %s", lua_tostring(L, -1),
                              mf_dtype_name(t->dtype));
      }
      if (t->dtype == MF_INT32 && (v < INT32_MIN || v > INT32_MAX))
        return mf_error_set(err, MF_ERR_VALUE, "Can't convert Lua integer %lld to int32: out of range",
                            (long long)v);
      /* TF refuses a Python int its small dtype cannot hold. A Lua integer
       * stops at 2^63 - 1, so all of them fit uint64 but the negative. */
      if (!small_int_fits(t->dtype, v))
        return mf_error_set(err, MF_ERR_TYPE, "Cannot convert %lld to EagerTensor of dtype %s",
                            (long long)v, mf_dtype_name(t->dtype));
      mf_tensor_set_i64(t, i, v);
      return MF_OK;
    }
    case MF_FLOAT32:
    case MF_FLOAT64:
    case MF_FLOAT16:
    case MF_BFLOAT16:
      if (type != LUA_TNUMBER)
        return mf_error_set(err, MF_ERR_TYPE, "Can't convert a Lua %s to a %s tensor",
                            lua_typename(L, type), mf_dtype_name(t->dtype));
      mf_tensor_set_f64(t, i, lua_tonumber(L, -1));
      return MF_OK;
    default:
      return mf_error_set(err, MF_ERR_TYPE, "Can't convert Lua values to a %s tensor",
                          mf_dtype_name(t->dtype));
  }
}

static mf_status fill(lua_State *L, mf_tensor *t, int axis, int64_t *pos, mf_error *err) {
  if (axis == t->rank) return store(L, t, (*pos)++, err);
  for (int64_t i = 1; i <= t->shape[axis]; i++) {
    lua_rawgeti(L, -1, i);
    mf_status s = fill(L, t, axis + 1, pos, err);
    lua_pop(L, 1);
    if (s != MF_OK) return s;
  }
  return MF_OK;
}

mf_status mfL_convert(lua_State *L, int idx, int want, mf_tensor **out, mf_error *err) {
  idx = lua_absindex(L, idx);
  /* No raising here: lua_function results convert under the executor. */
  mfL_tensor *lt = mfL_peek_tensor(L, idx);
  if (!lt && luaL_testudata(L, idx, MFL_TENSOR))
    return mf_error_set(err, MF_ERR_VALUE,
                        "tensor was released (its __gc has run): it has no value and cannot be used");
  if (lt) {
    if (!lt->t) return mf_error_set(err, MF_ERR_TYPE, "expected an eager tensor, got a symbolic one");
    if (want >= 0 && lt->t->dtype != (mf_dtype)want)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Tensor conversion requested dtype %s for Tensor with dtype %s",
                          mf_dtype_name((mf_dtype)want), mf_dtype_name(lt->t->dtype));
    mf_tensor_retain(lt->t);
    *out = lt->t;
    return MF_OK;
  }
  scan sc = {0};
  MF_TRY(scan_shape(L, idx, &sc, err));
  lua_pushvalue(L, idx);
  mf_status s = scan_check(L, 0, &sc, err);
  lua_pop(L, 1);
  if (s != MF_OK) return s;
  int kinds = sc.has_string + sc.has_bool + (sc.has_int || sc.has_float);
  if (kinds > 1)
    return mf_error_set(err, MF_ERR_TYPE, "Can't convert a table mixing %s to a Tensor",
                        sc.has_string ? "strings with other values" : "booleans and numbers");
  mf_dtype dt;
  if (want >= 0)
    dt = (mf_dtype)want;
  else if (sc.has_string)
    dt = MF_STRING;
  else if (sc.has_bool)
    dt = MF_BOOL;
  else if (sc.has_float || !sc.has_int)
    dt = MF_FLOAT32; /* an empty table converts to float32, as in TF */
  else
    dt = sc.int_overflows ? MF_INT64 : MF_INT32;
  mf_tensor *t;
  MF_TRY(mf_tensor_new(dt, sc.rank, sc.shape, &t, err));
  int64_t pos = 0;
  lua_pushvalue(L, idx);
  s = fill(L, t, 0, &pos, err);
  lua_pop(L, 1);
  if (s != MF_OK) {
    mf_tensor_release(t);
    return s;
  }
  *out = t;
  return MF_OK;
}

/* core.convert(value [, dtype]) -> eager tensor */
static int l_convert(lua_State *L) {
  int want = lua_isnoneornil(L, 2) ? -1 : (int)mfL_check_dtype(L, 2);
  mfL_tensor *lt = mfL_new_tensor(L);
  mf_error err;
  mf_tensor *t;
  if (mfL_convert(L, 1, want, &t, &err) != MF_OK) return mfL_raise_status(L, &err);
  mfL_tensor_adopt(L, lt, t);
  return 1;
}

static int dtype_tostring(lua_State *L) {
  if (mfL_to_dtype(L, 1) < 0)
    return mfL_raise(L, "TypeError", "expected a dtype, got %s", luaL_typename(L, 1));
  lua_getfield(L, 1, "name");
  lua_pushfstring(L, "tf.%s", lua_tostring(L, -1));
  return 1;
}

bool mfL_is_none(lua_State *L, int idx) {
  if (!lua_istable(L, idx)) return false;
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, MFL_NONE);
  bool is = lua_rawequal(L, -1, idx);
  lua_pop(L, 1);
  return is;
}

static int none_tostring(lua_State *L) {
  lua_pushliteral(L, "None");
  return 1;
}

/* core.dtype(t) -> the dtype object of a tensor (eager or symbolic) */
static int l_dtype(lua_State *L) {
  mfL_tensor *lt = mfL_check_tensor(L, 1);
  mf_spec s;
  mfL_tensor_spec(lt, &s);
  mfL_push_dtype(L, s.dtype);
  return 1;
}

int mfL_convert_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"convert", l_convert}, {"dtype", l_dtype}, {NULL, NULL}};
  lua_createtable(L, 0, 0);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, none_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, "None");
  lua_setfield(L, -2, "__name");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, MFL_NONE);
  lua_setfield(L, -2, "None");
  if (luaL_newmetatable(L, MFL_DTYPE)) {
    lua_pushcfunction(L, dtype_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, "DType");
    lua_setfield(L, -2, "__name");
  }
  lua_setfield(L, -2, "dtype_metatable");
  lua_createtable(L, MF_DTYPE_COUNT, 0);
  for (int i = 0; i < MF_DTYPE_COUNT; i++) {
    lua_createtable(L, 0, 2);
    lua_pushstring(L, mf_dtype_name((mf_dtype)i));
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, i);
    lua_setfield(L, -2, "_enum");
    luaL_setmetatable(L, MFL_DTYPE);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, MFL_DTYPES);
  lua_setfield(L, -2, "dtypes");
  mfL_setfuncs(L, funcs);
  return 0;
}
