/* interactive.c — the REPL: GNU readline (callback interface, so Ctrl-C
 * can cancel a line), history in ~/.moonflow_history, a continuation
 * prompt while a chunk is incomplete (lua.c's rule, decided by the
 * session), tab completion through mf_session_complete. Each chunk runs as
 * a cell (mf_session_run_cell): help cells print their text, and `exit` or
 * `quit` leaves as Ctrl-D does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

#include <lua.h>
#include <readline/history.h>
#include <readline/readline.h>

#include "repl.h"

#define PROMPT "moonflow> "
#define CONTINUATION "     ...> "
#define HISTORY_FILE ".moonflow_history"
#define HISTORY_MAX 1000
/* Lua's operators and brackets end a word; '.' and ':' do not, so
 * readline hands us "tf.ra" and "x:nu" whole. */
#define WORD_BREAKS " \t\n\"\\'`@$><=;|&{(+-*/%^#,[]~)}"

static mf_session *g_session;
static const char *g_pending = ""; /* earlier lines of an incomplete chunk */
static char *g_line;
static bool g_line_ready;
static char g_history[4096];

/* ---- completion ---------------------------------------------------------- */

static char **g_matches;
static int g_nmatches, g_next_match;

static char *next_match(const char *text, int state) {
  (void)text;
  if (state == 0) g_next_match = 0;
  return g_next_match < g_nmatches ? strdup(g_matches[g_next_match++]) : NULL;
}

/* The session completes code[start, end) in chunk coordinates; readline
 * replaces line[start, end) of its own word: re-base the matches on it. */
static void rebase_matches(char **matches, int n, size_t session_start, int rl_start) {
  const char *line = rl_line_buffer;
  g_matches = calloc((size_t)(n > 0 ? n : 1), sizeof *g_matches);
  g_nmatches = 0;
  for (int i = 0; g_matches && i < n; i++) {
    size_t s = session_start, r = (size_t)rl_start;
    char *m = NULL;
    if (s >= r) {
      if (asprintf(&m, "%.*s%s", (int)(s - r), line + r, matches[i]) < 0) m = NULL;
    } else if (strncmp(matches[i], line + s, r - s) == 0) {
      m = strdup(matches[i] + (r - s));
    }
    if (m) g_matches[g_nmatches++] = m;
  }
}

static char **complete(const char *text, int start, int end) {
  (void)end;
  rl_attempted_completion_over = 1; /* never fall back to file names */
  rl_completion_append_character = '\0';
  size_t pending = strlen(g_pending);
  char *code = NULL;
  if (asprintf(&code, "%s%s%.*s", g_pending, pending ? "\n" : "", rl_point, rl_line_buffer) < 0)
    return NULL;
  size_t offset = pending ? pending + 1 : 0;
  char **matches;
  size_t from, to;
  int n = mf_session_complete(g_session, code, strlen(code), &matches, &from, &to);
  free(code);
  if (n <= 0) return NULL;
  char **result = NULL;
  if (from >= offset) {
    rebase_matches(matches, n, from - offset, start);
    result = g_nmatches > 0 ? rl_completion_matches(text, next_match) : NULL;
    mf_session_free_matches(g_matches, g_nmatches);
    g_matches = NULL;
    g_nmatches = 0;
  }
  mf_session_free_matches(matches, n);
  return result;
}

/* ---- reading a line ------------------------------------------------------ */

static void on_line(char *line) {
  g_line = line;
  g_line_ready = true;
  rl_callback_handler_remove();
}

/* The next line typed, malloc'd; NULL at end of input. *cancelled when
 * Ctrl-C dropped the line. */
static char *read_line(const char *prompt, bool *cancelled) {
  int fd = fileno(rl_instream ? rl_instream : stdin);
  *cancelled = false;
  g_line = NULL;
  g_line_ready = false;
  rl_callback_handler_install(prompt, on_line);
  while (!g_line_ready) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    if (select(fd + 1, &fds, NULL, NULL, NULL) >= 0) {
      rl_callback_read_char();
      continue;
    }
    if (errno != EINTR) {
      rl_callback_handler_remove();
      return NULL;
    }
    if (mf_signals_take_sigwinch()) rl_resize_terminal();
    if (mf_signals_take_sigint()) {
      rl_free_line_state();
      rl_callback_sigcleanup();
      rl_callback_handler_remove();
      fputs("^C\n", stdout);
      fflush(stdout);
      *cancelled = true;
      return NULL;
    }
  }
  return g_line;
}

/* ---- history --------------------------------------------------------------- */

static void history_open(void) {
  const char *home = getenv("HOME");
  if (!home || !*home) return;
  snprintf(g_history, sizeof g_history, "%s/%s", home, HISTORY_FILE);
  /* A chunk of several lines is one entry: written after a "#<time>" line
   * and read back up to the next one, so it returns whole after a restart
   * (a file of plain lines still reads as one entry a line). */
  history_comment_char = '#';
  history_write_timestamps = 1;
  history_multiline_entries = 1;
  stifle_history(HISTORY_MAX);
  read_history(g_history);
}

static void history_add(const char *chunk) {
  add_history(chunk);
  if (!g_history[0]) return;
  if (append_history(1, g_history) != 0) write_history(g_history);
}

static void history_close(void) {
  if (g_history[0]) history_truncate_file(g_history, HISTORY_MAX);
}

/* ---- the loop -------------------------------------------------------------- */

static bool blank(const char *s) { return s[strspn(s, " \t\r\n")] == '\0'; }

/* Appends line to the chunk being typed (which it frees). */
static char *join(char *chunk, char *line) {
  if (!chunk) return line;
  char *both = NULL;
  if (asprintf(&both, "%s\n%s", chunk, line) < 0) both = NULL;
  free(chunk);
  free(line);
  return both;
}

/* A help cell's text, as tf.help would print it. */
static void print_help(const char *text) {
  size_t n = strlen(text);
  fputs(text, stdout);
  if (n == 0 || text[n - 1] != '\n') fputs("\n", stdout);
  fflush(stdout);
}

/* Runs one complete chunk (or learns it is incomplete). Returns false when
 * the chunk was `exit` or `quit`. */
static bool run_chunk(mf_session *s, const char *chunk, int *count, bool *incomplete,
                      bool color) {
  char name[32];
  snprintf(name, sizeof name, "=stdin[%d]", *count + 1);
  mf_signals_evaluating(true);
  mf_eval_result r = mf_session_run_cell(s, chunk, name, true);
  mf_signals_evaluating(false);
  *incomplete = r.status == MF_EVAL_INCOMPLETE;
  if (!*incomplete) {
    history_add(chunk);
    (*count)++;
  }
  /* After "^C" echoed by the terminal, start the error on its own line. */
  if (r.status == MF_EVAL_ERROR && strcmp(r.ename, "InterruptedError") == 0) fputs("\n", stderr);
  if (r.status == MF_EVAL_ERROR) mf_term_print_error(&r, color);
  if (r.status == MF_EVAL_HELP && r.help) print_help(r.help);
  bool go_on = r.status != MF_EVAL_EXIT;
  mf_eval_result_free(&r);
  return go_on;
}

int mf_repl_run(mf_session *s, bool color) {
  g_session = s;
  rl_readline_name = "moonflow";
  rl_catch_signals = 0;
  rl_catch_sigwinch = 0;
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = WORD_BREAKS;
  rl_completer_word_break_characters = WORD_BREAKS;
  history_open();
  mf_signals_interactive(true);
  printf("moonflow %s (%s). %%help for help, %%tutorial for the lessons, Ctrl-D to exit.\n"
         "A loop with a progress bar: for step in tf.progress(100) do ... end\n",
         MF_VERSION, LUA_VERSION);
  char *chunk = NULL;
  int count = 0;
  bool exited = false;
  while (!exited) {
    bool cancelled;
    g_pending = chunk ? chunk : "";
    char *line = read_line(chunk ? CONTINUATION : PROMPT, &cancelled);
    if (cancelled) {
      free(chunk);
      chunk = NULL;
      continue;
    }
    if (!line) break;
    if (!chunk && blank(line)) {
      free(line);
      continue;
    }
    chunk = join(chunk, line);
    if (!chunk) break;
    bool incomplete;
    exited = !run_chunk(s, chunk, &count, &incomplete, color);
    if (!incomplete) {
      free(chunk);
      chunk = NULL;
    }
  }
  free(chunk);
  /* Ctrl-D leaves the cursor after the prompt; an `exit` line has ended. */
  if (!exited) fputs("\n", stdout);
  history_close();
  mf_signals_interactive(false);
  return 0;
}
