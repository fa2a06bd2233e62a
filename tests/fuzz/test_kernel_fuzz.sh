#!/bin/sh
# test_kernel_fuzz.sh — the bounded sample of the kernel message fuzzer
# (kernel.py) that `make test` runs; `make fuzz` runs it long. 300 cases
# from a fixed seed (100 under sanitizers, several times slower): every
# valid request answered once with busy/idle, every forged or malformed
# message answered by silence, the kernel alive and its state intact.
n=${KERNEL_FUZZ_SAMPLE:-300}
[ "${MOONFLOW_SANITIZE:-0}" = 1 ] && n=${KERNEL_FUZZ_SAMPLE:-100}
exec /usr/bin/python3 "$(dirname "$0")/kernel.py" --seed "${KERNEL_FUZZ_SEED:-3}" --count "$n"
