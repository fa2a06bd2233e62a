/* variable.c — variable handles: an eager resource tensor holding a
 * counted reference to an mf_variable. tf.Variable (Lua) wraps one; reads
 * and writes go through ReadVariableOp / Assign*VariableOp like every op. */
#include "binding.h"
#include "variable.h"

/* core.variable_new(initial, name, trainable) -> handle (resource tensor) */
static int l_variable_new(lua_State *L) {
  mf_tensor *init = mfL_check_eager(L, 1);
  const char *name = luaL_optstring(L, 2, "Variable");
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

/* core.variable_info(handle) -> id, name, dtype, shape table, trainable */
static int l_variable_info(lua_State *L) {
  mf_variable *v = check_handle(L, 1);
  lua_pushinteger(L, (lua_Integer)v->id);
  lua_pushstring(L, v->name);
  mfL_push_dtype(L, v->dtype);
  lua_createtable(L, v->rank, 0);
  for (int i = 0; i < v->rank; i++) {
    lua_pushinteger(L, v->shape[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushboolean(L, v->trainable);
  return 5;
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
                                   {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
