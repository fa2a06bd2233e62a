/* ops_string.c — string tensors: StringLength (bytes or UTF-8 characters
 * per element), StringJoin (elementwise concatenation with a separator,
 * scalars broadcast against one common shape) and StringFormat (TF's op
 * behind tf.strings.format and the text tf.print writes: a template whose
 * placeholders are replaced, in order, by the inputs as tf.print shows
 * them, format.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"
#include "broadcast.h"
#include "format.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"

static bool is_string(mf_dtype dt) { return dt == MF_STRING; }

/* ---- StringLength ---- */

/* True for UTF8_CHAR, false for BYTE; fails for anything else. */
static mf_status count_chars(const mf_op_call *c, bool *chars, mf_error *err) {
  const char *unit = mf_attr_string(c->attrs, "unit", "BYTE");
  *chars = strcmp(unit, "UTF8_CHAR") == 0;
  if (*chars || strcmp(unit, "BYTE") == 0) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Value for attr 'unit' of \"%s\" is not in the list of allowed values: "
                      "\"BYTE\", \"UTF8_CHAR\" [Op:StringLength]",
                      unit);
}

static mf_status string_length_infer(mf_op_call *c, mf_error *err) {
  bool chars;
  MF_TRY(count_chars(c, &chars, err));
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  c->out_specs[0].dtype = MF_INT32;
  return MF_OK;
}

static mf_status string_length_kernel(mf_op_call *c, mf_error *err) {
  bool chars;
  MF_TRY(count_chars(c, &chars, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const mf_string *s = mf_tensor_data(c->in[0]);
  int32_t *len = mf_tensor_data(out);
  for (int64_t i = 0; i < out->size; i++) {
    size_t n = s[i].len;
    if (chars) {
      /* A UTF-8 character is one byte that is not a continuation byte
       * (10xxxxxx); that is how TF counts, valid or not. */
      n = 0;
      for (size_t k = 0; k < s[i].len; k++) n += ((unsigned char)s[i].ptr[k] & 0xC0) != 0x80;
    }
    len[i] = n > INT32_MAX ? INT32_MAX : (int32_t)n;
  }
  return MF_OK;
}

const mf_op_def mf_op_StringLength = {
    .name = "StringLength", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"unit", MF_ATTR_STRING}},
    .infer = string_length_infer, .kernel = string_length_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Length of each string, in bytes (unit=\"BYTE\") or UTF-8 characters "
           "(unit=\"UTF8_CHAR\").",
    .tf_attrs = "unit=\"BYTE\"",
};

/* ---- StringJoin ---- */

static mf_status shapes_differ(const mf_spec *a, const mf_spec *b, mf_error *err) {
  char x[160], y[160];
  mf_shape_debug(a->rank, a->shape, x, sizeof x);
  mf_shape_debug(b->rank, b->shape, y, sizeof y);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Input shapes do not match: %s vs. %s [Op:StringJoin]", x, y);
}

static mf_status string_join_infer(mf_op_call *c, mf_error *err) {
  mf_spec out = {.dtype = MF_STRING, .rank = 0};
  bool have_shape = false, maybe_shaped = false;
  for (int i = 0; i < c->nin; i++) {
    MF_TRY(mf_infer_check_dtype(c, i, is_string, "string", err));
    const mf_spec *s = &c->in_specs[i];
    if (s->rank < 0) {
      maybe_shaped = true;
      continue;
    }
    if (s->rank == 0) continue;
    if (!have_shape) {
      out = *s;
      have_shape = true;
      continue;
    }
    if (s->rank != out.rank) return shapes_differ(&out, s, err);
    for (int k = 0; k < s->rank; k++) {
      if (out.shape[k] >= 0 && s->shape[k] >= 0 && out.shape[k] != s->shape[k])
        return shapes_differ(&out, s, err);
      if (out.shape[k] < 0) out.shape[k] = s->shape[k];
    }
  }
  if (!have_shape && maybe_shaped) out.rank = -1;
  out.dtype = MF_STRING;
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = out;
  return MF_OK;
}

static mf_status string_join_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const char *sep = mf_attr_string(c->attrs, "separator", "");
  size_t seplen = strlen(sep);
  mf_string *dst = mf_tensor_data(out);
  for (int k = 0; k < c->nin; k++)
    if (c->in[k]->rank && c->in[k]->size != out->size)
      return shapes_differ(&c->out_specs[0], &c->in_specs[k], err);
  for (int64_t i = 0; i < out->size; i++) {
    if ((i & 0xFFFF) == 0) MF_TRY(mf_interrupt_check(err));
    size_t total = c->nin > 1 ? seplen * (size_t)(c->nin - 1) : 0;
    for (int k = 0; k < c->nin; k++) {
      const mf_tensor *t = c->in[k];
      size_t len = MF_DATA(t, mf_string)[t->rank ? i : 0].len;
      if (len > SIZE_MAX / 2 - total)
        return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "joined string is too long");
      total += len;
    }
    char *p = mf_malloc(total + 1);
    if (!p) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    dst[i].ptr = p; /* owned by the output from here on */
    dst[i].len = total;
    for (int k = 0; k < c->nin; k++) {
      const mf_tensor *t = c->in[k];
      const mf_string *s = &MF_DATA(t, mf_string)[t->rank ? i : 0];
      if (k && seplen) {
        memcpy(p, sep, seplen);
        p += seplen;
      }
      if (s->len) {
        memcpy(p, s->ptr, s->len);
        p += s->len;
      }
    }
    *p = '\0';
  }
  return MF_OK;
}

const mf_op_def mf_op_StringJoin = {
    .name = "StringJoin", .input_names = "inputs*", .min_inputs = 1, .max_inputs = -1,
    .attrs = {{"separator", MF_ATTR_STRING}},
    .infer = string_join_infer, .kernel = string_join_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Concatenates string tensors elementwise with a separator; scalars broadcast.",
    .tf_attrs = "N:# separator=\"\"",
};

/* ---- StringFormat ---- */

/* TF's op-definition defaults (tf.strings.format's Python wrapper passes
 * "{}" explicitly; the op itself defaults to "%s"). */
static const char *format_template(const mf_op_call *c) {
  return mf_attr_string(c->attrs, "template", "%s");
}
static const char *format_placeholder(const mf_op_call *c) {
  return mf_attr_string(c->attrs, "placeholder", "%s");
}

/* Non-overlapping occurrences, left to right, as absl::StrSplit finds them. */
static int64_t count_placeholders(const char *tmpl, const char *ph) {
  int64_t n = 0;
  size_t plen = strlen(ph);
  for (const char *p = strstr(tmpl, ph); p; p = strstr(p + plen, ph)) n++;
  return n;
}

static mf_status check_placeholders(const mf_op_call *c, mf_error *err) {
  const char *ph = format_placeholder(c);
  /* absl::StrSplit would cut between every character; nobody means that */
  if (!*ph) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "StringFormat: empty placeholder");
  int64_t n = count_placeholders(format_template(c), ph);
  if (n != c->nin)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "num placeholders in template and num inputs must match: %lld vs. %d",
                        (long long)n, c->nin);
  return MF_OK;
}

static mf_status string_format_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_placeholders(c, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_STRING, .rank = 0};
  return MF_OK;
}

static mf_status string_format_kernel(mf_op_call *c, mf_error *err) {
  MF_TRY(check_placeholders(c, err));
  const char *tmpl = format_template(c), *ph = format_placeholder(c);
  size_t plen = strlen(ph), total = strlen(tmpl) - (size_t)c->nin * plen;
  int64_t sum = mf_attr_int(c->attrs, "summarize", 3);
  int summarize = sum < 0 ? -1 : sum > INT_MAX ? INT_MAX : (int)sum;
  char **values = mf_calloc((size_t)c->nin + 1, sizeof *values);
  bool ok = values != NULL;
  for (int i = 0; ok && i < c->nin; i++) {
    values[i] = mf_format_tf_print(c->in[i], summarize);
    ok = values[i] != NULL;
    if (ok) total += strlen(values[i]);
  }
  char *msg = ok ? mf_malloc(total + 1) : NULL;
  if (msg) {
    char *end = msg;
    const char *piece = tmpl;
    for (int i = 0; i < c->nin; i++) {
      const char *at = strstr(piece, ph);
      size_t vlen = strlen(values[i]);
      memcpy(end, piece, (size_t)(at - piece));
      end += at - piece;
      memcpy(end, values[i], vlen);
      end += vlen;
      piece = at + plen;
    }
    strcpy(end, piece);
  }
  for (int i = 0; values && i < c->nin; i++) free(values[i]);
  free(values);
  mf_tensor *out;
  mf_status s = msg ? mf_op_alloc_output(c, 0, &out, err)
                    : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory in StringFormat");
  if (s == MF_OK) s = mf_string_set(MF_DATA(out, mf_string), msg, total, err);
  free(msg);
  return s;
}

const mf_op_def mf_op_StringFormat = {
    .name = "StringFormat", .input_names = "inputs*", .min_inputs = 0, .max_inputs = -1,
    .attrs = {{"template", MF_ATTR_STRING}, {"placeholder", MF_ATTR_STRING},
              {"summarize", MF_ATTR_INT}},
    .infer = string_format_infer, .kernel = string_format_kernel,
    .flags = MF_OP_NO_GRADIENT,
    .doc = "Formats tensors into a string scalar: each placeholder in the template becomes the "
           "next input as tf.print shows it.",
    .tf_attrs = "placeholder=\"{}\" summarize=3 template=\"%s\"",
};

/* ---- shared by the ops below ---- */

/* Output i, every element a copy of bytes [p, p+len). */
static mf_status set_piece(mf_tensor *out, int64_t i, const char *p, size_t len, mf_error *err) {
  return mf_string_set(&MF_DATA(out, mf_string)[i], p, len, err);
}

/* Output i, shaped only now (its length depends on the values). */
static mf_status new_output(mf_op_call *c, int i, mf_dtype dt, int rank, const int64_t *shape,
                            mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(dt, rank, shape, out, err));
  mf_tensor_release(c->out[i]);
  c->out[i] = *out;
  return MF_OK;
}

/* One string in, one string out, element by element: lower, upper, strip. */
typedef void (*string_map_fn)(const mf_string *in, char *out, size_t *len);

static mf_status string_map_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

static mf_status string_map(mf_op_call *c, string_map_fn fn, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const mf_string *s = mf_tensor_data(c->in[0]);
  for (int64_t i = 0; i < out->size; i++) {
    char *buf = mf_malloc(s[i].len + 1);
    if (!buf) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    size_t len = s[i].len;
    fn(&s[i], buf, &len);
    buf[len] = '\0';
    MF_DATA(out, mf_string)[i] = (mf_string){buf, len};
  }
  return MF_OK;
}

/* TF lowers and uppers ASCII letters only unless given an encoding
 * ("utf-8"), when ICU maps every letter; moonflow maps ASCII in both (the
 * README says so), so an encoding other than "" or "utf-8" is refused. */
static mf_status check_case_encoding(const mf_op_call *c, mf_error *err) {
  const char *enc = mf_attr_string(c->attrs, "encoding", "");
  if (!*enc || strcmp(enc, "utf-8") == 0 || strcmp(enc, "UTF-8") == 0) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Unsupported encoding: %s [Op:%s]", enc,
                      c->op->name);
}

static void map_lower(const mf_string *in, char *out, size_t *len) {
  for (size_t k = 0; k < in->len; k++) {
    unsigned char ch = (unsigned char)in->ptr[k];
    out[k] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
  }
  *len = in->len;
}

static void map_upper(const mf_string *in, char *out, size_t *len) {
  for (size_t k = 0; k < in->len; k++) {
    unsigned char ch = (unsigned char)in->ptr[k];
    out[k] = (char)(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
  }
  *len = in->len;
}

/* absl::ascii_isspace: space, \t \n \v \f \r. */
static bool ascii_space(unsigned char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

static void map_strip(const mf_string *in, char *out, size_t *len) {
  size_t a = 0, b = in->len;
  while (a < b && ascii_space((unsigned char)in->ptr[a])) a++;
  while (b > a && ascii_space((unsigned char)in->ptr[b - 1])) b--;
  memcpy(out, in->ptr + a, b - a);
  *len = b - a;
}

static mf_status string_lower_kernel(mf_op_call *c, mf_error *err) {
  MF_TRY(check_case_encoding(c, err));
  return string_map(c, map_lower, err);
}
static mf_status string_upper_kernel(mf_op_call *c, mf_error *err) {
  MF_TRY(check_case_encoding(c, err));
  return string_map(c, map_upper, err);
}
static mf_status string_strip_kernel(mf_op_call *c, mf_error *err) {
  return string_map(c, map_strip, err);
}

const mf_op_def mf_op_StringLower = {
    .name = "StringLower", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"encoding", MF_ATTR_STRING}},
    .infer = string_map_infer, .kernel = string_lower_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Converts each string to lowercase (ASCII letters).",
    .tf_attrs = "encoding=\"\"",
};

const mf_op_def mf_op_StringUpper = {
    .name = "StringUpper", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"encoding", MF_ATTR_STRING}},
    .infer = string_map_infer, .kernel = string_upper_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Converts each string to uppercase (ASCII letters).",
    .tf_attrs = "encoding=\"\"",
};

const mf_op_def mf_op_StringStrip = {
    .name = "StringStrip", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = string_map_infer, .kernel = string_strip_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Strips leading and trailing ASCII whitespace from each string.",
    .tf_attrs = "",
};

/* ---- Substr ---- */

static bool is_index(mf_dtype dt) { return dt == MF_INT32 || dt == MF_INT64; }

static mf_status substr_infer(mf_op_call *c, mf_error *err) {
  const char *unit = mf_attr_string(c->attrs, "unit", "BYTE");
  if (strcmp(unit, "BYTE") != 0 && strcmp(unit, "UTF8_CHAR") != 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'unit' of \"%s\" is not in the list of allowed values: "
                        "\"BYTE\", \"UTF8_CHAR\" [Op:Substr]",
                        unit);
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_infer_check_dtype(c, 1, is_index, "int32, int64", err));
  MF_TRY(mf_infer_same_dtype(c, 1, 3, err));
  const mf_spec *p = &c->in_specs[1], *l = &c->in_specs[2];
  if (p->rank >= 0 && l->rank >= 0) {
    bool same = p->rank == l->rank;
    for (int k = 0; same && k < p->rank; k++)
      same = p->shape[k] < 0 || l->shape[k] < 0 || p->shape[k] == l->shape[k];
    if (!same) {
      char a[160], b[160];
      mf_shape_debug(p->rank, p->shape, a, sizeof a);
      mf_shape_debug(l->rank, l->shape, b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "pos and len should have the same shape, got: %s vs. %s [Op:Substr]", a, b);
    }
  }
  int rank;
  int64_t shape[MF_MAX_RANK];
  MF_TRY(mf_broadcast_shape(c->in_specs[0].rank, c->in_specs[0].shape, p->rank, p->shape, &rank,
                            shape, "Substr", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_STRING, .rank = rank};
  if (rank > 0) memcpy(c->out_specs[0].shape, shape, sizeof(int64_t) * (size_t)rank);
  return MF_OK;
}

/* Byte offset of UTF-8 character `n` counted from `from` (forward), or
 * false when the string has fewer characters. */
static bool utf8_advance(const char *s, size_t len, size_t from, int64_t n, size_t *at) {
  size_t i = from;
  while (n > 0) {
    if (i >= len) return false;
    i++;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    n--;
  }
  *at = i;
  return true;
}

static size_t utf8_count(const char *s, size_t len) {
  size_t n = 0;
  for (size_t k = 0; k < len; k++) n += ((unsigned char)s[k] & 0xC0) != 0x80;
  return n;
}

/* Flat index into a tensor of (rank, shape) broadcast against the output. */
static int64_t bcast_index(const mf_tensor *out, const mf_tensor *t, int64_t i) {
  if (t->size == out->size) return i;
  if (t->size == 1) return 0;
  int64_t idx = 0, stride = 1, rem = i;
  for (int d = out->rank - 1, e = t->rank - 1; d >= 0; d--, e--) {
    int64_t coord = rem % out->shape[d];
    rem /= out->shape[d];
    if (e < 0) break;
    if (t->shape[e] != 1) idx += coord * stride;
    stride *= t->shape[e];
  }
  return idx;
}

static mf_status substr_kernel(mf_op_call *c, mf_error *err) {
  bool chars = strcmp(mf_attr_string(c->attrs, "unit", "BYTE"), "UTF8_CHAR") == 0;
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const mf_string *in = mf_tensor_data(c->in[0]);
  for (int64_t i = 0; i < out->size; i++) {
    const mf_string *s = &in[bcast_index(out, c->in[0], i)];
    int64_t pos = mf_tensor_get_i64(c->in[1], bcast_index(out, c->in[1], i));
    int64_t len = mf_tensor_get_i64(c->in[2], bcast_index(out, c->in[2], i));
    int64_t size = chars ? (int64_t)utf8_count(s->ptr, s->len) : (int64_t)s->len;
    if (pos > size || pos < -size)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "pos %lld out of range for string b'%.*s' at index %lld [Op:Substr]",
                          (long long)pos, (int)(s->len > 200 ? 200 : s->len), s->ptr,
                          (long long)i);
    if (pos < 0) pos += size;
    if (len < 0 || len > size - pos) len = size - pos;
    size_t from = (size_t)pos, to = (size_t)(pos + len);
    if (chars) {
      utf8_advance(s->ptr, s->len, 0, pos, &from);
      utf8_advance(s->ptr, s->len, from, len, &to);
    }
    MF_TRY(set_piece(out, i, s->ptr + from, to - from, err));
  }
  return MF_OK;
}

const mf_op_def mf_op_Substr = {
    .name = "Substr", .input_names = "input,pos,len", .min_inputs = 3, .max_inputs = 3,
    .attrs = {{"unit", MF_ATTR_STRING}},
    .infer = substr_infer, .kernel = substr_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Substrings of len bytes or UTF-8 characters from pos (negative: from the end).",
    .tf_attrs = "T:1 unit=\"BYTE\"",
};

/* ---- StringToNumber ---- */

static bool is_number_type(mf_dtype dt) {
  return dt == MF_FLOAT32 || dt == MF_FLOAT64 || dt == MF_INT32 || dt == MF_INT64;
}

static mf_status to_number_infer(mf_op_call *c, mf_error *err) {
  mf_dtype dt = mf_attr_type(c->attrs, "out_type", MF_FLOAT32);
  if (!is_number_type(dt))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'out_type' of %s is not in the list of allowed values: "
                        "float, double, int32, int64 [Op:StringToNumber]",
                        mf_dtype_name(dt));
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  c->out_specs[0].dtype = dt;
  return MF_OK;
}

/* TF's safe_strto*: surrounding ASCII whitespace is allowed, the rest must
 * all be the number, and integers must fit the type. */
static bool parse_number(const mf_string *s, mf_dtype dt, double *f, int64_t *n) {
  char buf[128];
  size_t a = 0, b = s->len;
  while (a < b && ascii_space((unsigned char)s->ptr[a])) a++;
  while (b > a && ascii_space((unsigned char)s->ptr[b - 1])) b--;
  if (a == b || b - a >= sizeof buf) return false;
  memcpy(buf, s->ptr + a, b - a);
  buf[b - a] = '\0';
  char *end;
  errno = 0;
  if (dt == MF_FLOAT32 || dt == MF_FLOAT64) {
    if (strpbrk(buf, "xX")) return false; /* strtod's hexadecimal floats: TF takes decimal only */
    *f = dt == MF_FLOAT32 ? (double)strtof(buf, &end) : strtod(buf, &end);
    return *end == '\0';
  }
  if (buf[0] != '-' && buf[0] != '+' && (buf[0] < '0' || buf[0] > '9')) return false;
  long long v = strtoll(buf, &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  if (dt == MF_INT32 && (v < INT32_MIN || v > INT32_MAX)) return false;
  *n = v;
  return true;
}

static mf_status to_number_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const mf_string *s = mf_tensor_data(c->in[0]);
  for (int64_t i = 0; i < out->size; i++) {
    double f = 0;
    int64_t n = 0;
    if (!parse_number(&s[i], out->dtype, &f, &n))
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "StringToNumberOp could not correctly convert string: %.*s "
                          "[Op:StringToNumber]",
                          (int)(s[i].len > 200 ? 200 : s[i].len), s[i].ptr);
    if (out->dtype == MF_FLOAT32) MF_DATA(out, float)[i] = (float)f;
    else if (out->dtype == MF_FLOAT64) MF_DATA(out, double)[i] = f;
    else mf_tensor_set_i64(out, i, n);
  }
  return MF_OK;
}

const mf_op_def mf_op_StringToNumber = {
    .name = "StringToNumber", .input_names = "string_tensor", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"out_type", MF_ATTR_TYPE}},
    .infer = to_number_infer, .kernel = to_number_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Parses each string as a number of out_type (float32 unless given).",
    .tf_attrs = "out_type",
};

/* ---- AsString ---- */

/* The printf format TF's AsStringOp builds from its attributes. */
static mf_status as_string_format(const mf_op_call *c, mf_dtype dt, char *fmt, size_t n,
                                  mf_error *err) {
  int64_t precision = mf_attr_int(c->attrs, "precision", -1);
  int64_t width = mf_attr_int(c->attrs, "width", -1);
  bool scientific = mf_attr_bool(c->attrs, "scientific", false);
  bool shortest = mf_attr_bool(c->attrs, "shortest", false);
  const char *fill = mf_attr_string(c->attrs, "fill", "");
  bool is_float = dt == MF_FLOAT32 || dt == MF_FLOAT64;
  if (scientific && shortest)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Cannot select both scientific and shortest notation [Op:AsString]");
  if (strlen(fill) > 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Fill string must be one or fewer characters [Op:AsString]");
  if (!is_float && (scientific || shortest))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "scientific and shortest format not supported for datatype %s "
                        "[Op:AsString]",
                        mf_dtype_kernel_name(dt));
  if (!is_float && precision > -1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "precision not supported for datatype %s [Op:AsString]",
                        mf_dtype_kernel_name(dt));
  if (*fill && !strchr(" +-0#", *fill))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Fill argument not supported: \"%s\" [Op:AsString]", fill);
  int k = snprintf(fmt, n, "%%%s", fill);
  if (width > -1) k += snprintf(fmt + k, n - (size_t)k, "%lld", (long long)width);
  if (precision > -1) k += snprintf(fmt + k, n - (size_t)k, ".%lld", (long long)precision);
  const char *conv = dt == MF_INT64                 ? "lld"
                     : dt == MF_STRING              ? "s"
                     : !is_float                    ? "d"
                     : shortest                     ? "g"
                     : scientific                   ? "e"
                                                    : "f";
  snprintf(fmt + k, n - (size_t)k, "%s", conv);
  return MF_OK;
}

static bool as_string_type(mf_dtype dt) {
  return is_number_type(dt) || dt == MF_BOOL || dt == MF_STRING;
}

static mf_status as_string_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, as_string_type, "numeric, bool or string", err));
  char fmt[64];
  MF_TRY(as_string_format(c, c->in_specs[0].dtype, fmt, sizeof fmt, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  c->out_specs[0].dtype = MF_STRING;
  return MF_OK;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static mf_status as_string_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  char fmt[64];
  MF_TRY(as_string_format(c, x->dtype, fmt, sizeof fmt, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  for (int64_t i = 0; i < out->size; i++) {
    char small[512];
    char *text = small;
    int len;
    switch (x->dtype) {
    case MF_BOOL: len = snprintf(small, sizeof small, "%s", MF_DATA(x, bool)[i] ? "true" : "false"); break;
    case MF_INT32: len = snprintf(small, sizeof small, fmt, MF_DATA(x, int32_t)[i]); break;
    case MF_INT64: len = snprintf(small, sizeof small, fmt, (long long)MF_DATA(x, int64_t)[i]); break;
    case MF_FLOAT32: len = snprintf(small, sizeof small, fmt, (double)MF_DATA(x, float)[i]); break;
    case MF_FLOAT64: len = snprintf(small, sizeof small, fmt, MF_DATA(x, double)[i]); break;
    default: {
      const mf_string *s = &MF_DATA(x, mf_string)[i];
      if (s->len > INT_MAX / 2)
        return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "string too long for AsString");
      len = snprintf(NULL, 0, fmt, s->ptr);
      text = len >= (int)sizeof small ? mf_malloc((size_t)len + 1) : small;
      if (!text) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      snprintf(text, (size_t)len + 1, fmt, s->ptr);
    }
    }
    if (len < 0) len = 0;
    if (text == small && len >= (int)sizeof small) len = (int)sizeof small - 1;
    mf_status st = set_piece(out, i, text, (size_t)len, err);
    if (text != small) free(text);
    MF_TRY(st);
  }
  return MF_OK;
}
#pragma GCC diagnostic pop

const mf_op_def mf_op_AsString = {
    .name = "AsString", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"precision", MF_ATTR_INT}, {"scientific", MF_ATTR_BOOL}, {"shortest", MF_ATTR_BOOL},
              {"width", MF_ATTR_INT}, {"fill", MF_ATTR_STRING}},
    .infer = as_string_infer, .kernel = as_string_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Formats each element as a string (printf-style precision, width and fill).",
    .tf_attrs = "T:0 fill=\"\" precision=-1 scientific=false shortest=false width=-1",
};

/* ---- ReduceJoin ---- */

static mf_status join_axes(mf_op_call *c, bool *reduced, bool *known, mf_error *err) {
  int64_t ax[MF_MAX_INT_INPUT];
  int n, rank = c->in_specs[0].rank;
  MF_TRY(mf_input_ints(c, 1, ax, MF_MAX_INT_INPUT, &n, known, err));
  if (rank < 0) *known = false;
  if (!*known) return MF_OK;
  for (int d = 0; d < rank; d++) reduced[d] = false;
  for (int i = 0; i < n; i++) {
    int64_t a = ax[i] < 0 ? ax[i] + rank : ax[i];
    if (a < 0 || a >= rank)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Invalid reduction dimension %lld for input with %d dimension(s)",
                        (long long)ax[i], rank);
    if (reduced[a])
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Duplicate reduction dimension %lld",
                        (long long)a);
    reduced[a] = true;
  }
  return MF_OK;
}

static mf_status reduce_join_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_infer_check_dtype(c, 1, is_index, "int32", err));
  const mf_spec *x = &c->in_specs[0];
  bool keep = mf_attr_bool(c->attrs, "keep_dims", false), known, reduced[MF_MAX_RANK];
  MF_TRY(join_axes(c, reduced, &known, err));
  if (!known) return mf_infer_output(c, MF_STRING, keep ? x->rank : -1, NULL, err);
  int64_t shape[MF_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < x->rank; d++)
    if (!reduced[d] || keep) shape[rank++] = reduced[d] ? 1 : x->shape[d];
  return mf_infer_output(c, MF_STRING, rank, shape, err);
}

/* Each output gathers its inputs in row-major order of the reduced axes,
 * which is the order a row-major walk of the input meets them. */
static mf_status reduce_join_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  bool reduced[MF_MAX_RANK], known;
  MF_TRY(join_axes(c, reduced, &known, err));
  const char *sep = mf_attr_string(c->attrs, "separator", "");
  size_t seplen = strlen(sep);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t ostride[MF_MAX_RANK], acc = 1;
  for (int d = x->rank - 1; d >= 0; d--) {
    ostride[d] = reduced[d] ? 0 : acc;
    if (!reduced[d]) acc *= x->shape[d];
  }
  size_t *len = calloc((size_t)out->size + 1, sizeof *len);
  bool *started = calloc((size_t)out->size + 1, sizeof *started);
  mf_status s = len && started ? MF_OK : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  const mf_string *in = mf_tensor_data(x);
  mf_string *dst = MF_DATA(out, mf_string);
  /* Two walks: sizes, then bytes. */
  for (int pass = 0; s == MF_OK && pass < 2; pass++) {
    int64_t idx[MF_MAX_RANK] = {0};
    for (int64_t i = 0; i < out->size; i++) started[i] = false;
    if (pass == 1)
      for (int64_t i = 0; s == MF_OK && i < out->size; i++) {
        char *p = mf_malloc(len[i] + 1);
        if (!p) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
        else dst[i] = (mf_string){p, 0};
      }
    for (int64_t i = 0; s == MF_OK && i < x->size; i++) {
      int64_t o = 0;
      for (int d = 0; d < x->rank; d++) o += idx[d] * ostride[d];
      size_t add = in[i].len + (started[o] ? seplen : 0);
      if (pass == 0) {
        len[o] += add;
      } else {
        if (started[o]) memcpy(dst[o].ptr + dst[o].len, sep, seplen), dst[o].len += seplen;
        memcpy(dst[o].ptr + dst[o].len, in[i].ptr, in[i].len);
        dst[o].len += in[i].len;
      }
      started[o] = true;
      for (int d = x->rank - 1; d >= 0 && ++idx[d] == x->shape[d]; d--) idx[d] = 0;
    }
  }
  for (int64_t i = 0; s == MF_OK && i < out->size; i++) {
    if (!dst[i].ptr) {
      dst[i].ptr = mf_malloc(1);
      if (!dst[i].ptr) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      else dst[i].len = 0;
    }
    if (dst[i].ptr) dst[i].ptr[dst[i].len] = '\0';
  }
  free(len);
  free(started);
  return s;
}

const mf_op_def mf_op_ReduceJoin = {
    .name = "ReduceJoin", .input_names = "inputs,reduction_indices", .min_inputs = 2,
    .max_inputs = 2, .attrs = {{"keep_dims", MF_ATTR_BOOL}, {"separator", MF_ATTR_STRING}},
    .infer = reduce_join_infer, .kernel = reduce_join_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Joins the strings along the given axes, with a separator.",
    .tf_attrs = "keep_dims=false separator=\"\"",
};

/* ---- DecodeRaw ---- */

/* TF's DecodeRaw out_type list (complex aside): the kernel only copies bytes. */
static bool raw_type(mf_dtype dt) {
  return is_number_type(dt) || dt == MF_BOOL || dt == MF_FLOAT16 || dt == MF_BFLOAT16 ||
         dt == MF_INT8 || dt == MF_INT16 || dt == MF_UINT8 || dt == MF_UINT16;
}

static mf_status decode_raw_infer(mf_op_call *c, mf_error *err) {
  mf_dtype dt = mf_attr_type(c->attrs, "out_type", MF_FLOAT32);
  if (!raw_type(dt))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'out_type' of %s is not in the list of allowed values: "
                        "half, float, double, int32, uint16, uint8, int16, int8, int64, bool, "
                        "bfloat16 [Op:DecodeRaw]",
                        mf_dtype_name(dt));
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  const mf_spec *x = &c->in_specs[0];
  if (x->rank < 0) return mf_infer_output(c, dt, -1, NULL, err);
  if (x->rank >= MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "DecodeRaw: input rank too large");
  int64_t shape[MF_MAX_RANK];
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->rank);
  shape[x->rank] = MF_UNKNOWN_DIM;
  return mf_infer_output(c, dt, x->rank + 1, shape, err);
}

static mf_status decode_raw_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_dtype dt = mf_attr_type(c->attrs, "out_type", MF_FLOAT32);
  bool little = mf_attr_bool(c->attrs, "little_endian", true);
  size_t width = mf_dtype_size(dt);
  const mf_string *s = mf_tensor_data(x);
  size_t bytes = x->size ? s[0].len : 0;
  for (int64_t i = 0; i < x->size; i++) {
    if (s[i].len % width)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Input to DecodeRaw has length %zu that is not a multiple of %zu, the "
                          "size of %s [Op:DecodeRaw]",
                          s[i].len, width, mf_dtype_kernel_name(dt));
    if (s[i].len != bytes)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "DecodeRaw requires input strings to all be the same size, but element "
                          "%lld has size %zu != %zu [Op:DecodeRaw]",
                          (long long)i, s[i].len, bytes);
  }
  int64_t shape[MF_MAX_RANK];
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->rank);
  shape[x->rank] = (int64_t)(bytes / width);
  mf_tensor *out;
  MF_TRY(new_output(c, 0, dt, x->rank + 1, shape, &out, err));
  unsigned char *dst = mf_tensor_data(out);
  /* Bytes are copied as they come on a host of the asked endianness, and
   * reversed per element otherwise. */
  const uint16_t probe = 1;
  bool host_little = *(const unsigned char *)&probe == 1;
  for (int64_t i = 0; i < x->size; i++) {
    memcpy(dst + (size_t)i * bytes, s[i].ptr, bytes);
    if (host_little != little)
      for (size_t e = 0; e < bytes; e += width)
        for (size_t a = 0, b = width - 1; a < b; a++, b--) {
          unsigned char t = dst[i * bytes + e + a];
          dst[i * bytes + e + a] = dst[i * bytes + e + b];
          dst[i * bytes + e + b] = t;
        }
  }
  if (dt == MF_BOOL)
    for (int64_t i = 0; i < out->size; i++) dst[i] = dst[i] != 0;
  return MF_OK;
}

const mf_op_def mf_op_DecodeRaw = {
    .name = "DecodeRaw", .input_names = "bytes", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"out_type", MF_ATTR_TYPE}, {"little_endian", MF_ATTR_BOOL}},
    .infer = decode_raw_infer, .kernel = decode_raw_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Reinterprets the bytes of each string as a vector of out_type numbers.",
    .tf_attrs = "little_endian=true out_type",
};
