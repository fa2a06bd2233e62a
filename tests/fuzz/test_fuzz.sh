#!/bin/sh
# test_fuzz.sh — the bounded sample of the API and op-argument fuzzers that
# `make test` runs (`make fuzz` runs them long): 10,000 calls of each, a fixed
# seed. It asserts for every call: no crash, no sanitizer report, no hang,
# and a typed error (never an untyped Lua error, from C or from the Lua
# library) whenever a call fails.
exec sh "$(dirname "$0")/run.sh" "${FUZZ_SAMPLE:-10000}" "${FUZZ_SAMPLE_SEED:-7}" 300
