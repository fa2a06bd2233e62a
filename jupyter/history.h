/* history.h — the inputs (and text outputs) of the cells run with
 * store_history, numbered by execution count, for history_request. One
 * session number per kernel process (history is not persisted: a restarted
 * kernel starts a new, empty session). */
#ifndef MF_KERNEL_HISTORY_H
#define MF_KERNEL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define MF_HISTORY_SESSION 1

typedef struct mf_history_entry {
  int line;     /* the execution count */
  char *input;
  char *output; /* text/plain of its execute_result, or NULL */
} mf_history_entry;

typedef struct mf_history {
  mf_history_entry *e;
  size_t n, cap;
} mf_history;

void mf_history_add(mf_history *h, int line, const char *input, const char *output);
void mf_history_free(mf_history *h);

/* The history_reply list for a request's content (hist_access_type tail,
 * range or search; output; n; session/start/stop; pattern; unique). New
 * reference. */
json_t *mf_history_query(const mf_history *h, const json_t *request);

#endif
