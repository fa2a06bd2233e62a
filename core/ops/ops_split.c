/* ops_split.c — StringSplitV2 and StringSplit: the strings of a vector
 * cut into pieces (tf.strings.split, tf.strings.bytes_split), as TF's
 * sparse result: the row and position of each piece, the pieces, and the
 * dense shape; lua/moonflow/ops/split.lua makes the RaggedTensor. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "kernel_util.h"
#include "op.h"

static bool is_string(mf_dtype dt) { return dt == MF_STRING; }

/* absl::ascii_isspace: space, \t \n \v \f \r. */
static bool ascii_space(unsigned char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

/* Output i, shaped only now (its length depends on the values). */
static mf_status new_output(mf_op_call *c, int i, mf_dtype dt, int rank, const int64_t *shape,
                            mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(dt, rank, shape, out, err));
  mf_tensor_release(c->out[i]);
  c->out[i] = *out;
  return MF_OK;
}

/* TF's sparse result: indices [n, 2] (row, position), values [n], dense
 * shape [rows, widest row]; tf.strings.split makes it a RaggedTensor. */
typedef struct pieces {
  int64_t n, cap;
  int64_t *row;
  const char **ptr;
  size_t *len;
} pieces;

static bool pieces_add(pieces *p, int64_t row, const char *ptr, size_t len) {
  if (p->n == p->cap) {
    int64_t cap = p->cap ? p->cap * 2 : 64;
    int64_t *r = realloc(p->row, (size_t)cap * sizeof *r);
    if (r) p->row = r;
    const char **q = realloc(p->ptr, (size_t)cap * sizeof *q);
    if (q) p->ptr = q;
    size_t *l = realloc(p->len, (size_t)cap * sizeof *l);
    if (l) p->len = l;
    if (!r || !q || !l) return false;
    p->cap = cap;
  }
  p->row[p->n] = row;
  p->ptr[p->n] = ptr;
  p->len[p->n++] = len;
  return true;
}

static void pieces_free(pieces *p) {
  free(p->row);
  free(p->ptr);
  free(p->len);
}

static mf_status split_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, is_string, "string", err));
  MF_TRY(mf_infer_check_dtype(c, 1, is_string, "string", err));
  const mf_spec *x = &c->in_specs[0], *sep = &c->in_specs[1];
  char buf[160];
  if (x->rank >= 0 && x->rank != 1) {
    mf_shape_debug(x->rank, x->shape, buf, sizeof buf);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "input must be a vector, got shape: %s [Op:%s]",
                        buf, c->op->name);
  }
  if (sep->rank > 0) {
    mf_shape_debug(sep->rank, sep->shape, buf, sizeof buf);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "sep must be a scalar, got shape: %s [Op:%s]",
                        buf, c->op->name);
  }
  MF_TRY(mf_op_call_set_nout(c, 3, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_INT64, .rank = 2, .shape = {-1, 2}};
  c->out_specs[1] = (mf_spec){.dtype = MF_STRING, .rank = 1, .shape = {-1}};
  c->out_specs[2] = (mf_spec){.dtype = MF_INT64, .rank = 1, .shape = {2}};
  return MF_OK;
}

/* One string, as TF's StringSplitV2 splits it (Python's str.split): an
 * empty sep splits at runs of ASCII whitespace and drops empty pieces; any
 * other sep splits at each occurrence and keeps them ("" is one empty
 * piece). At most maxsplit splits (-1: no limit), the rest of the string
 * the last piece. */
static bool split_v2(pieces *p, int64_t row, const mf_string *s, const char *sep, size_t seplen,
                     int64_t maxsplit) {
  const char *a = s->ptr, *end = s->ptr + s->len;
  int64_t splits = 0;
  if (!seplen) {
    while (a < end && ascii_space((unsigned char)*a)) a++;
    while (a < end) {
      if (maxsplit >= 0 && splits == maxsplit) return pieces_add(p, row, a, (size_t)(end - a));
      const char *b = a;
      while (b < end && !ascii_space((unsigned char)*b)) b++;
      if (!pieces_add(p, row, a, (size_t)(b - a))) return false;
      splits++;
      a = b;
      while (a < end && ascii_space((unsigned char)*a)) a++;
    }
    return true;
  }
  for (;;) {
    const char *b = maxsplit >= 0 && splits == maxsplit ? NULL : memmem(a, (size_t)(end - a), sep, seplen);
    if (!b) return pieces_add(p, row, a, (size_t)(end - a));
    if (!pieces_add(p, row, a, (size_t)(b - a))) return false;
    splits++;
    a = b + seplen;
  }
}

/* TF's older StringSplit: each byte of the delimiter is a separator (an
 * empty delimiter splits into bytes); skip_empty drops empty pieces. */
static bool split_v1(pieces *p, int64_t row, const mf_string *s, const char *delim, bool skip) {
  const char *a = s->ptr, *end = s->ptr + s->len;
  if (!*delim) {
    for (; a < end; a++)
      if (!pieces_add(p, row, a, 1)) return false;
    return true;
  }
  for (;;) {
    const char *b = a;
    while (b < end && !strchr(delim, *b)) b++;
    if ((b > a || !skip) && !pieces_add(p, row, a, (size_t)(b - a))) return false;
    if (b == end) return true;
    a = b + 1;
  }
}

static mf_status split_kernel(mf_op_call *c, mf_error *err) {
  bool v2 = strcmp(c->op->name, "StringSplitV2") == 0;
  const mf_string *x = mf_tensor_data(c->in[0]);
  const mf_string *sep = mf_tensor_data(c->in[1]);
  int64_t maxsplit = mf_attr_int(c->attrs, "maxsplit", -1);
  bool skip = mf_attr_bool(c->attrs, "skip_empty", true);
  pieces p = {0};
  int64_t rows = c->in[0]->size, widest = 0;
  bool ok = true;
  char *delim = NULL;
  if (!v2) {
    delim = mf_malloc(sep->len + 1);
    ok = delim != NULL;
    if (ok) {
      memcpy(delim, sep->ptr, sep->len);
      delim[sep->len] = '\0';
    }
  }
  for (int64_t i = 0; ok && i < rows; i++) {
    int64_t before = p.n;
    ok = v2 ? split_v2(&p, i, &x[i], sep->ptr, sep->len, maxsplit) : split_v1(&p, i, &x[i], delim, skip);
    if (p.n - before > widest) widest = p.n - before;
  }
  free(delim);
  mf_status s = ok ? MF_OK : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory in %s", c->op->name);
  mf_tensor *ind = NULL, *val = NULL, *shape = NULL;
  int64_t ishape[2] = {p.n, 2};
  if (s == MF_OK) s = new_output(c, 0, MF_INT64, 2, ishape, &ind, err);
  if (s == MF_OK) s = new_output(c, 1, MF_STRING, 1, ishape, &val, err);
  if (s == MF_OK) s = mf_op_alloc_output(c, 2, &shape, err);
  for (int64_t k = 0, pos = 0; s == MF_OK && k < p.n; k++) {
    pos = k > 0 && p.row[k - 1] == p.row[k] ? pos + 1 : 0;
    MF_DATA(ind, int64_t)[2 * k] = p.row[k];
    MF_DATA(ind, int64_t)[2 * k + 1] = pos;
    s = mf_string_set(&MF_DATA(val, mf_string)[k], p.ptr[k], p.len[k], err);
  }
  if (s == MF_OK) {
    MF_DATA(shape, int64_t)[0] = rows;
    MF_DATA(shape, int64_t)[1] = widest;
  }
  pieces_free(&p);
  return s;
}

const mf_op_def mf_op_StringSplitV2 = {
    .name = "StringSplitV2", .input_names = "input,sep", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"maxsplit", MF_ATTR_INT}},
    .infer = split_infer, .kernel = split_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Splits each string of a vector at sep (empty: at whitespace), as sparse "
           "indices, values and dense shape.",
    .tf_attrs = "maxsplit=-1",
};

const mf_op_def mf_op_StringSplit = {
    .name = "StringSplit", .input_names = "input,delimiter", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"skip_empty", MF_ATTR_BOOL}},
    .infer = split_infer, .kernel = split_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Splits each string of a vector at any byte of delimiter (empty: into bytes), as "
           "sparse indices, values and dense shape.",
    .tf_attrs = "skip_empty=true",
};

