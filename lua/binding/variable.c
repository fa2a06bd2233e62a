/* variable.c — variable handles: an eager resource tensor holding a
 * counted reference to an mf_variable. tf.Variable (Lua) wraps one; reads
 * and writes go through ReadVariableOp / Assign*VariableOp like every op. */
#include "binding.h"
#include "variable.h"

/* core.variable_new(initial, name, trainable) -> handle (resource tensor) */
static int l_variable_new(lua_State *L) {
  mf_tensor *init = mfL_check_eager(L, 1);
  const char *name = mfL_optstring(L, 2, "Variable");
  bool trainable = lua_isnoneornil(L, 3) ? true : lua_toboolean(L, 3);
  mf_error err;
  mf_variable *v;
  if (init->dtype == MF_RESOURCE)
    return mfL_raise(L, "TypeError", "a variable cannot hold a resource handle");
  mfL_tensor *lt = mfL_new_tensor(L);
  if (mf_variable_new(name, init, trainable, &v, &err) != MF_OK) return mfL_raise_status(L, &err);
  mf_tensor *h;
  if (mf_tensor_new(MF_RESOURCE, 0, NULL, &h, &err) != MF_OK) {
    mf_variable_release(v);
    return mfL_raise_status(L, &err);
  }
  *MF_DATA(h, mf_variable *) = v; /* the handle owns the reference */
  mfL_tensor_adopt(L, lt, h);
  return 1;
}

static mf_variable *check_handle(lua_State *L, int idx) {
  mf_tensor *h = mfL_check_eager(L, idx);
  if (h->dtype != MF_RESOURCE || h->size != 1 || !*MF_DATA(h, mf_variable *))
    mfL_raise(L, "TypeError", "expected a variable handle");
  return *MF_DATA(h, mf_variable *);
}

/* core.variable_info(handle) -> id, name, dtype, declared shape (a table,
 * -1 for an unknown dimension; nil for an unknown rank), trainable */
static int l_variable_info(lua_State *L) {
  mf_variable *v = check_handle(L, 1);
  lua_pushinteger(L, (lua_Integer)v->id);
  lua_pushstring(L, v->name);
  mfL_push_dtype(L, v->dtype);
  if (v->rank < 0) {
    lua_pushnil(L);
  } else {
    lua_createtable(L, v->rank, 0);
    for (int i = 0; i < v->rank; i++) {
      lua_pushinteger(L, v->shape[i]);
      lua_rawseti(L, -2, i + 1);
    }
  }
  lua_pushboolean(L, v->trainable);
  return 5;
}

/* core.variable_set_shape(handle, dims|nil): relaxes the declared shape
 * (dims: integers, tf.None or negative for unknown ones; nil: unknown
 * rank). ValueError when the current value does not fit it. */
static int l_variable_set_shape(lua_State *L) {
  mf_variable *v = check_handle(L, 1);
  int64_t shape[MF_MAX_RANK] = {0};
  int rank = -1;
  if (!lua_isnoneornil(L, 2)) {
    mfL_checktype(L, 2, LUA_TTABLE);
    lua_Unsigned n = lua_rawlen(L, 2);
    if (n > MF_MAX_RANK) return mfL_raise(L, "ValueError", "rank %d is above the maximum %d", (int)n, MF_MAX_RANK);
    rank = (int)n;
    for (int i = 0; i < rank; i++) {
      lua_rawgeti(L, 2, i + 1);
      if (lua_isinteger(L, -1)) {
        shape[i] = lua_tointeger(L, -1) < 0 ? -1 : lua_tointeger(L, -1);
      } else if (mfL_is_none(L, -1)) {
        shape[i] = -1;
      } else {
        return mfL_raise(L, "TypeError", "a dimension must be an integer or tf.None");
      }
      lua_pop(L, 1);
    }
  }
  mf_error err;
  if (mf_variable_set_shape(v, rank, shape, &err) != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

/* core.variable_value(handle) -> the current value (eager, no op) */
static int l_variable_value(lua_State *L) {
  mf_variable *v = check_handle(L, 1);
  mfL_tensor *lt = mfL_new_tensor(L);
  mfL_tensor_adopt(L, lt, mf_variable_read(v));
  return 1;
}

int mfL_variable_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"variable_new", l_variable_new},
                                   {"variable_info", l_variable_info},
                                   {"variable_value", l_variable_value},
                                   {"variable_set_shape", l_variable_set_shape},
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
