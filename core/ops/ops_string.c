/* ops_string.c — string tensors: StringLength (bytes or UTF-8 characters
 * per element), StringJoin (elementwise concatenation with a separator,
 * scalars broadcast against one common shape) and StringFormat (TF's op
 * behind tf.strings.format and the text tf.print writes: a template whose
 * placeholders are replaced, in order, by the inputs as tf.print shows
 * them, format.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
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
