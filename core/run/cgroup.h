/* cgroup.h — the limits a container or a JupyterHub spawner puts on this
 * process through its cgroup: the CPU quota (cpu.max) and the memory limit
 * (memory.max), cgroup v2, with v1's files as a fallback. The thread pool
 * sizes itself to the quota, and tensor allocations stop at the memory
 * limit with ResourceExhaustedError instead of the kernel being killed.
 *
 * Every function takes the cgroup file system's mount point and the file
 * naming this process's cgroup ("/sys/fs/cgroup", "/proc/self/cgroup"), so
 * tests can point them at fake trees. */
#ifndef MF_CGROUP_H
#define MF_CGROUP_H

#include <stddef.h>

/* CPUs the quota allows, rounded up (cpu.max "150000 100000" -> 2), the
 * smallest along the cgroup's ancestors; 0 when there is no quota or no
 * cgroup to read. */
int mf_cgroup_cpu_limit(const char *mount, const char *self_cgroup);

/* Bytes memory.max allows, the smallest along the ancestors; 0 when there
 * is no limit or no cgroup to read. */
size_t mf_cgroup_memory_limit(const char *mount, const char *self_cgroup);

/* A byte count as spawners write MEM_LIMIT: a number with an optional K,
 * M, G or T suffix (powers of 1024). 0 when text is not one. */
size_t mf_parse_bytes(const char *text);

#endif
