/* history.c — see history.h. The SQL follows IPython's HistoryManager, so
 * the answers (and the file) are what a Python kernel's would be. */
#include "history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "log.h"
#include "utf8.h"

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS sessions (session integer primary key autoincrement, "
    "start timestamp, end timestamp, num_cmds integer, remark text);"
    "CREATE TABLE IF NOT EXISTS history (session integer, line integer, source text, "
    "source_raw text, PRIMARY KEY (session, line));"
    "CREATE TABLE IF NOT EXISTS output_history (session integer, line integer, output text, "
    "PRIMARY KEY (session, line));";

/* $MOONFLOW_HISTORY, or moonflow/history.sqlite under jupyter_core's data
 * dir; the directories are made. False when there is no home to put it in. */
static bool store_path(char *out, size_t cap) {
  const char *e = getenv("MOONFLOW_HISTORY");
  if (e && *e) return snprintf(out, cap, "%s", e) < (int)cap;
  const char *home = getenv("HOME");
  int n;
  if ((e = getenv("JUPYTER_DATA_DIR")) && *e)
    n = snprintf(out, cap, "%s/moonflow/history.sqlite", e);
  else if ((e = getenv("XDG_DATA_HOME")) && *e)
    n = snprintf(out, cap, "%s/jupyter/moonflow/history.sqlite", e);
  else if (home && *home)
    n = snprintf(out, cap, "%s/.local/share/jupyter/moonflow/history.sqlite", home);
  else
    return false;
  return n > 0 && (size_t)n < cap;
}

/* mkdir -p of the directory part of path. */
static void make_parents(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) < 0 && errno != EEXIST) return;
    *p = '/';
  }
}

/* ISO 8601 local time, as Python's sqlite3 stores a datetime. */
static void now_text(char out[32]) {
  time_t t = time(NULL);
  struct tm tm;
  localtime_r(&t, &tm);
  strftime(out, 32, "%Y-%m-%d %H:%M:%S", &tm);
}

static bool exec_sql(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) return true;
  mf_klog("history: %s", err ? err : sqlite3_errmsg(db));
  sqlite3_free(err);
  return false;
}

/* Opens path (or memory), creates the tables and this session's row. */
static bool open_store(mf_history *h, const char *path) {
  if (sqlite3_open(path, &h->db) != SQLITE_OK) {
    mf_klog("history: cannot open %s: %s", path, h->db ? sqlite3_errmsg(h->db) : "out of memory");
    sqlite3_close(h->db);
    h->db = NULL;
    return false;
  }
  /* Several kernels may share the file: wait for a writer, briefly. A
   * write-ahead log without a sync per cell: a cell's reply must not wait
   * on the disk (and a crash loses at most the last cells' history). */
  sqlite3_busy_timeout(h->db, 2000);
  if (strcmp(path, ":memory:") != 0 &&
      !exec_sql(h->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"))
    mf_klog("history: %s stays in rollback-journal mode", path);
  sqlite3_stmt *st = NULL;
  char now[32];
  now_text(now);
  bool ok = exec_sql(h->db, SCHEMA) &&
            sqlite3_prepare_v2(h->db,
                               "INSERT INTO sessions VALUES (NULL, ?, NULL, NULL, '')", -1, &st,
                               NULL) == SQLITE_OK &&
            sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_DONE;
  if (!ok) mf_klog("history: cannot start a session in %s: %s", path, sqlite3_errmsg(h->db));
  sqlite3_finalize(st);
  if (!ok) {
    sqlite3_close(h->db);
    h->db = NULL;
    return false;
  }
  h->session = sqlite3_last_insert_rowid(h->db);
  return true;
}

void mf_history_open(mf_history *h) {
  memset(h, 0, sizeof *h);
  char path[4096];
  if (store_path(path, sizeof path)) {
    if (strcmp(path, ":memory:") != 0) make_parents(path);
    if (open_store(h, path)) return;
  } else {
    mf_klog("history: no HOME to keep it in");
  }
  mf_klog("history: kept in memory for this session only");
  if (!open_store(h, ":memory:")) mf_klog("history: not kept at all");
}

/* Runs one statement with (session, line, text) bound. */
static void insert(mf_history *h, const char *sql, int line, const char *text) {
  sqlite3_stmt *st = NULL;
  bool ok = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK &&
            sqlite3_bind_int64(st, 1, h->session) == SQLITE_OK &&
            sqlite3_bind_int(st, 2, line) == SQLITE_OK &&
            sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_DONE;
  if (!ok) mf_klog("history: cell %d not kept: %s", line, sqlite3_errmsg(h->db));
  sqlite3_finalize(st);
}

void mf_history_add(mf_history *h, int line, const char *input, const char *output) {
  if (!h->db) return;
  insert(h, "INSERT OR REPLACE INTO history VALUES (?, ?, ?, ?3)", line, input ? input : "");
  if (output) insert(h, "INSERT OR REPLACE INTO output_history VALUES (?, ?, ?)", line, output);
  h->n_cmds++;
}

void mf_history_free(mf_history *h) {
  if (h->db) {
    sqlite3_stmt *st = NULL;
    char now[32];
    now_text(now);
    if (sqlite3_prepare_v2(h->db, "UPDATE sessions SET end = ?, num_cmds = ? WHERE session = ?",
                           -1, &st, NULL) == SQLITE_OK) {
      sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(st, 2, h->n_cmds);
      sqlite3_bind_int64(st, 3, h->session);
      if (sqlite3_step(st) != SQLITE_DONE) mf_klog("history: %s", sqlite3_errmsg(h->db));
    }
    sqlite3_finalize(st);
    sqlite3_close(h->db);
  }
  memset(h, 0, sizeof *h);
}

/* ---- queries ------------------------------------------------------------- */

/* The columns every query selects (IPython's _run_sql); `latest` adds the
 * aggregate that makes SQLite take each group's other columns from its
 * latest row. */
static void select_clause(char *out, size_t cap, bool output, bool latest) {
  snprintf(out, cap, "SELECT session, line, history.source_raw%s%s FROM history %s",
           output ? ", output_history.output" : "",
           latest ? ", MAX(session * 131072 + line)" : "",
           output ? "LEFT JOIN output_history USING (session, line) " : "");
}

/* Appends [session, line, input] or [session, line, [input, output]] for
 * each row of a prepared statement. */
static void collect(sqlite3_stmt *st, bool output, json_t *out) {
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *in = (const char *)sqlite3_column_text(st, 2);
    json_t *val = mf_json_str(in ? in : "");
    if (output) {
      const char *o = (const char *)sqlite3_column_text(st, 3);
      val = json_pack("[o,o]", val, o ? mf_json_str(o) : json_null());
    }
    json_array_append_new(out, json_pack("[I,I,o]", (json_int_t)sqlite3_column_int64(st, 0),
                                         (json_int_t)sqlite3_column_int64(st, 1), val));
  }
}

static json_t *reversed(json_t *a) {
  json_t *r = json_array();
  for (size_t i = json_array_size(a); i-- > 0;) json_array_append(r, json_array_get(a, i));
  json_decref(a);
  return r;
}

static long long get_int(const json_t *rq, const char *key, long long dflt) {
  const json_t *v = json_object_get(rq, key);
  return json_is_integer(v) ? json_integer_value(v) : dflt;
}

json_t *mf_history_query(const mf_history *h, const json_t *rq) {
  json_t *out = json_array();
  if (!h->db) return out;
  const json_t *v = json_object_get(rq, "hist_access_type");
  const char *type = json_is_string(v) ? json_string_value(v) : "tail";
  bool output = json_is_true(json_object_get(rq, "output"));
  long long n = get_int(rq, "n", -1); /* -1: no limit (SQLite's LIMIT -1) */
  char sql[512], select[256];
  bool unique = strcmp(type, "search") == 0 && json_is_true(json_object_get(rq, "unique"));
  select_clause(select, sizeof select, output, unique);
  bool newest_first = false;
  sqlite3_stmt *st = NULL;

  if (strcmp(type, "tail") == 0) {
    snprintf(sql, sizeof sql, "%sORDER BY session DESC, line DESC LIMIT ?1", select);
    newest_first = true;
  } else if (strcmp(type, "range") == 0) {
    snprintf(sql, sizeof sql, "%sWHERE session = ?2 AND line >= ?3 AND (?4 <= 0 OR line < ?4) "
                              "ORDER BY session, line", select);
  } else if (strcmp(type, "search") == 0) {
    /* unique: one row per input, its latest run. */
    snprintf(sql, sizeof sql, "%sWHERE history.source_raw GLOB ?5 %s%s", select,
             unique ? "GROUP BY history.source_raw " : "",
             n >= 0 ? "ORDER BY session DESC, line DESC LIMIT ?1" : "ORDER BY session, line");
    newest_first = n >= 0;
  } else {
    mf_klog("history_request with unknown hist_access_type '%s'", type);
    return out;
  }
  if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
    mf_klog("history: %s", sqlite3_errmsg(h->db));
    return out;
  }
  long long session = get_int(rq, "session", 0);
  if (session <= 0) session += h->session; /* relative to this one, as IPython */
  v = json_object_get(rq, "pattern");
  sqlite3_bind_int64(st, 1, n);
  sqlite3_bind_int64(st, 2, session);
  sqlite3_bind_int64(st, 3, get_int(rq, "start", 1));
  sqlite3_bind_int64(st, 4, get_int(rq, "stop", 0));
  sqlite3_bind_text(st, 5, json_is_string(v) ? json_string_value(v) : "*", -1, SQLITE_TRANSIENT);
  collect(st, output, out);
  sqlite3_finalize(st);
  return newest_first ? reversed(out) : out;
}
