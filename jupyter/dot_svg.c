/* dot_svg.c — see dot_svg.h. */
#include "dot_svg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <lauxlib.h>
#include <lua.h>

#include "kernel.h"
#include "log.h"

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

char *mf_dot_to_svg(const char *dot, size_t *len, char *err, size_t errlen) {
  /* Warnings would go to the kernel's stderr for every picture; errors
   * still do, and the caller reports failure. */
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

/* tf._dot_to_svg(dot) -> svg | nil, message */
static int l_dot_to_svg(lua_State *L) {
  const char *dot = luaL_checkstring(L, 1);
  char err[160];
  size_t len = 0;
  char *svg = mf_dot_to_svg(dot, &len, err, sizeof err);
  if (!svg) {
    luaL_pushfail(L);
    lua_pushstring(L, err);
    return 2;
  }
  lua_pushlstring(L, svg, len);
  free(svg);
  return 1;
}

/* Runs protected: `tf` may have metamethods that raise. */
static int l_install(lua_State *L) {
  if (lua_getglobal(L, "tf") != LUA_TTABLE) return luaL_error(L, "the session has no `tf` table");
  if (lua_getfield(L, -1, "_dot_to_svg") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushcfunction(L, l_dot_to_svg);
    lua_setfield(L, -2, "_dot_to_svg");
  }
  return 0;
}

void mf_kernel_install_dot_to_svg(mf_kernel *k) {
  lua_State *L = mf_session_lua(k->session);
  if (!L) return;
  int top = lua_gettop(L);
  lua_pushcfunction(L, l_install);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK)
    mf_klog("tf._dot_to_svg not installed: %s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
  lua_settop(L, top);
}
