/* session.c — the session object: a Lua state with `tf` preloaded, the
 * host table (`moonflow.host`), and the C side of evaluation.
 *
 * The evaluation logic lives in lua/moonflow/session/init.lua; this file calls
 * it under a message handler that turns any error value into
 * (ename, evalue, traceback), and arms interrupts much as lua.c does: a
 * signal (or another thread) sets the core's flag and a count hook, and the
 * hook raises InterruptedError at the next Lua instruction, in whichever
 * coroutine runs, until control is back in the session. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lualib.h>

#include "interrupt.h"
#include "mf_lua.h"
#include "session_internal.h"

/* Like luaL_traceback: the first and last frames of a deep stack. */
#define FIRST_LEVELS 12
#define LAST_LEVELS 12

mf_session *mf_session_of(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, MF_SESSION_KEY);
  mf_session *s = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return s;
}

lua_State *mf_session_lua(mf_session *s) { return s->L; }

/* ---- interrupts ---------------------------------------------------------- */

/* An interrupt arms a count hook (every instruction, calls and returns) on
 * the main thread and on the coroutine running at that moment: lua_sethook
 * is per thread, and a loop inside a coroutine never gives the main thread
 * an instruction to hook. While the interrupt is pending the hook raises
 * InterruptedError at every tick, so a pcall inside user code cannot
 * swallow it; only the session clears it, when control comes back (the
 * message handler, end_run). A hook that fires with nothing pending (one
 * armed by a signal that raced the end of a run, or left on a suspended
 * coroutine) removes itself.
 *
 * The hook is not installed permanently: any count hook sends the VM
 * through luaG_traceexec on every instruction, whatever the count, which
 * measured twice the time of a tight loop. The running coroutine is known
 * instead: the session's coroutine.resume and coroutine.wrap record it. */

static void interrupt_hook(lua_State *L, lua_Debug *ar);

static void arm(lua_State *L) {
  lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* Puts back the hook that ran before the evaluation, if ours is there. */
static void restore_hook(mf_session *s, lua_State *L) {
  if (lua_gethook(L) == interrupt_hook) lua_sethook(L, s->saved_hook, s->saved_mask, s->saved_count);
}

/* Control is back in the session: the interrupt is over. */
static void disarm_interrupt(mf_session *s) {
  s->interrupt_pending = 0;
  restore_hook(s, s->L);
  lua_State *co = s->current_thread;
  if (co) restore_hook(s, co);
  mf_interrupt_clear();
}

static void interrupt_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  mf_session *s = mf_session_of(L);
  if (!s->interrupt_pending) {
    restore_hook(s, L);
    return;
  }
  /* The core's flag again: a graph it stopped cleared it, and a pcall may
   * have caught that error and be about to start another graph. */
  mf_interrupt_request();
  mfL_raise(L, "InterruptedError", "interrupted by the user");
}

void mf_session_interrupt(mf_session *s) {
  if (!s || !s->running) return;
  s->interrupt_pending = 1;
  mf_interrupt_request();
  arm(s->L);
  lua_State *co = s->current_thread;
  if (co) arm(co);
}

/* Resumes co with the narg values at the top of L (lcorolib's auxresume),
 * recording co as the running coroutine meanwhile. Returns the number of
 * results moved to L, or -1 with the error value on L. */
static int resume_tracked(mf_session *s, lua_State *L, lua_State *co, int narg) {
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_State *outer = s->current_thread;
  if (s->interrupt_pending) arm(co);
  lua_xmove(L, co, narg);
  s->current_thread = co;
  int nres, status = lua_resume(co, L, narg, &nres);
  s->current_thread = outer;
  /* The coroutine stopped for the interrupt; its resumer, suspended all
   * that time, may not carry the hook yet. */
  if (s->interrupt_pending) arm(L);
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_xmove(co, L, 1);
    return -1;
  }
  if (!lua_checkstack(L, nres + 1)) {
    lua_pop(co, nres);
    lua_pushliteral(L, "too many results to resume");
    return -1;
  }
  lua_xmove(co, L, nres);
  return nres;
}

/* coroutine.resume(co, ...), as lcorolib's; upvalue 1 is the session
 * (looking it up in the registry would double what a resume costs). */
static int tracked_resume(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTHREAD);
  lua_State *co = lua_tothread(L, 1);
  int r = resume_tracked(s, L, co, lua_gettop(L) - 1);
  lua_pushboolean(L, r >= 0);
  lua_insert(L, r < 0 ? -2 : -(r + 1));
  return r < 0 ? 2 : r + 1;
}

/* What coroutine.wrap returns (lcorolib's auxwrap): upvalue 1 the session,
 * upvalue 2 the coroutine. */
static int tracked_wrapped(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(1));
  lua_State *co = lua_tothread(L, lua_upvalueindex(2));
  int r = resume_tracked(s, L, co, lua_gettop(L));
  if (r >= 0) return r;
  int stat = lua_status(co);
  if (stat != LUA_OK && stat != LUA_YIELD) { /* an error in the coroutine */
    lua_resetthread(co);                     /* closes its to-be-closed variables */
    lua_xmove(co, L, 1);
  }
  if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* coroutine.wrap(f) */
static int tracked_wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, tracked_wrapped, 2);
  return 1;
}

/* Replaces coroutine.resume and coroutine.wrap by recording versions,
 * before any library keeps a reference to the originals. */
static void track_coroutines(lua_State *L, mf_session *s) {
  static const luaL_Reg tracked[] = {{"resume", tracked_resume}, {"wrap", tracked_wrap}, {NULL, NULL}};
  lua_getglobal(L, "coroutine");
  lua_pushlightuserdata(L, s);
  luaL_setfuncs(L, tracked, 1);
  lua_pop(L, 1);
}

static void begin_run(mf_session *s) {
  lua_Hook h = lua_gethook(s->L);
  /* A hook armed by a signal that raced the last run's end is not the
   * user's. */
  bool ours = h == interrupt_hook;
  s->saved_hook = ours ? NULL : h;
  s->saved_mask = ours ? 0 : lua_gethookmask(s->L);
  s->saved_count = ours ? 0 : lua_gethookcount(s->L);
  if (ours) lua_sethook(s->L, NULL, 0, 0);
  s->interrupt_pending = 0;
  s->current_thread = NULL;
  mf_interrupt_clear();
  s->running = 1;
}

static void end_run(mf_session *s) {
  s->running = 0;
  disarm_interrupt(s);
  s->current_thread = NULL;
  mf_session_io_flush(s);
  mf_session_io_discard_input(s);
}

/* ---- errors -------------------------------------------------------------- */

/* moonflow's own Lua library (the files of lua/moonflow/), not user code:
 * chunk names under the folder the binding loaded the library from. */
static bool library_source(lua_State *L, const char *source) {
  lua_getfield(L, LUA_REGISTRYINDEX, MFL_LIBRARY_SOURCE);
  size_t n;
  const char *prefix = lua_tolstring(L, -1, &n);
  bool in = prefix && strncmp(source, prefix, n) == 0;
  lua_pop(L, 1);
  return in;
}

/* The deepest level of the stack (lauxlib's binary search). */
static int last_level(lua_State *L) {
  lua_Debug ar;
  int li = 1, le = 1;
  while (lua_getstack(L, le, &ar)) {
    li = le;
    le *= 2;
  }
  while (li < le) {
    int m = (li + le) / 2;
    if (lua_getstack(L, m, &ar))
      li = m + 1;
    else
      le = m;
  }
  return le - 1;
}

/* Adds one frame in luaL_traceback's format. */
static void add_frame(lua_State *L, luaL_Buffer *b, lua_Debug *ar) {
  lua_pushfstring(L, "\n\t%s:", ar->short_src);
  luaL_addvalue(b);
  if (ar->currentline > 0) {
    lua_pushfstring(L, "%d:", ar->currentline);
    luaL_addvalue(b);
  }
  if (*ar->what == 'm')
    lua_pushliteral(L, " in main chunk");
  else if (*ar->namewhat)
    lua_pushfstring(L, " in %s '%s'", strcmp(ar->namewhat, "global") == 0 ? "function" : ar->namewhat,
                    ar->name);
  else if (*ar->what == 'C')
    lua_pushliteral(L, " in ?");
  else
    lua_pushfstring(L, " in function <%s:%d>", ar->short_src, ar->linedefined);
  luaL_addvalue(b);
  if (ar->istailcall && *ar->what != 'm') luaL_addstring(b, "\n\t(...tail calls...)");
}

/* Whether the frame at `level` runs the user's code: a Lua function or
 * chunk outside the library. */
static bool user_frame(lua_State *L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "S", &ar)) return false;
  return *ar.what != 'C' && !library_source(L, ar.source);
}

/* Pushes the frames of the stack that raised, as "\n\t..." lines: the
 * user's frames and the named C functions they called (an operator's
 * metamethod, `error`), without the library's own frames, as TF filters
 * its tracebacks down to the user's code. *useful: the error went
 * through a function of user code, or through a user's chunk when the
 * error is moonflow's (Lua's own messages start with the chunk and line;
 * an error object's does not), so the traceback says more than the
 * message. */
static void push_user_frames(lua_State *L, bool object, bool *useful) {
  luaL_Buffer b;
  lua_Debug ar;
  int last = last_level(L);
  *useful = false;
  luaL_buffinit(L, &b);
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    if (level == FIRST_LEVELS + 1 && last - level >= LAST_LEVELS) {
      int skip = last - level - LAST_LEVELS + 1;
      lua_pushfstring(L, "\n\t...\t(skipping %d levels)", skip);
      luaL_addvalue(&b);
      level += skip - 1;
      continue;
    }
    lua_getinfo(L, "Slnt", &ar);
    bool c = *ar.what == 'C';
    if (c ? !*ar.namewhat || !user_frame(L, level + 1) : library_source(L, ar.source)) continue;
    if ((*ar.what == 'L' || (object && *ar.what == 'm'))) *useful = true;
    add_frame(L, &b, &ar);
  }
  luaL_pushresult(&b);
}

/* The message handler: turns the error value into {ename=, evalue=,
 * traceback=} while the stack that raised it is still there. */
static int msghandler(lua_State *L) {
  disarm_interrupt(mf_session_of(L));
  const char *ename, *evalue;
  bool object = mfL_is_error(L, 1, &ename, &evalue);
  if (!object) {
    ename = "LuaError";
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER)
      evalue = lua_tostring(L, 1);
    else if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      evalue = lua_tostring(L, -1);
    else
      evalue = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  bool useful;
  push_user_frames(L, object, &useful);
  lua_createtable(L, 0, 3);
  lua_pushstring(L, ename);
  lua_setfield(L, -2, "ename");
  lua_pushstring(L, evalue);
  lua_setfield(L, -2, "evalue");
  if (useful)
    lua_pushfstring(L, "%s: %s\nstack traceback:%s", ename, evalue, lua_tostring(L, -2));
  else
    lua_pushfstring(L, "%s: %s", ename, evalue);
  lua_setfield(L, -2, "traceback");
  return 1;
}

static char *dup_field(lua_State *L, int idx, const char *field, const char *dflt) {
  lua_getfield(L, idx, field);
  const char *v = lua_tostring(L, -1);
  char *copy = strdup(v ? v : dflt);
  lua_pop(L, 1);
  return copy;
}

static mf_eval_result error_result(lua_State *L, int status) {
  mf_eval_result r = {.status = MF_EVAL_ERROR};
  if (lua_istable(L, -1)) {
    r.ename = dup_field(L, -1, "ename", "LuaError");
    r.evalue = dup_field(L, -1, "evalue", "");
    r.traceback = dup_field(L, -1, "traceback", "");
    return r;
  }
  /* No handler ran: out of memory, or an error inside the handler. */
  const char *msg = lua_tostring(L, -1);
  r.ename = strdup(status == LUA_ERRMEM ? "ResourceExhaustedError" : "LuaError");
  r.evalue = strdup(msg ? msg : "error in error handling");
  size_t n = strlen(r.ename) + strlen(r.evalue) + 3;
  r.traceback = malloc(n);
  if (r.traceback) snprintf(r.traceback, n, "%s: %s", r.ename, r.evalue);
  return r;
}

void mf_eval_result_free(mf_eval_result *r) {
  free(r->ename);
  free(r->evalue);
  free(r->traceback);
  free(r->help);
  r->ename = r->evalue = r->traceback = r->help = NULL;
}

/* ---- calling the session's Lua half ------------------------------------- */

/* Calls session.<fn> with the nargs values at the top, under the message
 * handler and with interrupts armed. Leaves the handler at `base + 1` and
 * the results (or the error table) above it; the caller resets the stack
 * to `base`. */
static int call_session(mf_session *s, const char *fn, int nargs, int nresults, int *base) {
  lua_State *L = s->L;
  *base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, msghandler);
  lua_insert(L, *base + 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->module_ref);
  lua_getfield(L, -1, fn);
  lua_remove(L, -2);
  lua_insert(L, *base + 2);
  begin_run(s);
  int status = lua_pcall(L, nargs, nresults, *base + 1);
  end_run(s);
  return status;
}

/* Calls session.<fn>(code, chunkname, echo): fn is "eval" or "cell",
 * which answer nil | "incomplete", message | "help", text | "exit". */
static mf_eval_result eval_with(mf_session *s, const char *fn, const char *code,
                                const char *chunkname, bool echo) {
  lua_State *L = s->L;
  lua_pushstring(L, code ? code : "");
  lua_pushstring(L, chunkname ? chunkname : "=(eval)");
  lua_pushboolean(L, echo);
  int base;
  /* Interactive cells and REPL lines mark what Lua prints while a tf.func
   * is being traced, so a learner sees it ran at trace time. */
  s->mark_traces = echo;
  int status = call_session(s, fn, 3, 2, &base);
  s->mark_traces = false;
  mf_eval_result r = {.status = MF_EVAL_OK};
  const char *kind = status == LUA_OK ? lua_tostring(L, -2) : NULL;
  if (status != LUA_OK) {
    r = error_result(L, status);
  } else if (kind && strcmp(kind, "incomplete") == 0) {
    r.status = MF_EVAL_INCOMPLETE;
    r.ename = strdup("SyntaxError");
    r.evalue = strdup(lua_tostring(L, -1));
    r.traceback = strdup(lua_pushfstring(L, "SyntaxError: %s", r.evalue));
  } else if (kind && strcmp(kind, "help") == 0) {
    r.status = MF_EVAL_HELP;
    if (lua_type(L, -1) == LUA_TSTRING) r.help = strdup(lua_tostring(L, -1));
  } else if (kind && strcmp(kind, "exit") == 0) {
    r.status = MF_EVAL_EXIT;
  }
  lua_settop(L, base);
  return r;
}

mf_eval_result mf_session_eval(mf_session *s, const char *code, const char *chunkname, bool echo) {
  return eval_with(s, "eval", code, chunkname, echo);
}

mf_eval_result mf_session_run_cell(mf_session *s, const char *code, const char *chunkname,
                                   bool echo) {
  return eval_with(s, "cell", code, chunkname, echo);
}

mf_eval_result mf_session_run_file(mf_session *s, const char *path, int nargs,
                                   const char *const *args) {
  lua_State *L = s->L;
  if (!lua_checkstack(L, nargs + 8)) {
    return (mf_eval_result){.status = MF_EVAL_ERROR, .ename = strdup("LuaError"),
                            .evalue = strdup("too many arguments to script"),
                            .traceback = strdup("LuaError: too many arguments to script")};
  }
  if (path)
    lua_pushstring(L, path);
  else
    lua_pushnil(L);
  for (int i = 0; i < nargs; i++) lua_pushstring(L, args[i]);
  int base;
  int status = call_session(s, "run_file", nargs + 1, 0, &base);
  mf_eval_result r = {.status = MF_EVAL_OK};
  if (status != LUA_OK) r = error_result(L, status);
  lua_settop(L, base);
  return r;
}

mf_eval_result mf_session_eval_expression(mf_session *s, const char *expr, char **text_plain) {
  lua_State *L = s->L;
  *text_plain = NULL;
  lua_pushstring(L, expr ? expr : "");
  int base;
  int status = call_session(s, "eval_expression", 1, 1, &base);
  mf_eval_result r = {.status = MF_EVAL_OK};
  if (status != LUA_OK)
    r = error_result(L, status);
  else
    *text_plain = strdup(luaL_optstring(L, -1, ""));
  lua_settop(L, base);
  return r;
}

mf_completeness mf_session_is_complete(mf_session *s, const char *code, char **indent) {
  lua_State *L = s->L;
  lua_pushstring(L, code ? code : "");
  int base;
  int status = call_session(s, "is_complete", 1, 2, &base);
  mf_completeness c = MF_CODE_INVALID;
  const char *ind = "";
  if (status == LUA_OK) {
    const char *what = luaL_optstring(L, -2, "invalid");
    if (strcmp(what, "complete") == 0) c = MF_CODE_COMPLETE;
    if (strcmp(what, "incomplete") == 0) c = MF_CODE_INCOMPLETE;
    ind = luaL_optstring(L, -1, "");
  }
  if (indent) *indent = strdup(ind);
  lua_settop(L, base);
  return c;
}

int mf_session_complete(mf_session *s, const char *code, size_t cursor, char ***matches,
                        size_t *start, size_t *end) {
  lua_State *L = s->L;
  size_t len = code ? strlen(code) : 0;
  *matches = NULL;
  *start = *end = cursor < len ? cursor : len;
  lua_pushlstring(L, code ? code : "", len);
  lua_pushinteger(L, (lua_Integer)*start);
  int base;
  int status = call_session(s, "complete", 2, 3, &base);
  int n = -1;
  if (status == LUA_OK && lua_istable(L, -3)) {
    n = (int)luaL_len(L, -3);
    lua_Integer from = luaL_optinteger(L, -2, (lua_Integer)*start);
    lua_Integer to = luaL_optinteger(L, -1, (lua_Integer)*end);
    if (from >= 0 && from <= to && (size_t)to <= len) {
      *start = (size_t)from;
      *end = (size_t)to;
    }
    if (n > 0) *matches = calloc((size_t)n, sizeof **matches);
    if (n > 0 && !*matches) n = -1;
    for (int i = 0; i < n; i++) {
      lua_rawgeti(L, -3, i + 1);
      const char *m = lua_tostring(L, -1);
      (*matches)[i] = strdup(m ? m : "");
      lua_pop(L, 1);
    }
  }
  lua_settop(L, base);
  return n;
}

void mf_session_free_matches(char **matches, int n) {
  for (int i = 0; i < n; i++) free(matches[i]);
  free(matches);
}

char *mf_session_inspect(mf_session *s, const char *code, size_t cursor, int detail_level) {
  lua_State *L = s->L;
  lua_pushstring(L, code ? code : "");
  lua_pushinteger(L, (lua_Integer)cursor);
  lua_pushinteger(L, detail_level);
  int base;
  int status = call_session(s, "inspect", 3, 1, &base);
  char *doc = NULL;
  if (status == LUA_OK && lua_type(L, -1) == LUA_TSTRING) doc = strdup(lua_tostring(L, -1));
  lua_settop(L, base);
  return doc;
}

/* ---- the host table ------------------------------------------------------ */

/* host.display(bundle, kind [, display_id]) */
static int host_display(lua_State *L) {
  static const char *const kinds[] = {"result", "data", "update", NULL};
  mf_session *s = mf_session_of(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  mf_display d = {.kind = (mf_display_kind)luaL_checkoption(L, 2, "data", kinds),
                  .display_id = luaL_optstring(L, 3, NULL)};
  int n = 0;
  bool has_text = false;
  for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
    if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
      return mfL_raise(L, "TypeError", "a display bundle maps MIME types to strings");
    has_text = has_text || strcmp(lua_tostring(L, -2), "text/plain") == 0;
    n++;
  }
  if (!has_text) return mfL_raise(L, "ValueError", "a display bundle needs \"text/plain\"");
  /* The arrays live in a userdata: no leak if anything below raises. */
  char *mem = lua_newuserdatauv(L, (size_t)n * (2 * sizeof(char *) + sizeof(size_t)), 0);
  const char **mimes = (const char **)mem;
  const char **data = mimes + n;
  size_t *lens = (size_t *)(data + n);
  int i = 0;
  for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1), i++) {
    mimes[i] = lua_tostring(L, -2);
    data[i] = lua_tolstring(L, -1, &lens[i]);
  }
  d.n = n;
  d.mimes = mimes;
  d.data = data;
  d.lens = lens;
  mf_session_io_flush(s);
  if (s->host.display) s->host.display(s->host.ud, &d);
  return 0;
}

/* host.listdir(path) -> {names...} | nil, message (for magic discovery) */
static int host_listdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  DIR *dir = opendir(path);
  if (!dir) {
    luaL_pushfail(L);
    lua_pushfstring(L, "cannot list %s", path);
    return 2;
  }
  lua_newtable(L);
  int i = 0;
  for (struct dirent *e = readdir(dir); e; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    lua_pushstring(L, e->d_name);
    lua_rawseti(L, -2, ++i);
  }
  closedir(dir);
  return 1;
}

/* Pushes the host table. */
static void push_host_table(lua_State *L, mf_session *s) {
  static const luaL_Reg funcs[] = {{"write", mf_session_host_write},
                                   {"display", host_display},
                                   {"input", mf_session_host_input},
                                   {"listdir", host_listdir},
                                   {NULL, NULL}};
  luaL_newlib(L, funcs);
  lua_pushstring(L, s->frontend);
  lua_setfield(L, -2, "frontend");
  lua_pushboolean(L, s->host.color);
  lua_setfield(L, -2, "color");
  lua_newtable(L);
  lua_setfield(L, -2, "sources");
  mf_session_host_extras(L, s);
}

/* ---- life cycle ---------------------------------------------------------- */

/* Builds the state; runs protected, the session as a light userdata. */
static int setup(lua_State *L) {
  mf_session *s = lua_touserdata(L, 1);
  lua_pushlightuserdata(L, s);
  lua_setfield(L, LUA_REGISTRYINDEX, MF_SESSION_KEY);
  luaL_openlibs(L);
  /* Generational, as the stock lua5.4 interpreter runs: young collections
   * free short-lived eager results cheaply (tensor.c's mfL_account). */
  lua_gc(L, LUA_GCGEN, 0, 0);
  track_coroutines(L, s);
  mf_session_io_open(L, s);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  push_host_table(L, s);
  lua_setfield(L, -2, "moonflow.host");
  lua_pop(L, 1);
  luaL_requiref(L, "moonflow", luaopen_moonflow, 0);
  lua_setglobal(L, "tf");
  lua_getglobal(L, "require");
  lua_pushliteral(L, "moonflow.session");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "start");
  lua_call(L, 0, 0);
  s->module_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  /* The stepper's functions are a global beside tf: tutorial.environment()
   * and the lessons' messages name it at the prompt. */
  lua_getglobal(L, "require");
  lua_pushliteral(L, "moonflow.session.tutorial");
  lua_call(L, 1, 1);
  lua_setglobal(L, "tutorial");
  return 0;
}

mf_session *mf_session_new(const mf_session_host *host, char *errbuf, size_t errlen) {
  mf_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(errbuf, errlen, "out of memory");
    return NULL;
  }
  s->host = *host;
  s->frontend = strdup(host->frontend ? host->frontend : "terminal");
  s->host.frontend = s->frontend;
  s->module_ref = LUA_NOREF;
  s->L = luaL_newstate();
  if (!s->L || !s->frontend) {
    snprintf(errbuf, errlen, "cannot create a Lua state (out of memory)");
    mf_session_free(s);
    return NULL;
  }
  lua_pushcfunction(s->L, setup);
  lua_pushlightuserdata(s->L, s);
  if (lua_pcall(s->L, 1, 0, 0) != LUA_OK) {
    const char *type, *msg;
    if (mfL_is_error(s->L, -1, &type, &msg))
      snprintf(errbuf, errlen, "%s: %s", type, msg);
    else
      snprintf(errbuf, errlen, "%s", luaL_tolstring(s->L, -1, NULL));
    mf_session_free(s);
    return NULL;
  }
  return s;
}

void mf_session_free(mf_session *s) {
  if (!s) return;
  if (s->L) lua_close(s->L);
  mf_session_io_close(s);
  free(s->frontend);
  free(s);
}
