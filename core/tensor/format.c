/* format.c — NumPy's and TensorFlow's printed forms of a tensor (format.h).
 *
 * The NumPy half ports numpy/core/arrayprint.py (1.24) rule for rule:
 * _formatArray's recursion and line wrapping, IntegerFormat, BoolFormat,
 * FloatingFormat with Dragon4's digit choices, the object formatter TF's
 * string arrays get, and array_repr's dtype placement. The TF half ports
 * Tensor::SummarizeValue from tensorflow/core/framework/tensor.cc. */
#include "format.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "half.h"
#include "variable.h"

/* NumPy's default print options. */
enum { NP_PRECISION = 8, NP_THRESHOLD = 1000, NP_EDGEITEMS = 3, NP_LINEWIDTH = 75 };

static const char RESOURCE_TEXT[] = "<ResourceHandle>";

/* ---- a growable string; a failed allocation sticks until sb_finish ---- */

typedef struct sbuf {
  char *p;
  size_t len, cap;
  bool failed;
} sbuf;

static bool sb_reserve(sbuf *b, size_t extra) {
  if (b->failed) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = mf_realloc(b->p, cap);
  if (!p) {
    b->failed = true;
    return false;
  }
  b->p = p;
  b->cap = cap;
  return true;
}

static void sb_putn(sbuf *b, const char *s, size_t n) {
  if (!sb_reserve(b, n)) return;
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_putn(b, &c, 1); }

static void sb_repeat(sbuf *b, char c, long n) {
  if (n <= 0 || !sb_reserve(b, (size_t)n)) return;
  memset(b->p + b->len, c, (size_t)n);
  b->len += (size_t)n;
  b->p[b->len] = '\0';
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  char small[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    sb_putn(b, small, (size_t)n);
    return;
  }
  if (!sb_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

static void sb_rstrip(sbuf *b) {
  while (b->len && b->p[b->len - 1] == ' ') b->p[--b->len] = '\0';
}

static void sb_free(sbuf *b) {
  free(b->p);
  *b = (sbuf){0};
}

/* The finished string (an empty one is still allocated), or NULL after any
 * failed allocation. */
static char *sb_finish(sbuf *b) {
  sb_reserve(b, 0);
  if (b->failed) {
    sb_free(b);
    return NULL;
  }
  if (b->len == 0) b->p[0] = '\0';
  return b->p;
}

/* ---- element access ---- */

static double elem_f64(const mf_tensor *t, int64_t i) { return mf_tensor_get_f64(t, i); }
static int64_t elem_i64(const mf_tensor *t, int64_t i) { return mf_tensor_get_i64(t, i); }
/* Read as a byte: a bool buffer filled by memcpy may hold values other
 * than 0/1, and loading those as C bool is undefined. */
static bool elem_bool(const mf_tensor *t, int64_t i) {
  return ((const unsigned char *)mf_tensor_data(t))[i] != 0;
}
static const mf_string *elem_str(const mf_tensor *t, int64_t i) {
  return &MF_DATA(t, const mf_string)[i];
}

static void strides_of(const mf_tensor *t, int64_t *stride) {
  int64_t s = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    stride[i] = s;
    s *= t->shape[i];
  }
}

/* ---- decimal digits of binary floating point ---- */

/* A finite non-negative value as d[0].d[1]...d[n-1] x 10^exp with no
 * trailing zeros; zero is "0" x 10^0. */
typedef struct decimal {
  char d[48];
  int n;
  int exp;
} decimal;

/* Reads printf's "%e" or "%f" text of a non-negative value. */
static void dec_parse(decimal *dec, const char *s) {
  int n = 0, pos = 0, point = -1, first = -1;
  const char *c = s;
  for (; *c && *c != 'e'; c++) {
    if (*c == '.') {
      point = pos;
      continue;
    }
    if (first < 0 && *c == '0') {
      pos++;
      continue;
    }
    if (first < 0) first = pos;
    if (n < (int)sizeof dec->d) dec->d[n++] = *c;
    pos++;
  }
  if (point < 0) point = pos;
  while (n > 0 && dec->d[n - 1] == '0') n--;
  if (n == 0) {
    *dec = (decimal){.d = "0", .n = 1, .exp = 0};
    return;
  }
  dec->n = n;
  dec->exp = point - first - 1 + (*c == 'e' ? atoi(c + 1) : 0);
}

/* The precision digits are chosen for: a float's `single` argument below
 * is one of these (false and true are double and float). */
enum { P_DOUBLE = 0, P_SINGLE = 1, P_HALF = 2 };

static bool reads_back(const char *s, double ax, int single) {
  if (single == P_HALF) return mf_f16_rounds_to(strtod(s, NULL), ax);
  return single ? strtof(s, NULL) == (float)ax : strtod(s, NULL) == ax;
}

/* The n-digit decimal one unit above `s` (printf "%.*e" text). */
static void next_decimal_up(const char *s, char *out, size_t size) {
  char m[32];
  int n = 0;
  const char *c = s;
  for (; *c && *c != 'e' && n < (int)sizeof m - 1; c++)
    if (*c != '.') m[n++] = *c;
  int exp = *c == 'e' ? atoi(c + 1) : 0;
  int i = n - 1;
  while (i >= 0 && m[i] == '9') m[i--] = '0';
  if (i >= 0) {
    m[i]++;
  } else {
    m[0] = '1';
    exp++;
  }
  m[n] = '\0';
  snprintf(out, size, "%c.%se%d", m[0], m + 1, exp);
}

/* The fewest digits that read back as `ax` in its own precision (Dragon4's
 * "unique" mode, Python's repr): for the smallest digit count that works,
 * the nearest such decimal. Just above a power of two the gap below is half
 * the gap above, so the nearest candidate can fall outside while the next
 * one up still reads back; Dragon4 takes that one, and so do we. */
static void dec_shortest(decimal *dec, double ax, int single) {
  char buf[64], up[64];
  int most = single ? 9 : 17;
  for (int n = 1; n <= most; n++) {
    snprintf(buf, sizeof buf, "%.*e", n - 1, ax);
    if (reads_back(buf, ax, single)) break;
    next_decimal_up(buf, up, sizeof up);
    if (reads_back(up, ax, single)) {
      memcpy(buf, up, sizeof buf);
      break;
    }
  }
  dec_parse(dec, buf);
}

/* The exact binary value rounded half-even to `sig` significant digits
 * (glibc's printf is exact), which is what Dragon4 prints once a cutoff or
 * a minimum digit count overrides the shortest form. */
static void dec_round_sig(decimal *dec, double ax, int sig) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*e", sig - 1, ax);
  dec_parse(dec, buf);
}

static void dec_round_frac(decimal *dec, double ax, int frac) {
  char buf[400];
  snprintf(buf, sizeof buf, "%.*f", frac, ax);
  dec_parse(dec, buf);
}

static int frac_digits(const decimal *dec) {
  int f = dec->n - 1 - dec->exp;
  return f > 0 ? f : 0;
}
static int int_digits(const decimal *dec) { return dec->exp >= 0 ? dec->exp + 1 : 1; }
static int exp_digits(int exp) {
  int a = exp < 0 ? -exp : exp, n = 1;
  while (a >= 10) a /= 10, n++;
  return n < 2 ? 2 : n;
}

/* NumPy's positional form: the shortest digits, cut (and rounded) at
 * `maxfrac` fractional digits when they need more. */
static void dec_positional(decimal *dec, double ax, int single, int maxfrac) {
  dec_shortest(dec, ax, single);
  if (frac_digits(dec) > maxfrac) dec_round_frac(dec, ax, maxfrac);
}

/* NumPy's scientific form with at most `maxfrac` mantissa fractional digits. */
static void dec_scientific(decimal *dec, double ax, int single, int maxfrac) {
  dec_shortest(dec, ax, single);
  if (dec->n > maxfrac + 1) dec_round_sig(dec, ax, maxfrac + 1);
}

/* "ddd.fff": pad_left counts the characters before the point (sign
 * included), pad_right those after it; `one_zero` writes "1.0" for "1.". */
static void put_positional(sbuf *b, const decimal *dec, bool neg, bool one_zero, int pad_left,
                           int pad_right) {
  int ilen = int_digits(dec), flen = frac_digits(dec);
  sb_repeat(b, ' ', pad_left - ilen - neg);
  if (neg) sb_putc(b, '-');
  if (dec->exp < 0) {
    sb_putc(b, '0');
  } else {
    int have = dec->n < ilen ? dec->n : ilen;
    sb_putn(b, dec->d, (size_t)have);
    sb_repeat(b, '0', ilen - have);
  }
  sb_putc(b, '.');
  if (dec->exp < 0) {
    sb_repeat(b, '0', -dec->exp - 1);
    sb_putn(b, dec->d, (size_t)dec->n);
  } else if (flen > 0) {
    sb_putn(b, dec->d + ilen, (size_t)flen);
  }
  if (flen == 0 && one_zero) {
    sb_putc(b, '0');
    flen = 1;
  }
  sb_repeat(b, ' ', pad_right - flen);
}

/* "d.ddde+XX" with at least `min_frac` mantissa digits after the point
 * (zero-filled); `drop_point` writes "1e+05" rather than "1.e+05". */
static void put_scientific(sbuf *b, const decimal *dec, bool neg, int min_frac, bool drop_point,
                           int pad_left, int exp_width) {
  int flen = dec->n - 1;
  sb_repeat(b, ' ', pad_left - 1 - neg);
  if (neg) sb_putc(b, '-');
  sb_putc(b, dec->d[0]);
  if (!(drop_point && flen == 0 && min_frac == 0)) sb_putc(b, '.');
  sb_putn(b, dec->d + 1, (size_t)flen);
  sb_repeat(b, '0', min_frac - flen);
  int w = exp_digits(dec->exp);
  sb_printf(b, "e%c%0*d", dec->exp < 0 ? '-' : '+', exp_width > w ? exp_width : w,
            dec->exp < 0 ? -dec->exp : dec->exp);
}

/* str/repr of a NumPy float scalar: positional with ".0" from 1e-4 up to
 * 1e16 (compared exactly, as NumPy compares against long double literals),
 * otherwise scientific without a bare point ("1e-05"). */
static void put_float_scalar(sbuf *b, double x, int single) {
  if (isnan(x)) {
    sb_puts(b, "nan");
    return;
  }
  if (isinf(x)) {
    sb_puts(b, x < 0 ? "-inf" : "inf");
    return;
  }
  long double ax = fabsl((long double)x);
  decimal dec;
  dec_shortest(&dec, fabs(x), single);
  if (ax == 0 || (1e-4L <= ax && ax < 1e16L))
    put_positional(b, &dec, signbit(x), true, 0, 0);
  else
    put_scientific(b, &dec, signbit(x), 0, true, 0, 0);
}

/* ---- NumPy's element formatters ---- */

typedef struct np_format {
  mf_dtype dtype;
  bool scalar;        /* 0-d: bools print without the aligning space */
  int int_width;      /* IntegerFormat: %*d */
  bool exp_format;    /* FloatingFormat: */
  int precision;      /*   fractional digits (of the mantissa when exp_format) */
  int pad_left, pad_right, exp_size;
} np_format;

static int single_of(mf_dtype dt) {
  return dt == MF_FLOAT32 ? P_SINGLE : dt == MF_FLOAT16 ? P_HALF : P_DOUBLE;
}

/* NumPy floats: the dtypes FloatingFormat prints (bfloat16 is ml_dtypes'
 * own scalar type, which NumPy prints by its repr). */
static bool np_float(mf_dtype dt) { return mf_dtype_is_float(dt) || dt == MF_FLOAT16; }
static bool np_integer(mf_dtype dt) { return mf_dtype_is_any_integer(dt); }

/* FloatingFormat.fillFormat over the elements that will be shown. */
static void fill_float_format(np_format *f, const mf_tensor *t, const int64_t *shown,
                              int64_t count) {
  int single = single_of(t->dtype);
  bool any_finite = false, any_nonfinite = false, neg_inf = false;
  double maxv = 0, minv = INFINITY;
  for (int64_t k = 0; k < count; k++) {
    double x = elem_f64(t, shown[k]);
    if (!isfinite(x)) {
      any_nonfinite = true;
      neg_inf |= isinf(x) && x < 0;
      continue;
    }
    any_finite = true;
    double ax = fabs(x);
    if (ax != 0) {
      maxv = ax > maxv ? ax : maxv;
      minv = ax < minv ? ax : minv;
    }
  }
  f->exp_format = false;
  if (maxv > 0) {
    /* NumPy divides two float32 scalars in float32 but compares with the
     * Python-float thresholds in float64. */
    double ratio = single == P_HALF   ? mf_f16_to_f32(mf_f32_to_f16((float)maxv / (float)minv))
                   : single ? (double)((float)maxv / (float)minv)
                            : maxv / minv;
    f->exp_format = maxv >= 1e8 || minv < 1e-4 || ratio > 1000.0;
  }
  f->precision = NP_PRECISION;
  f->pad_left = f->pad_right = 0;
  f->exp_size = -1;
  if (any_finite) {
    int prec = 0, left = 0, right = 0, esize = 0;
    for (int64_t k = 0; k < count; k++) {
      double x = elem_f64(t, shown[k]);
      if (!isfinite(x)) continue;
      decimal dec;
      int neg = signbit(x) ? 1 : 0;
      if (f->exp_format) {
        dec_scientific(&dec, fabs(x), single, NP_PRECISION);
        prec = dec.n - 1 > prec ? dec.n - 1 : prec;
        esize = exp_digits(dec.exp) > esize ? exp_digits(dec.exp) : esize;
        left = 1 + neg > left ? 1 + neg : left;
      } else {
        dec_positional(&dec, fabs(x), single, NP_PRECISION);
        left = int_digits(&dec) + neg > left ? int_digits(&dec) + neg : left;
        right = frac_digits(&dec) > right ? frac_digits(&dec) : right;
      }
    }
    f->pad_left = left;
    if (f->exp_format) {
      f->precision = prec;
      f->exp_size = esize;
      f->pad_right = esize + 2 + prec;
    } else {
      f->pad_right = right;
    }
  }
  if (any_nonfinite) {
    int room = f->pad_right + 1;
    int need = 3 + (neg_inf ? 1 : 0) - room; /* "nan", "inf", "-inf" */
    f->pad_left = need > f->pad_left ? need : f->pad_left;
  }
}

/* An integer element's digits (uint64 past int64's range included). */
static int put_int_text(char *buf, size_t n, const mf_tensor *t, int64_t i) {
  if (t->dtype == MF_UINT64)
    return snprintf(buf, n, "%llu", (unsigned long long)MF_DATA(t, const uint64_t)[i]);
  return snprintf(buf, n, "%lld", (long long)elem_i64(t, i));
}

/* ml_dtypes' repr of a bfloat16: the float through an ostream ("%g"). */
static void put_bfloat16(sbuf *b, double x) {
  if (isnan(x))
    sb_puts(b, "nan");
  else
    sb_printf(b, "%g", x);
}

static void fill_int_format(np_format *f, const mf_tensor *t, const int64_t *shown,
                            int64_t count) {
  int w = 0;
  for (int64_t k = 0; k < count; k++) {
    char tmp[32];
    int n = put_int_text(tmp, sizeof tmp, t, shown[k]);
    w = n > w ? n : w;
  }
  f->int_width = w;
}

/* Python's repr of bytes. */
static void put_bytes_repr(sbuf *b, const mf_string *s) {
  bool has_single = s->len && memchr(s->ptr, '\'', s->len);
  bool has_double = s->len && memchr(s->ptr, '"', s->len);
  char quote = has_single && !has_double ? '"' : '\'';
  sb_putc(b, 'b');
  sb_putc(b, quote);
  for (size_t i = 0; i < s->len; i++) {
    unsigned char c = (unsigned char)s->ptr[i];
    if (c == quote || c == '\\') {
      sb_putc(b, '\\');
      sb_putc(b, (char)c);
    } else if (c == '\t') {
      sb_puts(b, "\\t");
    } else if (c == '\n') {
      sb_puts(b, "\\n");
    } else if (c == '\r') {
      sb_puts(b, "\\r");
    } else if (c < 0x20 || c >= 0x7f) {
      sb_printf(b, "\\x%02x", c);
    } else {
      sb_putc(b, (char)c);
    }
  }
  sb_putc(b, quote);
}

/* TF prints a variant element as its DebugString: "<TensorSliceDatasetOp::Dataset>". */
static void put_variant(sbuf *b, const mf_tensor *t, int64_t i) {
  const mf_variant *v = MF_DATA(t, mf_variant *const)[i];
  sb_printf(b, "<%s>", v ? v->type->name : "");
}

static void put_np_element(sbuf *b, const np_format *f, const mf_tensor *t, int64_t i) {
  char digits[32];
  if (np_integer(f->dtype)) {
    put_int_text(digits, sizeof digits, t, i);
    sb_printf(b, "%*s", f->int_width, digits);
    return;
  }
  switch (f->dtype) {
    case MF_FLOAT32:
    case MF_FLOAT64:
    case MF_FLOAT16: {
      double x = elem_f64(t, i);
      if (!isfinite(x)) {
        const char *s = isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
        sb_repeat(b, ' ', f->pad_left + f->pad_right + 1 - (long)strlen(s));
        sb_puts(b, s);
        return;
      }
      decimal dec;
      int single = single_of(f->dtype);
      if (f->exp_format) {
        /* min_digits = precision: the exact value's digits, unless the
         * shortest form already has exactly that many. */
        dec_shortest(&dec, fabs(x), single);
        if (dec.n != f->precision + 1) dec_round_sig(&dec, fabs(x), f->precision + 1);
        put_scientific(b, &dec, signbit(x), f->precision, false, f->pad_left, f->exp_size);
      } else {
        dec_positional(&dec, fabs(x), single, f->precision);
        /* min_digits = 0: Dragon4 keeps producing the exact value's digits
         * down to the units place even past the shortest form (64302272.,
         * not 64302270.). */
        if (dec.n - 1 < dec.exp) dec_round_frac(&dec, fabs(x), 0);
        put_positional(b, &dec, signbit(x), false, f->pad_left, f->pad_right);
      }
      return;
    }
    case MF_BFLOAT16:
      put_bfloat16(b, elem_f64(t, i));
      return;
    case MF_BOOL:
      sb_puts(b, elem_bool(t, i) ? (f->scalar ? "True" : " True") : "False");
      return;
    case MF_STRING:
      put_bytes_repr(b, elem_str(t, i));
      return;
    case MF_VARIANT: put_variant(b, t, i); return;
    default:
      sb_puts(b, RESOURCE_TEXT);
      return;
  }
}

/* ---- NumPy's array2string ---- */

typedef struct np_printer {
  const mf_tensor *t;
  np_format fmt;
  const char *sep;     /* " " for str, ", " for repr */
  bool summarise;
  int64_t stride[MF_MAX_RANK];
  sbuf word;           /* scratch for one element */
} np_printer;

static bool axis_summarised(const np_printer *p, int axis) {
  return p->summarise && p->t->shape[axis] > 2 * NP_EDGEITEMS;
}

/* Flat offsets of the elements a summarised print shows (NumPy's
 * _leading_trailing): the formats are sized from these alone. */
static int64_t *shown_elements(const np_printer *p, int64_t *count) {
  const mf_tensor *t = p->t;
  int64_t n = 1;
  for (int a = 0; a < t->rank; a++) n *= axis_summarised(p, a) ? 2 * NP_EDGEITEMS : t->shape[a];
  int64_t *out = mf_malloc((size_t)(n ? n : 1) * sizeof *out);
  if (!out) return NULL;
  int64_t pos[MF_MAX_RANK] = {0};
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int a = 0; a < t->rank; a++) {
      int64_t i = pos[a];
      if (axis_summarised(p, a) && i >= NP_EDGEITEMS) i = t->shape[a] - 2 * NP_EDGEITEMS + i;
      off += i * p->stride[a];
    }
    out[k] = off;
    for (int a = t->rank - 1; a >= 0; a--) {
      int64_t len = axis_summarised(p, a) ? 2 * NP_EDGEITEMS : t->shape[a];
      if (++pos[a] < len) break;
      pos[a] = 0;
    }
  }
  *count = n;
  return out;
}

/* _extendLine: wrap before `word` when it would pass `width`, unless the
 * line holds nothing but its indent (wrapping would not help). */
static void extend_line(sbuf *s, sbuf *line, const char *word, size_t wlen, long width,
                        long hang) {
  if ((long)(line->len + wlen) > width && (long)line->len > hang) {
    sb_rstrip(line);
    sb_putn(s, line->p, line->len);
    sb_putc(s, '\n');
    line->len = 0;
    sb_repeat(line, ' ', hang);
  }
  sb_putn(line, word, wlen);
}

static void format_axis(np_printer *p, sbuf *out, int axis, int64_t base, long hang, long width);

/* One item of `axis` (an element or a nested sub-array) into `dst`. */
static void format_item(np_printer *p, sbuf *dst, int axis, int64_t base, int64_t i, long hang,
                        long width) {
  int64_t off = base + i * p->stride[axis];
  if (axis + 1 == p->t->rank)
    put_np_element(dst, &p->fmt, p->t, off);
  else
    format_axis(p, dst, axis + 1, off, hang + 1, width - 1);
}

/* _formatArray's recurser: the sub-array at `axis` starting at flat offset
 * `base`, appended to `out` as "[...]". `hang` is the indent of its
 * continuation lines, `width` the columns it may use. */
static void format_axis(np_printer *p, sbuf *out, int axis, int64_t base, long hang, long width) {
  int64_t len = p->t->shape[axis];
  bool summary = axis_summarised(p, axis);
  int64_t lead = summary ? NP_EDGEITEMS : 0, trail = summary ? NP_EDGEITEMS : len;
  size_t seplen = strlen(p->sep);
  size_t sepstrip = p->sep[seplen - 1] == ' ' ? seplen - 1 : seplen;
  sbuf s = {0};

  if (axis + 1 == p->t->rank) {
    /* the separator's visible part or the closing bracket must still fit */
    long elem_width = width - (long)(sepstrip > 1 ? sepstrip : 1);
    sbuf line = {0};
    sb_repeat(&line, ' ', hang);
    for (int64_t k = 0; k < len; k++) {
      bool last = k == len - 1;
      if (k == lead && summary) {
        extend_line(&s, &line, "...", 3, elem_width, hang);
        sb_puts(&line, p->sep);
        k = len - trail;
      }
      p->word.len = 0;
      format_item(p, &p->word, axis, base, k, hang, width);
      if (p->word.failed) s.failed = true;
      extend_line(&s, &line, p->word.p ? p->word.p : "", p->word.len, elem_width, hang);
      if (!last) sb_puts(&line, p->sep);
    }
    sb_putn(&s, line.p ? line.p : "", line.len);
    if (line.failed) s.failed = true;
    sb_free(&line);
  } else {
    int blank_lines = p->t->rank - axis - 1;
    for (int64_t k = 0; k < len; k++) {
      if (k == lead && summary) {
        sb_repeat(&s, ' ', hang);
        sb_puts(&s, "...");
        sb_putn(&s, p->sep, sepstrip);
        sb_repeat(&s, '\n', blank_lines);
        k = len - trail;
      }
      sb_repeat(&s, ' ', hang);
      format_item(p, &s, axis, base, k, hang, width);
      if (k != len - 1) {
        sb_putn(&s, p->sep, sepstrip);
        sb_repeat(&s, '\n', blank_lines);
      }
    }
  }
  /* the first line's indent becomes the opening bracket */
  sb_putc(out, '[');
  if (s.len > (size_t)hang) sb_putn(out, s.p + hang, s.len - (size_t)hang);
  sb_putc(out, ']');
  if (s.failed) out->failed = true;
  sb_free(&s);
}

/* array2string for a tensor of rank >= 1 with elements; `prefix_len` is the
 * width of what precedes it on the first line ("array(" in a repr). */
static void put_array(sbuf *out, const mf_tensor *t, const char *sep, long prefix_len,
                      long width) {
  np_printer p = {.t = t, .sep = sep, .summarise = t->size > NP_THRESHOLD};
  p.fmt.dtype = t->dtype;
  strides_of(t, p.stride);
  if (np_float(t->dtype) || np_integer(t->dtype)) {
    int64_t count;
    int64_t *shown = shown_elements(&p, &count);
    if (!shown) {
      out->failed = true;
      return;
    }
    if (np_float(t->dtype))
      fill_float_format(&p.fmt, t, shown, count);
    else
      fill_int_format(&p.fmt, t, shown, count);
    free(shown);
  }
  format_axis(&p, out, 0, 0, 1 + prefix_len, width);
  if (p.word.failed) out->failed = true;
  sb_free(&p.word);
}

/* A NumPy scalar's str, which is also its repr for every dtype we hold. */
static void put_scalar(sbuf *b, const mf_tensor *t) {
  if (np_float(t->dtype)) {
    put_float_scalar(b, elem_f64(t, 0), single_of(t->dtype));
    return;
  }
  np_format f = {.dtype = t->dtype, .scalar = true};
  put_np_element(b, &f, t, 0);
}

static void put_numpy_str(sbuf *b, const mf_tensor *t) {
  if (t->dtype == MF_RESOURCE)
    sb_puts(b, RESOURCE_TEXT);
  else if (t->rank == 0)
    put_scalar(b, t);
  else if (t->size == 0)
    sb_puts(b, "[]");
  else
    put_array(b, t, " ", 0, NP_LINEWIDTH);
}

/* NumPy leaves the dtype out where the values imply it: float64, int64
 * (NumPy's default int here) and bool. */
static bool dtype_implied(mf_dtype dt) {
  return dt == MF_FLOAT64 || dt == MF_INT64 || dt == MF_BOOL;
}

static void put_numpy_repr(sbuf *b, const mf_tensor *t) {
  if (t->dtype == MF_RESOURCE || t->rank == 0) {
    put_numpy_str(b, t);
    return;
  }
  static const char prefix[] = "array(";
  const long plen = (long)sizeof prefix - 1;
  bool skip_dtype = dtype_implied(t->dtype) && t->size > 0;
  size_t start = b->len;
  sb_puts(b, prefix);
  if (t->size > 0) {
    put_array(b, t, ", ", plen, NP_LINEWIDTH - 1 /* the ")" or "," that follows */);
  } else if (t->rank == 1) {
    sb_puts(b, "[]");
  } else {
    char shape[256];
    mf_shape_format(t->rank, t->shape, shape, sizeof shape);
    sb_printf(b, "[], shape=%s", shape);
  }
  if (skip_dtype) {
    sb_putc(b, ')');
    return;
  }
  sb_putc(b, ',');
  const char *dtype = t->dtype == MF_STRING ? "object" : mf_dtype_name(t->dtype);
  if (b->failed) return;
  const char *nl = memrchr(b->p + start, '\n', b->len - start);
  long last_line = (long)(b->p + b->len - (nl ? nl + 1 : b->p + start));
  long dtype_len = (long)strlen("dtype=)") + (long)strlen(dtype);
  if (last_line + dtype_len + 1 > NP_LINEWIDTH) {
    sb_putc(b, '\n');
    sb_repeat(b, ' ', plen);
  } else {
    sb_putc(b, ' ');
  }
  sb_printf(b, "dtype=%s)", dtype);
}

char *mf_format_numpy_str(const mf_tensor *t) {
  sbuf b = {0};
  put_numpy_str(&b, t);
  return sb_finish(&b);
}

char *mf_format_numpy_repr(const mf_tensor *t) {
  sbuf b = {0};
  put_numpy_repr(&b, t);
  return sb_finish(&b);
}

/* ---- TF's wrappers ---- */

/* TF's _numpy_text: a value spanning lines starts on a line of its own. */
static char *tensor_text(const mf_tensor *t, bool repr) {
  sbuf value = {0}, b = {0};
  (repr ? put_numpy_repr : put_numpy_str)(&value, t);
  char shape[256];
  mf_shape_format(t->rank, t->shape, shape, sizeof shape);
  const char *nl = value.p && strchr(value.p, '\n') ? "\n" : "";
  const char *v = value.p ? value.p : "";
  if (repr)
    sb_printf(&b, "<tf.Tensor: shape=%s, dtype=%s, numpy=%s", shape, mf_dtype_name(t->dtype), nl);
  else
    sb_printf(&b, "tf.Tensor(%s", nl);
  sb_putn(&b, v, value.len);
  if (repr)
    sb_putc(&b, '>');
  else
    sb_printf(&b, ", shape=%s, dtype=%s)", shape, mf_dtype_name(t->dtype));
  if (value.failed) b.failed = true;
  sb_free(&value);
  return sb_finish(&b);
}

char *mf_format_tensor_str(const mf_tensor *t) { return tensor_text(t, false); }
char *mf_format_tensor_repr(const mf_tensor *t) { return tensor_text(t, true); }

/* ---- TF's SummarizeValue(summarize, print_v2=true) ---- */

void mf_format_tf_float(double x, bool single, char *buf, size_t n) {
  if (isnan(x)) {
    snprintf(buf, n, "%s", signbit(x) ? "-nan" : "nan");
    return;
  }
  if (single) {
    snprintf(buf, n, "%.*g", FLT_DIG, x);
    if (strtof(buf, NULL) != (float)x) snprintf(buf, n, "%.*g", FLT_DIG + 3, x);
  } else {
    /* TF skips the short try near DBL_MAX, where strtod would overflow. */
    bool try_short = fabs(x) <= DBL_MAX / 1.000000000000001;
    if (try_short) snprintf(buf, n, "%.*g", DBL_DIG, x);
    if (!try_short || strtod(buf, NULL) != x) snprintf(buf, n, "%.*g", DBL_DIG + 2, x);
  }
}

static void put_tf_float(sbuf *b, double x, bool single) {
  char buf[64];
  mf_format_tf_float(x, single, buf, sizeof buf);
  sb_puts(b, buf);
}

/* absl::Utf8SafeCEscape inside double quotes. */
static void put_tf_string(sbuf *b, const mf_string *s) {
  sb_putc(b, '"');
  for (size_t i = 0; i < s->len; i++) {
    unsigned char c = (unsigned char)s->ptr[i];
    switch (c) {
      case '\n': sb_puts(b, "\\n"); break;
      case '\r': sb_puts(b, "\\r"); break;
      case '\t': sb_puts(b, "\\t"); break;
      case '"': sb_puts(b, "\\\""); break;
      case '\'': sb_puts(b, "\\'"); break;
      case '\\': sb_puts(b, "\\\\"); break;
      default:
        if (c < 0x80 && (c < 0x20 || c == 0x7f))
          sb_printf(b, "\\%03o", c);
        else
          sb_putc(b, (char)c);
    }
  }
  sb_putc(b, '"');
}

static void put_tf_element(sbuf *b, const mf_tensor *t, int64_t i) {
  char digits[32];
  if (mf_dtype_is_any_integer(t->dtype)) {
    put_int_text(digits, sizeof digits, t, i);
    sb_puts(b, digits);
    return;
  }
  switch (t->dtype) {
    case MF_FLOAT32: put_tf_float(b, elem_f64(t, i), true); break;
    case MF_FLOAT64: put_tf_float(b, elem_f64(t, i), false); break;
    /* TF prints the half types as the floats they widen to */
    case MF_FLOAT16:
    case MF_BFLOAT16: put_tf_float(b, elem_f64(t, i), true); break;
    /* AlphaNum has no bool: TF prints bools as the integers 1 and 0. */
    case MF_BOOL: sb_putc(b, elem_bool(t, i) ? '1' : '0'); break;
    case MF_STRING: put_tf_string(b, elem_str(t, i)); break;
    case MF_VARIANT: put_variant(b, t, i); break;
    default: {
      mf_variable *v = MF_DATA(t, mf_variable *const)[i];
      sb_printf(b, "<ResourceHandle(name=\"%s\")>", v && v->name ? v->name : "");
    }
  }
}

/* PrintDimSpacing */
static void put_tf_spacing(sbuf *b, int dim, int ndims) {
  if (dim == ndims - 1) {
    sb_putc(b, ' ');
    return;
  }
  sb_repeat(b, '\n', ndims - dim - 1);
  sb_repeat(b, ' ', dim + 1);
}

/* PrintOneDimV2 */
static void put_tf_dims(sbuf *b, const mf_tensor *t, const int64_t *stride, int dim, int64_t ends,
                        int64_t base) {
  if (dim == t->rank) {
    put_tf_element(b, t, base);
    return;
  }
  int64_t count = t->shape[dim];
  int64_t start_of_end = ends > count - ends ? ends : count - ends;
  sb_putc(b, '[');
  for (int64_t i = 0; i < ends && i < count; i++) {
    if (i > 0) put_tf_spacing(b, dim, t->rank);
    put_tf_dims(b, t, stride, dim + 1, ends, base + stride[dim] * i);
  }
  if (count > 2 * ends) {
    put_tf_spacing(b, dim, t->rank);
    sb_puts(b, "...");
  }
  for (int64_t i = start_of_end; i < count; i++) {
    put_tf_spacing(b, dim, t->rank);
    put_tf_dims(b, t, stride, dim + 1, ends, base + stride[dim] * i);
  }
  sb_putc(b, ']');
}

char *mf_format_tf_print(const mf_tensor *t, int summarize) {
  sbuf b = {0};
  int64_t n = t->size;
  int64_t max_entries = summarize < 0 ? n : summarize;
  int64_t limit = max_entries < n ? max_entries : n;
  if (t->dtype == MF_RESOURCE || t->dtype == MF_VARIANT) {
    /* TF's path for irregular dtypes: a flat list, never nested */
    if (t->rank > 0) sb_putc(&b, '[');
    for (int64_t i = 0; i < limit; i++) {
      if (i > 0) sb_putc(&b, ' ');
      put_tf_element(&b, t, i);
    }
    if (max_entries < n) sb_puts(&b, "...");
    if (t->rank > 0) sb_putc(&b, ']');
  } else if (t->dtype == MF_BOOL && limit == 0) {
    /* TF's bool summary returns "" when it reads no data. */
  } else if (t->rank == 0) {
    for (int64_t i = 0; i < limit; i++) put_tf_element(&b, t, i);
    if (n > limit) sb_puts(&b, "...");
  } else {
    int64_t stride[MF_MAX_RANK];
    strides_of(t, stride);
    put_tf_dims(&b, t, stride, 0, limit, 0);
  }
  return sb_finish(&b);
}
