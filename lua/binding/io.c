/* io.c — core.npy_write / core.npy_read / core.npz_read: NumPy files;
 * saved models, ONNX export, and core.list_dir. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include "alloc.h"
#include "binding.h"
#include "npy.h"
#include "saved_model.h"
#include "onnx_export.h"
#include <string.h>

/* core.npy_write(path, tensor) */
static int l_npy_write(lua_State *L) {
  const char *path = mfL_checkstring(L, 1);
  mf_tensor *t = mfL_check_eager(L, 2);
  mf_error err;
  if (mf_npy_write(path, t, &err) != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

/* core.npy_read(path) -> tensor */
static int l_npy_read(lua_State *L) {
  const char *path = mfL_checkstring(L, 1);
  mfL_tensor *lt = mfL_new_tensor(L);
  mf_tensor *t;
  mf_error err;
  if (mf_npy_read(path, &t, &err) != MF_OK) return mfL_raise_status(L, &err);
  mfL_tensor_adopt(L, lt, t);
  return 1;
}

/* core.npz_read(path) -> {name = tensor, ...}, {names in archive order} */
static int l_npz_read(lua_State *L) {
  const char *path = mfL_checkstring(L, 1);
  mf_npz z;
  mf_error err;
  if (mf_npz_read(path, &z, &err) != MF_OK) return mfL_raise_status(L, &err);
  /* A memory error while pushing would leak the arrays not yet pushed; the
   * tables are small next to the tensors, so that is accepted. */
  lua_createtable(L, 0, z.count);
  lua_createtable(L, z.count, 0);
  for (int i = 0; i < z.count; i++) {
    mfL_push_eager(L, z.tensors[i]);
    lua_setfield(L, -3, z.names[i]);
    lua_pushstring(L, z.names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  mf_npz_free(&z);
  return 2;
}

/* ---- saved programs ---- */

static char *field_string(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  char *d = s ? mf_strdup(s) : NULL;
  lua_pop(L, 1);
  return d;
}

static int field_len(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  int n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : -1;
  lua_pop(L, 1);
  return n;
}

static char **field_names(lua_State *L, int t, const char *k, int *n) {
  *n = field_len(L, t, k);
  if (*n < 0) return NULL;
  char **out = mf_calloc((size_t)*n + 1, sizeof *out);
  lua_getfield(L, t, k);
  for (int i = 0; out && i < *n; i++) {
    lua_rawgeti(L, -1, i + 1);
    out[i] = mf_strdup(lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return out;
}

/* A tensor field (eager, retained) or NULL. */
static mf_tensor *field_tensor(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  mfL_tensor *lt = mfL_test_tensor(L, -1);
  mf_tensor *v = lt ? lt->t : NULL;
  if (v) mf_tensor_retain(v);
  lua_pop(L, 1);
  return v;
}

/* core.saved_write(dir, {variables=, functions=, signatures=, methods=json}): see
 * saved_model.lua for the table's layout. Indices are 0-based. */
static int l_saved_write(lua_State *L) {
  const char *dir = mfL_checkstring(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  mf_saved_program *p = mf_calloc(1, sizeof *p);
  const char *bad = p ? NULL : "out of memory";
  int nv = field_len(L, 2, "variables"), nf = field_len(L, 2, "functions");
  if (!bad && (nv < 0 || nf < 0)) bad = "a saved program needs 'variables' and 'functions' lists";
  if (!bad) {
    p->vars = mf_calloc((size_t)nv + 1, sizeof *p->vars);
    p->fns = mf_calloc((size_t)nf + 1, sizeof *p->fns);
    if (!p->vars || !p->fns) bad = "out of memory";
  }
  lua_getfield(L, 2, "variables");
  for (int i = 0; !bad && i < nv; i++) {
    lua_rawgeti(L, -1, i + 1);
    mf_saved_var *v = &p->vars[p->nvars++];
    v->name = field_string(L, -1, "name");
    v->file = field_string(L, -1, "file");
    v->value = field_tensor(L, -1, "value");
    lua_getfield(L, -1, "trainable");
    v->trainable = lua_toboolean(L, -1);
    lua_pop(L, 2);
    if (!v->name || !v->file || !v->value) bad = "a variable needs name, file and an eager value";
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "functions");
  for (int i = 0; !bad && i < nf; i++) {
    lua_rawgeti(L, -1, i + 1);
    int t = lua_gettop(L);
    mf_saved_fn *f = &p->fns[p->nfns++];
    f->name = field_string(L, t, "name");
    f->structure = field_string(L, t, "structure");
    lua_getfield(L, t, "graph");
    mfL_graph *lg = luaL_testudata(L, -1, MFL_GRAPH);
    f->graph = lg ? lg->g : NULL;
    if (f->graph) mf_graph_retain(f->graph);
    else bad = "a function needs a graph";
    lua_pop(L, 1);
    f->arg_names = field_names(L, t, "args", &f->nargs);
    f->out_names = field_names(L, t, "outputs", &f->nouts);
    f->ncaptures = field_len(L, t, "captures");
    if (!f->graph || !f->name || !f->arg_names || !f->out_names || f->ncaptures < 0) {
      bad = "a function needs name, graph, args, outputs and captures";
      f->ncaptures = 0;
    } else {
      f->captures = mf_calloc((size_t)f->ncaptures + 1, sizeof *f->captures);
      lua_getfield(L, t, "captures");
      for (int k = 0; f->captures && k < f->ncaptures; k++) {
        lua_rawgeti(L, -1, k + 1);
        lua_getfield(L, -1, "variable");
        f->captures[k].variable = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : -1;
        lua_pop(L, 1);
        if (f->captures[k].variable >= nv) bad = "a capture names no variable";
        if (f->captures[k].variable < 0) {
          f->captures[k].value = field_tensor(L, -1, "value");
          if (!f->captures[k].value) bad = "a constant capture needs an eager value";
        }
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    lua_settop(L, t - 1);
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "signatures");
  if (!bad && lua_istable(L, -1)) {
    int ns = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      ns++;
      lua_pop(L, 1);
    }
    p->sig_names = mf_calloc((size_t)ns + 1, sizeof *p->sig_names);
    p->sig_fn = mf_calloc((size_t)ns + 1, sizeof *p->sig_fn);
    lua_pushnil(L);
    while (p->sig_fn && lua_next(L, -2)) {
      int f = lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING ? -1 : -2;
      for (int i = 0; f == -1 && i < p->nfns; i++)
        if (strcmp(p->fns[i].name, lua_tostring(L, -1)) == 0) f = i;
      if (f < 0) bad = "a signature names no function";
      else {
        p->sig_names[p->nsigs] = mf_strdup(lua_tostring(L, -2));
        p->sig_fn[p->nsigs++] = f;
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (!bad) p->methods = field_string(L, 2, "methods");
  mf_error err;
  if (bad) {
    mf_saved_free(p);
    return mfL_raise(L, "ValueError", "tf.saved_model.save: %s", bad);
  }
  mf_status s = mf_saved_write(dir, p, &err);
  mf_saved_free(p);
  if (s != MF_OK) return mfL_raise_status(L, &err);
  return 0;
}

static void push_names(lua_State *L, int n, char **names) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, names[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* core.saved_read(dir) -> {variables={{name=,trainable=,value=}}, functions=
 * {{name=, graph=, args={}, captures={{variable=i}|{value=t}}, outputs={},
 * structure=json|nil}}, signatures={name=function name}, methods=json|nil}
 * (0-based indices) */
static int l_saved_read(lua_State *L) {
  const char *dir = mfL_checkstring(L, 1);
  mf_saved_program *p;
  mf_error err;
  if (mf_saved_open(dir, &p, &err) != MF_OK) return mfL_raise_status(L, &err);
  lua_createtable(L, 0, 3);
  lua_createtable(L, p->nvars, 0);
  for (int i = 0; i < p->nvars; i++) {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, p->vars[i].name);
    lua_setfield(L, -2, "name");
    lua_pushboolean(L, p->vars[i].trainable);
    lua_setfield(L, -2, "trainable");
    mfL_push_eager(L, p->vars[i].value);
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "variables");
  lua_createtable(L, p->nfns, 0);
  for (int i = 0; i < p->nfns; i++) {
    const mf_saved_fn *f = &p->fns[i];
    lua_createtable(L, 0, 6);
    lua_pushstring(L, f->name);
    lua_setfield(L, -2, "name");
    mfL_push_graph(L, f->graph);
    lua_setfield(L, -2, "graph");
    push_names(L, f->nargs, f->arg_names);
    lua_setfield(L, -2, "args");
    push_names(L, f->nouts, f->out_names);
    lua_setfield(L, -2, "outputs");
    if (f->structure) {
      lua_pushstring(L, f->structure);
      lua_setfield(L, -2, "structure");
    }
    lua_createtable(L, f->ncaptures, 0);
    for (int k = 0; k < f->ncaptures; k++) {
      lua_createtable(L, 0, 1);
      if (f->captures[k].variable >= 0) {
        lua_pushinteger(L, f->captures[k].variable);
        lua_setfield(L, -2, "variable");
      } else {
        mfL_push_eager(L, f->captures[k].value);
        lua_setfield(L, -2, "value");
      }
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "captures");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "functions");
  lua_createtable(L, 0, p->nsigs);
  for (int i = 0; i < p->nsigs; i++) {
    lua_pushstring(L, p->fns[p->sig_fn[i]].name);
    lua_setfield(L, -2, p->sig_names[i]);
  }
  lua_setfield(L, -2, "signatures");
  if (p->methods) {
    lua_pushstring(L, p->methods);
    lua_setfield(L, -2, "methods");
  }
  mf_saved_free(p);
  return 1;
}

/* core.onnx_export(graph, {arg names}, {capture values}, opset) -> bytes */
static int l_onnx_export(lua_State *L) {
  mf_graph *g = mfL_check_graph(L, 1);
  mfL_checktype(L, 2, LUA_TTABLE);
  mfL_checktype(L, 3, LUA_TTABLE);
  int opset = (int)mfL_optinteger(L, 4, 17);
  int nargs = (int)lua_rawlen(L, 2), ncaps = (int)lua_rawlen(L, 3);
  if (nargs > 4096 || ncaps > 65536) return mfL_raise(L, "ValueError", "too many inputs");
  const char **names = lua_newuserdatauv(L, sizeof *names * ((size_t)nargs + 1), 0);
  mf_tensor **caps = lua_newuserdatauv(L, sizeof *caps * ((size_t)ncaps + 1), 0);
  for (int i = 0; i < nargs; i++) {
    lua_rawgeti(L, 2, i + 1);
    names[i] = mfL_checkstring(L, -1);
    lua_pop(L, 1); /* the table keeps the string */
  }
  for (int i = 0; i < ncaps; i++) {
    lua_rawgeti(L, 3, i + 1);
    caps[i] = mfL_check_eager(L, -1);
    lua_pop(L, 1);
  }
  unsigned char *bytes;
  size_t len;
  mf_error err;
  if (mf_onnx_export(g, nargs, names, ncaps, caps, opset, &bytes, &len, &err) != MF_OK)
    return mfL_raise_status(L, &err);
  lua_pushlstring(L, (const char *)bytes, len); /* may raise: bytes leak only then */
  free(bytes);
  return 1;
}

/* core.list_dir(path) -> {names...} (without "." and "..", in no order) |
 * nil, message: what the Lua library finds by file rather than by a
 * module list (the reference's example files), installed or not. */
static int l_list_dir(lua_State *L) {
  const char *path = mfL_checkstring(L, 1);
  DIR *dir = opendir(path);
  if (!dir) {
    lua_pushnil(L);
    lua_pushfstring(L, "cannot list %s: %s", path, strerror(errno));
    return 2;
  }
  /* A memory error while pushing names would leave the handle open: a
   * directory of a few files, accepted as npz_read accepts its arrays. */
  lua_newtable(L);
  lua_Integer i = 0;
  for (struct dirent *e = readdir(dir); e; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    lua_pushstring(L, e->d_name);
    lua_rawseti(L, -2, ++i);
  }
  closedir(dir);
  return 1;
}

int mfL_io_open(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"npy_write", l_npy_write}, {"npy_read", l_npy_read}, {"npz_read", l_npz_read},
      {"saved_write", l_saved_write}, {"saved_read", l_saved_read},
      {"onnx_export", l_onnx_export}, {"list_dir", l_list_dir}, {NULL, NULL}};
  mfL_setfuncs(L, funcs);
  return 0;
}
