/* saved_model.c — saved program directories (see saved_model.h). */
#include "saved_model.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "executor.h"
#include "graph_io.h"
#include "npy.h"
#include "variable.h"

#define BAD(...) mf_error_set(err, MF_ERR_INVALID_ARGUMENT, __VA_ARGS__)
#define JSON_LIMIT ((size_t)1 << 30)
#define MAX_ITEMS 100000

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = mf_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

void mf_saved_free(mf_saved_program *p) {
  if (!p) return;
  for (int i = 0; i < p->nvars; i++) {
    free(p->vars[i].name);
    free(p->vars[i].file);
    if (p->vars[i].value) mf_tensor_release(p->vars[i].value);
    if (p->vars[i].handle) mf_tensor_release(p->vars[i].handle);
  }
  for (int i = 0; i < p->nfns; i++) {
    mf_saved_fn *f = &p->fns[i];
    free(f->name);
    if (f->graph) mf_graph_release(f->graph);
    for (int k = 0; f->arg_names && k < f->nargs; k++) free(f->arg_names[k]);
    for (int k = 0; f->out_names && k < f->nouts; k++) free(f->out_names[k]);
    for (int k = 0; f->captures && k < f->ncaptures; k++)
      if (f->captures[k].value) mf_tensor_release(f->captures[k].value);
    free(f->arg_names);
    free(f->out_names);
    free(f->captures);
    free(f->structure);
  }
  for (int i = 0; i < p->nsigs; i++) free(p->sig_names[i]);
  free(p->vars);
  free(p->fns);
  free(p->sig_names);
  free(p->sig_fn);
  free(p->methods);
  free(p);
}

int mf_saved_find(const mf_saved_program *p, const char *name) {
  for (int i = 0; i < p->nsigs; i++)
    if (strcmp(p->sig_names[i], name) == 0) return p->sig_fn[i];
  for (int i = 0; i < p->nfns; i++)
    if (strcmp(p->fns[i].name, name) == 0) return i;
  return -1;
}

void mf_saved_arg_spec(const mf_saved_program *p, int f, int i, mf_spec *out) {
  const mf_graph *g = p->fns[f].graph;
  *out = g->nodes[g->inputs[i]].out_specs[0];
}

/* A variable file name: a plain name ending ".npy", no separators, not
 * hidden, so it cannot leave DIR/variables/. */
static bool plain_file_name(const char *s) {
  size_t n = strlen(s);
  if (n < 5 || n > 200 || s[0] == '.' || strcmp(s + n - 4, ".npy") != 0) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '-' || c == '.'))
      return false;
  }
  return true;
}

/* ---- writing ---- */

static json_t *names_json(int n, char **names) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, json_string(names[i]));
  return a;
}

mf_status mf_saved_write(const char *dir, const mf_saved_program *p, mf_error *err) {
  char path[PATH_MAX];
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return mf_error_set(err, MF_ERR_NOT_FOUND, "cannot create '%s': %s", dir, strerror(errno));
  snprintf(path, sizeof path, "%s/variables", dir);
  if (mkdir(path, 0777) != 0 && errno != EEXIST)
    return mf_error_set(err, MF_ERR_NOT_FOUND, "cannot create '%s': %s", path, strerror(errno));
  json_t *vars = json_array(), *fns = json_array(), *sigs = json_object();
  json_t *doc = json_pack("{s:s, s:i, s:o, s:o, s:o}", "format", "moonflow.saved_model", "version",
                          MF_SAVED_FORMAT_VERSION, "variables", vars, "functions", fns,
                          "signatures", sigs);
  mf_status s = MF_OK;
  for (int i = 0; s == MF_OK && i < p->nvars; i++) {
    const mf_saved_var *v = &p->vars[i];
    if (!plain_file_name(v->file)) {
      s = BAD("variable '%s': file name '%s' is not a plain .npy name", v->name, v->file);
      break;
    }
    mf_spec sp;
    mf_spec_of_tensor(v->value, &sp);
    json_t *jv = json_pack("{s:s, s:s, s:b, s:o}", "name", v->name, "file", v->file, "trainable",
                           v->trainable, "spec", mf_spec_to_json(&sp));
    json_array_append_new(vars, jv);
    snprintf(path, sizeof path, "%s/variables/%s", dir, v->file);
    s = mf_npy_write(path, v->value, err);
  }
  for (int i = 0; s == MF_OK && i < p->nfns; i++) {
    const mf_saved_fn *f = &p->fns[i];
    json_t *g, *caps = json_array();
    s = mf_graph_to_json(f->graph, &g, err);
    if (s != MF_OK) {
      json_decref(caps);
      char msg[MF_ERROR_MESSAGE_MAX];
      snprintf(msg, sizeof msg, "%s", err->message);
      s = mf_error_set(err, s, "function '%s': %s", f->name, msg);
      break;
    }
    for (int k = 0; s == MF_OK && k < f->ncaptures; k++) {
      if (f->captures[k].variable >= 0) {
        json_array_append_new(caps, json_pack("{s:i}", "variable", f->captures[k].variable));
      } else {
        json_t *t;
        s = mf_tensor_to_json(f->captures[k].value, &t, err);
        if (s == MF_OK) json_array_append_new(caps, json_pack("{s:o}", "constant", t));
      }
    }
    json_t *structure = NULL;
    if (f->structure) {
      json_error_t je;
      structure = json_loads(f->structure, JSON_DECODE_ANY, &je);
      if (!structure && s == MF_OK) s = BAD("function '%s': its structure is not JSON", f->name);
    }
    json_array_append_new(fns, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name", f->name, "graph", g,
                                         "args", names_json(f->nargs, f->arg_names), "captures", caps,
                                         "outputs", names_json(f->nouts, f->out_names), "structure",
                                         structure ? structure : json_null()));
  }
  for (int i = 0; s == MF_OK && i < p->nsigs; i++)
    json_object_set_new(sigs, p->sig_names[i], json_string(p->fns[p->sig_fn[i]].name));
  if (s == MF_OK && p->methods) {
    json_error_t je;
    json_t *m = json_loads(p->methods, JSON_DECODE_ANY, &je);
    if (!m) s = BAD("the saved methods are not JSON");
    else json_object_set_new(doc, "methods", m);
  }
  if (s == MF_OK) {
    snprintf(path, sizeof path, "%s/saved_model.json", dir);
    if (json_dump_file(doc, path, JSON_INDENT(1) | JSON_SORT_KEYS) != 0)
      s = mf_error_set(err, MF_ERR_INTERNAL, "cannot write '%s'", path);
  }
  json_decref(doc);
  return s;
}

/* ---- opening ---- */

static mf_status strings_from(const json_t *a, const char *what, int *n, char ***out, mf_error *err) {
  if (!json_is_array(a) || json_array_size(a) > MAX_ITEMS) return BAD("'%s' is not a list of names", what);
  *n = (int)json_array_size(a);
  *out = mf_calloc((size_t)*n + 1, sizeof **out);
  if (!*out) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < *n; i++) {
    json_t *e = json_array_get(a, (size_t)i);
    if (!json_is_string(e)) return BAD("'%s' holds a non-string", what);
    if (!((*out)[i] = dup_str(json_string_value(e))))
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  return MF_OK;
}

static mf_status open_var(const char *dir, const char *realdir, const json_t *j, mf_saved_var *v,
                          mf_error *err) {
  json_t *name = json_object_get(j, "name"), *file = json_object_get(j, "file");
  json_t *tr = json_object_get(j, "trainable");
  if (!json_is_string(name) || !json_is_string(file) || !json_is_boolean(tr))
    return BAD("a variable needs 'name', 'file' and 'trainable'");
  if (!(v->name = dup_str(json_string_value(name))) || !(v->file = dup_str(json_string_value(file))))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  v->trainable = json_is_true(tr);
  if (!plain_file_name(v->file))
    return BAD("variable '%s': file '%s' is not a plain .npy name inside variables/", v->name, v->file);
  mf_spec want;
  MF_TRY(mf_spec_from_json(json_object_get(j, "spec"), &want, err));
  char path[PATH_MAX], real[PATH_MAX];
  snprintf(path, sizeof path, "%s/variables/%s", dir, v->file);
  /* A symbolic link could still point outside: the resolved path must be
   * inside the directory. */
  if (!realpath(path, real))
    return mf_error_set(err, MF_ERR_NOT_FOUND, "variable '%s': cannot open '%s': %s", v->name, path,
                        strerror(errno));
  size_t rl = strlen(realdir);
  if (strncmp(real, realdir, rl) != 0 || real[rl] != '/')
    return BAD("variable '%s': '%s' resolves outside the saved directory", v->name, path);
  MF_TRY(mf_npy_read(path, &v->value, err));
  mf_spec have;
  mf_spec_of_tensor(v->value, &have);
  if (!mf_spec_fits(&have, &want, MF_FIT_EXACT)) {
    char a[128], b[128];
    mf_spec_format(&have, a, sizeof a);
    mf_spec_format(&want, b, sizeof b);
    return BAD("variable '%s': its file holds %s %s but saved_model.json says %s %s", v->name,
               mf_dtype_name(have.dtype), a, mf_dtype_name(want.dtype), b);
  }
  mf_variable *var;
  MF_TRY(mf_variable_new(v->name, v->value, v->trainable, &var, err));
  mf_status s = mf_tensor_new(MF_RESOURCE, 0, NULL, &v->handle, err);
  if (s != MF_OK) {
    mf_variable_release(var);
    return s;
  }
  *MF_DATA(v->handle, mf_variable *) = var;
  return MF_OK;
}

static mf_status open_fn(const mf_saved_program *p, const json_t *j, mf_saved_fn *f, mf_error *err) {
  json_t *name = json_object_get(j, "name"), *caps = json_object_get(j, "captures");
  if (!json_is_string(name)) return BAD("a function has no name");
  if (!(f->name = dup_str(json_string_value(name))))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = mf_graph_from_json(json_object_get(j, "graph"), &f->graph, err);
  if (s != MF_OK) {
    char msg[MF_ERROR_MESSAGE_MAX];
    snprintf(msg, sizeof msg, "%s", err->message);
    return mf_error_set(err, s, "function '%s': %s", f->name, msg);
  }
  MF_TRY(strings_from(json_object_get(j, "args"), "args", &f->nargs, &f->arg_names, err));
  MF_TRY(strings_from(json_object_get(j, "outputs"), "outputs", &f->nouts, &f->out_names, err));
  if (!json_is_array(caps) || json_array_size(caps) > MAX_ITEMS)
    return BAD("function '%s': 'captures' is not a list", f->name);
  f->ncaptures = (int)json_array_size(caps);
  f->captures = mf_calloc((size_t)f->ncaptures + 1, sizeof *f->captures);
  if (!f->captures) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  const mf_graph *g = f->graph;
  if (g->ninputs != f->nargs + f->ncaptures)
    return BAD("function '%s': its graph takes %d inputs but it has %d arguments and %d captures",
               f->name, g->ninputs, f->nargs, f->ncaptures);
  if (g->noutputs != f->nouts)
    return BAD("function '%s': its graph has %d outputs but %d are named", f->name, g->noutputs, f->nouts);
  for (int i = 0; i < f->nargs; i++)
    if (g->nodes[g->inputs[i]].out_specs[0].dtype == MF_RESOURCE)
      return BAD("function '%s': argument %d is a resource", f->name, i);
  for (int k = 0; k < f->ncaptures; k++) {
    json_t *c = json_array_get(caps, (size_t)k), *var = json_object_get(c, "variable");
    const mf_spec *ph = &g->nodes[g->inputs[f->nargs + k]].out_specs[0];
    f->captures[k].variable = -1;
    if (json_is_integer(var)) {
      json_int_t vi = json_integer_value(var);
      if (vi < 0 || vi >= p->nvars) return BAD("function '%s': capture %d names no variable", f->name, k);
      if (ph->dtype != MF_RESOURCE)
        return BAD("function '%s': capture %d is a variable but its placeholder is %s", f->name, k,
                   mf_dtype_name(ph->dtype));
      f->captures[k].variable = (int)vi;
    } else {
      MF_TRY(mf_tensor_from_json(json_object_get(c, "constant"), &f->captures[k].value, err));
      mf_spec have;
      mf_spec_of_tensor(f->captures[k].value, &have);
      if (!mf_spec_fits(&have, ph, MF_FIT_COMPATIBLE))
        return BAD("function '%s': constant capture %d does not fit its placeholder", f->name, k);
    }
  }
  json_t *st = json_object_get(j, "structure");
  if (st && !json_is_null(st)) {
    if (!(f->structure = json_dumps(st, JSON_COMPACT | JSON_ENCODE_ANY)))
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  return MF_OK;
}

/* `methods` lists the saved tf.funcs, each naming its traces: every name
 * must be a saved function, so a host dispatching on it finds them all. */
static mf_status check_methods(const mf_saved_program *p, const json_t *methods, mf_error *err) {
  if (!json_is_array(methods) || json_array_size(methods) > MAX_ITEMS) return BAD("'methods' is not a list");
  for (size_t i = 0; i < json_array_size(methods); i++) {
    json_t *m = json_array_get(methods, i), *name = json_object_get(m, "name");
    json_t *cfs = json_object_get(m, "concrete");
    if (!json_is_string(name) || !json_is_array(cfs) || json_array_size(cfs) > MAX_ITEMS)
      return BAD("a method needs a 'name' and a 'concrete' list");
    for (size_t k = 0; k < json_array_size(cfs); k++) {
      json_t *c = json_array_get(cfs, k);
      int f = -1;
      for (int j = 0; json_is_string(c) && j < p->nfns; j++)
        if (strcmp(p->fns[j].name, json_string_value(c)) == 0) f = j;
      if (f < 0) return BAD("method '%s' names a trace that is no saved function", json_string_value(name));
    }
  }
  return MF_OK;
}

static mf_status open_doc(const char *dir, const char *realdir, const json_t *doc,
                          mf_saved_program *p, mf_error *err) {
  json_t *fmt = json_object_get(doc, "format"), *ver = json_object_get(doc, "version");
  if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "moonflow.saved_model") != 0)
    return BAD("'%s' is not a moonflow saved program (no \"format\": \"moonflow.saved_model\")", dir);
  if (!json_is_integer(ver) || json_integer_value(ver) < MF_SAVED_FORMAT_OLDEST ||
      json_integer_value(ver) > MF_SAVED_FORMAT_VERSION)
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                        "saved program format version %lld is not supported (this moonflow reads %d to %d)",
                        json_is_integer(ver) ? (long long)json_integer_value(ver) : -1LL,
                        MF_SAVED_FORMAT_OLDEST, MF_SAVED_FORMAT_VERSION);
  json_t *vars = json_object_get(doc, "variables"), *fns = json_object_get(doc, "functions");
  json_t *sigs = json_object_get(doc, "signatures");
  if (!json_is_array(vars) || !json_is_array(fns) || !json_is_object(sigs) ||
      json_array_size(vars) > MAX_ITEMS || json_array_size(fns) > MAX_ITEMS || json_object_size(sigs) > MAX_ITEMS)
    return BAD("saved_model.json needs 'variables' and 'functions' lists and a 'signatures' object");
  p->vars = mf_calloc(json_array_size(vars) + 1, sizeof *p->vars);
  p->fns = mf_calloc(json_array_size(fns) + 1, sizeof *p->fns);
  p->sig_names = mf_calloc(json_object_size(sigs) + 1, sizeof *p->sig_names);
  p->sig_fn = mf_calloc(json_object_size(sigs) + 1, sizeof *p->sig_fn);
  if (!p->vars || !p->fns || !p->sig_names || !p->sig_fn)
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; i < json_array_size(vars); i++) {
    p->nvars++;
    MF_TRY(open_var(dir, realdir, json_array_get(vars, i), &p->vars[i], err));
  }
  for (size_t i = 0; i < json_array_size(fns); i++) {
    p->nfns++;
    MF_TRY(open_fn(p, json_array_get(fns, i), &p->fns[i], err));
  }
  const char *key;
  json_t *val;
  json_object_foreach(sigs, key, val) {
    int f = -1;
    for (int i = 0; json_is_string(val) && i < p->nfns; i++)
      if (strcmp(p->fns[i].name, json_string_value(val)) == 0) f = i;
    if (f < 0) return BAD("signature '%s' names no saved function", key);
    if (!(p->sig_names[p->nsigs] = dup_str(key)))
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    p->sig_fn[p->nsigs++] = f;
  }
  json_t *methods = json_object_get(doc, "methods");
  if (methods) {
    MF_TRY(check_methods(p, methods, err));
    if (!(p->methods = json_dumps(methods, JSON_COMPACT)))
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  return MF_OK;
}

mf_status mf_saved_open(const char *dir, mf_saved_program **out, mf_error *err) {
  char path[PATH_MAX], realdir[PATH_MAX];
  if (!realpath(dir, realdir))
    return mf_error_set(err, MF_ERR_NOT_FOUND, "cannot open saved program '%s': %s", dir, strerror(errno));
  snprintf(path, sizeof path, "%s/saved_model.json", dir);
  unsigned char *text;
  size_t len;
  MF_TRY(mf_file_read(path, JSON_LIMIT, &text, &len, err));
  json_error_t je;
  json_t *doc = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!doc) return BAD("'%s' is not valid JSON: %s (line %d)", path, je.text, je.line);
  mf_saved_program *p = mf_calloc(1, sizeof *p);
  mf_status s = p ? open_doc(dir, realdir, doc, p, err)
                  : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  json_decref(doc);
  if (s != MF_OK) {
    mf_saved_free(p);
    return s;
  }
  *out = p;
  return MF_OK;
}

mf_status mf_saved_call(const mf_saved_program *p, int fi, int nargs, mf_tensor *const *args,
                        mf_tensor **outs, mf_error *err) {
  if (fi < 0 || fi >= p->nfns) return BAD("no saved function %d", fi);
  const mf_saved_fn *f = &p->fns[fi];
  if (nargs != f->nargs)
    return mf_error_set(err, MF_ERR_TYPE, "%s() takes %d positional argument%s but %d were given",
                        f->name, f->nargs, f->nargs == 1 ? "" : "s", nargs);
  for (int i = 0; i < nargs; i++) {
    mf_spec have, want;
    mf_spec_of_tensor(args[i], &have);
    mf_saved_arg_spec(p, fi, i, &want);
    if (!mf_spec_fits(&have, &want, MF_FIT_COMPATIBLE)) {
      char a[128], b[128];
      mf_spec_format(&have, a, sizeof a);
      mf_spec_format(&want, b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "%s: argument '%s' is %s %s but the function takes %s %s", f->name,
                          f->arg_names[i], mf_dtype_name(have.dtype), a, mf_dtype_name(want.dtype), b);
    }
  }
  int n = nargs + f->ncaptures;
  mf_tensor **feeds = mf_calloc((size_t)n + 1, sizeof *feeds);
  if (!feeds) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < nargs; i++) feeds[i] = args[i];
  for (int k = 0; k < f->ncaptures; k++)
    feeds[nargs + k] = f->captures[k].variable >= 0 ? p->vars[f->captures[k].variable].handle
                                                    : f->captures[k].value;
  mf_status s = mf_graph_run(f->graph, n, feeds, outs, err);
  free(feeds);
  return s;
}
