/* connection.h — the connection file Jupyter hands a kernel (`-f FILE`):
 * transport, ip, the five ports, the signing key and scheme. */
#ifndef MF_KERNEL_CONNECTION_H
#define MF_KERNEL_CONNECTION_H

#include <stdbool.h>
#include <stddef.h>

typedef enum mf_channel {
  MF_CH_SHELL,
  MF_CH_IOPUB,
  MF_CH_STDIN,
  MF_CH_CONTROL,
  MF_CH_HB,
  MF_CH_COUNT
} mf_channel;

typedef struct mf_connection {
  char transport[16]; /* "tcp" or "ipc" */
  char ip[256];
  int port[MF_CH_COUNT]; /* 0: let the system choose, then write it back */
  char *key;             /* owned; "" when signing is off */
  char *scheme;          /* owned; "hmac-sha256" by default */
} mf_connection;

/* Reads and checks the file. false with a reason in err. */
bool mf_connection_load(mf_connection *c, const char *path, char *err, size_t errlen);
void mf_connection_free(mf_connection *c);
/* "tcp://127.0.0.1:5555" or "ipc://path-5555" ("*" for port 0 on tcp). */
void mf_connection_endpoint(const mf_connection *c, mf_channel ch, char *out, size_t outlen);
/* Rewrites the file with the ports now in c (after binding port 0). */
bool mf_connection_save(const mf_connection *c, const char *path);
const char *mf_channel_name(mf_channel ch);

#endif
