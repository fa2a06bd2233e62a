/* session_host.c — what the session adds to its host table from the host's
 * optional callbacks (session.h): graph pictures (Graphviz DOT to SVG, with
 * libgvc in process) when the host draws graphs, tf.clear_output when the
 * host can clear a cell's output, and os.exit when the host must not let
 * user code end the process. The REPL and the kernel only set callbacks;
 * the Lua library finds these functions in its host table (state.host). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <lauxlib.h>
#include <lua.h>

#include "mf_lua.h"
#include "session_internal.h"

/* One Graphviz context for the process. Debian's Graphviz pango plugin
 * caches a pointer to the last font name, which lives in the context's font
 * dictionary: freeing a context and making another leaves that pointer
 * dangling (AddressSanitizer catches the read), so the context is never
 * freed. */
static GVC_t *context(void) {
  static GVC_t *gvc;
  if (!gvc) gvc = gvContext();
  return gvc;
}

/* The SVG of a DOT graph (malloc'd, NUL-terminated, length in *len), or
 * NULL with a reason in err. */
static char *dot_to_svg(const char *dot, size_t *len, char *err, size_t errlen) {
  /* Warnings would go to stderr for every picture; errors still do, and
   * the caller reports failure. */
  agseterr(AGERR);
  GVC_t *gvc = context();
  if (!gvc) {
    snprintf(err, errlen, "Graphviz could not start");
    return NULL;
  }
  char *out = NULL;
  Agraph_t *g = agmemread(dot);
  if (!g) {
    snprintf(err, errlen, "Graphviz could not parse the DOT text");
  } else if (gvLayout(gvc, g, "dot") != 0) {
    snprintf(err, errlen, "Graphviz layout failed");
  } else {
    char *data = NULL;
    unsigned int n = 0;
    if (gvRenderData(gvc, g, "svg", &data, &n) == 0 && data && (out = malloc((size_t)n + 1))) {
      memcpy(out, data, n);
      out[n] = '\0';
      *len = n;
    } else {
      snprintf(err, errlen, "Graphviz could not render SVG (is its core plugin installed?)");
    }
    if (data) gvFreeRenderData(data);
    gvFreeLayout(gvc, g);
  }
  if (g) agclose(g);
  return out;
}

/* host.dot_to_svg(dot) -> svg | nil, message */
static int host_dot_to_svg(lua_State *L) {
  const char *dot = luaL_checkstring(L, 1);
  char err[160];
  size_t len = 0;
  char *svg = dot_to_svg(dot, &len, err, sizeof err);
  if (!svg) {
    luaL_pushfail(L);
    lua_pushstring(L, err);
    return 2;
  }
  lua_pushlstring(L, svg, len);
  free(svg);
  return 1;
}

/* host.clear_output([wait]) or host.clear_output{wait = true} */
static int host_clear_output(lua_State *L) {
  mf_session *s = mf_session_of(L);
  bool wait;
  if (lua_istable(L, 1)) {
    lua_getfield(L, 1, "wait");
    wait = lua_toboolean(L, -1);
    lua_pop(L, 1);
  } else {
    wait = lua_toboolean(L, 1);
  }
  mf_session_io_flush(s);
  s->host.clear_output(s->host.ud, wait);
  return 0;
}

/* os.exit([code [, close]]) where the host keeps the process: Lua's meaning
 * of `code` (true = success, false = failure, or a number); the host is
 * told, and the evaluation ends with a SystemExit error. */
static int session_os_exit(lua_State *L) {
  mf_session *s = mf_session_of(L);
  int status = 0;
  if (lua_isboolean(L, 1)) status = lua_toboolean(L, 1) ? 0 : 1;
  else status = (int)luaL_optinteger(L, 1, 0);
  const char *what = s->host.exit(s->host.ud, status);
  return mfL_raise(L, "SystemExit", "os.exit(%d): %s", status, what ? what : "the session ends");
}

void mf_session_host_extras(lua_State *L, mf_session *s) {
  if (s->host.draw_graphs) {
    lua_pushcfunction(L, host_dot_to_svg);
    lua_setfield(L, -2, "dot_to_svg");
  }
  if (s->host.clear_output) {
    lua_pushcfunction(L, host_clear_output);
    lua_setfield(L, -2, "clear_output");
  }
  if (s->host.exit && lua_getglobal(L, "os") == LUA_TTABLE) {
    lua_pushcfunction(L, session_os_exit);
    lua_setfield(L, -2, "exit");
  }
  if (s->host.exit) lua_pop(L, 1);
}
