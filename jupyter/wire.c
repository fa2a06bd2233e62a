/* wire.c — see wire.h. */
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/rand.h>
#include <zmq.h>

#include "log.h"

static const char DELIM[] = "<IDS|MSG>";
#define DELIM_LEN (sizeof DELIM - 1)
/* A bound on frames per message, so a hostile peer cannot make the kernel
 * allocate without limit. Generous: only buffers come in numbers. */
#define MAX_FRAMES 4096

bool mf_wire_init(mf_wire *w, const char *key, const char *scheme, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  if (!mf_signer_init(&w->signer, key, scheme, err, errlen)) return false;
  mf_uuid(w->session);
  const char *user = getenv("USER");
  snprintf(w->username, sizeof w->username, "%s", user && *user ? user : "moonflow");
  return true;
}

void mf_wire_free(mf_wire *w) { mf_signer_free(&w->signer); }

void mf_uuid(char out[37]) {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) {
    /* libcrypto's generator failed (it should not); ids need uniqueness,
     * not secrecy, so time and address entropy will do. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 30) ^
                           (unsigned long long)(size_t)out ^ (unsigned long long)getpid() << 48;
    for (int i = 0; i < 16; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      b[i] = (unsigned char)(x >> 56);
    }
  }
  b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
  b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
  snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
           b[13], b[14], b[15]);
}

void mf_frames_free(mf_frames *fr) {
  for (size_t i = 0; i < fr->n; i++) free(fr->f[i].data);
  free(fr->f);
  fr->f = NULL;
  fr->n = 0;
}

static int frames_push(mf_frames *fr, const void *data, size_t len) {
  if ((fr->n & (fr->n + 1)) == 0) { /* grow at 0, 1, 3, 7, ... */
    mf_frame *f = realloc(fr->f, (fr->n * 2 + 2) * sizeof *f);
    if (!f) return -1;
    fr->f = f;
  }
  /* +1 keeps a NUL after every frame, so JSON frames can be read as C
   * strings without another copy. */
  unsigned char *d = malloc(len + 1);
  if (!d) return -1;
  if (len) memcpy(d, data, len);
  d[len] = 0;
  fr->f[fr->n].data = d;
  fr->f[fr->n].len = len;
  fr->n++;
  return 0;
}

int mf_frames_recv(void *sock, mf_frames *out, int flags) {
  out->f = NULL;
  out->n = 0;
  int more = 1;
  bool overflow = false;
  while (more) {
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, sock, out->n ? 0 : flags) < 0) {
      int e = errno;
      zmq_msg_close(&m);
      mf_frames_free(out);
      errno = e;
      return -1;
    }
    more = zmq_msg_more(&m);
    /* Past the bound, keep reading (the rest of the message must leave the
     * socket) but keep nothing. */
    if (out->n >= MAX_FRAMES) overflow = true;
    else if (frames_push(out, zmq_msg_data(&m), zmq_msg_size(&m)) < 0) overflow = true;
    zmq_msg_close(&m);
  }
  if (overflow) {
    mf_frames_free(out);
    mf_klog("dropped a message of too many frames (or out of memory)");
    errno = EMSGSIZE;
    return -1;
  }
  return 0;
}

int mf_frames_send(void *sock, const mf_frames *fr) {
  for (size_t i = 0; i < fr->n; i++) {
    int flags = i + 1 < fr->n ? ZMQ_SNDMORE : 0;
    while (zmq_send(sock, fr->f[i].data, fr->f[i].len, flags) < 0) {
      if (errno == EINTR) continue;
      /* A multipart message half sent is discarded by ZeroMQ when the
       * remaining parts never come; nothing else to undo. */
      return -1;
    }
  }
  return 0;
}

void mf_msg_free(mf_msg *msg) {
  json_decref(msg->header);
  json_decref(msg->parent);
  json_decref(msg->metadata);
  json_decref(msg->content);
  free(msg->content_error);
  mf_frames_free(&msg->raw);
  memset(msg, 0, sizeof *msg);
}

static json_t *load_object(const mf_frame *f, const char *what, char *why, size_t whylen) {
  json_error_t err;
  /* NUL is let through so a handler can say what is wrong with the text
   * (a cell holding "\u0000") instead of the request vanishing. */
  json_t *j = json_loadb((const char *)f->data, f->len, JSON_ALLOW_NUL, &err);
  if (!j || !json_is_object(j)) {
    snprintf(why, whylen, "%s is not a JSON object%s%s", what, j ? "" : ": ", j ? "" : err.text);
    json_decref(j);
    return NULL;
  }
  return j;
}

int mf_msg_parse(const mf_wire *w, mf_frames *fr, mf_msg *msg, char *why, size_t whylen) {
  memset(msg, 0, sizeof *msg);
  msg->raw = *fr;
  fr->f = NULL;
  fr->n = 0;
  const mf_frames *r = &msg->raw;
  size_t d = 0;
  while (d < r->n && !(r->f[d].len == DELIM_LEN && memcmp(r->f[d].data, DELIM, DELIM_LEN) == 0))
    d++;
  if (d == r->n) {
    snprintf(why, whylen, "no <IDS|MSG> delimiter");
    goto fail;
  }
  if (r->n - d < 6) {
    snprintf(why, whylen, "%zu frames after the delimiter, 5 expected", r->n - d - 1);
    goto fail;
  }
  const mf_frame *sig = &r->f[d + 1];
  const void *parts[4];
  size_t lens[4];
  for (int i = 0; i < 4; i++) {
    parts[i] = r->f[d + 2 + (size_t)i].data;
    lens[i] = r->f[d + 2 + (size_t)i].len;
  }
  /* The signature is checked before any JSON is parsed: nothing from an
   * unsigned message is trusted, not even its type. */
  if (!mf_signature_ok(&w->signer, sig->data, sig->len, parts, lens)) {
    snprintf(why, whylen, sig->len ? "wrong signature" : "missing signature");
    goto fail;
  }
  msg->idents = r->f;
  msg->n_idents = d;
  if (!(msg->header = load_object(&r->f[d + 2], "header", why, whylen)) ||
      !(msg->parent = load_object(&r->f[d + 3], "parent_header", why, whylen)) ||
      !(msg->metadata = load_object(&r->f[d + 4], "metadata", why, whylen)))
    goto fail;
  /* A signed request with a readable header is answered even when its
   * content is not JSON text (invalid UTF-8 in a cell): dropping it would
   * leave the frontend waiting forever. */
  if (!(msg->content = load_object(&r->f[d + 5], "content", why, whylen))) {
    msg->content_error = strdup(why);
    msg->content = json_object();
    if (!msg->content_error || !msg->content) {
      snprintf(why, whylen, "out of memory");
      goto fail;
    }
  }
  msg->header_json = (char *)r->f[d + 2].data; /* NUL-terminated by frames_push */
  msg->msg_type = mf_json_get_str(msg->header, "msg_type", NULL);
  msg->msg_id = mf_json_get_str(msg->header, "msg_id", "");
  if (!msg->msg_type) {
    snprintf(why, whylen, "header has no msg_type");
    goto fail;
  }
  return 0;
fail:
  mf_msg_free(msg);
  return -1;
}

/* ISO 8601 UTC with microseconds, as jupyter_client writes dates. */
static void now_iso(char out[40]) {
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  size_t n = strftime(out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out + n, 40 - n, ".%06ldZ", ts.tv_nsec / 1000);
}

int mf_wire_build(const mf_wire *w, const mf_frame *idents, size_t n_idents,
                  const char *msg_type, const char *parent_json, json_t *content,
                  json_t *metadata, mf_frames *out) {
  out->f = NULL;
  out->n = 0;
  char id[37], date[40];
  mf_uuid(id);
  now_iso(date);
  json_t *header = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "msg_id", id, "session",
                             w->session, "username", w->username, "date", date, "msg_type",
                             msg_type, "version", MF_PROTOCOL_VERSION);
  if (!metadata) metadata = json_object();
  char *h = header ? json_dumps(header, JSON_COMPACT) : NULL;
  char *m = metadata ? json_dumps(metadata, JSON_COMPACT) : NULL;
  char *c = content ? json_dumps(content, JSON_COMPACT) : NULL;
  json_decref(header);
  json_decref(metadata);
  json_decref(content);
  int rc = -1;
  if (!h || !m || !c) {
    mf_klog("could not encode a %s message (out of memory or invalid content)", msg_type);
    goto done;
  }
  const char *p = parent_json && *parent_json ? parent_json : "{}";
  const void *parts[4] = {h, p, m, c};
  size_t lens[4] = {strlen(h), strlen(p), strlen(m), strlen(c)};
  char sig[MF_SIG_MAX];
  if (!mf_sign(&w->signer, parts, lens, sig)) {
    mf_klog("could not sign a %s message (libcrypto failed)", msg_type);
    goto done;
  }
  bool ok = true;
  for (size_t i = 0; ok && i < n_idents; i++) ok = frames_push(out, idents[i].data, idents[i].len) == 0;
  ok = ok && frames_push(out, DELIM, DELIM_LEN) == 0 && frames_push(out, sig, strlen(sig)) == 0;
  for (int i = 0; ok && i < 4; i++) ok = frames_push(out, parts[i], lens[i]) == 0;
  if (!ok) {
    mf_frames_free(out);
    mf_klog("out of memory building a %s message", msg_type);
    goto done;
  }
  rc = 0;
done:
  free(h);
  free(m);
  free(c);
  return rc;
}

int mf_wire_send(const mf_wire *w, void *sock, const mf_frame *idents, size_t n_idents,
                 const char *msg_type, const char *parent_json, json_t *content,
                 json_t *metadata) {
  mf_frames fr;
  if (mf_wire_build(w, idents, n_idents, msg_type, parent_json, content, metadata, &fr) < 0)
    return -1;
  int rc = mf_frames_send(sock, &fr);
  if (rc < 0 && errno != ETERM) mf_klog("could not send %s: %s", msg_type, zmq_strerror(errno));
  mf_frames_free(&fr);
  return rc;
}

const char *mf_json_get_str(const json_t *obj, const char *key, const char *dflt) {
  const json_t *v = json_object_get(obj, key);
  return json_is_string(v) ? json_string_value(v) : dflt;
}

bool mf_json_get_bool(const json_t *obj, const char *key, bool dflt) {
  const json_t *v = json_object_get(obj, key);
  if (json_is_boolean(v)) return json_is_true(v);
  /* Some clients send 0/1. */
  if (json_is_integer(v)) return json_integer_value(v) != 0;
  return dflt;
}

long long mf_json_get_int(const json_t *obj, const char *key, long long dflt) {
  const json_t *v = json_object_get(obj, key);
  if (json_is_integer(v)) return json_integer_value(v);
  if (json_is_real(v)) return (long long)json_real_value(v);
  return dflt;
}
