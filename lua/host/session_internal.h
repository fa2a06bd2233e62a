/* session_internal.h — what the session's C files share (not for hosts).
 *
 * session.c owns the Lua state and the public API (evaluation, completion,
 * inspection, interrupts); session_io.c turns Lua's output and input
 * (`print`, io.stdout/io.stderr/io.stdin, warnings) into host callbacks.
 * The evaluation logic itself is Lua: lua/moonflow/session/init.lua. */
#ifndef MF_SESSION_INTERNAL_H
#define MF_SESSION_INTERNAL_H

#include <signal.h>
#include <stdio.h>

#include <lua.h>

#include "session.h"

/* The registry key of the light userdata pointing at the session. */
#define MF_SESSION_KEY "moonflow.session"

/* One redirected stream: a stdio FILE made with fopencookie whose writes
 * (or reads) go to the host. Wrapped in a genuine Lua file handle. */
typedef struct mf_session_stream {
  mf_session *s;
  const char *name;   /* "stdout", "stderr" or "stdin" */
  FILE *f;
  char *line;         /* stdin: the last line the host gave, with its newline */
  size_t line_len, line_pos;
} mf_session_stream;

struct mf_session {
  lua_State *L;
  mf_session_host host;
  char *frontend;                 /* owned copy of host.frontend */
  int module_ref;                 /* registry ref of require("moonflow.session") */
  mf_session_stream out, err, in;
  volatile sig_atomic_t running;  /* an evaluation is under way */
  /* An interrupt came during this evaluation and has not reached the
   * session yet (the hook keeps raising until it does). */
  volatile sig_atomic_t interrupt_pending;
  /* The coroutine being resumed (innermost), NULL when the main thread
   * runs: the interrupt must hook the thread that actually executes. */
  lua_State *volatile current_thread;
  bool input_unavailable;         /* the host said no to the last io.read */
  bool empty_is_eof;              /* the read under way reads to the end */
  bool warn_on, warn_cont;        /* Lua warnings: enabled, continuing a message */
  bool mark_traces;               /* prefix Lua prints made while tracing ([trace f#2]) */
  /* The hook that was installed when the evaluation began (restored after
   * an interrupt, so a user's debug.sethook survives). */
  lua_Hook saved_hook;
  int saved_mask, saved_count;
};

/* session_io.c: installs print, io.stdout, io.stderr, io.stdin, io.read
 * wrappers and the warning function. Runs inside a protected call. */
void mf_session_io_open(lua_State *L, mf_session *s);
/* Drops what the last evaluation read from the host but did not use, so
 * it cannot answer the next evaluation's io.read. */
void mf_session_io_discard_input(mf_session *s);
/* Flushes the redirected streams (a user may have made them buffered). */
void mf_session_io_flush(mf_session *s);
/* Closes the redirected FILEs; after lua_close. */
void mf_session_io_close(mf_session *s);
/* host.write(stream, text) */
int mf_session_host_write(lua_State *L);
/* host.input(prompt [, password]) -> the line; UnavailableError when the
 * host has no input. */
int mf_session_host_input(lua_State *L);

/* session_host.c: adds the host table's optional functions (dot_to_svg,
 * clear_output) to the table on top of the stack, and replaces os.exit,
 * as the host's callbacks ask. */
void mf_session_host_extras(lua_State *L, mf_session *s);

/* The session of a Lua state (from the registry). */
mf_session *mf_session_of(lua_State *L);

#endif
