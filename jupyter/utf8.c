/* utf8.c — see utf8.h. */
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence starting at s[i], 0 when the bytes
 * there are not one (overlongs and surrogates included), -1 when the
 * sequence is valid so far but cut off by the end of the buffer. */
static int seq_len(const unsigned char *s, size_t i, size_t len) {
  unsigned c = s[i];
  int n;
  unsigned min;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; min = 0x80; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; min = 0x800; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; min = 0x10000; }
  else return 0;
  unsigned cp = c & (0x3F >> (n - 1));
  for (int k = 1; k < n; k++) {
    if (i + (size_t)k >= len) return -1;
    unsigned d = s[i + (size_t)k];
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

size_t mf_utf8_byte_offset(const char *s, size_t len, size_t cp) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (cp > 0 && i < len) {
    int n = seq_len(u, i, len);
    i += n > 0 ? (size_t)n : 1; /* an invalid byte counts as one character */
    cp--;
  }
  return i < len ? i : len;
}

size_t mf_utf8_count(const char *s, size_t bytes) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0, count = 0;
  while (i < bytes) {
    int n = seq_len(u, i, bytes);
    i += n > 0 ? (size_t)n : 1;
    count++;
  }
  return count;
}

size_t mf_utf8_complete_prefix(const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  /* Only the last three bytes can start an unfinished sequence. */
  size_t from = len > 3 ? len - 3 : 0;
  for (size_t i = from; i < len; i++) {
    if ((u[i] & 0xC0) == 0x80) continue;
    if (seq_len(u, i, len) == -1) return i;
  }
  return len;
}

json_t *mf_json_text(const char *s, size_t len) {
  if (!s) return json_string("");
  json_t *j = json_stringn(s, len);
  if (j) return j;
  /* Invalid UTF-8: rebuild with U+FFFD (3 bytes) for each bad byte. */
  const unsigned char *u = (const unsigned char *)s;
  char *out = malloc(len * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < len;) {
    int n = seq_len(u, i, len);
    if (n > 0) {
      memcpy(out + o, s + i, (size_t)n);
      o += (size_t)n;
      i += (size_t)n;
    } else {
      memcpy(out + o, "\xEF\xBF\xBD", 3);
      o += 3;
      i++;
    }
  }
  j = json_stringn(out, o);
  free(out);
  return j;
}

json_t *mf_json_str(const char *s) { return mf_json_text(s, s ? strlen(s) : 0); }
