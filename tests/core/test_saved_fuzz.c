/* test_saved_fuzz.c — saved program directories mutated at random (byte
 * flips, truncation, JSON edits) must load cleanly or fail with a status
 * and a message: never crash, leak or read out of bounds (the sanitizer
 * build runs this under ASan + UBSan). Deterministic: a fixed seed. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "npy.h"
#include "saved_model.h"
#include "variable.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

/* x (float32 (None, 2)) @ w + cond(k > 0, x*2, -x) summed: a variable, a
 * MatMul, an If with nested graphs, a Const. */
static mf_graph *model_graph(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  ref k = input(g, MF_INT32, 0, NULL, NULL);
  ref h = input(g, MF_RESOURCE, 0, NULL, NULL);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "dtype", MF_FLOAT32, NULL);
  ref w = add_op(g, "ReadVariableOp", 1, REFS(h), &as);
  mf_attrs_free(&as);
  ref y = op2(g, "MatMul", x, w);
  mf_graph *then_b = new_graph(), *else_b = new_graph();
  ref tx = input(then_b, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  outputs(then_b, 1, REFS(op2(then_b, "Mul", tx, tx)));
  ref ex = input(else_b, MF_FLOAT32, 2, (const int64_t[]){-1, 2}, NULL);
  outputs(else_b, 1, REFS(op1(else_b, "Neg", ex)));
  mf_tensor *zero = NULL;
  mf_tensor_scalar_i64(MF_INT32, 0, &zero, NULL);
  ref p = op2(g, "Greater", k, cnst(g, zero));
  mf_attrs_init(&as);
  mf_attrs_set_graph(&as, "then_branch", then_b, NULL);
  mf_attrs_set_graph(&as, "else_branch", else_b, NULL);
  ref c = add_op(g, "If", 2, REFS(p, y), &as);
  mf_attrs_free(&as);
  mf_graph_release(then_b);
  mf_graph_release(else_b);
  outputs(g, 1, REFS(c));
  return g;
}

static void write_model(const char *dir) {
  mf_saved_program p;
  memset(&p, 0, sizeof p);
  mf_saved_var var = {"w", "0_w.npy", true, NULL, NULL};
  mf_tensor_new(MF_FLOAT32, 2, (const int64_t[]){2, 2}, &var.value, NULL);
  for (int i = 0; i < 4; i++) MF_DATA(var.value, float)[i] = (float)i + 1;
  char *args[] = {"x", "k"}, *outs[] = {"output_0"}, *sigs[] = {"serving_default"};
  int sig_fn[] = {0};
  mf_saved_capture cap = {0, NULL};
  mf_saved_fn fn = {"predict", model_graph(), 2, args, 1, &cap, 1, outs, NULL};
  p.nvars = 1;
  p.vars = &var;
  p.nfns = 1;
  p.fns = &fn;
  p.nsigs = 1;
  p.sig_names = sigs;
  p.sig_fn = sig_fn;
  mf_error err;
  mf_status s = mf_saved_write(dir, &p, &err);
  if (s != MF_OK) printf("#   write: %s\n", err.message);
  CHECK(s == MF_OK);
  mf_tensor_release(var.value);
  mf_graph_release(fn.graph);
}

static unsigned char *slurp(const char *path, size_t *n) {
  unsigned char *b = NULL;
  mf_file_read(path, (size_t)1 << 24, &b, n, NULL);
  return b;
}

/* Opens dir; when it opens, calls it on a valid input. Returns the status. */
static mf_status try_open(const char *dir, int *called_ok) {
  mf_saved_program *p = NULL;
  mf_error err;
  err.message[0] = 0;
  mf_status s = mf_saved_open(dir, &p, &err);
  if (s != MF_OK) {
    CHECK(err.message[0] != 0);
    return s;
  }
  int f = mf_saved_find(p, "serving_default");
  if (f >= 0 && p->fns[f].nargs == 2 && p->fns[f].nouts <= 4) {
    mf_tensor *x = NULL, *k = NULL, *outs[4] = {0};
    mf_tensor_zeros(MF_FLOAT32, 2, (const int64_t[]){3, 2}, &x, NULL);
    mf_tensor_scalar_i64(MF_INT32, 1, &k, NULL);
    mf_tensor *args[2] = {x, k};
    if (mf_saved_call(p, f, 2, args, outs, &err) == MF_OK) {
      (*called_ok)++;
      for (int i = 0; i < p->fns[f].nouts; i++) mf_tensor_release(outs[i]);
    }
    mf_tensor_release(x);
    mf_tensor_release(k);
  }
  mf_saved_free(p);
  return MF_OK;
}

static void test_clean_model_runs(void) {
  char dir[] = "/tmp/mf_fuzz_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  write_model(dir);
  mf_saved_program *p = NULL;
  mf_error err;
  CHECK_OK(mf_saved_open(dir, &p, &err));
  if (!p) return;
  mf_tensor *x = NULL, *k = NULL, *out = NULL;
  mf_tensor_new(MF_FLOAT32, 2, (const int64_t[]){1, 2}, &x, NULL);
  MF_DATA(x, float)[0] = 1, MF_DATA(x, float)[1] = 1;
  mf_tensor_scalar_i64(MF_INT32, 1, &k, NULL);
  mf_tensor *args[2] = {x, k};
  CHECK_OK(mf_saved_call(p, mf_saved_find(p, "serving_default"), 2, args, &out, &err));
  /* [1 1] @ [[1 2] [3 4]] = [4 6], squared by the then-branch */
  CHECK(out && MF_DATA(out, float)[0] == 16 && MF_DATA(out, float)[1] == 36);
  if (out) mf_tensor_release(out);
  /* wrong dtype: a clean error */
  args[0] = k;
  CHECK(mf_saved_call(p, 0, 2, args, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_tensor_release(x);
  mf_tensor_release(k);
  mf_saved_free(p);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
}

static void test_mutations_fail_cleanly(void) {
  char dir[] = "/tmp/mf_fuzz_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  write_model(dir);
  char jpath[256], npath[256];
  snprintf(jpath, sizeof jpath, "%s/saved_model.json", dir);
  snprintf(npath, sizeof npath, "%s/variables/0_w.npy", dir);
  size_t jn = 0, nn = 0;
  unsigned char *json = slurp(jpath, &jn), *npy = slurp(npath, &nn);
  CHECK(json && npy);
  if (!json || !npy) return;
  unsigned char *buf = malloc(jn + 64);
  static const char *edits[][2] = {
      {"\"MatMul\"", "\"Mul\""},        {"\"If\"", "\"While\""},     {"[0, 0]", "[9, 0]"},
      {"\"float32\"", "\"int32\""},     {"-1", "-7"},                {"\"variable\": 0", "\"variable\": 3"},
      {"\"0_w.npy\"", "\"../x.npy\""},  {"2", "99999999999"},        {"\"version\": 2", "\"version\": 3"},
      {"\"inputs\": [", "\"inputs\": [0, "}, {"\"then_branch\"", "\"cond\""}, {"true", "1"},
      {"\"x\"", "\"k\""},               {"\"shape\": [", "\"shape\": [-1, "}, {"1", "0"}};
  int opened = 0, called = 0, rounds = 0;
  for (int round = 0; round < 600; round++, rounds++) {
    int kind = (int)(next() % 4);
    const unsigned char *src = json;
    size_t n = jn;
    memcpy(buf, json, jn);
    if (kind == 0) { /* byte flips */
      for (int f = 0; f < 1 + (int)(next() % 4); f++) buf[next() % n] ^= (unsigned char)(1u << (next() % 8));
    } else if (kind == 1) { /* truncation */
      n = next() % jn;
    } else if (kind == 2) { /* a field edit at a random occurrence */
      int e = (int)(next() % (sizeof edits / sizeof *edits));
      const char *from = edits[e][0], *to = edits[e][1];
      size_t fl = strlen(from), tl = strlen(to);
      int hits = 0;
      for (size_t i = 0; i + fl <= jn; i++) hits += memcmp(src + i, from, fl) == 0;
      int pick = hits ? (int)(next() % (uint32_t)hits) : -1;
      n = 0;
      for (size_t i = 0; i < jn;) {
        if (pick >= 0 && i + fl <= jn && memcmp(src + i, from, fl) == 0 && pick-- == 0 && n + tl < jn + 64) {
          memcpy(buf + n, to, tl);
          n += tl;
          i += fl;
        } else {
          buf[n++] = src[i++];
        }
      }
    }
    /* kind 3: the .npy is damaged instead */
    mf_file_write(jpath, buf, n, NULL);
    if (kind == 3) {
      unsigned char *nb = malloc(nn);
      memcpy(nb, npy, nn);
      size_t m = nn;
      if (next() % 2) m = next() % nn;
      else nb[next() % nn] ^= (unsigned char)(1u << (next() % 8));
      mf_file_write(npath, nb, m, NULL);
      free(nb);
    }
    if (try_open(dir, &called) == MF_OK) opened++;
    mf_file_write(npath, npy, nn, NULL);
  }
  mf_file_write(jpath, json, jn, NULL);
  printf("#   %d mutated directories: %d opened, %d ran\n", rounds, opened, called);
  CHECK(opened < rounds); /* mutations were seen */
  free(buf);
  free(json);
  free(npy);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
}

int main(void) {
  RUN(test_clean_model_runs);
  RUN(test_mutations_fail_cleanly);
  return CHECK_DONE();
}
