/* iopub.c — see iopub.h. */
#include "iopub.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "log.h"
#include "utf8.h"

/* Above this much buffered text, send without waiting for the timer. */
#define FLUSH_BYTES (64 * 1024)

struct mf_iopub {
  const mf_wire *w;
  void *sock;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* signalled when text is buffered or on stop */
  pthread_t flusher;
  bool stop;
  /* The pending stream: text of one stream name for one parent. */
  char name[8];
  char *parent;
  char *buf;
  size_t len, cap;
  struct timespec first; /* CLOCK_MONOTONIC time of the oldest pending byte */
};

static void send_locked(mf_iopub *p, const char *msg_type, const char *parent_json, json_t *content) {
  char topic[96];
  snprintf(topic, sizeof topic, "kernel.%s.%s", p->w->session, msg_type);
  mf_frame t = {(unsigned char *)topic, strlen(topic)};
  mf_wire_send(p->w, p->sock, &t, 1, msg_type, parent_json, content, NULL);
}

/* Sends pending text. When `all` is false an unfinished UTF-8 character at
 * the end stays buffered for the next write to complete it. */
static void flush_locked(mf_iopub *p, bool all) {
  if (p->len == 0) return;
  size_t n = all ? p->len : mf_utf8_complete_prefix(p->buf, p->len);
  if (n == 0) n = p->len; /* only a fragment: send it rather than wait forever */
  json_t *c = json_object();
  json_object_set_new(c, "name", json_string(p->name));
  json_object_set_new(c, "text", mf_json_text(p->buf, n));
  send_locked(p, "stream", p->parent, c);
  memmove(p->buf, p->buf + n, p->len - n);
  p->len -= n;
  clock_gettime(CLOCK_MONOTONIC, &p->first);
}

static void *flusher_main(void *arg) {
  mf_iopub *p = arg;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    if (p->len == 0) {
      pthread_cond_wait(&p->cv, &p->mu);
      continue;
    }
    struct timespec deadline = p->first;
    deadline.tv_nsec += MF_STREAM_DELAY_MS * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
    int rc = pthread_cond_timedwait(&p->cv, &p->mu, &deadline);
    if (rc == ETIMEDOUT && p->len > 0) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      /* Someone may have flushed and new text arrived meanwhile: only send
       * text that has waited its full delay. */
      if (now.tv_sec > deadline.tv_sec ||
          (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
        flush_locked(p, false);
    }
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

mf_iopub *mf_iopub_new(const mf_wire *w, void *sock) {
  mf_iopub *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->w = w;
  p->sock = sock;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, &ca);
  pthread_condattr_destroy(&ca);
  if (pthread_create(&p->flusher, NULL, flusher_main, p) != 0) {
    mf_klog("cannot start the stream flusher thread");
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return NULL;
  }
  return p;
}

void mf_iopub_free(mf_iopub *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  flush_locked(p, true);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->flusher, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p->buf);
  free(p->parent);
  free(p);
}

void mf_iopub_send(mf_iopub *p, const char *msg_type, const char *parent_json, json_t *content) {
  pthread_mutex_lock(&p->mu);
  flush_locked(p, true);
  send_locked(p, msg_type, parent_json, content);
  pthread_mutex_unlock(&p->mu);
}

void mf_iopub_status(mf_iopub *p, const char *parent_json, const char *state) {
  mf_iopub_send(p, "status", parent_json, json_pack("{s:s}", "execution_state", state));
}

void mf_iopub_flush(mf_iopub *p) {
  pthread_mutex_lock(&p->mu);
  flush_locked(p, true);
  pthread_mutex_unlock(&p->mu);
}

void mf_iopub_stream(mf_iopub *p, const char *parent_json, const char *name, const char *data,
                     size_t len) {
  if (len == 0) return;
  if (!parent_json) parent_json = "{}";
  pthread_mutex_lock(&p->mu);
  if (p->len > 0 && (strcmp(p->name, name) != 0 || strcmp(p->parent, parent_json) != 0))
    flush_locked(p, true);
  if (p->len == 0) {
    snprintf(p->name, sizeof p->name, "%s", strcmp(name, "stderr") == 0 ? "stderr" : "stdout");
    if (!p->parent || strcmp(p->parent, parent_json) != 0) {
      free(p->parent);
      p->parent = strdup(parent_json);
    }
    if (!p->parent) { /* out of memory: send unbuffered */
      json_t *c = json_pack("{s:s, s:o}", "name", p->name, "text", mf_json_text(data, len));
      send_locked(p, "stream", parent_json, c);
      pthread_mutex_unlock(&p->mu);
      return;
    }
    clock_gettime(CLOCK_MONOTONIC, &p->first);
    pthread_cond_signal(&p->cv);
  }
  if (p->len + len > p->cap) {
    size_t cap = p->cap ? p->cap : 4096;
    while (cap < p->len + len) cap *= 2;
    char *b = realloc(p->buf, cap);
    if (!b) {
      /* Out of memory: send what we have and this write directly rather
       * than lose the user's output. */
      flush_locked(p, true);
      json_t *c = json_object();
      json_object_set_new(c, "name", json_string(p->name));
      json_object_set_new(c, "text", mf_json_text(data, len));
      send_locked(p, "stream", parent_json, c);
      pthread_mutex_unlock(&p->mu);
      return;
    }
    p->buf = b;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, data, len);
  p->len += len;
  if (p->len >= FLUSH_BYTES) flush_locked(p, false);
  pthread_mutex_unlock(&p->mu);
}
