/* session.h — one moonflow session, hosted by the terminal REPL and by the
 * Jupyter kernel alike: a Lua state with `tf` preloaded, the magics, the
 * display hook, output capture, stdin requests and interrupts.
 *
 * The host supplies callbacks (mf_session_host); the session never writes
 * to the terminal or a socket itself. Everything a user's code prints —
 * Lua `print`, `io.write`, `io.stdout:write`, `io.stderr:write`, `tf.print`
 * — reaches host->write as it happens. Rich results reach host->display as
 * MIME bundles. Neither the REPL nor the kernel re-implements evaluation,
 * the kinds of cell (code, magics, help, exit), completion or inspection:
 * they live here (and in lua/moonflow/session/init.lua).
 *
 * Inside the Lua state the library sees the host as `require("moonflow.host")`
 * (available before the library loads; the library's state module holds it):
 *   write(stream, text)            text to "stdout"/"stderr" (tf.print's sink)
 *   display(bundle, kind [, id])   bundle = {["text/plain"] = "...", ...},
 *                                  kind = "result" | "data" | "update"
 *   input(prompt [, password])     a line from the user (UnavailableError
 *                                  when the host has none)
 *   clock()                        monotonic seconds (float)
 *   frontend, color                the host's fields below
 *   sources[chunkname] = code      the text of every chunk compiled here,
 *                                  keyed by debug.getinfo(f).source
 *                                  ("=stdin[3]", "=In[3]", "@file.lua")
 *   dot_to_svg(dot)                SVG of a Graphviz graph (draw_graphs only)
 *   clear_output([wait])           clears the output (clear_output only;
 *                                  the library's tf.clear_output)
 *
 * Threads: one thread drives a session. Only mf_session_interrupt may be
 * called asynchronously, from a signal handler running on that thread.
 * Host callbacks may run during mf_session_free (finalizers that print). */
#ifndef MF_SESSION_H
#define MF_SESSION_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lua_State lua_State;
typedef struct mf_session mf_session;

typedef enum mf_display_kind {
  MF_DISPLAY_RESULT,  /* the value of a trailing expression (execute_result / REPL echo) */
  MF_DISPLAY_DATA,    /* tf.display(obj) (display_data) */
  MF_DISPLAY_UPDATE,  /* an update of an earlier display with the same id (progress bars) */
} mf_display_kind;

/* A MIME bundle: n (mime type, data) pairs. "text/plain" is always present.
 * Borrowed for the duration of the callback. */
typedef struct mf_display {
  mf_display_kind kind;
  int n;
  const char *const *mimes;
  const char *const *data;
  const size_t *lens;
  const char *display_id; /* NULL unless the object asked for an updatable display */
} mf_display;

typedef struct mf_session_host {
  void *ud;
  /* stream is "stdout" or "stderr". */
  void (*write)(void *ud, const char *stream, const char *data, size_t len);
  void (*display)(void *ud, const mf_display *d);
  /* io.read() from user code. Returns a malloc'd line without its newline,
   * or NULL when input is not available (the session raises a clear error).
   * NULL callback: io.read is not available. */
  char *(*input)(void *ud, const char *prompt, bool password);
  /* true when the host's terminal shows colour (the REPL); false in Jupyter. */
  bool color;
  /* "terminal" or "jupyter": what tf.display and progress bars render for. */
  const char *frontend;
  /* true: io.stdin / io.read read the process's own stdin and `input` is
   * only used by host.input (the terminal REPL, the script runner).
   * false (the default): io.stdin reads lines from `input`. */
  bool use_process_stdin;
  /* true: graphs display as pictures too (SVG through Graphviz, made by the
   * session); false: as text only (the terminal). */
  bool draw_graphs;
  /* tf.clear_output(wait): clears the output shown so far (Jupyter's
   * clear_output). NULL: the host cannot, and tf.clear_output is absent. */
  void (*clear_output)(void *ud, bool wait);
  /* os.exit(status) in user code. NULL: Lua's os.exit. Otherwise called
   * instead of ending the process; the evaluation then stops with a
   * SystemExit error "os.exit(N): <the returned text>". */
  const char *(*exit)(void *ud, int status);
} mf_session_host;

typedef enum mf_eval_status {
  MF_EVAL_OK,
  MF_EVAL_ERROR,
  MF_EVAL_INCOMPLETE, /* the chunk is an unfinished statement: ask for more */
  MF_EVAL_HELP,       /* a help cell (mf_session_run_cell): show `help` */
  MF_EVAL_EXIT,       /* an exit cell (mf_session_run_cell): leave the session */
} mf_eval_status;

typedef struct mf_eval_result {
  mf_eval_status status;
  /* On MF_EVAL_ERROR, and on MF_EVAL_INCOMPLETE (then a SyntaxError a host
   * that cannot ask for more lines reports as is); malloc'd, freed by
   * mf_eval_result_free: */
  char *ename;      /* "TypeError"; "LuaError" for a plain Lua error (a string
                       or any value that is not a moonflow error object);
                       "SyntaxError" for code that does not compile */
  char *evalue;     /* the message */
  char *traceback;  /* "ename: evalue", followed by "\nstack traceback:" and
                       one "\t"-indented line per frame only when the error
                       came from inside a function (more than one Lua frame of
                       user code); the session's own frames are left out */
  char *help;       /* MF_EVAL_HELP: tf.help's text of the name asked about;
                       NULL when the name holds nothing (the session has
                       printed "Object `name` not found." then) */
} mf_eval_result;

typedef enum mf_completeness {
  MF_CODE_COMPLETE,
  MF_CODE_INCOMPLETE,
  MF_CODE_INVALID,
} mf_completeness;

/* Creates a session whose output goes to `host` (copied). NULL on failure
 * with a message in errbuf. */
mf_session *mf_session_new(const mf_session_host *host, char *errbuf, size_t errlen);
void mf_session_free(mf_session *s);
lua_State *mf_session_lua(mf_session *s);

/* Runs a cell or a REPL chunk: `%magic` lines, `%%time` cells, statements;
 * a trailing expression's value is displayed (MF_DISPLAY_RESULT) when
 * `echo` is true. `chunkname` names the source in errors ("=stdin",
 * "=In[3]"); the source is kept so functions typed interactively can be
 * converted by AutoGraph. */
mf_eval_result mf_session_eval(mf_session *s, const char *code, const char *chunkname, bool echo);
void mf_eval_result_free(mf_eval_result *r);

/* Runs a cell as a person types it at a prompt (a REPL entry, a notebook
 * cell): as mf_session_eval, except for two kinds of cell the session
 * recognises and the host presents its own way. `?name`, `name?` (`??`:
 * with a function's source) gives MF_EVAL_HELP; the whole cell `exit` or
 * `quit` (optionally `exit()`, `quit()`) gives MF_EVAL_EXIT and runs
 * nothing. `exit = 1` or an `exit` line inside a longer chunk is code. */
mf_eval_result mf_session_run_cell(mf_session *s, const char *code, const char *chunkname,
                                   bool echo);

/* Runs a Lua script as lua.c does: `path` (NULL: the process's stdin, named
 * "=stdin"), a first line starting with '#' skipped, the nargs strings in
 * args passed as `...`. No magics, no echo. (The caller sets the `arg`
 * global through mf_session_lua.) */
mf_eval_result mf_session_run_file(mf_session *s, const char *path, int nargs,
                                   const char *const *args);

/* Evaluates one expression (Jupyter's user_expressions). On success,
 * *text_plain is its text/plain rendering (malloc'd). */
mf_eval_result mf_session_eval_expression(mf_session *s, const char *expr, char **text_plain);

/* The REPL's continuation rule, shared with Jupyter's is_complete. `indent`
 * (malloc'd, may be "") is a suggested indent for the next line. */
mf_completeness mf_session_is_complete(mf_session *s, const char *code, char **indent);

/* Completions for code[0..cursor): matches (malloc'd array of malloc'd
 * strings), and the replaced range [start, end) in bytes. Returns the number
 * of matches (0: *matches is NULL), or -1 on failure. */
int mf_session_complete(mf_session *s, const char *code, size_t cursor, char ***matches,
                        size_t *start, size_t *end);
void mf_session_free_matches(char **matches, int n);

/* The docstring of the name around the cursor (tf.help's text), malloc'd,
 * or NULL when nothing is found. */
char *mf_session_inspect(mf_session *s, const char *code, size_t cursor, int detail_level);

/* Async-signal-safe: asks the running code to stop with InterruptedError at
 * the next Lua instruction (in whichever coroutine runs) or kernel poll, and
 * again at every instruction after a pcall caught it, until the evaluation
 * returns. A no-op between evaluations. Call it from the thread that drives
 * the session (a signal handler on that thread): it changes Lua hooks. */
void mf_session_interrupt(mf_session *s);

#endif
