/* wire.h — the Jupyter wire protocol (messaging spec 5.3): framing,
 * signature checks, parsing and building messages. Knows nothing of what a
 * message means; the handlers (handle_*.c) do.
 *
 * A message on a ZeroMQ socket is a multipart message:
 *
 *   [routing identities...] "<IDS|MSG>" signature header parent_header
 *   metadata content [buffers...]
 *
 * The four JSON frames are signed (signing.h). A message whose signature is
 * missing or wrong is dropped by mf_wire_parse and the caller logs it; it
 * never reaches a handler.
 *
 * Thread use: an mf_wire is read-only after mf_wire_init, so any thread may
 * sign, parse and send with it — each on its own sockets. */
#ifndef MF_KERNEL_WIRE_H
#define MF_KERNEL_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "signing.h"

#define MF_PROTOCOL_VERSION "5.3"

/* One frame's bytes (owned by whatever holds the frame). */
typedef struct mf_frame {
  unsigned char *data;
  size_t len;
} mf_frame;

/* A received multipart message, frame by frame (each malloc'd). */
typedef struct mf_frames {
  mf_frame *f;
  size_t n;
} mf_frames;

/* What every outgoing message shares: the signer and the kernel's own
 * session id and user name (header fields). */
typedef struct mf_wire {
  mf_signer signer;
  char session[40];
  char username[64];
} mf_wire;

/* A parsed, signature-checked message. idents point into `raw`; the JSON
 * values are owned; msg_type and msg_id are borrowed from header. */
typedef struct mf_msg {
  mf_frames raw;
  const mf_frame *idents;
  size_t n_idents;
  char *header_json; /* the header frame as received, NUL-terminated: the
                        parent_header of every message sent in reply */
  json_t *header, *parent, *metadata, *content;
  /* Set (malloc'd) when the content frame is not a JSON object (invalid
   * UTF-8, say); content is then {} and the handler must refuse the
   * request with this reason. */
  char *content_error;
  const char *msg_type;
  const char *msg_id;
} mf_msg;

bool mf_wire_init(mf_wire *w, const char *key, const char *scheme, char *err, size_t errlen);
void mf_wire_free(mf_wire *w);

/* A fresh random (version 4) UUID as text, 36 characters plus NUL. */
void mf_uuid(char out[37]);

/* Receives all frames of one multipart message. Returns 0, or -1 with errno
 * (EAGAIN with ZMQ_DONTWAIT, ETERM at shutdown, EINTR). */
int mf_frames_recv(void *sock, mf_frames *out, int flags);
/* Sends the frames as one multipart message; 0 or -1 with errno. */
int mf_frames_send(void *sock, const mf_frames *fr);
void mf_frames_free(mf_frames *fr);

/* Parses frames (taking ownership of them, even on failure) into msg.
 * Returns 0, or -1 with the reason in why (a bad signature, a missing
 * delimiter, a header that does not parse). Content that does not parse
 * sets msg->content_error instead. Strings may hold NUL (JSON_ALLOW_NUL). */
int mf_msg_parse(const mf_wire *w, mf_frames *fr, mf_msg *msg, char *why, size_t whylen);
void mf_msg_free(mf_msg *msg);

/* Builds, signs and sends one message. idents are the routing frames (the
 * request's identities for a reply, the topic on iopub). parent_json is the
 * parent header's JSON text ("{}" for none). content and metadata are
 * stolen (metadata may be NULL for {}). Returns 0 or -1 (logged). */
int mf_wire_send(const mf_wire *w, void *sock, const mf_frame *idents, size_t n_idents,
                 const char *msg_type, const char *parent_json, json_t *content,
                 json_t *metadata);

/* Builds a signed message's frames without sending (the iopub publisher
 * signs under its own lock). Same ownership rules as mf_wire_send. */
int mf_wire_build(const mf_wire *w, const mf_frame *idents, size_t n_idents,
                  const char *msg_type, const char *parent_json, json_t *content,
                  json_t *metadata, mf_frames *out);

/* Content accessors that tolerate missing or mistyped fields (a client's
 * mistake must not crash the kernel). */
const char *mf_json_get_str(const json_t *obj, const char *key, const char *dflt);
bool mf_json_get_bool(const json_t *obj, const char *key, bool dflt);
long long mf_json_get_int(const json_t *obj, const char *key, long long dflt);

#endif
