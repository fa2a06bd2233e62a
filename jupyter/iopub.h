/* iopub.h — the kernel's one publisher on the IOPub socket.
 *
 * Three threads publish: the main thread (a cell's output, results,
 * status), the control thread (status around interrupt and shutdown
 * requests) and the stream flusher below. A ZeroMQ socket must not be used
 * by two threads at once, so every send happens under one mutex.
 *
 * Stream output is coalesced: a write is buffered and sent at most
 * MF_STREAM_DELAY_MS later (or at once when the buffer is large, or when any
 * other message is published, which keeps the order the user saw). A cell
 * that prints and then computes for a minute shows its print within a few
 * milliseconds, never at the end of the cell. */
#ifndef MF_KERNEL_IOPUB_H
#define MF_KERNEL_IOPUB_H

#include <stddef.h>

#include <jansson.h>

#include "wire.h"

#define MF_STREAM_DELAY_MS 4

typedef struct mf_iopub mf_iopub;

/* Borrows w and sock (both must outlive the publisher). NULL when out of
 * memory or the flusher thread cannot start. */
mf_iopub *mf_iopub_new(const mf_wire *w, void *sock);
/* Flushes pending output and stops the flusher; the socket stays open. */
void mf_iopub_free(mf_iopub *p);

/* Publishes one message; content is stolen. Pending stream text goes first. */
void mf_iopub_send(mf_iopub *p, const char *msg_type, const char *parent_json, json_t *content);
/* status: "starting", "busy" or "idle". */
void mf_iopub_status(mf_iopub *p, const char *parent_json, const char *state);
/* Buffers stream text (name is "stdout" or "stderr"). */
void mf_iopub_stream(mf_iopub *p, const char *parent_json, const char *name, const char *data,
                     size_t len);
/* Sends buffered stream text now. */
void mf_iopub_flush(mf_iopub *p);

#endif
