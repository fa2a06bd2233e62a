/* test_cgroup.c — the limits a container or a JupyterHub spawner sets
 * through the cgroup (core/run/cgroup.h), read from fake cgroup trees:
 * cgroup v2 (cpu.max, memory.max, on the process's cgroup or an ancestor,
 * the smallest winning), v1 (cfs quota and period, limit_in_bytes, as a
 * hybrid system mounts them), no limit, and MEM_LIMIT's byte counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "check.h"

static char root[64];

static void put(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  for (char *p = path + strlen(root) + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static char mount[128], self[128];

static void fresh(const char *self_cgroup) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s/*", root);
  CHECK(system(cmd) == 0);
  put("self", self_cgroup);
  snprintf(mount, sizeof mount, "%s/fs", root);
  snprintf(self, sizeof self, "%s/self", root);
  mkdir(mount, 0755);
}

/* a spawner's cpu_limit = 1.5 on the user's scope: 2 threads */
static void test_v2_cpu_quota(void) {
  fresh("0::/user.slice/jupyter-ann.scope\n");
  put("fs/user.slice/jupyter-ann.scope/cpu.max", "150000 100000\n");
  put("fs/user.slice/cpu.max", "max 100000\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 2);
  put("fs/user.slice/jupyter-ann.scope/cpu.max", "100000 100000\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 1);
  put("fs/user.slice/jupyter-ann.scope/cpu.max", "25000 100000\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 1);
}

/* the limit on an ancestor counts; the smallest along the way wins */
static void test_v2_ancestor(void) {
  fresh("0::/class/ann\n");
  put("fs/class/ann/cpu.max", "max 100000\n");
  put("fs/class/cpu.max", "400000 100000\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 4);
  put("fs/class/ann/cpu.max", "300000 100000\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 3);
  put("fs/class/memory.max", "1073741824\n");
  put("fs/class/ann/memory.max", "max\n");
  CHECK(mf_cgroup_memory_limit(mount, self) == 1073741824u);
  put("fs/class/ann/memory.max", "536870912\n");
  CHECK(mf_cgroup_memory_limit(mount, self) == 536870912u);
}

/* in a container's namespace the process's cgroup is the mount's root */
static void test_v2_namespace_root(void) {
  fresh("0::/\n");
  put("fs/cpu.max", "200000 100000\n");
  put("fs/memory.max", "268435456\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 2);
  CHECK(mf_cgroup_memory_limit(mount, self) == 268435456u);
}

/* no quota, no limit, no files: 0, and the host's count is used */
static void test_unlimited(void) {
  fresh("0::/user.slice\n");
  put("fs/user.slice/cpu.max", "max 100000\n");
  put("fs/user.slice/memory.max", "max\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 0);
  CHECK(mf_cgroup_memory_limit(mount, self) == 0);
  fresh("garbage\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 0);
  CHECK(mf_cgroup_memory_limit(mount, self) == 0);
  CHECK(mf_cgroup_cpu_limit(mount, "/nonexistent/cgroup") == 0);
  CHECK(mf_cgroup_memory_limit("/nonexistent", "/nonexistent/cgroup") == 0);
}

/* cgroup v1 (and hybrid: v2's line with no controllers) */
static void test_v1(void) {
  fresh("4:memory:/docker/abc\n1:cpu,cpuacct:/docker/abc\n0::/\n");
  put("fs/cpu/docker/abc/cpu.cfs_quota_us", "250000\n");
  put("fs/cpu/docker/abc/cpu.cfs_period_us", "100000\n");
  put("fs/memory/docker/abc/memory.limit_in_bytes", "134217728\n");
  put("fs/memory/memory.limit_in_bytes", "9223372036854771712\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 3);
  CHECK(mf_cgroup_memory_limit(mount, self) == 134217728u);
  put("fs/cpu/docker/abc/cpu.cfs_quota_us", "-1\n");
  put("fs/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
  CHECK(mf_cgroup_cpu_limit(mount, self) == 0);
  CHECK(mf_cgroup_memory_limit(mount, self) == 0);
}

/* MEM_LIMIT as spawners write it: bytes, or with a suffix */
static void test_parse_bytes(void) {
  CHECK(mf_parse_bytes("1073741824") == 1073741824u);
  CHECK(mf_parse_bytes("512M") == 536870912u);
  CHECK(mf_parse_bytes("2G") == 2147483648u);
  CHECK(mf_parse_bytes("64K") == 65536u);
  CHECK(mf_parse_bytes("1T") == 1099511627776u);
  CHECK(mf_parse_bytes("") == 0);
  CHECK(mf_parse_bytes(NULL) == 0);
  CHECK(mf_parse_bytes("lots") == 0);
  CHECK(mf_parse_bytes("12Q") == 0);
  CHECK(mf_parse_bytes("-5") == 0);
}

int main(void) {
  snprintf(root, sizeof root, "/tmp/mf_cgroup_XXXXXX");
  if (!mkdtemp(root)) return 1;
  RUN(test_v2_cpu_quota);
  RUN(test_v2_ancestor);
  RUN(test_v2_namespace_root);
  RUN(test_unlimited);
  RUN(test_v1);
  RUN(test_parse_bytes);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd) != 0) return 1;
  return CHECK_DONE();
}
