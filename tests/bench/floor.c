/* floor.c — the Lua floor of an eager op (benchmark 1): a C function called
 * from Lua that allocates one userdata with a __gc metamethod and returns
 * it, which is the least any eager op returning a new tensor object must
 * do. Built by run.sh as the Lua module bench_floor. */
#include <lauxlib.h>
#include <lua.h>

#define FLOOR_MT "bench_floor.Box"

typedef struct {
  void *payload; /* a tensor pointer's place, never used */
} box;

static int box_gc(lua_State *L) {
  box *b = luaL_checkudata(L, 1, FLOOR_MT);
  b->payload = NULL;
  return 0;
}

/* bench_floor.new(a, b) -> a new box; the two arguments mirror a + b's. */
static int box_new(lua_State *L) {
  box *b = lua_newuserdatauv(L, sizeof *b, 0);
  b->payload = NULL;
  luaL_setmetatable(L, FLOOR_MT);
  return 1;
}

int luaopen_bench_floor(lua_State *L) {
  luaL_newmetatable(L, FLOOR_MT);
  lua_pushcfunction(L, box_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushcfunction(L, box_new);
  lua_setfield(L, -2, "new");
  return 1;
}
