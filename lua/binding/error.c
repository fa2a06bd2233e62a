/* error.c — moonflow's error objects: {type=, message=} tables whose
 * metatable renders "Type: message". The binding raises nothing else. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "binding.h"

#define MFL_ERROR "moonflow.Error"

static int type_error(lua_State *L, int arg, const char *expected);

static int error_tostring(lua_State *L) {
  if (!lua_istable(L, 1)) return type_error(L, 1, "moonflow.Error");
  lua_getfield(L, 1, "type");
  lua_getfield(L, 1, "message");
  lua_pushfstring(L, "%s: %s", mfL_optstring(L, -2, "Error"), mfL_optstring(L, -1, ""));
  return 1;
}

static void push_error_metatable(lua_State *L) {
  if (luaL_newmetatable(L, MFL_ERROR)) {
    lua_pushcfunction(L, error_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, "moonflow.Error");
    lua_setfield(L, -2, "__name");
  }
}

void mfL_push_error(lua_State *L, const char *type, const char *message) {
  lua_createtable(L, 0, 4);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  lua_pushstring(L, message);
  lua_setfield(L, -2, "message");
  push_error_metatable(L);
  lua_setmetatable(L, -2);
}

int mfL_raise(lua_State *L, const char *type, const char *fmt, ...) {
  char buf[MF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  mfL_push_error(L, type, buf);
  return lua_error(L);
}

int mfL_raise_status(lua_State *L, const mf_error *err) {
  mfL_push_error(L, mf_status_name(err->status), err->message);
  return lua_error(L);
}

bool mfL_is_error(lua_State *L, int idx, const char **type, const char **message) {
  if (!lua_getmetatable(L, idx)) return false;
  luaL_getmetatable(L, MFL_ERROR);
  bool is = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!is) return false;
  idx = lua_absindex(L, idx);
  lua_getfield(L, idx, "type");
  *type = lua_tostring(L, -1);
  lua_getfield(L, idx, "message");
  *message = lua_tostring(L, -1);
  lua_pop(L, 2); /* the strings stay alive: the table holds them */
  if (!*type) *type = "Error";
  if (!*message) *message = "";
  return true;
}

/* The error types beyond the core's statuses (error.h), raised by the
 * binding, the library and the session. With the status names they are the
 * one list of error types: core.error_names, which tf.errors is built from. */
static const char *const library_errors[] = {
    "UsageError",   /* a magic or tutorial command used wrongly */
    "SyntaxError",  /* code that does not compile */
    "RecursionError", "UnavailableError", "KeyError",
    "InaccessibleTensorError", /* a tensor of a nested trace that has ended */ "LookupError", "RuntimeError",
    "LuaError",     /* a plain Lua error, as the session reports it */
    "SystemExit",   /* os.exit where the host keeps the process (the kernel) */
    "AttributeError", /* an unknown field of a tf.func, graph, variable, ... */
    "NotImplementedError", /* what TF leaves to eager execution (v:numpy() while tracing) */
    "NameError",      /* a global of a session's cell that was never assigned */
};

/* core.error_names -> {"TypeError", ...}: every error type, in one list. */
static void push_error_names(lua_State *L) {
  int n = 0;
  lua_newtable(L);
  for (int s = MF_OK + 1; s < MF_STATUS_COUNT; s++) {
    lua_pushstring(L, mf_status_name((mf_status)s));
    lua_rawseti(L, -2, ++n);
  }
  for (size_t i = 0; i < sizeof library_errors / sizeof library_errors[0]; i++) {
    lua_pushstring(L, library_errors[i]);
    lua_rawseti(L, -2, ++n);
  }
}

/* ---- typed argument checks (binding.h) ---- */

/* The name of the running C function, as luaL_argerror finds it. */
static const char *function_name(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) return ar.name;
  return "?";
}

static int type_error(lua_State *L, int arg, const char *expected) {
  const char *got;
  if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
    got = lua_tostring(L, -1);
  else
    got = lua_isnone(L, arg) ? "no value" : luaL_typename(L, arg);
  return mfL_raise(L, "TypeError", "bad argument #%d to '%s' (%s expected, got %s)", arg,
                   function_name(L), expected, got);
}

lua_Integer mfL_checkinteger(lua_State *L, int arg) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, arg, &isnum);
  if (isnum) return v;
  if (lua_type(L, arg) == LUA_TNUMBER)
    mfL_raise(L, "ValueError", "bad argument #%d to '%s' (number %s has no integer representation)",
              arg, function_name(L), lua_tostring(L, arg));
  type_error(L, arg, "integer");
  return 0;
}

lua_Integer mfL_optinteger(lua_State *L, int arg, lua_Integer def) {
  return lua_isnoneornil(L, arg) ? def : mfL_checkinteger(L, arg);
}

const char *mfL_checklstring(lua_State *L, int arg, size_t *len) {
  /* numbers convert, as lauxlib's do; nothing else does */
  const char *s = lua_type(L, arg) == LUA_TSTRING || lua_type(L, arg) == LUA_TNUMBER
                      ? lua_tolstring(L, arg, len)
                      : NULL;
  if (!s) type_error(L, arg, "string");
  return s;
}

const char *mfL_optlstring(lua_State *L, int arg, const char *def, size_t *len) {
  if (lua_isnoneornil(L, arg)) {
    if (len) *len = def ? strlen(def) : 0;
    return def;
  }
  return mfL_checklstring(L, arg, len);
}

void mfL_checktype(lua_State *L, int arg, int t) {
  if (lua_type(L, arg) != t) type_error(L, arg, lua_typename(L, t));
}

void *mfL_checkudata(lua_State *L, int arg, const char *tname) {
  void *p = luaL_testudata(L, arg, tname);
  if (!p) type_error(L, arg, tname);
  return p;
}

void mfL_checkstack(lua_State *L, int sz, const char *msg) {
  if (!lua_checkstack(L, sz))
    mfL_raise(L, "ResourceExhaustedError", "Lua stack overflow (%s)", msg ? msg : "");
}

/* core.error(type, message) -> error object (not raised). */
static int l_error_new(lua_State *L) {
  mfL_push_error(L, mfL_checkstring(L, 1), mfL_checkstring(L, 2));
  return 1;
}

/* core.is_error(v) -> boolean */
static int l_is_error(lua_State *L) {
  const char *t, *m;
  lua_pushboolean(L, mfL_is_error(L, 1, &t, &m));
  return 1;
}

int mfL_error_open(lua_State *L) {
  static const luaL_Reg funcs[] = {{"error", l_error_new}, {"is_error", l_is_error}, {NULL, NULL}};
  push_error_metatable(L);
  lua_pop(L, 1);
  mfL_setfuncs(L, funcs);
  push_error_names(L);
  lua_setfield(L, -2, "error_names");
  return 0;
}
