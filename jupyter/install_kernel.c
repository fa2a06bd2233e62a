/* install_kernel.c — `moonflow install-kernel [--user | --prefix P |
 * --sys-prefix] [--name NAME]`: writes the kernelspec Jupyter uses to find
 * and start this kernel:
 *
 *   <data dir>/kernels/<name>/kernel.json      argv, display_name, language,
 *                                               interrupt_mode "message"
 *   <data dir>/kernels/<name>/logo-32x32.png
 *   <data dir>/kernels/<name>/logo-64x64.png
 *
 * The data dir follows jupyter_core: --user is $JUPYTER_DATA_DIR, else
 * $XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter (the default);
 * --prefix P is P/share/jupyter; --sys-prefix is the active Python
 * environment's ($CONDA_PREFIX or $VIRTUAL_ENV, else /usr)/share/jupyter. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "kernel_main.h"
#include "logo.h"

#define DISPLAY_NAME "moonflow (Lua 5.4)"

static void usage(FILE *f) {
  fprintf(f, "usage: moonflow install-kernel [--user | --prefix PREFIX | --sys-prefix] [--name NAME]\n"
             "  Installs the moonflow Jupyter kernelspec (default: --user).\n");
}

/* mkdir -p. */
static int make_dirs(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0755) < 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int write_file(const char *dir, const char *name, const void *data, size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "moonflow install-kernel: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  size_t n = fwrite(data, 1, len, f);
  int rc = fclose(f);
  if (n != len || rc != 0) {
    fprintf(stderr, "moonflow install-kernel: error writing %s\n", path);
    return -1;
  }
  return 0;
}

static int write_logo(const char *dir, int size) {
  unsigned char *png;
  size_t len;
  if (mf_logo_png(size, &png, &len) < 0) return -1;
  char name[32];
  snprintf(name, sizeof name, "logo-%dx%d.png", size, size);
  int rc = write_file(dir, name, png, len);
  free(png);
  return rc;
}

static int data_dir(const char *mode, const char *prefix, char *out, size_t cap) {
  const char *e;
  int n;
  if (strcmp(mode, "prefix") == 0) {
    n = snprintf(out, cap, "%s/share/jupyter", prefix);
  } else if (strcmp(mode, "sys-prefix") == 0) {
    const char *p = (e = getenv("CONDA_PREFIX")) && *e ? e : (e = getenv("VIRTUAL_ENV")) && *e ? e : "/usr";
    n = snprintf(out, cap, "%s/share/jupyter", p);
  } else if ((e = getenv("JUPYTER_DATA_DIR")) && *e) {
    n = snprintf(out, cap, "%s", e);
  } else if ((e = getenv("XDG_DATA_HOME")) && *e) {
    n = snprintf(out, cap, "%s/jupyter", e);
  } else if ((e = getenv("HOME")) && *e) {
    n = snprintf(out, cap, "%s/.local/share/jupyter", e);
  } else {
    fprintf(stderr, "moonflow install-kernel: HOME is not set; use --prefix\n");
    return -1;
  }
  return n > 0 && (size_t)n < cap ? 0 : -1;
}

int mf_install_kernel_main(int argc, char **argv) {
  const char *mode = "user", *prefix = NULL, *name = "moonflow";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "install-kernel") == 0 && i == 1) continue; /* tolerate the full argv */
    if (strcmp(a, "--user") == 0) mode = "user";
    else if (strcmp(a, "--sys-prefix") == 0) mode = "sys-prefix";
    else if (strcmp(a, "--prefix") == 0 && i + 1 < argc) mode = "prefix", prefix = argv[++i];
    else if (strncmp(a, "--prefix=", 9) == 0) mode = "prefix", prefix = a + 9;
    else if (strcmp(a, "--name") == 0 && i + 1 < argc) name = argv[++i];
    else if (strncmp(a, "--name=", 7) == 0) name = a + 7;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "moonflow install-kernel: unknown argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (!*name || strchr(name, '/')) {
    fprintf(stderr, "moonflow install-kernel: bad kernel name '%s'\n", name);
    return 2;
  }
  char base[4000], dir[4096];
  if (data_dir(mode, prefix, base, sizeof base) < 0) return 1;
  snprintf(dir, sizeof dir, "%s/kernels/%s", base, name);
  if (make_dirs(dir) < 0) {
    fprintf(stderr, "moonflow install-kernel: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  /* The kernelspec names this very binary, so the kernel runs the build
   * that installed it. */
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) snprintf(exe, sizeof exe, "moonflow");
  else exe[n] = '\0';
  json_t *spec = json_pack("{s:[s,s,s,s], s:s, s:s, s:s, s:{}, s:{s:b}}", "argv", exe, "kernel",
                           "-f", "{connection_file}", "display_name", DISPLAY_NAME, "language",
                           "lua", "interrupt_mode", "message", "env", "metadata", "debugger", 0);
  char *text = spec ? json_dumps(spec, JSON_INDENT(2)) : NULL;
  json_decref(spec);
  int rc = text ? write_file(dir, "kernel.json", text, strlen(text)) : -1;
  free(text);
  if (rc == 0) rc = write_logo(dir, 32);
  if (rc == 0) rc = write_logo(dir, 64);
  if (rc < 0) return 1;
  printf("Installed kernelspec %s in %s\n", name, dir);
  return 0;
}
