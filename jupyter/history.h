/* history.h — the inputs (and text outputs) of the cells run with
 * store_history, kept in SQLite as IPython keeps them (history.sqlite: a
 * `sessions` table, one row per kernel process, and `history` /
 * `output_history` rows keyed by (session, line), line being the execution
 * count), so history_request sees earlier kernels too.
 *
 * The file is $MOONFLOW_HISTORY when set (":memory:" keeps nothing), else
 * moonflow/history.sqlite under the Jupyter data dir ($JUPYTER_DATA_DIR,
 * else $XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter). When it cannot
 * be opened the kernel logs why and keeps this session's history in memory.
 * Main thread only. */
#ifndef MF_KERNEL_HISTORY_H
#define MF_KERNEL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

typedef struct sqlite3 sqlite3;

typedef struct mf_history {
  sqlite3 *db;
  long long session; /* this kernel's row in `sessions` */
  int n_cmds;
} mf_history;

/* Opens the store and starts a new session. Never fails: a store that
 * cannot be opened is replaced by an in-memory one (logged). */
void mf_history_open(mf_history *h);
void mf_history_add(mf_history *h, int line, const char *input, const char *output);
/* Ends the session (its end time and count of commands) and closes. */
void mf_history_free(mf_history *h);

/* The history_reply list for a request's content (hist_access_type tail,
 * range or search; output; n; session/start/stop; pattern; unique), with
 * IPython's meanings: tail is the last n across sessions; a range's session
 * 0 or negative is relative to this one, stop 0 means to the end; search
 * matches a glob, newest n when n is given, each input once (its latest
 * run) with unique. New reference. */
json_t *mf_history_query(const mf_history *h, const json_t *request);

#endif
