/* ops_einsum.c — Einsum: one or two operands contracted by an equation
 * such as "ij,jk->ik", "bij,bjk->bik", "ii->", "i,j->ij", "...ij->...ji"
 * (TF's Einsum op; tf.einsum resolves an implicit output before it gets
 * here, so the op always sees "->").
 *
 * TF validates the equation and the shapes as EinsumHelper does and then
 * reduces everything to transposes, reductions and a BatchMatMul. moonflow
 * computes the defining sum directly: every label gets a size and, per
 * operand, a stride (the sum of the strides of its axes, so a repeated label
 * walks the diagonal; 0 for an ellipsis dimension of size 1, which
 * broadcasts); the kernel visits every assignment of the labels once and
 * adds the product of the operands into the output element it names (a
 * label repeated in the output writes a diagonal, as TF's inflation does).
 * Same sums, slower for big contractions, and summed in one fixed order. */
#include <stdio.h>
#include <string.h>

#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"

/* 52 letters, then one label per broadcasting (ellipsis) dimension. */
enum { N_LETTERS = 52, MAX_LABELS = N_LETTERS + MF_MAX_RANK, MAX_TERM = 64 };

/* One subscript as written: its letters (label ids) and where "..." was. */
typedef struct term {
  int n;              /* named labels */
  int label[MAX_TERM];
  int ellipsis;       /* index in label[] where "..." stands, or -1 */
} term;

typedef struct equation {
  int nin;
  term in[2], out;
} equation;

static int letter_id(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + ch - 'A';
  return -1;
}

static mf_status bad_equation(const char *eq, const char *why, mf_error *err) {
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s: %s [Op:Einsum]", why, eq);
}

static mf_status parse_term(const char *eq, const char *s, size_t len, term *t, mf_error *err) {
  *t = (term){.ellipsis = -1};
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '.') {
      if (t->ellipsis >= 0 || i + 2 >= len || s[i + 1] != '.' || s[i + 2] != '.')
        return bad_equation(eq, "Invalid ellipsis ('...') in einsum equation", err);
      t->ellipsis = t->n;
      i += 2;
      continue;
    }
    int id = letter_id(s[i]);
    if (id < 0) {
      char msg[64];
      snprintf(msg, sizeof msg, "Invalid character '%c' in einsum equation", s[i]);
      return bad_equation(eq, msg, err);
    }
    if (t->n == MAX_TERM) return bad_equation(eq, "Too many labels in einsum equation", err);
    t->label[t->n++] = id;
  }
  return MF_OK;
}

static mf_status parse(const char *eq, int nin, equation *e, mf_error *err) {
  const char *arrow = strstr(eq, "->");
  if (!arrow || strstr(arrow + 2, "->"))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Expecting exactly one '->' in einsum equation: %s [Op:Einsum]", eq);
  const char *comma = memchr(eq, ',', (size_t)(arrow - eq));
  int terms = comma ? 2 : 1;
  if (comma && memchr(comma + 1, ',', (size_t)(arrow - comma - 1))) terms = 3;
  if (terms > 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Expecting 1 or 2 input subscripts in equation '%s' but got: %d [Op:Einsum]",
                        eq, terms);
  if (terms != nin)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Expected %d inputs but got: %d [Op:Einsum]",
                        terms, nin);
  e->nin = nin;
  const char *end0 = comma ? comma : arrow;
  MF_TRY(parse_term(eq, eq, (size_t)(end0 - eq), &e->in[0], err));
  if (comma) MF_TRY(parse_term(eq, comma + 1, (size_t)(arrow - comma - 1), &e->in[1], err));
  MF_TRY(parse_term(eq, arrow + 2, strlen(arrow + 2), &e->out, err));
  bool seen[N_LETTERS] = {false};
  for (int i = 0; i < nin; i++)
    for (int k = 0; k < e->in[i].n; k++) seen[e->in[i].label[k]] = true;
  for (int k = 0; k < e->out.n; k++)
    if (!seen[e->out.label[k]])
      return bad_equation(eq, "Output subscripts name a label no input has in einsum equation", err);
  return MF_OK;
}

/* The axes of a term for an operand of rank `rank` (known): the label of
 * each axis, ellipsis dims labelled N_LETTERS + their place in the
 * right-aligned broadcast of `bcast` dims. */
static int expand(const term *t, int rank, int bcast, int *labels) {
  int nb = t->ellipsis >= 0 ? rank - t->n : 0, a = 0;
  for (int k = 0; k <= t->n; k++) {
    if (k == t->ellipsis)
      for (int j = 0; j < nb; j++) labels[a++] = N_LETTERS + bcast - nb + j;
    if (k < t->n) labels[a++] = t->label[k];
  }
  return a;
}

/* Checks the operands' ranks and dimensions against the equation (TF's
 * ProcessDimensions), and gives each label its size (-1 unknown) and the
 * output's shape. ranks[i] may be -1 (unknown): then what it would decide
 * stays unknown, and out_rank is -1 when the output's rank depends on it. */
static mf_status resolve(const char *eq, const equation *e, const mf_spec *specs, int64_t *size,
                         int *nb_out, int *out_rank, int64_t *out_shape, mf_error *err) {
  int bcast = 0;
  bool ranks_known = true;
  for (int i = 0; i < e->nin; i++) {
    const term *t = &e->in[i];
    int r = specs[i].rank;
    if (r < 0) {
      ranks_known = false;
      continue;
    }
    if (t->ellipsis < 0 && r != t->n)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Expected input %d to have rank %d but got: %d [Op:Einsum]", i, t->n, r);
    if (t->ellipsis >= 0 && r < t->n)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Expected input %d to have rank at least %d but got: %d [Op:Einsum]", i,
                          t->n, r);
    if (r - t->n > bcast && t->ellipsis >= 0) bcast = r - t->n;
  }
  for (int l = 0; l < MAX_LABELS; l++) size[l] = l < N_LETTERS ? -1 : 1;
  for (int i = 0; i < e->nin; i++) {
    int r = specs[i].rank;
    if (r < 0) continue;
    int labels[MF_MAX_RANK];
    expand(&e->in[i], r, bcast, labels);
    for (int a = 0; a < r; a++) {
      int64_t d = specs[i].shape[a];
      int l = labels[a];
      if (l < N_LETTERS) {
        if (d >= 0 && size[l] >= 0 && size[l] != d) {
          char buf[160];
          mf_shape_debug(r, specs[i].shape, buf, sizeof buf);
          return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                              "Expected dimension %lld at axis %d of the input shaped %s but got "
                              "dimension %lld [Op:Einsum]",
                              (long long)size[l], a, buf, (long long)d);
        }
        if (d >= 0) size[l] = d;
      } else if (!mf_broadcast_dim(size[l], d, &size[l])) {
        return bad_equation(eq, "Incompatible broadcast dimensions for the ellipsis of", err);
      }
    }
  }
  if (bcast > 0 && e->out.ellipsis < 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Output contains %d broadcasting dimension(s) but no ellipsis (...) was "
                        "found in the output subscripts. [Op:Einsum]",
                        bcast);
  *nb_out = bcast;
  if (!ranks_known && e->out.ellipsis >= 0) {
    *out_rank = -1;
    return MF_OK;
  }
  int labels[MAX_TERM + MF_MAX_RANK];
  int r = e->out.ellipsis >= 0 ? e->out.n + bcast : e->out.n;
  if (r > MF_MAX_RANK) return bad_equation(eq, "Output rank too large in einsum equation", err);
  expand(&e->out, r, bcast, labels);
  for (int a = 0; a < r; a++) out_shape[a] = ranks_known || labels[a] < N_LETTERS ? size[labels[a]] : -1;
  *out_rank = r;
  return MF_OK;
}

static mf_status einsum_infer(mf_op_call *c, mf_error *err) {
  const char *eq = mf_attr_string(c->attrs, "equation", "");
  MF_TRY(mf_infer_same_dtype(c, 0, c->nin, err));
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  equation e;
  MF_TRY(parse(eq, c->nin, &e, err));
  int64_t size[MAX_LABELS];
  int nb, rank;
  mf_spec o = {.dtype = c->in_specs[0].dtype};
  MF_TRY(resolve(eq, &e, c->in_specs, size, &nb, &rank, o.shape, err));
  o.rank = rank;
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = o;
  return MF_OK;
}

/* Per-label strides of an operand: the sum over its axes of that label. */
static void label_strides(const mf_tensor *t, const int *labels, int64_t *stride) {
  int64_t s = 1;
  for (int a = t->rank - 1; a >= 0; a--) {
    if (t->shape[a] != 1) stride[labels[a]] += s;
    s *= t->shape[a];
  }
}

#define EINSUM_LOOP(NAME, T, ACC)                                                      \
  static mf_status NAME(int nl, const int64_t *dims, const int64_t *const *st,         \
                        int nin, const void *const *in, void *out, mf_error *err) {    \
    const T *x = in[0], *y = nin > 1 ? in[1] : NULL;                                   \
    T *z = out;                                                                        \
    int64_t idx[MAX_LABELS] = {0}, off[3] = {0, 0, 0};                                 \
    for (;;) {                                                                         \
      /* The innermost label runs as a plain loop. */                                  \
      int64_t n = nl ? dims[nl - 1] : 1;                                               \
      int64_t s0 = nl ? st[0][nl - 1] : 0, s1 = nl ? st[1][nl - 1] : 0;                \
      int64_t s2 = nl ? st[2][nl - 1] : 0;                                             \
      for (int64_t i = 0; i < n; i++) {                                                \
        ACC v = (ACC)x[off[0] + i * s0];                                               \
        if (y) v = (ACC)(v * (ACC)y[off[1] + i * s1]);                                 \
        z[off[2] + i * s2] = (T)((ACC)z[off[2] + i * s2] + v);                         \
      }                                                                                \
      int d = nl - 2;                                                                  \
      for (; d >= 0; d--) {                                                            \
        for (int k = 0; k < 3; k++) off[k] += st[k][d];                                \
        if (++idx[d] < dims[d]) break;                                                 \
        for (int k = 0; k < 3; k++) off[k] -= st[k][d] * idx[d];                       \
        idx[d] = 0;                                                                    \
      }                                                                                \
      if (d < 0) return MF_OK;                                                         \
      if (d < nl - 3 || nl < 3) MF_TRY(mf_interrupt_check(err));                       \
    }                                                                                  \
  }
EINSUM_LOOP(einsum_f32, float, float)
EINSUM_LOOP(einsum_f64, double, double)
EINSUM_LOOP(einsum_i32, int32_t, uint32_t)
EINSUM_LOOP(einsum_i64, int64_t, uint64_t)

static mf_status einsum_kernel(mf_op_call *c, mf_error *err) {
  const char *eq = mf_attr_string(c->attrs, "equation", "");
  equation e;
  MF_TRY(parse(eq, c->nin, &e, err));
  int64_t size[MAX_LABELS];
  mf_spec specs[2];
  for (int i = 0; i < c->nin; i++) mf_spec_of_tensor(c->in[i], &specs[i]);
  int nb, rank;
  int64_t shape[MF_MAX_RANK];
  MF_TRY(resolve(eq, &e, specs, size, &nb, &rank, shape, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  memset(mf_tensor_data(out), 0, (size_t)out->size * mf_dtype_size(out->dtype));
  /* Strides per label for x, y and the output, then kept to the labels in
   * use: dims[] and st[k][] indexed by position in that list. */
  int64_t full[3][MAX_LABELS];
  memset(full, 0, sizeof full);
  bool used[MAX_LABELS] = {false};
  int labels[MAX_TERM + MF_MAX_RANK];
  for (int i = 0; i < c->nin; i++) {
    int r = expand(&e.in[i], c->in[i]->rank, nb, labels);
    for (int a = 0; a < r; a++) used[labels[a]] = true;
    label_strides(c->in[i], labels, full[i]);
  }
  expand(&e.out, out->rank, nb, labels);
  label_strides(out, labels, full[2]);
  int64_t dims[MAX_LABELS], st0[MAX_LABELS], st1[MAX_LABELS], st2[MAX_LABELS];
  int nl = 0;
  for (int l = 0; l < MAX_LABELS; l++) {
    if (!used[l]) continue;
    if (size[l] == 0) return MF_OK; /* an empty sum: zeros */
    dims[nl] = size[l];
    st0[nl] = full[0][l];
    st1[nl] = full[1][l];
    st2[nl] = full[2][l];
    nl++;
  }
  const int64_t *st[3] = {st0, st1, st2};
  const void *in[2] = {mf_tensor_data(c->in[0]), c->nin > 1 ? mf_tensor_data(c->in[1]) : NULL};
  switch (out->dtype) {
  case MF_FLOAT32: return einsum_f32(nl, dims, st, c->nin, in, mf_tensor_data(out), err);
  case MF_FLOAT64: return einsum_f64(nl, dims, st, c->nin, in, mf_tensor_data(out), err);
  case MF_INT32: return einsum_i32(nl, dims, st, c->nin, in, mf_tensor_data(out), err);
  case MF_INT64: return einsum_i64(nl, dims, st, c->nin, in, mf_tensor_data(out), err);
  default:
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Einsum has no kernel for %s",
                        mf_dtype_name(out->dtype));
  }
}

const mf_op_def mf_op_Einsum = {
    .name = "Einsum", .input_names = "inputs*", .min_inputs = 1, .max_inputs = 2,
    .attrs = {{"equation", MF_ATTR_STRING}},
    .infer = einsum_infer, .kernel = einsum_kernel, .flags = 0,
    .doc = "The tensor contraction an equation such as 'ij,jk->ik' names, for one or two operands.",
    .tf_attrs = "N:# T:0 equation",
};
