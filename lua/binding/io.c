/* io.c — core.npy_write / core.npy_read / core.npz_read: NumPy files. */
#include <stdlib.h>

#include "binding.h"
#include "npy.h"

/* core.npy_write(path, tensor) */
static int l_npy_write(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  mf_tensor *t = mfL_check_eager(L, 2);
  mf_error err;
  if (mf_npy_write(path, t, &err) != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

/* core.npy_read(path) -> tensor */
static int l_npy_read(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  mfL_tensor *lt = mfL_new_tensor(L);
  mf_tensor *t;
  mf_error err;
  if (mf_npy_read(path, &t, &err) != MF_OK) return mfL_raise_status(L, &err);
  mfL_tensor_adopt(L, lt, t);
  return 1;
}

/* core.npz_read(path) -> {name = tensor, ...}, {names in archive order} */
static int l_npz_read(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  mf_npz z;
  mf_error err;
  if (mf_npz_read(path, &z, &err) != MF_OK) return mfL_raise_status(L, &err);
  /* A memory error while pushing would leak the arrays not yet pushed; the
   * tables are small next to the tensors, so that is accepted. */
  lua_createtable(L, 0, z.count);
  lua_createtable(L, z.count, 0);
  for (int i = 0; i < z.count; i++) {
    mfL_push_eager(L, z.tensors[i]);
    lua_setfield(L, -3, z.names[i]);
    lua_pushstring(L, z.names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  mf_npz_free(&z);
  return 2;
}

int mfL_io_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"npy_write", l_npy_write}, {"npy_read", l_npy_read}, {"npz_read", l_npz_read}, {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
