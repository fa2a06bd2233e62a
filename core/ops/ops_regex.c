/* ops_regex.c — regular expressions on string tensors: RegexFullMatch and
 * RegexReplace (tf.strings.regex_full_match, tf.strings.regex_replace).
 *
 * TensorFlow matches with RE2; moonflow with PCRE2 (Debian's libpcre2-8),
 * in UTF-8 mode as RE2 is. Every RE2 pattern TF's tests use means the same
 * in PCRE2; PCRE2 also accepts what RE2 refuses (backreferences,
 * lookaround, possessive quantifiers), which moonflow does not refuse
 * (README, Limits). The replacement keeps RE2's semantics exactly: its
 * rewrite syntax (\0..\9, \\), its check of the rewrite against the
 * pattern's groups, and RE2::GlobalReplace's rule for empty matches. A
 * subject that is not valid UTF-8 is matched byte by byte, as RE2 does. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"
#include "interrupt.h"
#include "op.h"

static bool is_string(mf_dtype dt) { return dt == MF_STRING; }

/* A pattern compiled twice on demand: for UTF-8 subjects and, the first
 * time a subject is not valid UTF-8, for bytes. */
typedef struct regex {
  const mf_string *pattern;
  pcre2_code *utf, *bytes;
  pcre2_match_data *md;
} regex;

static pcre2_code *compile(const mf_string *p, uint32_t opts, mf_error *err) {
  int code;
  PCRE2_SIZE at;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)p->ptr, p->len, opts, &code, &at, NULL);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Invalid pattern: %.*s, error: %s", (int)p->len,
                 p->ptr, (const char *)msg);
  }
  return re;
}

static mf_status regex_open(regex *r, const mf_string *pattern, mf_error *err) {
  *r = (regex){.pattern = pattern};
  r->utf = compile(pattern, PCRE2_UTF, err);
  if (!r->utf) return MF_ERR_INVALID_ARGUMENT;
  r->md = pcre2_match_data_create_from_pattern(r->utf, NULL);
  if (!r->md) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  return MF_OK;
}

static void regex_close(regex *r) {
  pcre2_match_data_free(r->md);
  pcre2_code_free(r->utf);
  pcre2_code_free(r->bytes);
}

static uint32_t group_count(const regex *r) {
  uint32_t n = 0;
  pcre2_pattern_info(r->utf, PCRE2_INFO_CAPTURECOUNT, &n);
  return n;
}

/* Matches s from `from`; *found tells whether it did, ovector holds the
 * groups. */
static mf_status regex_match(regex *r, const mf_string *s, size_t from, uint32_t opts, bool *found,
                             mf_error *err) {
  int rc = pcre2_match(r->utf, (PCRE2_SPTR)s->ptr, s->len, from, opts, r->md, NULL);
  if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21) {
    if (!r->bytes) {
      r->bytes = compile(r->pattern, 0, err);
      if (!r->bytes) return MF_ERR_INVALID_ARGUMENT;
    }
    rc = pcre2_match(r->bytes, (PCRE2_SPTR)s->ptr, s->len, from, opts, r->md, NULL);
  }
  *found = rc >= 0;
  if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return MF_OK;
  PCRE2_UCHAR msg[256];
  pcre2_get_error_message(rc, msg, sizeof msg);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Regex match failed: %s", (const char *)msg);
}

static mf_status scalar_input(const mf_op_call *c, int i, const char *what, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (s->rank > 0) {
    char buf[160];
    mf_shape_debug(s->rank, s->shape, buf, sizeof buf);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be scalar, but received %s [Op:%s]",
                        what, buf, c->op->name);
  }
  return MF_OK;
}

/* ---- RegexFullMatch ---- */

static mf_status full_match_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_infer_check_dtype(c, 1, is_string, "string", err));
  MF_TRY(scalar_input(c, 1, "Pattern", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  c->out_specs[0].dtype = MF_BOOL;
  return MF_OK;
}

static mf_status full_match_kernel(mf_op_call *c, mf_error *err) {
  regex r;
  mf_status s = regex_open(&r, mf_tensor_data(c->in[1]), err);
  mf_tensor *out = NULL;
  if (s == MF_OK) s = mf_op_alloc_output(c, 0, &out, err);
  const mf_string *in = mf_tensor_data(c->in[0]);
  for (int64_t i = 0; s == MF_OK && i < c->in[0]->size; i++) {
    if ((i & 0xFFF) == 0) s = mf_interrupt_check(err);
    bool found = false;
    if (s == MF_OK) s = regex_match(&r, &in[i], 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED, &found, err);
    MF_DATA(out, bool)[i] = found;
  }
  regex_close(&r);
  return s;
}

const mf_op_def mf_op_RegexFullMatch = {
    .name = "RegexFullMatch", .input_names = "input,pattern", .min_inputs = 2, .max_inputs = 2,
    .infer = full_match_infer, .kernel = full_match_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "True where the whole string matches the regular expression.",
    .tf_attrs = "",
};

/* ---- RegexReplace ---- */

/* A growing output string. */
typedef struct sbuf {
  char *p;
  size_t n, cap;
  bool oom;
} sbuf;

static void put(sbuf *b, const char *p, size_t n) {
  if (b->oom || !n) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + n + 1) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
      b->oom = true;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, p, n);
  b->n += n;
}

/* RE2::CheckRewriteString: \N must name a group the pattern has, a
 * backslash is followed by a digit or another backslash. */
static mf_status check_rewrite(const mf_string *rw, uint32_t groups, mf_error *err) {
  int most = -1;
  for (size_t k = 0; k < rw->len; k++) {
    if (rw->ptr[k] != '\\') continue;
    if (++k == rw->len)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Rewrite schema error: '\\' not allowed at end.");
    char ch = rw->ptr[k];
    if (ch == '\\') continue;
    if (ch < '0' || ch > '9')
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Rewrite schema error: '\\' must be followed by a digit or '\\'.");
    if (ch - '0' > most) most = ch - '0';
  }
  if (most > (int)groups)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Rewrite schema requests %d matches, but the regexp only has %u "
                        "parenthesized subexpressions.",
                        most, groups);
  return MF_OK;
}

static void rewrite(sbuf *b, const mf_string *rw, const mf_string *s, const PCRE2_SIZE *ov,
                    uint32_t npairs) {
  for (size_t k = 0; k < rw->len; k++) {
    char ch = rw->ptr[k];
    if (ch != '\\' || k + 1 == rw->len) {
      put(b, &ch, 1);
      continue;
    }
    ch = rw->ptr[++k];
    if (ch == '\\') {
      put(b, &ch, 1);
      continue;
    }
    uint32_t g = (uint32_t)(ch - '0');
    if (g < npairs && ov[2 * g] != PCRE2_UNSET) put(b, s->ptr + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
  }
}

/* Length of the UTF-8 character at p (1 for a stray byte), RE2's step past
 * an empty match. */
static size_t char_len(const char *p, size_t left) {
  unsigned char ch = (unsigned char)*p;
  size_t n = ch < 0x80 ? 1 : ch >= 0xF0 ? 4 : ch >= 0xE0 ? 3 : ch >= 0xC0 ? 2 : 1;
  return n > left ? left : n;
}

/* RE2::Replace (first match) or RE2::GlobalReplace, into b. */
static mf_status replace_one(regex *r, const mf_string *s, const mf_string *rw, bool global,
                             sbuf *b, mf_error *err) {
  size_t p = 0, lastend = (size_t)-1;
  while (p <= s->len) {
    bool found;
    MF_TRY(regex_match(r, s, p, 0, &found, err));
    if (!found) break;
    const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(r->md);
    uint32_t npairs = pcre2_get_ovector_count(r->md);
    put(b, s->ptr + p, ov[0] - p);
    if (ov[0] == lastend && ov[1] == ov[0]) {
      /* no empty match right where the last one ended: step one character */
      if (p >= s->len) break;
      size_t n = char_len(s->ptr + p, s->len - p);
      put(b, s->ptr + p, n);
      p += n;
      continue;
    }
    rewrite(b, rw, s, ov, npairs);
    p = ov[1];
    lastend = p;
    if (!global) break;
  }
  if (p < s->len) put(b, s->ptr + p, s->len - p);
  return MF_OK;
}

static mf_status replace_infer(mf_op_call *c, mf_error *err) {
  for (int i = 0; i < 3; i++) MF_TRY(mf_infer_check_dtype(c, i, is_string, "string", err));
  MF_TRY(scalar_input(c, 1, "Pattern", err));
  MF_TRY(scalar_input(c, 2, "Rewrite", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

static mf_status replace_kernel(mf_op_call *c, mf_error *err) {
  bool global = mf_attr_bool(c->attrs, "replace_global", true);
  const mf_string *rw = mf_tensor_data(c->in[2]);
  regex r;
  mf_status s = regex_open(&r, mf_tensor_data(c->in[1]), err);
  if (s == MF_OK) s = check_rewrite(rw, group_count(&r), err);
  mf_tensor *out = NULL;
  if (s == MF_OK) s = mf_op_alloc_output(c, 0, &out, err);
  const mf_string *in = mf_tensor_data(c->in[0]);
  sbuf b = {0};
  for (int64_t i = 0; s == MF_OK && i < c->in[0]->size; i++) {
    if ((i & 0xFFF) == 0) s = mf_interrupt_check(err);
    b.n = 0;
    if (s == MF_OK) s = replace_one(&r, &in[i], rw, global, &b, err);
    if (s == MF_OK && b.oom) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    if (s == MF_OK) s = mf_string_set(&MF_DATA(out, mf_string)[i], b.p ? b.p : "", b.n, err);
  }
  free(b.p);
  regex_close(&r);
  return s;
}

const mf_op_def mf_op_RegexReplace = {
    .name = "RegexReplace", .input_names = "input,pattern,rewrite", .min_inputs = 3,
    .max_inputs = 3, .attrs = {{"replace_global", MF_ATTR_BOOL}},
    .infer = replace_infer, .kernel = replace_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Replaces the matches of a regular expression (every one, or the first) with a "
           "rewrite (\\1 names a group).",
    .tf_attrs = "replace_global=true",
};
