#!/bin/sh
# test_ops_def.sh — the op list (core/ops/ops.def) against what the library
# really defines: every `const mf_op_def mf_op_<Name>` symbol in
# libmoonflow.a (nm) must be listed in ops.def (an op defined but never
# registered is unreachable), every listed op defined, once, and the list as
# long as MF_OP_COUNT (op.h). Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
LIB=${MOONFLOW_LIB:-$ROOT/$BUILD/libmoonflow.a}
OPS_DEF=${MOONFLOW_OPS_DEF:-$ROOT/core/ops/ops.def}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
check() { # check NAME STATUS [DETAIL...]
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    shift 2
    for line in "$@"; do printf '%s\n' "$line" | sed 's/^/# /'; done
  fi
}

# The list, as the compiler sees it (comments stripped).
printf '#define MF_OP(n) n\n#include "%s"\n' "$OPS_DEF" | cpp -P - | tr ' \t' '\n\n' |
  grep -v '^$' >"$tmp/listed"
sort "$tmp/listed" >"$tmp/listed.sorted"
sort -u "$tmp/listed" >"$tmp/listed.unique"
# The definitions: exported data symbols mf_op_<Capitalised name>.
nm -g --defined-only "$LIB" 2>/dev/null | awk '$2 ~ /^[DRB]$/ && $3 ~ /^mf_op_[A-Z]/ {print substr($3, 7)}' |
  sort >"$tmp/defined"

check "the library defines ops (nm found mf_op_* symbols in $LIB)" "$([ -s "$tmp/defined" ]; echo $?)"
missing=$(comm -23 "$tmp/defined" "$tmp/listed.unique" | tr '\n' ' ')
check "every op the library defines is listed in ops.def" "$([ -z "$missing" ]; echo $?)" \
  "defined but not listed: $missing"
undefined=$(comm -13 "$tmp/defined" "$tmp/listed.unique" | tr '\n' ' ')
check "every op listed in ops.def is defined" "$([ -z "$undefined" ]; echo $?)" \
  "listed but not defined: $undefined"
dups=$(uniq -d "$tmp/listed.sorted" | tr '\n' ' ')
check "no op is listed twice" "$([ -z "$dups" ]; echo $?)" "listed twice: $dups"
count=$(sed -n 's/^#define MF_OP_COUNT \([0-9][0-9]*\).*/\1/p' "$ROOT/core/ops/op.h")
listed=$(wc -l <"$tmp/listed.sorted")
check "ops.def lists MF_OP_COUNT ops" "$([ "$count" = "$listed" ]; echo $?)" \
  "MF_OP_COUNT is '$count', ops.def lists $listed"

echo "1..$n"
[ "$failed" -eq 0 ]
