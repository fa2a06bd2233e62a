/* blas.c — loads OpenBLAS at first use, its kernel chosen from the CPU's
 * features and verified first (blas.h says why and in what order). */
#include "blas.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define MF_BLAS_X86 1
#endif

/* Debian's runtime package installs the first; the second is the
 * development symlink, for builds that have no versioned name. */
static const char *const LIBRARIES[] = {"libopenblas.so.0", "libopenblas.so"};

/* A self-check that has not answered by then hangs: a failure. Generous:
 * it takes a few milliseconds, more on a loaded machine. */
enum { CHECK_TIMEOUT_MS = 30000 };

/* ---- the CPU ---- */

typedef struct cpu_features {
  char vendor[13];
  bool avx, avx2, fma, os_avx;                               /* os_*: XCR0 saves the state */
  bool avx512f, avx512bw, avx512vl, avx512dq, avx512_bf16, os_avx512;
} cpu_features;

static void cpu_detect(cpu_features *c) {
  memset(c, 0, sizeof *c);
#ifdef MF_BLAS_X86
  unsigned a, b, cx, d;
  if (!__get_cpuid(0, &a, &b, &cx, &d)) return;
  unsigned max = a;
  memcpy(c->vendor, &b, 4);
  memcpy(c->vendor + 4, &d, 4);
  memcpy(c->vendor + 8, &cx, 4);
  __cpuid(1, a, b, cx, d);
  c->fma = cx >> 12 & 1;
  c->avx = cx >> 28 & 1;
  if (cx >> 27 & 1) { /* OSXSAVE: XGETBV says which register state the OS saves */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    c->os_avx = (lo & 0x6) == 0x6;       /* XMM, YMM */
    c->os_avx512 = (lo & 0xe6) == 0xe6;  /* and opmask, ZMM0-15 upper halves, ZMM16-31 */
  }
  if (max >= 7) {
    unsigned sub;
    __cpuid_count(7, 0, sub, b, cx, d);
    c->avx2 = b >> 5 & 1;
    c->avx512f = b >> 16 & 1;
    c->avx512dq = b >> 17 & 1;
    c->avx512bw = b >> 30 & 1;
    c->avx512vl = b >> 31 & 1;
    if (sub >= 1) {
      __cpuid_count(7, 1, a, b, cx, d);
      c->avx512_bf16 = a >> 5 & 1;
    }
  }
#endif
}

/* One kernel to try: OpenBLAS's name and the features it was chosen for. */
typedef struct candidate {
  const char *name;
  const char *features;
} candidate;

/* The kernels this CPU supports, best first (at most 4); Prescott (SSE3,
 * every x86-64 OpenBLAS runs on) always last. */
static int candidates(const cpu_features *c, candidate *out) {
  int n = 0;
  if (c->avx512f && c->avx512bw && c->avx512vl && c->avx512dq && c->os_avx512) {
    /* Cooperlake is SkylakeX's GEMMs plus bfloat16 ones; Debian's 0.3.21
     * cannot be forced to it (its OPENBLAS_CORETYPE table lacks the name,
     * so it detects instead, and on a CPU it does not know detects
     * Prescott): then it is "not offered" and SkylakeX is next. */
    if (c->avx512_bf16)
      out[n++] = (candidate){"Cooperlake", "avx512f,avx512bw,avx512vl,avx512dq,avx512_bf16"};
    out[n++] = (candidate){"SkylakeX", "avx512f,avx512bw,avx512vl,avx512dq"};
  }
  /* Haswell on AMD too: OpenBLAS's Zen is the same kernels, tuned apart
   * (no faster here, an EPYC: sgemm 512 at 2.54 ms against 2.56 ms) */
  if (c->avx2 && c->fma && c->os_avx)
    out[n++] = (candidate){"Haswell", "avx2,fma"};
  else if (c->avx && c->os_avx)
    out[n++] = (candidate){"Sandybridge", "avx"};
  out[n++] = (candidate){"Prescott", "sse3"};
  return n;
}

static void cpu_describe(const cpu_features *c, char *buf, size_t n) {
  snprintf(buf, n, "%s%s%s%s%s%s%s%s%s%s", c->vendor[0] ? c->vendor : "unknown vendor",
           c->avx512f ? " avx512f" : "", c->avx512bw ? " avx512bw" : "",
           c->avx512vl ? " avx512vl" : "", c->avx512dq ? " avx512dq" : "",
           c->avx512_bf16 ? " avx512_bf16" : "", c->avx2 ? " avx2" : "", c->fma ? " fma" : "",
           c->avx ? " avx" : "",
           c->avx512f && !c->os_avx512 ? " (the OS does not save AVX-512 state)" : "");
}

/* ---- resolving the functions ---- */

static void *open_library(char *why, size_t n) {
  why[0] = '\0';
  for (size_t i = 0; i < sizeof LIBRARIES / sizeof LIBRARIES[0]; i++) {
    void *h = dlopen(LIBRARIES[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    if (i == 0) snprintf(why, n, "%s", dlerror());
  }
  return NULL;
}

/* Fills every pointer of *b; the name of the first missing one, or NULL. */
static const char *resolve(void *h, mf_blas *b) {
#define SYM(name)                                                       \
  do {                                                                  \
    *(void **)&b->name = dlsym(h, #name);                               \
    if (!b->name) return #name;                                         \
  } while (0)
  SYM(cblas_sgemm);
  SYM(cblas_dgemm);
  SYM(sgetrf_);
  SYM(dgetrf_);
  SYM(sgetrs_);
  SYM(dgetrs_);
  SYM(spotrf_);
  SYM(dpotrf_);
  SYM(sgesdd_);
  SYM(dgesdd_);
  SYM(openblas_set_num_threads);
  SYM(openblas_get_num_threads);
  SYM(openblas_get_corename);
  SYM(openblas_get_config);
#undef SYM
  return NULL;
}

/* ---- the self-check, run in a child ---- */

/* How a candidate's check ended. */
typedef enum check_result {
  CHECK_OK,
  CHECK_WRONG,       /* results beyond the tolerance */
  CHECK_NOT_OFFERED, /* OpenBLAS loaded another kernel: it does not know this name */
  CHECK_NO_LIBRARY,  /* the library or a function is missing */
  CHECK_FAULT,       /* the child died (a signal, or no answer) */
  CHECK_TIMEOUT,
  CHECK_NOT_RUN,     /* fork failed: the kernel is used unverified */
} check_result;

static const char *check_text(check_result r) {
  switch (r) {
    case CHECK_OK: return "verified";
    case CHECK_WRONG: return "self-check failed (wrong results)";
    case CHECK_NOT_OFFERED: return "not offered by this OpenBLAS";
    case CHECK_NO_LIBRARY: return "library not loadable";
    case CHECK_FAULT: return "self-check failed (the check crashed)";
    case CHECK_TIMEOUT: return "self-check failed (no answer in 30 s)";
    case CHECK_NOT_RUN: return "not verified (could not fork)";
  }
  return "?";
}

/* What MOONFLOW_BLAS_FAIL_CHECK asks of kernel `name`: 0 nothing, 1 wrong
 * results, 2 a fault. */
static int fail_switch(const char *name) {
  const char *s = getenv("MOONFLOW_BLAS_FAIL_CHECK");
  size_t len = strlen(name);
  while (s && *s) {
    size_t item = strcspn(s, ",");
    if (item >= len && strncasecmp(s, name, len) == 0) {
      if (item == len) return 1;
      if (item == len + 6 && strncasecmp(s + len, ":fault", 6) == 0) return 2;
    }
    s += item;
    if (*s == ',') s++;
  }
  return 0;
}

/* Deterministic values in [-1, 1). */
static double value(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (double)(*state >> 8 & 0xffff) / 32768.0 - 1.0;
}

/* One product C = op(A) op(B) (row-major, m x n, inner k) in single or
 * double precision against a loop in long double; true when every element
 * is within tol of the sum of |a||b| its dot product added. `corrupt`
 * spoils one element (the test switch). */
static bool check_product(const mf_blas *b, bool dbl, bool ta, bool tb, int m, int n, int k,
                          bool corrupt) {
  size_t es = dbl ? sizeof(double) : sizeof(float);
  double *ad = malloc((size_t)(m * k) * sizeof *ad), *bd = malloc((size_t)(k * n) * sizeof *bd);
  void *a = malloc((size_t)(m * k) * es), *bb = malloc((size_t)(k * n) * es),
       *c = malloc((size_t)(m * n) * es);
  bool ok = ad && bd && a && bb && c;
  unsigned seed = 12345;
  for (int i = 0; ok && i < m * k; i++) ad[i] = value(&seed);
  for (int i = 0; ok && i < k * n; i++) bd[i] = value(&seed);
  for (int i = 0; ok && i < m * k; i++)
    if (dbl) ((double *)a)[i] = ad[i]; else ((float *)a)[i] = (float)ad[i];
  for (int i = 0; ok && i < k * n; i++)
    if (dbl) ((double *)bb)[i] = bd[i]; else ((float *)bb)[i] = (float)bd[i];
  /* A is stored m x k, or k x m when transposed; so is B */
  int lda = ta ? m : k, ldb = tb ? k : n;
  if (ok) {
    enum CBLAS_TRANSPOSE oa = ta ? CblasTrans : CblasNoTrans, ob = tb ? CblasTrans : CblasNoTrans;
    if (dbl)
      b->cblas_dgemm(CblasRowMajor, oa, ob, m, n, k, 1.0, a, lda, bb, ldb, 0.0, c, n);
    else
      b->cblas_sgemm(CblasRowMajor, oa, ob, m, n, k, 1.0f, a, lda, bb, ldb, 0.0f, c, n);
    if (corrupt) {
      if (dbl) ((double *)c)[n + 1] += 0.5; else ((float *)c)[n + 1] += 0.5f;
    }
  }
  double tol = dbl ? 1e-12 : 1e-5;
  for (int i = 0; ok && i < m; i++)
    for (int j = 0; ok && j < n; j++) {
      long double sum = 0, mag = 0;
      for (int p = 0; p < k; p++) {
        /* the inputs as the product saw them, rounded to its precision */
        double x = ta ? ad[p * lda + i] : ad[i * lda + p];
        double y = tb ? bd[j * ldb + p] : bd[p * ldb + j];
        if (!dbl) x = (float)x, y = (float)y;
        sum += (long double)x * y;
        mag += fabsl((long double)x * y);
      }
      double got = dbl ? ((double *)c)[i * n + j] : ((float *)c)[i * n + j];
      if (!(fabsl((long double)got - sum) <= tol * (mag + 1))) ok = false;
    }
  free(ad), free(bd), free(a), free(bb), free(c);
  return ok;
}

/* Runs in the child: loads OpenBLAS under kernel `name` and checks it. */
static check_result child_check(const char *name) {
  setenv("OPENBLAS_CORETYPE", name, 1);
  setenv("OPENBLAS_NUM_THREADS", "1", 1); /* the kernels are the threads' kernels; no pool */
  char why[256];
  void *h = open_library(why, sizeof why);
  mf_blas b;
  if (!h || resolve(h, &b)) return CHECK_NO_LIBRARY;
  if (strcasecmp(b.openblas_get_corename(), name) != 0) return CHECK_NOT_OFFERED;
  int fail = fail_switch(name);
  if (fail == 2) raise(SIGSEGV);
  /* Sizes off the kernels' tile multiples, so edge code runs too; every
   * transpose combination the GEMM uses. */
  static const struct { bool ta, tb; int m, n, k; } cases[] = {
      {false, false, 96, 80, 112}, {true, false, 33, 47, 65},
      {false, true, 50, 29, 71},   {true, true, 17, 64, 40}};
  for (int d = 0; d < 2; d++)
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      if (!check_product(&b, d == 1, cases[i].ta, cases[i].tb, cases[i].m, cases[i].n,
                         cases[i].k, fail == 1 && i == 0))
        return CHECK_WRONG;
  return CHECK_OK;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Checks kernel `name` in a forked child, which answers with one byte on a
 * pipe: no byte (it died) is a fault. The byte, not the exit status,
 * carries the answer, so a host that ignores SIGCHLD (children reaped
 * behind our back) cannot lose it. The child touches nothing it shares
 * with this process but copies, and leaves with _exit: no atexit handler,
 * no stdio buffer of the parent's runs twice. */
static check_result parent_check(const char *name) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return CHECK_NOT_RUN;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return CHECK_NOT_RUN;
  }
  if (pid == 0) {
    close(fds[0]);
    /* a crashing kernel must die quietly: no core file, no handler of the host's */
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    static const int deadly[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++) signal(deadly[i], SIG_DFL);
    unsigned char r = (unsigned char)child_check(name);
    ssize_t w = write(fds[1], &r, 1);
    _exit(w == 1 ? 0 : 1);
  }
  close(fds[1]);
  unsigned char r = CHECK_FAULT;
  struct pollfd p = {.fd = fds[0], .events = POLLIN};
  double deadline = now_s() + CHECK_TIMEOUT_MS / 1000.0;
  check_result out = CHECK_FAULT;
  for (;;) {
    int left = (int)((deadline - now_s()) * 1000.0);
    int ready = left > 0 ? poll(&p, 1, left) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      kill(pid, SIGKILL);
      out = CHECK_TIMEOUT;
      break;
    }
    ssize_t got = read(fds[0], &r, 1);
    if (got < 0 && errno == EINTR) continue;
    out = got == 1 && r <= CHECK_NOT_RUN ? (check_result)r : CHECK_FAULT;
    break;
  }
  close(fds[0]);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
  return out;
}

/* ---- the one load ---- */

static struct {
  mf_blas fns;
  bool ok;
  char error[512];
  char kernel[64], reason[512], library[PATH_MAX], config[256], cpu[160];
  double seconds;
} loaded;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* Appends to loaded.reason. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...) {
  size_t len = strlen(loaded.reason);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(loaded.reason + len, sizeof loaded.reason - len, fmt, ap);
  va_end(ap);
}

/* Loads the library with OPENBLAS_CORETYPE=`kernel` (NULL: as the
 * environment has it), the variable restored after: OpenBLAS reads it only
 * while it loads, and programs this process starts must not take moonflow's
 * choice for their user's. setenv is not safe against a getenv in another
 * thread; the window is one dlopen, once per process, and moonflow's own
 * threads read no environment while they run kernels. */
static void *load_as(const char *kernel, char *why, size_t n) {
  const char *was = getenv("OPENBLAS_CORETYPE");
  char saved[64];
  bool had = was != NULL;
  if (had) snprintf(saved, sizeof saved, "%s", was);
  if (kernel) setenv("OPENBLAS_CORETYPE", kernel, 1);
  void *h = open_library(why, n);
  if (kernel) {
    if (had) setenv("OPENBLAS_CORETYPE", saved, 1);
    else unsetenv("OPENBLAS_CORETYPE");
  }
  return h;
}

static void load(void) {
  double t0 = now_s();
  cpu_features cpu;
  cpu_detect(&cpu);
  cpu_describe(&cpu, loaded.cpu, sizeof loaded.cpu);
  const char *user = getenv("OPENBLAS_CORETYPE");
  const char *kernel = NULL; /* what moonflow sets; NULL leaves the environment alone */
  void *h = NULL;
  char why[256] = "";
  bool present = false;
  for (size_t i = 0; i < sizeof LIBRARIES / sizeof LIBRARIES[0] && !present; i++) {
    void *p = dlopen(LIBRARIES[i], RTLD_NOW | RTLD_NOLOAD);
    if (p) present = true, dlclose(p);
  }
  if (user && *user) {
    say("OPENBLAS_CORETYPE set by the user");
  } else if (present) {
    say("OpenBLAS was already loaded in this process: its own choice");
  } else {
#ifdef MF_BLAS_X86
    candidate list[5];
    int n = candidates(&cpu, list);
    for (int i = 0; i < n && !kernel; i++) {
      check_result r = parent_check(list[i].name);
      if (r == CHECK_NO_LIBRARY) break; /* reported below, when the parent cannot load it either */
      if (r == CHECK_OK || r == CHECK_NOT_RUN || i == n - 1) {
        kernel = list[i].name;
        say("chosen for %s; %s", list[i].features,
            r == CHECK_OK || r == CHECK_NOT_RUN ? check_text(r) : "unverified: every check failed");
      } else {
        say("fell back from %s: %s; ", list[i].name, check_text(r));
      }
    }
#else
    say("OpenBLAS's own choice (no CPU detection on this architecture)");
#endif
  }
  h = load_as(kernel, why, sizeof why);
  if (!h) {
    snprintf(loaded.error, sizeof loaded.error,
             "OpenBLAS could not be loaded (%s); moonflow needs libopenblas.so.0 (Debian: "
             "libopenblas0)", why);
    return;
  }
  const char *missing = resolve(h, &loaded.fns);
  if (missing) {
    snprintf(loaded.error, sizeof loaded.error, "OpenBLAS (%s) has no function %s",
             LIBRARIES[0], missing);
    return;
  }
  snprintf(loaded.kernel, sizeof loaded.kernel, "%s", loaded.fns.openblas_get_corename());
  snprintf(loaded.config, sizeof loaded.config, "%s", loaded.fns.openblas_get_config());
  if (kernel && strcasecmp(loaded.kernel, kernel) != 0)
    say(" (but OpenBLAS loaded %s)", loaded.kernel);
  Dl_info info;
  char real[PATH_MAX];
  if (dladdr(*(void **)&loaded.fns.cblas_sgemm, &info) && info.dli_fname)
    snprintf(loaded.library, sizeof loaded.library, "%s",
             realpath(info.dli_fname, real) ? real : info.dli_fname);
  else
    snprintf(loaded.library, sizeof loaded.library, "%s", LIBRARIES[0]);
  loaded.seconds = now_s() - t0;
  loaded.ok = true;
}

mf_status mf_blas_load(const mf_blas **out, mf_error *err) {
  pthread_once(&load_once, load);
  if (!loaded.ok) {
    *out = NULL;
    return mf_error_set(err, MF_ERR_FAILED_PRECONDITION, "%s", loaded.error);
  }
  *out = &loaded.fns;
  return MF_OK;
}

mf_status mf_blas_describe(mf_blas_info *out, mf_error *err) {
  const mf_blas *b;
  MF_TRY(mf_blas_load(&b, err));
  *out = (mf_blas_info){.kernel = loaded.kernel, .reason = loaded.reason,
                        .library = loaded.library, .config = loaded.config,
                        .cpu = loaded.cpu, .seconds = loaded.seconds};
  return MF_OK;
}
