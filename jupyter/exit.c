/* exit.c — see exit.h. */
#include "exit.h"

#include <ctype.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "kernel.h"
#include "log.h"
#include "mf_lua.h"

bool mf_cell_is_exit(const char *code) {
  while (isspace((unsigned char)*code)) code++;
  size_t n = strlen(code);
  while (n > 0 && isspace((unsigned char)code[n - 1])) n--;
  static const char *const WORDS[] = {"exit", "quit", "exit()", "quit()"};
  for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
    if (n == strlen(WORDS[i]) && memcmp(code, WORDS[i], n) == 0) return true;
  return false;
}

/* os.exit([code [, close]]): Lua's meaning of `code` (true = success,
 * false = failure, or a number). */
static int l_os_exit(lua_State *L) {
  mf_kernel *k = lua_touserdata(L, lua_upvalueindex(1));
  int status = 0;
  if (lua_isboolean(L, 1)) status = lua_toboolean(L, 1) ? 0 : 1;
  else status = (int)luaL_optinteger(L, 1, 0);
  k->exit_status = status;
  /* Only the flag: mf_kernel_request_shutdown would also interrupt, and the
   * interrupt would replace this error with InterruptedError. */
  atomic_store(&k->shutdown, 1);
  return mfL_raise(L, "SystemExit", "os.exit(%d): the kernel shuts down after this cell", status);
}

static int l_install(lua_State *L) {
  void *k = lua_touserdata(L, 1);
  if (lua_getglobal(L, "os") != LUA_TTABLE) return 0; /* no os library: nothing to guard */
  lua_pushlightuserdata(L, k);
  lua_pushcclosure(L, l_os_exit, 1);
  lua_setfield(L, -2, "exit");
  return 0;
}

void mf_kernel_install_os_exit(mf_kernel *k) {
  lua_State *L = mf_session_lua(k->session);
  if (!L) return;
  int top = lua_gettop(L);
  lua_pushcfunction(L, l_install);
  lua_pushlightuserdata(L, k);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) mf_klog("os.exit not guarded: the os table raised an error");
  lua_settop(L, top);
}
