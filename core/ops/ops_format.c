/* ops_format.c — StringFormat, TF's op behind tf.strings.format and the
 * text tf.print writes: a template whose placeholders are replaced, in
 * order, by the inputs as tf.print shows them (format.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "format.h"
#include "op.h"

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
