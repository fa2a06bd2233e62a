/* main.c — the `moonflow` program.
 *
 *   moonflow                      the REPL (stdin a terminal), else stdin as a script
 *   moonflow [options] FILE [args]  runs FILE with arg/... set as lua.c does
 *   moonflow run DIR ...          a saved program on .npy inputs, no Lua (run_saved.c)
 *   moonflow kernel -f FILE       the Jupyter kernel (jupyter/)
 *   moonflow install-kernel ...   writes the Jupyter kernelspec (jupyter/)
 *
 * Options follow lua.c: -e code, -l [g=]mod, -i, -v/--version, -W, --, -. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <lua.h>

#include "../jupyter/kernel_main.h"
#include "blas.h"
#include "run_saved.h"
#include "repl.h"

typedef struct options {
  int script;        /* argv index of the script; argc when there is none */
  bool from_stdin;   /* the script is "-" */
  bool has_e, interactive, version, help, warnings;
} options;

static void usage(FILE *out) {
  fputs("usage: moonflow [options] [script [args]]\n"
        "       moonflow run DIR [--signature NAME] [--input name=file.npy ...] [--output DIR]\n"
        "       moonflow kernel -f CONNECTION_FILE\n"
        "       moonflow install-kernel [--user | --prefix P | --sys-prefix] [--name N]\n"
        "\n"
        "With no script and no -e, moonflow starts the REPL when stdin is a terminal\n"
        "and runs stdin as a script otherwise. The global `tf` is preloaded.\n"
        "\n"
        "Options:\n"
        "  -e code        run code (magics such as %time work here too)\n"
        "  -l [g=]mod     g = require(\"mod\") (g defaults to mod)\n"
        "  -i             enter the REPL after the script and -e code\n"
        "  -W             turn Lua warnings on\n"
        "  -v, --version  print the version\n"
        "  -h, --help     print this help\n"
        "  --             stop handling options\n"
        "  -              run stdin as the script\n"
        "\n"
        "Environment: NO_COLOR turns colour off; MOONFLOW_LUA_DIR points at the\n"
        "Lua library (lua/). The REPL keeps its history in ~/.moonflow_history.\n",
        out);
}

/* The argument of -e/-l: the rest of this word or the next one. */
static bool option_arg(int argc, char **argv, int *i) {
  if (argv[*i][2] != '\0') return true;
  if (*i + 1 >= argc || argv[*i + 1][0] == '-') return false;
  (*i)++;
  return true;
}

/* lua.c's collectargs. false on a bad option. */
static bool collect(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->script = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      o->script = i;
      return true;
    }
    if (strcmp(a, "-") == 0) {
      o->script = i;
      o->from_stdin = true;
      return true;
    }
    if (strcmp(a, "--") == 0) {
      o->script = i + 1 < argc ? i + 1 : argc;
      return true;
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0) {
      o->version = true;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = true;
    } else if (strcmp(a, "-i") == 0) {
      o->interactive = true;
    } else if (strcmp(a, "-W") == 0) {
      o->warnings = true;
    } else if (a[1] == 'e' || a[1] == 'l') {
      if (!option_arg(argc, argv, &i)) {
        fprintf(stderr, "moonflow: '%s' needs an argument\n", a);
        return false;
      }
      o->has_e = o->has_e || a[1] == 'e';
    } else {
      fprintf(stderr, "moonflow: unknown option '%s'\n", a);
      return false;
    }
  }
  return true;
}

/* Runs the -e and -l options in the order given. */
static int run_options(mf_session *s, int argc, char **argv, int script, bool color) {
  for (int i = 1; i < script && i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || (a[1] != 'e' && a[1] != 'l')) continue;
    const char *value = a[2] ? a + 2 : argv[++i];
    int status = a[1] == 'e' ? mf_script_eval(s, value, color) : mf_script_require(s, value, color);
    if (status != 0) return status;
  }
  return 0;
}

static int run(mf_session *s, int argc, char **argv, const options *o, bool color) {
  bool has_script = o->script < argc;
  if (o->warnings) lua_warning(mf_session_lua(s), "@on", 0);
  mf_script_set_arg(s, argc, argv, o->script);
  int status = run_options(s, argc, argv, o->script, color);
  if (status != 0) return status;
  if (has_script) {
    status = mf_script_run(s, o->from_stdin ? NULL : argv[o->script], argc - o->script - 1,
                           argv + o->script + 1, color);
    if (status != 0) return status;
  }
  if (o->interactive) return mf_repl_run(s, color);
  if (has_script || o->has_e || o->version) return 0;
  if (isatty(STDIN_FILENO)) return mf_repl_run(s, color);
  return mf_script_run(s, NULL, 0, NULL, color);
}

/* The version, and the BLAS kernel matrix ops run on and why (blas.h):
 * loading OpenBLAS here costs a few milliseconds, once. */
static void print_version(void) {
  printf("moonflow %s (%s)\n", MF_VERSION, LUA_VERSION);
  mf_blas_info info;
  mf_error err;
  if (mf_blas_describe(&info, &err) == MF_OK)
    printf("BLAS: OpenBLAS kernel %s (%s), %s\n", info.kernel, info.reason, info.library);
  else
    printf("BLAS: %s\n", err.message);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "kernel") == 0) return mf_kernel_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "run") == 0) return mf_run_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "install-kernel") == 0)
    return mf_install_kernel_main(argc - 1, argv + 1);
  options o;
  if (!collect(argc, argv, &o)) {
    usage(stderr);
    return 1;
  }
  if (o.help) {
    usage(stdout);
    return 0;
  }
  if (o.version) print_version();
  if (o.version && o.script == argc && !o.has_e && !o.interactive) return 0;
  mf_session_host host;
  mf_term_host_init(&host);
  char err[1024];
  mf_session *s = mf_session_new(&host, err, sizeof err);
  if (!s) {
    fprintf(stderr, "moonflow: %s\n", err);
    return 1;
  }
  mf_signals_install(s);
  int status = run(s, argc, argv, &o, host.color);
  mf_session_free(s);
  return status;
}
