/* session_io.c — everything user code prints or reads goes through the host.
 *
 * io.stdout and io.stderr are genuine Lua file handles (LUA_FILEHANDLE
 * userdata, so io.type, :write, :flush, :setvbuf, :lines and C modules that
 * check for a FILE* all work) whose FILE is made with fopencookie: its
 * writes call host->write. They are unbuffered, so output reaches the host
 * as it happens. `print` writes to the same FILE, keeping the order of
 * print and io.write. io.stdin reads lines from host->input, unless the
 * host asked for the process's own stdin (the terminal). Lua warnings
 * (`warn`) go to the host's stderr. */
#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "mf_lua.h"
#include "session_internal.h"

static const char NO_INPUT[] =
    "io.read: this frontend does not accept input (stdin is not available here)";

static ssize_t stream_write(void *cookie, const char *buf, size_t n) {
  mf_session_stream *st = cookie;
  if (n > 0 && st->s->host.write) st->s->host.write(st->s->host.ud, st->name, buf, n);
  return (ssize_t)n;
}

/* Hands out the host's lines one piece at a time. A host that has no input
 * makes the read fail (the io.read wrappers below turn that into
 * UnavailableError). An empty line while reading to the end (io.read("a"),
 * io.lines) is the end of input: a frontend has no other way to say it;
 * to io.read() it is an empty line. */
static ssize_t stream_read(void *cookie, char *buf, size_t size) {
  mf_session_stream *st = cookie;
  mf_session *s = st->s;
  if (st->line_pos == st->line_len) {
    char *line = s->host.input ? s->host.input(s->host.ud, "", false) : NULL;
    if (!line) {
      s->input_unavailable = true;
      errno = EIO;
      return -1;
    }
    size_t n = strlen(line);
    if (n == 0 && s->empty_is_eof) {
      free(line);
      return 0;
    }
    char *grown = realloc(line, n + 2);
    if (!grown) {
      free(line);
      errno = ENOMEM;
      return -1;
    }
    grown[n] = '\n';
    grown[n + 1] = '\0';
    free(st->line);
    st->line = grown;
    st->line_len = n + 1;
    st->line_pos = 0;
  }
  size_t n = st->line_len - st->line_pos;
  if (n > size) n = size;
  memcpy(buf, st->line + st->line_pos, n);
  st->line_pos += n;
  return (ssize_t)n;
}

static bool stream_open(mf_session_stream *st, mf_session *s, const char *name) {
  cookie_io_functions_t fns = {0};
  bool reading = strcmp(name, "stdin") == 0;
  if (reading)
    fns.read = stream_read;
  else
    fns.write = stream_write;
  st->s = s;
  st->name = name;
  st->f = fopencookie(st, reading ? "r" : "w", fns);
  if (!st->f) return false;
  if (!reading) setvbuf(st->f, NULL, _IONBF, 0);
  return true;
}

/* A standard file refuses to close (liolib's io_noclose). */
static int stream_noclose(lua_State *L) {
  luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
  p->closef = &stream_noclose;
  luaL_pushfail(L);
  lua_pushliteral(L, "cannot close standard file");
  return 2;
}

/* Pushes a Lua file handle for st->f, stores it as io[field] and, when
 * registry_key is set, as the default input or output file. */
static void push_stream(lua_State *L, mf_session_stream *st, const char *field,
                        const char *registry_key) {
  luaL_Stream *p = lua_newuserdatauv(L, sizeof *p, 0);
  p->closef = NULL; /* a closed file until it is complete */
  luaL_setmetatable(L, LUA_FILEHANDLE);
  p->f = st->f;
  p->closef = &stream_noclose;
  lua_getglobal(L, "io");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, field);
  lua_pop(L, 1);
  if (registry_key) {
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, registry_key);
  }
  lua_pop(L, 1);
}

/* Pushes "[trace f#2] " when a tf.func is being traced (the state
 * module's trace_mark), else nothing; returns whether it pushed. */
static bool push_trace_mark(lua_State *L, bool color) {
  int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, "moonflow.state") == LUA_TTABLE && lua_getfield(L, -1, "trace_mark") == LUA_TFUNCTION &&
      lua_pcall(L, 0, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
    const char *mark = lua_pushfstring(L, "%s%s%s ", color ? "\x1b[2m" : "", lua_tostring(L, -1),
                                       color ? "\x1b[0m" : "");
    lua_pushstring(L, mark);
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
    return true;
  }
  lua_settop(L, top);
  return false;
}

/* print(...): Lua's print, written to the session's stdout. */
static int session_print(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(1));
  int n = lua_gettop(L);
  luaL_Buffer b;
  if (s->mark_traces && push_trace_mark(L, s->host.color)) {
    size_t len;
    const char *mark = lua_tolstring(L, -1, &len);
    fwrite(mark, 1, len, s->out.f);
    lua_pop(L, 1);
  }
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '\n');
  luaL_pushresult(&b);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  fwrite(text, 1, len, s->out.f);
  return 0;
}

/* Whether the read formats from index `first` on read to the end ("a"). */
static bool reads_all(lua_State *L, int first) {
  for (int i = first; i <= lua_gettop(L); i++) {
    const char *f = lua_type(L, i) == LUA_TSTRING ? lua_tostring(L, i) : "";
    if ((f[0] == '*' ? f[1] : f[0]) == 'a') return true;
  }
  return false;
}

/* Calls the wrapped reader (upvalue 1) with the arguments; raises
 * UnavailableError when it asked a host that has no input. */
static int read_checked(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(2));
  int n = lua_gettop(L);
  s->input_unavailable = false;
  s->empty_is_eof = reads_all(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  s->empty_is_eof = false;
  if (s->input_unavailable) {
    s->input_unavailable = false;
    return mfL_raise(L, "UnavailableError", "%s", NO_INPUT);
  }
  return lua_gettop(L);
}

/* Replaces t[name] (t at the top) by `wrapper` around it. */
static void wrap_reader(lua_State *L, mf_session *s, const char *name, lua_CFunction wrapper) {
  lua_getfield(L, -1, name);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, wrapper, 2);
  lua_setfield(L, -2, name);
}

/* An io.lines / file:lines iterator (upvalue 1): reads to the end, so an
 * empty reply ends the loop. */
static int lines_step(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(2));
  lua_settop(L, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  s->input_unavailable = false;
  s->empty_is_eof = true;
  lua_call(L, 0, LUA_MULTRET);
  s->empty_is_eof = false;
  if (s->input_unavailable) {
    s->input_unavailable = false;
    return mfL_raise(L, "UnavailableError", "%s", NO_INPUT);
  }
  return lua_gettop(L);
}

/* io.lines / file:lines (upvalue 1), its iterator wrapped in lines_step. */
static int lines_checked(lua_State *L) {
  mf_session *s = lua_touserdata(L, lua_upvalueindex(2));
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  if (lua_gettop(L) >= 1 && lua_isfunction(L, 1)) {
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, s);
    lua_pushcclosure(L, lines_step, 2);
    lua_replace(L, 1);
  }
  return lua_gettop(L);
}

void mf_session_io_discard_input(mf_session *s) {
  s->in.line_pos = s->in.line_len;
  s->empty_is_eof = false;
  if (s->in.f) {
    __fpurge(s->in.f);
    clearerr(s->in.f);
  }
}

int mf_session_host_input(lua_State *L) {
  mf_session *s = mf_session_of(L);
  const char *prompt = luaL_optstring(L, 1, "");
  bool password = lua_toboolean(L, 2);
  char *line = s->host.input ? s->host.input(s->host.ud, prompt, password) : NULL;
  if (!line) return mfL_raise(L, "UnavailableError", "%s", NO_INPUT);
  lua_pushstring(L, line);
  free(line);
  return 1;
}

int mf_session_host_write(lua_State *L) {
  mf_session *s = mf_session_of(L);
  const char *stream = luaL_checkstring(L, 1);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  bool err = strcmp(stream, "stderr") == 0;
  luaL_argcheck(L, err || strcmp(stream, "stdout") == 0, 1, "\"stdout\" or \"stderr\" expected");
  mf_session_io_flush(s);
  if (len > 0 && s->host.write) s->host.write(s->host.ud, err ? "stderr" : "stdout", text, len);
  return 0;
}

/* Lua warnings (`warn`): off until "@on", as in lauxlib; to host stderr. */
static void session_warn(void *ud, const char *msg, int tocont) {
  mf_session *s = ud;
  if (!s->warn_cont && !tocont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0) s->warn_on = true;
    if (strcmp(msg, "@off") == 0) s->warn_on = false;
    return;
  }
  if (s->warn_on) {
    if (!s->warn_cont) fputs("Lua warning: ", s->err.f);
    fputs(msg, s->err.f);
    if (!tocont) fputc('\n', s->err.f);
  }
  s->warn_cont = tocont;
}

void mf_session_io_open(lua_State *L, mf_session *s) {
  if (!stream_open(&s->out, s, "stdout") || !stream_open(&s->err, s, "stderr"))
    luaL_error(L, "cannot redirect the output streams");
  push_stream(L, &s->out, "stdout", "_IO_output");
  push_stream(L, &s->err, "stderr", NULL);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, session_print, 1);
  lua_setglobal(L, "print");
  lua_setwarnf(L, session_warn, s);
  if (s->host.use_process_stdin) return;
  if (!stream_open(&s->in, s, "stdin")) luaL_error(L, "cannot redirect the input stream");
  push_stream(L, &s->in, "stdin", "_IO_input");
  lua_getglobal(L, "io");
  wrap_reader(L, s, "read", read_checked);
  wrap_reader(L, s, "lines", lines_checked);
  lua_pop(L, 1);
  luaL_getmetatable(L, LUA_FILEHANDLE);
  lua_getfield(L, -1, "__index");
  wrap_reader(L, s, "read", read_checked);
  wrap_reader(L, s, "lines", lines_checked);
  lua_pop(L, 2);
}

void mf_session_io_flush(mf_session *s) {
  if (s->out.f) fflush(s->out.f);
  if (s->err.f) fflush(s->err.f);
}

void mf_session_io_close(mf_session *s) {
  mf_session_stream *all[] = {&s->out, &s->err, &s->in};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (all[i]->f) fclose(all[i]->f);
    all[i]->f = NULL;
    free(all[i]->line);
    all[i]->line = NULL;
  }
}
