/* text.c — the datasets that read text files: TF's TextLineDataset (one
 * string per line) and CSVDatasetV2 (one scalar per selected column,
 * typed by its record default: tf.data.experimental.CsvDataset). Files are
 * read in order, opened when the iterator reaches them (a missing file is
 * NotFoundError at that point, as TF's). Lines end at '\n'; a '\r' before
 * it is dropped too. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"

typedef struct text_ds {
  mf_dataset base;
  mf_tensor *filenames; /* string tensor, counted */
  /* CSV only */
  bool csv, header, quotes;
  char delim;
  char *na_value;
  int ncols;                                  /* columns selected (ncomp) */
  int64_t select[MF_DATA_MAX_COMPONENTS];     /* their indices, ascending; -1: all in order */
  mf_tensor *defaults[MF_DATA_MAX_COMPONENTS]; /* counted; size 0: required */
} text_ds;

typedef struct text_it {
  mf_iterator base;
  int64_t file;  /* the file being read */
  FILE *f;
  char *line;
  size_t cap;
  int64_t record; /* records read from the current file (CSV messages) */
} text_it;

static void text_drop(mf_dataset *ds) {
  text_ds *d = (text_ds *)ds;
  mf_tensor_release(d->filenames);
  if (d->csv) mf_release_all(ds->ncomp, d->defaults);
  free(d->na_value);
}

static void text_it_drop(mf_iterator *it) {
  text_it *c = (text_it *)it;
  if (c->f) fclose(c->f);
  free(c->line);
}

/* The next line into c->line (without its end); false at the end of all files. */
static mf_status next_line(text_it *c, const text_ds *d, size_t *len, bool *end, mf_error *err) {
  const mf_string *names = mf_tensor_data(d->filenames);
  for (;;) {
    if (!c->f) {
      if (c->file >= d->filenames->size) {
        *end = true;
        return MF_OK;
      }
      const mf_string *name = &names[c->file];
      c->f = fopen(name->ptr, "rb");
      if (!c->f)
        return mf_error_set(err, errno == ENOENT ? MF_ERR_NOT_FOUND : MF_ERR_INVALID_ARGUMENT,
                            "%s; %s", name->ptr, strerror(errno));
      c->record = 0;
      if (d->csv && d->header) {
        ssize_t n = getline(&c->line, &c->cap, c->f);
        (void)n;
      }
    }
    ssize_t n = getline(&c->line, &c->cap, c->f);
    if (n < 0) {
      fclose(c->f);
      c->f = NULL;
      c->file++;
      continue;
    }
    if (n > 0 && c->line[n - 1] == '\n') n--;
    if (n > 0 && c->line[n - 1] == '\r') n--;
    c->line[n] = '\0';
    *len = (size_t)n;
    return MF_OK;
  }
}

static mf_status textline_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  text_it *c = (text_it *)it;
  size_t len;
  MF_TRY(next_line(c, (const text_ds *)it->ds, &len, end, err));
  if (*end) return MF_OK;
  return mf_tensor_scalar_string(c->line, len, out, err);
}

/* The CSV field starting at p, copied (unquoted, when quoted) into buf;
 * *next is the position after its delimiter, or NULL at the end of the
 * line. */
static mf_status csv_field(const text_ds *d, const char *p, const char *lim, char **buf, size_t *bcap,
                           size_t *blen, const char **next, int64_t record, int col, mf_error *err) {
  *blen = 0;
  if (d->quotes && p < lim && *p == '"') {
    p++;
    for (;;) {
      if (p >= lim)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Quoted field has to end with quote followed by delim or end of record");
      if (*p == '"') {
        if (p + 1 < lim && p[1] == '"') {
          p++;
        } else {
          p++;
          break;
        }
      }
      if (*blen + 1 >= *bcap) {
        size_t cap = *bcap ? *bcap * 2 : 64;
        char *grown = mf_realloc(*buf, cap);
        if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
        *buf = grown;
        *bcap = cap;
      }
      (*buf)[(*blen)++] = *p++;
    }
    if (p < lim && *p != d->delim)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Quote inside a string has to be escaped by another quote (record %lld, "
                          "field %d)",
                          (long long)record, col);
  } else {
    const char *q = p;
    while (q < lim && *q != d->delim) q++;
    size_t n = (size_t)(q - p);
    if (n + 1 > *bcap) {
      char *grown = mf_realloc(*buf, n + 1);
      if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      *buf = grown;
      *bcap = n + 1;
    }
    memcpy(*buf, p, n);
    *blen = n;
    p = q;
  }
  (*buf)[*blen] = '\0';
  *next = p < lim ? p + 1 : NULL;
  return MF_OK;
}

static mf_status csv_value(const text_ds *d, int k, const char *s, size_t len, int64_t record,
                           int64_t col, mf_tensor **out, mf_error *err) {
  mf_tensor *dflt = d->defaults[k];
  bool missing = len == 0 || (d->na_value && strcmp(s, d->na_value) == 0);
  if (missing) {
    if (dflt->size == 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Field %lld is required but missing in record %lld!",
                          (long long)col, (long long)record);
    return mf_tensor_view(dflt, 0, NULL, 0, out, err);
  }
  mf_dtype dt = dflt->dtype;
  if (dt == MF_STRING) return mf_tensor_scalar_string(s, len, out, err);
  char *endp;
  errno = 0;
  if (mf_dtype_is_integer(dt)) {
    long long v = strtoll(s, &endp, 10);
    if (*endp || errno || (dt == MF_INT32 && (v < INT32_MIN || v > INT32_MAX)))
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Field %lld in record %lld is not a valid %s: %s",
                          (long long)col, (long long)record, mf_dtype_kernel_name(dt), s);
    return mf_tensor_scalar_i64(dt, v, out, err);
  }
  double v = strtod(s, &endp);
  if (*endp)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Field %lld in record %lld is not a valid %s: %s",
                        (long long)col, (long long)record, mf_dtype_kernel_name(dt), s);
  return mf_tensor_scalar_f64(dt, v, out, err);
}

static mf_status csv_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  text_it *c = (text_it *)it;
  const text_ds *d = (const text_ds *)it->ds;
  size_t len;
  MF_TRY(next_line(c, d, &len, end, err));
  if (*end) return MF_OK;
  int64_t record = c->record++;
  const char *p = c->line, *lim = c->line + len;
  char *buf = NULL;
  size_t bcap = 0, blen;
  int k = 0;
  mf_status s = MF_OK;
  for (int64_t col = 0; s == MF_OK && p && k < d->ncols; col++) {
    const char *next = NULL;
    s = csv_field(d, p, lim, &buf, &bcap, &blen, &next, record, (int)col, err);
    bool wanted = d->select[0] < 0 || d->select[k] == col;
    if (s == MF_OK && wanted) s = csv_value(d, k, buf ? buf : "", blen, record, col, &out[k], err);
    if (s == MF_OK && wanted) k++;
    p = next;
  }
  free(buf);
  if (s == MF_OK && k < d->ncols)
    s = mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                     "Expect %d fields but have %d in record %lld", d->ncols, k, (long long)record);
  if (s != MF_OK) mf_release_all(k, out);
  return s;
}

static const mf_iterator_class textline_it_class = {textline_next, text_it_drop};
static const mf_iterator_class csv_it_class = {csv_next, text_it_drop};

static mf_status text_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(((text_ds *)ds)->csv ? &csv_it_class : &textline_it_class, sizeof(text_it),
                           ds, out, err);
}

static int64_t text_cardinality(const mf_dataset *ds) {
  (void)ds;
  return MF_CARDINALITY_UNKNOWN;
}

static const mf_dataset_class textline_class = {MF_DATASET_VARIANT("TextLineDatasetOp::Dataset"),
                                                text_iterator, text_cardinality, text_drop};
static const mf_dataset_class csv_class = {MF_DATASET_VARIANT("CSVDatasetV2Op::Dataset"),
                                           text_iterator, text_cardinality, text_drop};

static mf_status check_names(const mf_tensor *filenames, mf_error *err) {
  if (filenames->dtype != MF_STRING || filenames->rank > 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "`filenames` must be a scalar or a vector.");
  return MF_OK;
}

mf_status mf_dataset_text_line(mf_tensor *filenames, mf_dataset **out, mf_error *err) {
  MF_TRY(check_names(filenames, err));
  mf_spec spec = {.dtype = MF_STRING, .rank = 0};
  MF_TRY(mf_dataset_alloc(&textline_class, sizeof(text_ds), 1, &spec, out, err));
  mf_tensor_retain(filenames);
  ((text_ds *)*out)->filenames = filenames;
  return MF_OK;
}

mf_status mf_dataset_csv(mf_tensor *filenames, int n, mf_tensor *const *defaults, bool header,
                         char delim, bool quotes, const char *na_value, int nselect,
                         const int64_t *select, mf_dataset **out, mf_error *err) {
  MF_TRY(check_names(filenames, err));
  if (nselect > 0 && nselect != n)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Expected len(select_cols) to equal len(record_defaults)");
  for (int i = 1; i < nselect; i++)
    if (select[i] <= select[i - 1])
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "select_cols is not strictly increasing.");
  if (nselect > 0 && select[0] < 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "select_cols contains negative values.");
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  for (int k = 0; k < n; k++) {
    if (defaults[k]->rank > 1 || defaults[k]->size > 1 || defaults[k]->dtype == MF_BOOL ||
        defaults[k]->dtype >= MF_RESOURCE)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Each record default should be at most rank 1, a number or a string");
    spec[k] = (mf_spec){.dtype = defaults[k]->dtype, .rank = 0};
  }
  MF_TRY(mf_dataset_alloc(&csv_class, sizeof(text_ds), n, spec, out, err));
  text_ds *d = (text_ds *)*out;
  mf_tensor_retain(filenames);
  d->filenames = filenames;
  d->csv = true;
  d->header = header;
  d->quotes = quotes;
  d->delim = delim;
  d->ncols = n;
  d->na_value = na_value && *na_value ? strdup(na_value) : NULL;
  d->select[0] = -1;
  for (int k = 0; k < nselect; k++) d->select[k] = select[k];
  for (int k = 0; k < n; k++) {
    mf_tensor_retain(defaults[k]);
    d->defaults[k] = defaults[k];
  }
  return MF_OK;
}

/* ---- DecodeCSV: the records of a string tensor, parsed as TF's op ---- */

/* One record's fields, as TF's DecodeCSVOp::ExtractFields reads them:
 * the selected ones (all when nselect is 0) appended to *fields as
 * (offset, length) pairs into *buf, unquoted; '\n' and '\r' between
 * fields skipped. */
typedef struct csv_fields {
  char *buf;
  size_t len, cap;
  size_t *at; /* 2 per field */
  int n, max;
} csv_fields;

static mf_status fields_put_char(csv_fields *f, char ch, mf_error *err) {
  if (f->len + 1 >= f->cap) {
    size_t cap = f->cap ? f->cap * 2 : 64;
    char *grown = mf_realloc(f->buf, cap);
    if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    f->buf = grown;
    f->cap = cap;
  }
  f->buf[f->len++] = ch;
  return MF_OK;
}

static mf_status fields_open(csv_fields *f, mf_error *err) {
  if (f->n == f->max) {
    int max = f->max ? f->max * 2 : 16;
    size_t *grown = mf_realloc(f->at, (size_t)max * 2 * sizeof *grown);
    if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    f->at = grown;
    f->max = max;
  }
  f->at[2 * f->n] = f->len;
  f->at[2 * f->n + 1] = 0;
  f->n++;
  return MF_OK;
}

static mf_status extract_fields(const mf_csv_format *fmt, const char *in, size_t size, csv_fields *f,
                                mf_error *err) {
  f->n = 0;
  f->len = 0;
  if (size == 0) return MF_OK;
  size_t i = 0;
  int64_t parsed = 0;
  int sel = 0;
  while (i < size) {
    if (in[i] == '\n' || in[i] == '\r') {
      i++;
      continue;
    }
    bool include = fmt->nselect == 0 || fmt->select[sel] == parsed;
    if (include) MF_TRY(fields_open(f, err));
    if (fmt->quotes && in[i] == '"') {
      i++;
      while (i + 1 < size && (in[i] != '"' || in[i + 1] != fmt->delim)) {
        if (in[i] != '"') {
          if (include) MF_TRY(fields_put_char(f, in[i], err));
          i++;
        } else {
          if (in[i + 1] != '"')
            return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                                "Quote inside a string has to be escaped by another quote");
          if (include) MF_TRY(fields_put_char(f, '"', err));
          i += 2;
        }
      }
      if (!(i < size && in[i] == '"' && (i == size - 1 || in[i + 1] == fmt->delim)))
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Quoted field has to end with quote followed by delim or end");
      i += 2;
    } else {
      while (i < size && in[i] != fmt->delim) {
        if ((fmt->quotes && in[i] == '"') || in[i] == '\n' || in[i] == '\r')
          return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Unquoted fields cannot have quotes/CRLFs inside");
        if (include) MF_TRY(fields_put_char(f, in[i], err));
        i++;
      }
      i++;
    }
    parsed++;
    if (include) {
      f->at[2 * f->n - 1] = f->len - f->at[2 * f->n - 2];
      MF_TRY(fields_put_char(f, '\0', err));
      if (fmt->nselect && ++sel == fmt->nselect) return MF_OK;
    }
  }
  /* A record ending in a delimiter has an empty last field. */
  if ((fmt->nselect == 0 || fmt->select[sel] == parsed) && in[size - 1] == fmt->delim) {
    MF_TRY(fields_open(f, err));
    MF_TRY(fields_put_char(f, '\0', err));
  }
  return MF_OK;
}

/* Field k of record i into out[i]: its default when empty or na_value. */
static mf_status decode_value(const mf_csv_format *fmt, const mf_tensor *dflt, const char *s, size_t len,
                              int k, int64_t rec, mf_tensor *out, int64_t i, mf_error *err) {
  mf_dtype dt = out->dtype;
  if (len == 0 || (fmt->na_value && strcmp(s, fmt->na_value) == 0)) {
    if (dflt->size != 1)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Field %d is required but missing in record %lld!", k,
                          (long long)rec);
    if (dt == MF_STRING) {
      const mf_string *d = mf_tensor_data(dflt);
      return mf_string_set(&((mf_string *)mf_tensor_data(out))[i], d->ptr, d->len, err);
    }
    if (mf_dtype_is_integer(dt))
      mf_tensor_set_i64(out, i, mf_tensor_get_i64(dflt, 0));
    else
      mf_tensor_set_f64(out, i, mf_tensor_get_f64(dflt, 0));
    return MF_OK;
  }
  if (dt == MF_STRING) return mf_string_set(&((mf_string *)mf_tensor_data(out))[i], s, len, err);
  char *endp;
  errno = 0;
  bool ok;
  if (mf_dtype_is_integer(dt)) {
    long long v = strtoll(s, &endp, 10);
    while (*endp == ' ') endp++;
    ok = endp != s && !*endp && !errno && (dt != MF_INT32 || (v >= INT32_MIN && v <= INT32_MAX));
    if (ok) mf_tensor_set_i64(out, i, v);
  } else {
    double v = strtod(s, &endp);
    while (*endp == ' ') endp++;
    ok = endp != s && !*endp;
    if (ok) mf_tensor_set_f64(out, i, v);
  }
  if (!ok)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Field %d in record %lld is not a valid %s: %s", k,
                        (long long)rec, mf_dtype_kernel_name(dt), s);
  return MF_OK;
}

mf_status mf_csv_decode(const mf_csv_format *fmt, const mf_tensor *records, int n,
                        mf_tensor *const *defaults, mf_tensor **out, mf_error *err) {
  const mf_string *recs = mf_tensor_data(records);
  csv_fields f = {0};
  mf_status s = MF_OK;
  for (int64_t i = 0; s == MF_OK && i < records->size; i++) {
    s = extract_fields(fmt, recs[i].ptr ? recs[i].ptr : "", recs[i].len, &f, err);
    if (s == MF_OK && f.n != n)
      s = mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Expect %d fields but have %d in record %lld", n, f.n,
                       (long long)i);
    for (int k = 0; s == MF_OK && k < n; k++)
      s = decode_value(fmt, defaults[k], f.buf + f.at[2 * k], f.at[2 * k + 1], k, i, out[k], i, err);
  }
  free(f.buf);
  free(f.at);
  return s;
}
