/* module.c — luaopen_moonflow: builds the `moonflow.core` table of C
 * functions, makes the Lua library findable next to the binary or module,
 * and returns `require("moonflow.tf")`, the `tf` table. */
#include <dlfcn.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "binding.h"
#include "blas.h"
#include "interrupt.h"
#include "random.h"

void mfL_setfuncs(lua_State *L, const luaL_Reg *funcs) { luaL_setfuncs(L, funcs, 0); }

static bool has_library(const char *dir) {
  char path[PATH_MAX + 32];
  struct stat st;
  int n = snprintf(path, sizeof path, "%s/moonflow/tf.lua", dir);
  return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0;
}

/* out = a/b, false when it does not fit. */
static bool join_path(char *out, size_t n, const char *a, const char *b) {
  int len = snprintf(out, n, "%s/%s", a, b);
  return len > 0 && (size_t)len < n;
}

/* The directory holding moonflow/tf.lua: $MOONFLOW_LUA_DIR, or found
 * relative to this binary/module (source tree, or an install prefix). */
static bool find_library(char *out, size_t n) {
  const char *env = getenv("MOONFLOW_LUA_DIR");
  if (env && has_library(env)) {
    snprintf(out, n, "%s", env);
    return true;
  }
  Dl_info info;
  if (!dladdr((void *)luaopen_moonflow, &info) || !info.dli_fname) return false;
  char self[PATH_MAX];
  if (!realpath(info.dli_fname, self)) snprintf(self, sizeof self, "%s", info.dli_fname);
  char *slash = strrchr(self, '/');
  if (!slash) return false;
  *slash = '\0';
  static const char *const rel[] = {
      "../../lua",               /* build/<mode>/moonflow -> source tree */
      "../share/lua/5.4",        /* PREFIX/bin/moonflow */
      "../../../share/lua/5.4",  /* PREFIX/lib/lua/5.4/moonflow.so */
      "../../../../share/lua/5.4", /* PREFIX/lib/<multiarch>/lua/5.4/moonflow.so (Debian) */
  };
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    if (join_path(out, n, self, rel[i]) && has_library(out)) return true;
  }
  return join_path(out, n, MF_PREFIX, "share/lua/5.4") && has_library(out);
}

/* The `moonflow` program of this build or install: the running executable
 * when it is moonflow itself (the REPL, the kernel, scripts), else the one
 * beside this module (build/<mode>/moonflow.so) or in its prefix
 * (PREFIX/lib/lua/5.4/moonflow.so -> PREFIX/bin/moonflow). Lessons and
 * scripts start it by this path, never through $PATH, which `make repl`
 * does not change. */
static bool find_program(char *out, size_t n) {
  char self[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) {
    self[len] = '\0';
    const char *base = strrchr(self, '/');
    if (base && strcmp(base + 1, "moonflow") == 0) return snprintf(out, n, "%s", self) < (int)n;
  }
  Dl_info info;
  if (!dladdr((void *)luaopen_moonflow, &info) || !info.dli_fname || !realpath(info.dli_fname, self))
    return false;
  char *slash = strrchr(self, '/');
  if (!slash) return false;
  *slash = '\0';
  static const char *const rel[] = {"moonflow", "../../../bin/moonflow"};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char path[PATH_MAX];
    if (join_path(path, sizeof path, self, rel[i]) && access(path, X_OK) == 0 && realpath(path, out))
      return true;
  }
  return false;
}

/* core.program_path() -> the path of the `moonflow` program, or nil */
static int l_program_path(lua_State *L) {
  char path[PATH_MAX];
  if (!find_program(path, sizeof path)) return 0;
  lua_pushstring(L, path);
  return 1;
}

static void add_to_path(lua_State *L, const char *dir) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "path");
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", dir, dir, lua_tostring(L, -1));
  lua_setfield(L, -3, "path");
  lua_pop(L, 2);
}

/* core.set_seed(n) */
static int l_set_seed(lua_State *L) {
  mf_random_state_set_seed(mfL_context(L)->rng, (uint64_t)mfL_checkinteger(L, 1));
  return 0;
}

/* core.fail_alloc(n [, sticky]) -> allocations so far, whether one failed
 * since the last call: the test switch of alloc.h (n = 0: off). */
static int l_fail_alloc(lua_State *L) {
  int failed = mf_alloc_failed();
  mf_alloc_fail_after((int64_t)mfL_optinteger(L, 1, 0), lua_toboolean(L, 2));
  lua_pushinteger(L, (lua_Integer)mf_alloc_count());
  lua_pushboolean(L, failed);
  return 2;
}

/* core.heap_bytes([trim]) -> bytes malloc has handed out and not had back
 * (a test switch: the soak tests compare it with the resident set); trim:
 * first give free pages back to the system (malloc_trim). */
static int l_heap_bytes(lua_State *L) {
#ifdef __GLIBC__
  if (lua_toboolean(L, 1)) malloc_trim(0);
  struct mallinfo2 mi = mallinfo2();
  lua_pushinteger(L, (lua_Integer)(mi.uordblks + mi.hblkhd));
#else
  lua_pushnil(L);
#endif
  return 1;
}

/* core.now() -> monotonic seconds (for timing traces and %timeit) */
static int l_now(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
  return 1;
}

/* core.check_interrupt(): raises InterruptedError when one is pending */
static int l_check_interrupt(lua_State *L) {
  mf_error err;
  if (mf_interrupt_check(&err) != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

/* core.blas_info() -> {kernel=, reason=, library=, config=, cpu=, seconds=}:
 * OpenBLAS's kernel and why (blas.h), loading it if no op has yet */
static int l_blas_info(lua_State *L) {
  mf_blas_info info;
  mf_error err;
  if (mf_blas_describe(&info, &err) != MF_OK) return mfL_raise_status(L, &err);
  lua_createtable(L, 0, 6);
  lua_pushstring(L, info.kernel);
  lua_setfield(L, -2, "kernel");
  lua_pushstring(L, info.reason);
  lua_setfield(L, -2, "reason");
  lua_pushstring(L, info.library);
  lua_setfield(L, -2, "library");
  lua_pushstring(L, info.config);
  lua_setfield(L, -2, "config");
  lua_pushstring(L, info.cpu);
  lua_setfield(L, -2, "cpu");
  lua_pushnumber(L, (lua_Number)info.seconds);
  lua_setfield(L, -2, "seconds");
  return 1;
}

int luaopen_moonflow(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"set_seed", l_set_seed}, {"check_interrupt", l_check_interrupt}, {"now", l_now},
      {"fail_alloc", l_fail_alloc}, {"heap_bytes", l_heap_bytes}, {"program_path", l_program_path},
      {"blas_info", l_blas_info},
      {NULL, NULL}};
  lua_newtable(L);
  mfL_trace_open(L);
  mfL_error_open(L);
  mfL_convert_open(L);
  mfL_tensor_open(L);
  mfL_op_open(L);
  mfL_variable_open(L);
  mfL_io_open(L);
  mfL_scope_open(L);
  mfL_json_open(L);
  mfL_setfuncs(L, funcs);
  lua_pushstring(L, MF_VERSION);
  lua_setfield(L, -2, "version");
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonflow.core");
  lua_pop(L, 2);
  char dir[PATH_MAX];
  if (!find_library(dir, sizeof dir))
    return mfL_raise(L, "NotFoundError",
                     "cannot find moonflow's Lua library (moonflow/tf.lua); set MOONFLOW_LUA_DIR");
  add_to_path(L, dir);
  /* The chunk names of the library's files, for hosts that tell the
   * user's frames from the library's (lua/host/session.c). */
  lua_pushfstring(L, "@%s/moonflow/", dir);
  lua_setfield(L, LUA_REGISTRYINDEX, MFL_LIBRARY_SOURCE);
  lua_getglobal(L, "require");
  lua_pushstring(L, "moonflow.tf");
  lua_call(L, 1, 1);
  return 1;
}
