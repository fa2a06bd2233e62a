/* connection.c — see connection.h. */
#include "connection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static const char *const PORT_KEYS[MF_CH_COUNT] = {"shell_port", "iopub_port", "stdin_port",
                                                   "control_port", "hb_port"};
static const char *const NAMES[MF_CH_COUNT] = {"shell", "iopub", "stdin", "control",
                                               "heartbeat"};

const char *mf_channel_name(mf_channel ch) { return ch < MF_CH_COUNT ? NAMES[ch] : "?"; }

bool mf_connection_load(mf_connection *c, const char *path, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  if (!j || !json_is_object(j)) {
    snprintf(err, errlen, "cannot read connection file %s: %s", path,
             j ? "not a JSON object" : je.text);
    json_decref(j);
    return false;
  }
  const json_t *v;
  v = json_object_get(j, "transport");
  snprintf(c->transport, sizeof c->transport, "%s", json_is_string(v) ? json_string_value(v) : "tcp");
  v = json_object_get(j, "ip");
  snprintf(c->ip, sizeof c->ip, "%s", json_is_string(v) ? json_string_value(v) : "127.0.0.1");
  bool ok = strcmp(c->transport, "tcp") == 0 || strcmp(c->transport, "ipc") == 0;
  if (!ok) snprintf(err, errlen, "unsupported transport '%s'", c->transport);
  for (int i = 0; ok && i < MF_CH_COUNT; i++) {
    v = json_object_get(j, PORT_KEYS[i]);
    if (v && !json_is_integer(v)) {
      snprintf(err, errlen, "%s is not an integer", PORT_KEYS[i]);
      ok = false;
    } else {
      long long p = v ? json_integer_value(v) : 0;
      if (p < 0 || p > 65535) {
        snprintf(err, errlen, "%s out of range", PORT_KEYS[i]);
        ok = false;
      }
      c->port[i] = (int)p;
    }
  }
  v = json_object_get(j, "key");
  c->key = strdup(json_is_string(v) ? json_string_value(v) : "");
  v = json_object_get(j, "signature_scheme");
  c->scheme = strdup(json_is_string(v) && *json_string_value(v) ? json_string_value(v) : "hmac-sha256");
  json_decref(j);
  if (ok && (!c->key || !c->scheme)) {
    snprintf(err, errlen, "out of memory");
    ok = false;
  }
  if (!ok) mf_connection_free(c);
  return ok;
}

void mf_connection_free(mf_connection *c) {
  free(c->key);
  free(c->scheme);
  c->key = c->scheme = NULL;
}

void mf_connection_endpoint(const mf_connection *c, mf_channel ch, char *out, size_t outlen) {
  if (strcmp(c->transport, "ipc") == 0)
    snprintf(out, outlen, "ipc://%s-%d", c->ip, c->port[ch]);
  else if (c->port[ch] == 0)
    snprintf(out, outlen, "tcp://%s:*", c->ip);
  else
    snprintf(out, outlen, "tcp://%s:%d", c->ip, c->port[ch]);
}

bool mf_connection_save(const mf_connection *c, const char *path) {
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  if (!json_is_object(j)) {
    json_decref(j);
    return false;
  }
  for (int i = 0; i < MF_CH_COUNT; i++) json_object_set_new(j, PORT_KEYS[i], json_integer(c->port[i]));
  int rc = json_dump_file(j, path, JSON_INDENT(1));
  json_decref(j);
  return rc == 0;
}
