/* mf_lua.h — the Lua binding's public face, for the session host and the
 * programs that embed moonflow.
 *
 * The binding is the only code that raises Lua errors. Every error it raises
 * is an error object: a table {type = "TypeError", message = "..."} (plus
 * `file`/`line` when it comes from user code being traced) whose metatable
 * renders it as "Type: message". */
#ifndef MF_LUA_H
#define MF_LUA_H

#include <stdbool.h>

#include <lua.h>

/* The registry field holding "@DIR/moonflow/", the chunk-name prefix of
 * the library's own Lua files (set by luaopen_moonflow). */
#define MFL_LIBRARY_SOURCE "moonflow.library_source"

/* The module opener: `require("moonflow")` returns the `tf` table. */
int luaopen_moonflow(lua_State *L);

/* Pushes a new error object. */
void mfL_push_error(lua_State *L, const char *type, const char *message);
/* Raises a new error object; never returns. `fmt` is a printf format. */
int mfL_raise(lua_State *L, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), cold));
/* True when the value at idx is an error object; fills type and message
 * (pointers valid while the value stays on the stack). */
bool mfL_is_error(lua_State *L, int idx, const char **type, const char **message);

#endif
