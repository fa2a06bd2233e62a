/* history.c — see history.h. */
#include "history.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "utf8.h"

void mf_history_add(mf_history *h, int line, const char *input, const char *output) {
  if (h->n == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 64;
    mf_history_entry *e = realloc(h->e, cap * sizeof *e);
    if (!e) {
      mf_klog("out of memory: cell %d not kept in history", line);
      return;
    }
    h->e = e;
    h->cap = cap;
  }
  mf_history_entry *e = &h->e[h->n];
  e->line = line;
  e->input = strdup(input ? input : "");
  e->output = output ? strdup(output) : NULL;
  if (!e->input) {
    free(e->output);
    return;
  }
  h->n++;
}

void mf_history_free(mf_history *h) {
  for (size_t i = 0; i < h->n; i++) {
    free(h->e[i].input);
    free(h->e[i].output);
  }
  free(h->e);
  memset(h, 0, sizeof *h);
}

/* [session, line, input] or [session, line, [input, output]]. */
static json_t *item(const mf_history_entry *e, bool output) {
  json_t *in = mf_json_str(e->input);
  json_t *val = in;
  if (output) val = json_pack("[o,o]", in, e->output ? mf_json_str(e->output) : json_null());
  return json_pack("[i,i,o]", MF_HISTORY_SESSION, e->line, val);
}

/* IPython numbers sessions; 0 and negative numbers are relative to the
 * current one. We have only the current one. */
static bool is_current_session(long long s) { return s <= 0 || s == MF_HISTORY_SESSION; }

json_t *mf_history_query(const mf_history *h, const json_t *rq) {
  json_t *out = json_array();
  const json_t *v = json_object_get(rq, "hist_access_type");
  const char *type = json_is_string(v) ? json_string_value(v) : "tail";
  v = json_object_get(rq, "output");
  bool output = json_is_true(v);
  v = json_object_get(rq, "n");
  long long n = json_is_integer(v) ? json_integer_value(v) : -1; /* -1: no limit */

  if (strcmp(type, "tail") == 0) {
    size_t from = n >= 0 && (size_t)n < h->n ? h->n - (size_t)n : 0;
    for (size_t i = from; i < h->n; i++) json_array_append_new(out, item(&h->e[i], output));
  } else if (strcmp(type, "range") == 0) {
    v = json_object_get(rq, "session");
    if (json_is_integer(v) && !is_current_session(json_integer_value(v))) return out;
    v = json_object_get(rq, "start");
    long long start = json_is_integer(v) ? json_integer_value(v) : 0;
    v = json_object_get(rq, "stop");
    long long stop = json_is_integer(v) ? json_integer_value(v) : 0;
    /* As IPython: lines [start, stop), stop 0 (or missing) means the end. */
    for (size_t i = 0; i < h->n; i++) {
      int line = h->e[i].line;
      if (line >= start && (stop <= 0 || line < stop))
        json_array_append_new(out, item(&h->e[i], output));
    }
  } else if (strcmp(type, "search") == 0) {
    v = json_object_get(rq, "pattern");
    const char *pattern = json_is_string(v) ? json_string_value(v) : "*";
    bool unique = json_is_true(json_object_get(rq, "unique"));
    /* Newest first, so `n` keeps the most recent matches and `unique`
     * keeps each input's latest run; reversed to oldest-first at the end. */
    json_t *rev = json_array();
    for (size_t i = h->n; i-- > 0;) {
      if (n >= 0 && json_array_size(rev) >= (size_t)n) break;
      const mf_history_entry *e = &h->e[i];
      if (fnmatch(pattern, e->input, 0) != 0) continue;
      bool seen = false;
      for (size_t j = h->n - 1; unique && j > i && !seen; j--)
        seen = strcmp(h->e[j].input, e->input) == 0 && fnmatch(pattern, h->e[j].input, 0) == 0;
      if (!seen) json_array_append_new(rev, item(e, output));
    }
    for (size_t i = json_array_size(rev); i-- > 0;) json_array_append(out, json_array_get(rev, i));
    json_decref(rev);
  } else {
    mf_klog("history_request with unknown hist_access_type '%s'", type);
  }
  return out;
}
