/* ops_unicode.c — Unicode code points of string tensors: UnicodeDecode and
 * UnicodeDecodeWithOffsets (strings to ragged code points: row splits and
 * values, with each character's byte offset) and UnicodeEncode (back).
 *
 * TF converts with ICU and takes any encoding ICU knows; moonflow takes
 * UTF-8 (the README says so). Malformed input follows ICU's rule: each
 * maximal ill-formed subsequence is one error, which errors="strict"
 * refuses, "replace" turns into replacement_char and "ignore" drops. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#include "array_util.h"
#include "op.h"

static bool is_string(mf_dtype dt) { return dt == MF_STRING; }

enum { ON_ERROR_STRICT, ON_ERROR_REPLACE, ON_ERROR_IGNORE };

static mf_status error_mode(const mf_op_call *c, int *mode, mf_error *err) {
  const char *e = mf_attr_string(c->attrs, "errors", "replace");
  *mode = !strcmp(e, "strict") ? ON_ERROR_STRICT : !strcmp(e, "replace") ? ON_ERROR_REPLACE
          : !strcmp(e, "ignore") ? ON_ERROR_IGNORE : -1;
  if (*mode >= 0) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Value for attr 'errors' of \"%s\" is not in the list of allowed values: "
                      "\"strict\", \"replace\", \"ignore\" [Op:%s]",
                      e, c->op->name);
}

static mf_status check_encoding(const mf_op_call *c, const char *attr, const char *what,
                                mf_error *err) {
  const char *enc = mf_attr_string(c->attrs, attr, "UTF-8");
  if (!strcmp(enc, "UTF-8") || !strcmp(enc, "utf-8") || !strcmp(enc, "UTF8") || !strcmp(enc, "utf8"))
    return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Could not create converter for %s encoding: %s [Op:%s]", what, enc,
                      c->op->name);
}

/* One code point from s[*i..len): its value, or -1 for an ill-formed
 * subsequence (then *i moves past the maximal one). */
static int32_t next_code_point(const unsigned char *s, size_t len, size_t *i) {
  unsigned char b = s[*i];
  if (b < 0x80) {
    (*i)++;
    return b;
  }
  int n;
  int32_t cp;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) n = 1, cp = b & 0x1F;
  else if (b >= 0xE0 && b <= 0xEF) {
    n = 2, cp = b & 0x0F;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F; /* no surrogates */
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 3, cp = b & 0x07;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    (*i)++;
    return -1;
  }
  size_t k = *i + 1;
  for (int j = 0; j < n; j++, k++) {
    if (k >= len || s[k] < lo || s[k] > hi) {
      *i = k;
      return -1;
    }
    cp = (cp << 6) | (s[k] & 0x3F);
    lo = 0x80, hi = 0xBF;
  }
  *i = k;
  return cp;
}

/* ---- UnicodeDecode, UnicodeDecodeWithOffsets ---- */

static mf_status decode_infer(mf_op_call *c, mf_error *err) {
  int mode;
  MF_TRY(error_mode(c, &mode, err));
  MF_TRY(check_encoding(c, "input_encoding", "input", err));
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  bool offsets = strcmp(c->op->name, "UnicodeDecodeWithOffsets") == 0;
  const mf_spec *x = &c->in_specs[0];
  int64_t n = MF_UNKNOWN_DIM;
  if (x->rank >= 0) {
    n = 1;
    for (int d = 0; d < x->rank && n >= 0; d++) n = x->shape[d] < 0 ? MF_UNKNOWN_DIM : n * x->shape[d];
  }
  mf_dtype splits = mf_attr_type(c->attrs, "Tsplits", MF_INT64);
  MF_TRY(mf_op_call_set_nout(c, offsets ? 3 : 2, err));
  c->out_specs[0] = (mf_spec){.dtype = splits, .rank = 1, .shape = {n < 0 ? n : n + 1}};
  c->out_specs[1] = (mf_spec){.dtype = MF_INT32, .rank = 1, .shape = {MF_UNKNOWN_DIM}};
  if (offsets) c->out_specs[2] = (mf_spec){.dtype = MF_INT64, .rank = 1, .shape = {MF_UNKNOWN_DIM}};
  return MF_OK;
}

static mf_status new_vector(mf_op_call *c, int i, mf_dtype dt, int64_t n, mf_tensor **out,
                            mf_error *err) {
  MF_TRY(mf_tensor_new(dt, 1, &n, out, err));
  mf_tensor_release(c->out[i]);
  c->out[i] = *out;
  return MF_OK;
}

static mf_status decode_kernel(mf_op_call *c, mf_error *err) {
  int mode;
  MF_TRY(error_mode(c, &mode, err));
  int32_t subst = (int32_t)mf_attr_int(c->attrs, "replacement_char", 0xFFFD);
  bool controls = mf_attr_bool(c->attrs, "replace_control_characters", false);
  bool offsets = c->nout == 3;
  const mf_tensor *x = c->in[0];
  const mf_string *s = mf_tensor_data(x);
  /* Pass 0 counts, pass 1 writes. */
  int64_t total = 0;
  mf_tensor *splits = NULL, *vals = NULL, *offs = NULL;
  for (int pass = 0; pass < 2; pass++) {
    int64_t n = 0;
    for (int64_t r = 0; r < x->size; r++) {
      if (pass) mf_tensor_set_i64(splits, r, n);
      const unsigned char *p = (const unsigned char *)s[r].ptr;
      for (size_t i = 0; i < s[r].len;) {
        size_t at = i;
        int32_t cp = next_code_point(p, s[r].len, &i);
        if (cp >= 0 && controls && cp < 0x20) cp = subst;
        if (cp < 0) {
          if (mode == ON_ERROR_STRICT)
            return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                                "Invalid formatting on input string [Op:%s]", c->op->name);
          if (mode == ON_ERROR_IGNORE) continue;
          cp = subst;
        }
        if (pass) {
          MF_DATA(vals, int32_t)[n] = cp;
          if (offsets) MF_DATA(offs, int64_t)[n] = (int64_t)at;
        }
        n++;
      }
    }
    if (pass) {
      mf_tensor_set_i64(splits, x->size, n);
      break;
    }
    total = n;
    MF_TRY(new_vector(c, 0, c->out_specs[0].dtype, x->size + 1, &splits, err));
    MF_TRY(new_vector(c, 1, MF_INT32, total, &vals, err));
    if (offsets) MF_TRY(new_vector(c, 2, MF_INT64, total, &offs, err));
  }
  return MF_OK;
}

const mf_op_def mf_op_UnicodeDecode = {
    .name = "UnicodeDecode", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"input_encoding", MF_ATTR_STRING}, {"errors", MF_ATTR_STRING},
              {"replacement_char", MF_ATTR_INT}, {"replace_control_characters", MF_ATTR_BOOL},
              {"Tsplits", MF_ATTR_TYPE}},
    .infer = decode_infer, .kernel = decode_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Decodes each string into Unicode code points: ragged row splits and int32 values.",
    .tf_attrs = "Tsplits=DT_INT64 errors=\"replace\" input_encoding replace_control_characters=false "
                "replacement_char=65533",
};

const mf_op_def mf_op_UnicodeDecodeWithOffsets = {
    .name = "UnicodeDecodeWithOffsets", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"input_encoding", MF_ATTR_STRING}, {"errors", MF_ATTR_STRING},
              {"replacement_char", MF_ATTR_INT}, {"replace_control_characters", MF_ATTR_BOOL},
              {"Tsplits", MF_ATTR_TYPE}},
    .infer = decode_infer, .kernel = decode_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Decodes each string into Unicode code points with the byte offset where each starts.",
    .tf_attrs = "Tsplits=DT_INT64 errors=\"replace\" input_encoding replace_control_characters=false "
                "replacement_char=65533",
};

/* ---- UnicodeEncode ---- */

static bool is_index(mf_dtype dt) { return dt == MF_INT32 || dt == MF_INT64; }
static bool is_int32(mf_dtype dt) { return dt == MF_INT32; }

static mf_status encode_infer(mf_op_call *c, mf_error *err) {
  int mode;
  MF_TRY(error_mode(c, &mode, err));
  MF_TRY(check_encoding(c, "output_encoding", "output", err));
  MF_TRY(mf_infer_check_dtype(c, 0, is_int32, "int32", err));
  MF_TRY(mf_infer_check_dtype(c, 1, is_index, "int32, int64", err));
  const mf_spec *sp = &c->in_specs[1];
  if (sp->rank >= 0 && sp->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "input_splits must be a vector [Op:UnicodeEncode]");
  int64_t n = sp->rank == 1 && sp->shape[0] >= 0 ? (sp->shape[0] > 0 ? sp->shape[0] - 1 : 0)
                                                 : MF_UNKNOWN_DIM;
  return mf_infer_output(c, MF_STRING, 1, &n, err);
}

/* ICU's U_IS_UNICODE_CHAR: a scalar value that is not a noncharacter. */
static bool unicode_char(int64_t cp) {
  return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) &&
         !(cp >= 0xFDD0 && cp <= 0xFDEF) && (cp & 0xFFFE) != 0xFFFE;
}

static size_t put_utf8(char *o, int64_t cp) {
  if (cp < 0x80) return o[0] = (char)cp, 1;
  if (cp < 0x800) return o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), 2;
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static mf_status encode_kernel(mf_op_call *c, mf_error *err) {
  int mode;
  MF_TRY(error_mode(c, &mode, err));
  int64_t subst = mf_attr_int(c->attrs, "replacement_char", 0xFFFD);
  const mf_tensor *v = c->in[0], *sp = c->in[1];
  int64_t rows = sp->size > 0 ? sp->size - 1 : 0;
  for (int64_t r = 0; r <= rows && sp->size; r++) {
    int64_t a = mf_tensor_get_i64(sp, r);
    int64_t b = r < rows ? mf_tensor_get_i64(sp, r + 1) : v->size;
    if (a < 0 || a > b || b > v->size || (r == 0 && a != 0) || (r == rows && a != v->size))
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Invalid splits: must be sorted, start at 0 and end at the number of "
                          "values (%lld) [Op:UnicodeEncode]",
                          (long long)v->size);
  }
  mf_tensor *out;
  MF_TRY(new_vector(c, 0, MF_STRING, rows, &out, err));
  const int32_t *cps = mf_tensor_data(v);
  for (int64_t r = 0; r < rows; r++) {
    int64_t a = mf_tensor_get_i64(sp, r), b = mf_tensor_get_i64(sp, r + 1);
    char *buf = mf_malloc((size_t)(b - a) * 4 + 1);
    if (!buf) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    size_t n = 0;
    for (int64_t k = a; k < b; k++) {
      int64_t cp = cps[k];
      if (!unicode_char(cp)) {
        if (mode == ON_ERROR_STRICT) {
          free(buf);
          return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                              "Code point is out of range for Unicode, or a noncharacter. "
                              "[Op:UnicodeEncode]");
        }
        if (mode == ON_ERROR_IGNORE) continue;
        cp = subst;
      }
      n += put_utf8(buf + n, cp);
    }
    buf[n] = '\0';
    MF_DATA(out, mf_string)[r] = (mf_string){buf, n};
  }
  return MF_OK;
}

const mf_op_def mf_op_UnicodeEncode = {
    .name = "UnicodeEncode", .input_names = "input_values,input_splits", .min_inputs = 2,
    .max_inputs = 2,
    .attrs = {{"errors", MF_ATTR_STRING}, {"output_encoding", MF_ATTR_STRING},
              {"replacement_char", MF_ATTR_INT}},
    .infer = encode_infer, .kernel = encode_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Encodes rows of Unicode code points (values and row splits) as strings.",
    .tf_attrs = "Tsplits:1 errors=\"replace\" output_encoding replacement_char=65533",
};
