/* test_alloc_sweep.c — allocation failure through the whole library, the
 * SQLite way: the workload of alloc_sweep.lua (eager ops, a trace with cond
 * and while, cached calls, a gradient, an optimiser step, a saved model
 * loaded) runs in a Lua session (moonflow.so, as the stock interpreter
 * loads it) with its Nth core allocation failing, N swept over the
 * allocations one run makes. Each run must succeed or raise a typed
 * ResourceExhaustedError, leave the session eager and usable (a clean run
 * gives the reference results), and leak nothing: the state is closed at
 * the end and run.sh runs this with ASan's leak detection.
 *
 * Every allocation is failed once when $MOONFLOW_SWEEP_ALL is set; otherwise
 * a stride keeps the run short (coarser under the sanitizers). */
#include <dlfcn.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#if defined(__SANITIZE_ADDRESS__)
#define SAMPLES 150
#else
#define SAMPLES 600
#endif

static lua_CFunction open_module;

/* Runs `code` in L; returns its first result as a string (static copy), or
 * "error: ..." */
static const char *eval(lua_State *L, const char *code) {
  static char buf[8192];
  if (luaL_dostring(L, code) != LUA_OK) {
    snprintf(buf, sizeof buf, "error: %s", luaL_tolstring(L, -1, NULL));
    lua_settop(L, 0);
    return buf;
  }
  snprintf(buf, sizeof buf, "%s", lua_isnoneornil(L, -1) ? "" : luaL_tolstring(L, -1, NULL));
  lua_settop(L, 0);
  return buf;
}

static void test_sweep(void) {
  const char *root = getenv("MOONFLOW_ROOT");
  char dir[] = "/tmp/mf_alloc_sweep_XXXXXX", code[1024];
  CHECK(mkdtemp(dir) != NULL);
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  luaL_requiref(L, "moonflow", open_module, 0);
  lua_setglobal(L, "tf");
  snprintf(code, sizeof code, "W = dofile('%s/tests/core/alloc_sweep.lua') W.setup('%s/m')",
           root ? root : ".", dir);
  const char *r = eval(L, code);
  CHECK(strcmp(r, "") == 0);
  if (*r) printf("#   setup: %s\n", r);
  /* the allocations one run makes */
  long before = atol(eval(L, "W.run() return (require('moonflow.core').fail_alloc(0))"));
  long after = atol(eval(L, "W.run() return (require('moonflow.core').fail_alloc(0))"));
  long total = after - before;
  CHECK(total > 100);
  long step = getenv("MOONFLOW_SWEEP_ALL") || total <= SAMPLES ? 1 : total / SAMPLES;
  snprintf(code, sizeof code,
           "local swept, bad = W.sweep(1, %ld, %ld) return swept .. '\\n' .. bad",
           total + 1000, step);
  r = eval(L, code);
  long swept = atol(r);
  const char *bad = strchr(r, '\n');
  printf("#   %ld allocations per run; %ld runs with a failed allocation (stride %ld)\n", total,
         swept, step);
  CHECK(swept >= total / step - 1);
  CHECK(bad && bad[1] == '\0');
  if (!bad || bad[1]) printf("#   %s\n", r);
  eval(L, "W = nil collectgarbage()");
  lua_close(L);
  snprintf(code, sizeof code, "rm -rf '%s'", dir);
  CHECK(system(code) == 0);
}

int main(void) {
  const char *path = getenv("MOONFLOW_MODULE");
  if (!path) path = "build/release/moonflow.so";
  void *h = dlopen(path, RTLD_NOW);
  if (!h) {
    printf("not ok 1 - cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  open_module = (lua_CFunction)dlsym(h, "luaopen_moonflow");
  RUN(test_sweep);
  return CHECK_DONE();
}
