#!/bin/sh
# test_ops_def.sh — the op list (core/ops/ops.def) against what the library
# really defines: every `const mf_op_def mf_op_<Name>` symbol in
# libmoonflow.a (nm) must be listed in ops.def (an op defined but never
# registered is unreachable), every listed op defined, once, and listed
# under the section of the file that defines it (nm on each family's
# object, build/$BUILD/obj/core/ops/ops_<family>.o); one section per family
# file; MF_OP_COUNT (op.h) computed from the list, not typed. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
LIB=${MOONFLOW_LIB:-$ROOT/$BUILD/libmoonflow.a}
OPS_DEF=${MOONFLOW_OPS_DEF:-$ROOT/core/ops/ops.def}
OPS_H=${MOONFLOW_OP_H:-$ROOT/core/ops/op.h}
OBJ=${MOONFLOW_OBJ:-$ROOT/$BUILD/obj/core/ops}
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

# Sections: each op with the file its section names ("Op ops_x.c"). A
# section opens with a line that is exactly the comment `/* ops_<family>.c */`;
# cpp then strips every other comment (the header's MF_OP(Name) included).
sed 's|^/\* \(ops_[a-z0-9_]*\.c\) \*/$|MF_SECTION_\1|' "$OPS_DEF" |
  { printf '#define MF_OP(n) n\n'; cat; } | cpp -P - | tr ' \t' '\n\n' | grep -v '^$' |
  awk '/^MF_SECTION_/ {file = substr($0, 12); print file >"'"$tmp/sections"'"; next}
       {print $0, (file == "" ? "(none)" : file)}' | sort >"$tmp/listed_in"
touch "$tmp/sections"
# The truth: which family file's object defines each op. Only the objects
# of sources that exist (a removed file's object may linger in build/).
: >"$tmp/defined_in"
for src in "$ROOT"/core/ops/ops_*.c; do
  file=$(basename "$src")
  o="$OBJ/${file%.c}.o"
  [ -f "$o" ] || continue
  nm -g --defined-only "$o" 2>/dev/null |
    awk -v f="$file" '$2 ~ /^[DRB]$/ && $3 ~ /^mf_op_[A-Z]/ {print substr($3, 7), f}'
done | sort >"$tmp/defined_in"
check "the family objects define ops (nm found mf_op_* symbols in $OBJ/ops_*.o)" \
  "$([ -s "$tmp/defined_in" ]; echo $?)"
misplaced=$(join -a 1 -e '(not defined)' -o 0,1.2,2.2 "$tmp/listed_in" "$tmp/defined_in" |
  awk '$2 != $3 {printf "%s is listed under %s but defined in %s; ", $1, $2, $3}')
check "each op is listed under the section of the file that defines it" \
  "$([ -z "$misplaced" ]; echo $?)" "$misplaced"
twice=$(sort "$tmp/sections" | uniq -d | tr '\n' ' ')
check "one section per family file (no file has two)" "$([ -z "$twice" ]; echo $?)" \
  "sections repeated: $twice"
files=$(for src in "$ROOT"/core/ops/ops_*.c; do basename "$src"; done | sort)
sort -u "$tmp/sections" >"$tmp/sections.sorted"
unsectioned=$(printf '%s\n' "$files" | comm -23 - "$tmp/sections.sorted" | tr '\n' ' ')
stray=$(printf '%s\n' "$files" | comm -13 - "$tmp/sections.sorted" | tr '\n' ' ')
check "every family file core/ops/ops_*.c has a section" "$([ -z "$unsectioned" ]; echo $?)" \
  "files without a section: $unsectioned"
check "every section names a family file that exists" "$([ -z "$stray" ]; echo $?)" \
  "sections naming no file: $stray"

# The count: computed by the compiler from the list, never typed.
typed=$(grep -n '^[[:space:]]*#[[:space:]]*define[[:space:]]*MF_OP_COUNT' "$OPS_H")
check "MF_OP_COUNT is not typed by hand in op.h" "$([ -z "$typed" ]; echo $?)" "$typed"
printf '#include <stdio.h>\n#include "op.h"\nint main(void) { printf("%%d\\n", (int)MF_OP_COUNT); return 0; }\n' \
  >"$tmp/count.c"
count=$(${CC:-cc} -std=c11 -I"$ROOT/core" -I"$ROOT/core/tensor" -I"$ROOT/core/ops" \
  -I"$ROOT/core/graph" -I"$ROOT/core/run" "$tmp/count.c" -o "$tmp/count" 2>&1 && "$tmp/count")
listed=$(wc -l <"$tmp/listed.sorted" | tr -d ' ')
check "MF_OP_COUNT, as compiled, is the length of ops.def's list" \
  "$([ "$count" = "$listed" ]; echo $?)" "MF_OP_COUNT is '$count', ops.def lists $listed"

echo "1..$n"
[ "$failed" -eq 0 ]
