/* utf8.h — the byte/character bookkeeping the protocol needs.
 *
 * Jupyter counts cursor positions in Unicode code points; the session works
 * in bytes. JSON strings must be valid UTF-8, but what user code prints may
 * not be (or may be a multi-byte character split across two writes). */
#ifndef MF_KERNEL_UTF8_H
#define MF_KERNEL_UTF8_H

#include <stddef.h>

#include <jansson.h>

/* Byte offset of code point `cp` in s[0..len) (clamped to len). */
size_t mf_utf8_byte_offset(const char *s, size_t len, size_t cp);
/* Number of code points in s[0..bytes). */
size_t mf_utf8_count(const char *s, size_t bytes);
/* Length of the longest prefix of s[0..len) that does not end inside an
 * unfinished multi-byte sequence (the tail may complete with the next
 * write). */
size_t mf_utf8_complete_prefix(const char *s, size_t len);
/* A JSON string of s[0..len), with invalid bytes replaced by U+FFFD so the
 * message can always be encoded. New reference; NULL only when out of
 * memory. */
json_t *mf_json_text(const char *s, size_t len);
/* The same for a NUL-terminated string; NULL s gives "". */
json_t *mf_json_str(const char *s);

#endif
