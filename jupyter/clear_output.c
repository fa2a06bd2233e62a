/* clear_output.c — see clear_output.h. */
#include "clear_output.h"

#include <lauxlib.h>
#include <lua.h>

#include "kernel.h"
#include "log.h"

static int l_clear_output(lua_State *L) {
  mf_kernel *k = lua_touserdata(L, lua_upvalueindex(1));
  /* tf.clear_output(true) or tf.clear_output{wait = true}. */
  bool wait;
  if (lua_istable(L, 1)) {
    lua_getfield(L, 1, "wait");
    wait = lua_toboolean(L, -1);
    lua_pop(L, 1);
  } else {
    wait = lua_toboolean(L, 1);
  }
  mf_iopub_send(k->iopub, "clear_output", mf_kernel_parent(k), json_pack("{s:b}", "wait", wait));
  return 0;
}

/* Runs protected: `tf` may have metamethods that raise. */
static int l_install(lua_State *L) {
  void *k = lua_touserdata(L, 1);
  if (lua_getglobal(L, "tf") != LUA_TTABLE) return luaL_error(L, "the session has no `tf` table");
  if (lua_getfield(L, -1, "clear_output") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushlightuserdata(L, k);
    lua_pushcclosure(L, l_clear_output, 1);
    lua_setfield(L, -2, "clear_output");
  }
  return 0;
}

void mf_kernel_install_clear_output(mf_kernel *k) {
  lua_State *L = mf_session_lua(k->session);
  if (!L) return;
  int top = lua_gettop(L);
  lua_pushcfunction(L, l_install);
  lua_pushlightuserdata(L, k);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK)
    mf_klog("tf.clear_output not installed: %s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
  lua_settop(L, top);
}
