/* cgroup.c — reading the CPU quota and memory limit of this process's
 * cgroup (cgroup.h). A limit may be set on any ancestor (a spawner limits
 * a slice, systemd nests the process under it), so the directories are
 * walked up to the mount point and the smallest limit wins. */
#include "cgroup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of path into buf; false when it cannot be read. */
static int read_line(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int ok = fgets(buf, (int)cap, f) != NULL;
  fclose(f);
  if (ok) buf[strcspn(buf, "\n")] = '\0';
  return ok;
}

/* This process's cgroup path for a controller into out: the v2 line
 * ("0::/a/b") when controller is NULL, else the v1 line listing it
 * ("4:memory:/a/b", "1:cpu,cpuacct:/a/b"). False when there is none. */
static int cgroup_path(const char *self_cgroup, const char *controller, char *out, size_t cap) {
  FILE *f = fopen(self_cgroup, "r");
  if (!f) return 0;
  char line[PATH_MAX + 64];
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *names = strchr(line, ':');
    char *path = names ? strchr(names + 1, ':') : NULL;
    if (!path) continue;
    *path++ = '\0';
    *names++ = '\0';
    if (controller ? !*names : strcmp(line, "0") != 0 || *names) continue;
    if (controller) {
      int listed = 0;
      for (char *tok = strtok(names, ","); tok && !listed; tok = strtok(NULL, ","))
        listed = strcmp(tok, controller) == 0;
      if (!listed) continue;
    }
    found = snprintf(out, cap, "%s", path) < (int)cap;
  }
  fclose(f);
  return found;
}

/* A directory's limit into *limit; false when it sets none. */
typedef int (*limit_fn)(const char *dir, double *limit);

/* The smallest limit `read` finds along the directories from the
 * process's cgroup (under base) up to base itself; 0 when none has one. */
static double walk_up(const char *base, const char *rel_in, limit_fn read) {
  char rel[PATH_MAX];
  snprintf(rel, sizeof rel, "%s", rel_in);
  double best = 0;
  for (;;) {
    char dir[2 * PATH_MAX];
    double limit;
    const char *r = strcmp(rel, "/") == 0 ? "" : rel;
    snprintf(dir, sizeof dir, "%s%s%s", base, r[0] == '/' || !r[0] ? "" : "/", r);
    if (read(dir, &limit) && limit > 0 && (best == 0 || limit < best)) best = limit;
    char *slash = strrchr(rel, '/');
    if (!r[0] || !slash) break;
    if (slash == rel) rel[1] = '\0';
    else *slash = '\0';
  }
  return best;
}

static int read_file(const char *dir, const char *file, char *text, size_t cap) {
  char path[3 * PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  return read_line(path, text, cap);
}

/* v2 cpu.max: "QUOTA PERIOD" or "max PERIOD". */
static int cpu_max(const char *dir, double *cpus) {
  char text[128], quota[64];
  double period;
  if (!read_file(dir, "cpu.max", text, sizeof text)) return 0;
  if (sscanf(text, "%63s %lf", quota, &period) != 2 || strcmp(quota, "max") == 0 || period <= 0)
    return 0;
  char *end;
  double q = strtod(quota, &end);
  if (*end || q <= 0) return 0;
  *cpus = q / period;
  return 1;
}

/* v1: cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us. */
static int cfs_quota(const char *dir, double *cpus) {
  char q[64], p[64];
  if (!read_file(dir, "cpu.cfs_quota_us", q, sizeof q) ||
      !read_file(dir, "cpu.cfs_period_us", p, sizeof p))
    return 0;
  double quota = strtod(q, NULL), period = strtod(p, NULL);
  if (quota <= 0 || period <= 0) return 0;
  *cpus = quota / period;
  return 1;
}

/* A byte count, or "max"; v1's "unlimited" is a huge page-aligned number. */
static int bytes_in(const char *dir, const char *file, double *bytes) {
  char text[64];
  if (!read_file(dir, file, text, sizeof text)) return 0;
  char *end;
  double b = strtod(text, &end);
  if (end == text || *end || b <= 0 || b >= 4.6e18) return 0;
  *bytes = b;
  return 1;
}

static int memory_max(const char *dir, double *bytes) { return bytes_in(dir, "memory.max", bytes); }

static int limit_in_bytes(const char *dir, double *bytes) {
  return bytes_in(dir, "memory.limit_in_bytes", bytes);
}

/* The v2 limit, else the v1 one (a hybrid system mounts v1 controllers at
 * MOUNT/<controller> and has v2 with no controllers). */
static double limit(const char *mount, const char *self_cgroup, const char *controller,
                    limit_fn v2, limit_fn v1) {
  char rel[PATH_MAX], base[PATH_MAX + 32];
  double best = 0;
  if (cgroup_path(self_cgroup, NULL, rel, sizeof rel)) best = walk_up(mount, rel, v2);
  if (best == 0 && cgroup_path(self_cgroup, controller, rel, sizeof rel)) {
    snprintf(base, sizeof base, "%s/%s", mount, controller);
    best = walk_up(base, rel, v1);
  }
  return best;
}

int mf_cgroup_cpu_limit(const char *mount, const char *self_cgroup) {
  double cpus = limit(mount, self_cgroup, "cpu", cpu_max, cfs_quota);
  if (cpus <= 0) return 0;
  /* A fraction of a CPU still needs one thread; 1.5 CPUs keep two busy. */
  double up = (double)(long)cpus < cpus ? (double)(long)cpus + 1 : cpus;
  return up > INT_MAX ? INT_MAX : (int)up;
}

size_t mf_cgroup_memory_limit(const char *mount, const char *self_cgroup) {
  double bytes = limit(mount, self_cgroup, "memory", memory_max, limit_in_bytes);
  return bytes > 0 ? (size_t)bytes : 0;
}

size_t mf_parse_bytes(const char *text) {
  if (!text || !*text) return 0;
  char *end;
  double v = strtod(text, &end);
  if (end == text || v <= 0) return 0;
  double scale = 1;
  switch (*end) {
  case 'K': case 'k': scale = 1024.0; end++; break;
  case 'M': case 'm': scale = 1048576.0; end++; break;
  case 'G': case 'g': scale = 1073741824.0; end++; break;
  case 'T': case 't': scale = 1099511627776.0; end++; break;
  default: break;
  }
  if (*end == 'B' || *end == 'b') end++;
  if (*end) return 0;
  double bytes = v * scale;
  return bytes < 1.8e19 ? (size_t)bytes : 0;
}
