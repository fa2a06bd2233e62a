/* json.c — core.json_encode / core.json_decode: JSON through Jansson, the
 * one JSON implementation the library uses (saved models' structures,
 * notebooks). Lua tables map to arrays when they are sequences or carry the
 * array mark (core.json_array), to objects otherwise; core.json_null stands
 * for null, which a table cannot hold as nil. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

#define MAX_DEPTH 200

static const char ARRAY_MARK[] = "moonflow.json_array"; /* registry key of the mark's metatable */

/* Pushes the mark's metatable (made once). */
static void push_array_meta(lua_State *L) {
  if (luaL_newmetatable(L, ARRAY_MARK)) {
    lua_pushstring(L, "array");
    lua_setfield(L, -2, "__jsontype");
  }
}

static bool is_null(lua_State *L, int idx) {
  return lua_islightuserdata(L, idx) && lua_touserdata(L, idx) == NULL;
}

/* True when the table at idx is an array: marked, or a non-empty sequence
 * 1..n with no other keys. */
static bool is_array(lua_State *L, int idx, lua_Integer *n) {
  *n = (lua_Integer)lua_rawlen(L, idx);
  if (lua_getmetatable(L, idx)) {
    push_array_meta(L);
    bool marked = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    if (marked) return true;
  }
  if (*n == 0) return false;
  lua_Integer keys = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    keys++;
  }
  return keys == *n;
}

/* Why an encoding failed; buf holds a message made from the value. */
typedef struct {
  const char *why;
  char buf[64];
} enc_error;

/* The JSON value of the Lua value at idx; NULL with e->why set (the caller
 * raises). The stack is as it was either way. */
static json_t *to_json(lua_State *L, int idx, int depth, enc_error *e) {
  idx = lua_absindex(L, idx);
  if (depth > MAX_DEPTH) {
    e->why = "nested too deeply (a table that contains itself?)";
    return NULL;
  }
  switch (lua_type(L, idx)) {
  case LUA_TNIL:
    return json_null();
  case LUA_TBOOLEAN:
    return json_boolean(lua_toboolean(L, idx));
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) return json_integer((json_int_t)lua_tointeger(L, idx));
    if (!isfinite(lua_tonumber(L, idx))) {
      e->why = "JSON has no NaN or infinity";
      return NULL;
    }
    return json_real(lua_tonumber(L, idx));
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    json_t *j = json_stringn(s, len);
    if (!j) e->why = "a string that is not UTF-8";
    return j;
  }
  case LUA_TLIGHTUSERDATA:
    if (is_null(L, idx)) return json_null();
    break;
  case LUA_TTABLE: {
    mfL_checkstack(L, 4, "JSON nesting");
    lua_Integer n;
    if (is_array(L, idx, &n)) {
      json_t *a = json_array();
      for (lua_Integer i = 1; a && i <= n; i++) {
        lua_rawgeti(L, idx, i);
        json_t *v = to_json(L, -1, depth + 1, e);
        lua_pop(L, 1);
        if (!v || json_array_append_new(a, v) != 0) {
          json_decref(a);
          return NULL;
        }
      }
      return a;
    }
    json_t *o = json_object();
    lua_pushnil(L);
    while (o && lua_next(L, idx)) {
      if (lua_type(L, -2) != LUA_TSTRING) {
        e->why = "an object key that is not a string (a table mixing list and named entries?)";
        lua_pop(L, 2);
        json_decref(o);
        return NULL;
      }
      json_t *v = to_json(L, -1, depth + 1, e);
      if (!v || json_object_set_new(o, lua_tostring(L, -2), v) != 0) {
        lua_pop(L, 2);
        json_decref(o);
        return NULL;
      }
      lua_pop(L, 1);
    }
    return o;
  }
  default:
    break;
  }
  snprintf(e->buf, sizeof e->buf, "a %s value", luaL_typename(L, idx));
  e->why = e->buf;
  return NULL;
}

/* core.json_encode(value [, indent]) -> text (object keys sorted) */
static int l_json_encode(lua_State *L) {
  lua_Integer indent = mfL_optinteger(L, 2, 0);
  if (indent < 0 || indent > 31) return mfL_raise(L, "ValueError", "json_encode: indent must be 0 to 31");
  lua_settop(L, 2);
  enc_error e = {.why = "out of memory"};
  json_t *j = to_json(L, 1, 0, &e);
  if (!j) return mfL_raise(L, "ValueError", "cannot encode as JSON: %s", e.why);
  char *text = json_dumps(j, JSON_ENCODE_ANY | JSON_SORT_KEYS | JSON_REAL_PRECISION(17) |
                                 (indent ? JSON_INDENT((size_t)indent) : JSON_COMPACT));
  json_decref(j);
  if (!text) return mfL_raise(L, "ResourceExhaustedError", "json_encode: out of memory");
  lua_pushstring(L, text);
  free(text);
  return 1;
}

static void push_json(lua_State *L, json_t *j, int depth) {
  mfL_checkstack(L, 4, "JSON nesting");
  switch (json_typeof(j)) {
  case JSON_OBJECT: {
    lua_createtable(L, 0, (int)json_object_size(j));
    const char *k;
    json_t *v;
    json_object_foreach(j, k, v) {
      push_json(L, v, depth + 1);
      lua_setfield(L, -2, k);
    }
    break;
  }
  case JSON_ARRAY: {
    lua_createtable(L, (int)json_array_size(j), 0);
    size_t i;
    json_t *v;
    json_array_foreach(j, i, v) {
      push_json(L, v, depth + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    push_array_meta(L);
    lua_setmetatable(L, -2);
    break;
  }
  case JSON_STRING:
    lua_pushlstring(L, json_string_value(j), json_string_length(j));
    break;
  case JSON_INTEGER:
    lua_pushinteger(L, (lua_Integer)json_integer_value(j));
    break;
  case JSON_REAL:
    lua_pushnumber(L, json_real_value(j));
    break;
  case JSON_TRUE:
    lua_pushboolean(L, 1);
    break;
  case JSON_FALSE:
    lua_pushboolean(L, 0);
    break;
  case JSON_NULL:
    lua_pushlightuserdata(L, NULL);
    break;
  }
}

/* core.json_decode(text) -> value (arrays carry the array mark; null is
 * core.json_null) */
static int l_json_decode(lua_State *L) {
  size_t len;
  const char *text = mfL_checklstring(L, 1, &len);
  json_error_t e;
  json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
  if (!j) return mfL_raise(L, "ValueError", "bad JSON at line %d, column %d: %s", e.line, e.column, e.text);
  push_json(L, j, 0);
  json_decref(j);
  return 1;
}

/* core.json_array(t) -> t, marked to encode as an array even when empty */
static int l_json_array(lua_State *L) {
  mfL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  push_array_meta(L);
  /* The mark is a metatable: setting it on a table that has one (a dtype,
   * a shape, a module) would break that object for the whole session. */
  if (lua_getmetatable(L, 1)) {
    if (!lua_rawequal(L, -1, -2))
      return mfL_raise(L, "TypeError",
                       "json_array takes a plain table; this one has a metatable of its own");
    lua_pop(L, 1);
  }
  lua_setmetatable(L, 1);
  return 1;
}

int mfL_json_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"json_encode", l_json_encode}, {"json_decode", l_json_decode}, {"json_array", l_json_array}, {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  lua_pushlightuserdata(L, NULL);
  lua_setfield(L, -2, "json_null");
  return 0;
}
