#!/bin/sh
# test_licence.sh — every place that states moonflow's licence says the
# same one: LICENSE is the Apache License 2.0 text (Debian's copy,
# verbatim, with no NOTICE file to go with it), and README's licence line,
# the rockspec, debian/copyright and the man page name Apache-2.0.
# Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
n=0
failed=0
check() { # check NAME EXPECTED ACTUAL
  n=$((n + 1))
  if [ "$2" = "$3" ]; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    printf 'expected: %s\ngot:      %s\n' "$2" "$3" | sed 's/^/# /'
  fi
}
yes_if() { "$@" >/dev/null 2>&1 && echo yes || echo no; }

check "LICENSE is the Apache License 2.0 text, verbatim" "yes" \
  "$(yes_if cmp "$ROOT/LICENSE" /usr/share/common-licenses/Apache-2.0)"
check "LICENSE's heading" "Apache License|Version 2.0, January 2004" \
  "$(sed -n '2,3s/^ *//p' "$ROOT/LICENSE" | paste -sd'|')"
check "no NOTICE file (the licence text asks for none)" "no" "$(yes_if test -e "$ROOT/NOTICE")"
check "the rockspec's licence" 'license = "Apache-2.0",' \
  "$(sed -n 's/^ *\(license = .*\)$/\1/p' "$ROOT"/moonflow-*.rockspec)"
check "debian/copyright: every file and the licence paragraph are Apache-2.0" \
  "License: Apache-2.0|License: Apache-2.0" \
  "$(grep '^License:' "$ROOT/debian/copyright" | paste -sd'|')"
check "debian/copyright points at the common licence" "yes" \
  "$(yes_if grep -q '/usr/share/common-licenses/Apache-2.0' "$ROOT/debian/copyright")"
check "README's licence line names Apache-2.0 and links LICENSE" "yes" \
  "$(yes_if grep -q '^moonflow is licensed under the Apache License, Version 2.0 (Apache-2.0)' \
       "$ROOT/README.md")"
check "README links LICENSE" "yes" "$(yes_if grep -q '\[LICENSE\](LICENSE)' "$ROOT/README.md")"
check "the man page's COPYRIGHT section names Apache-2.0" "yes" \
  "$(sed -n '/^\.SH COPYRIGHT/,/^\.SH SEE/p' "$ROOT/docs/moonflow.1" | tr '\n' ' ' |
     grep -q 'Apache License, Version 2.0 (SPDX: Apache\\-2.0)' && echo yes || echo no)"
# No place states another licence (a stray MIT or GPL line in one of them).
check "no other licence named" "" \
  "$(grep -il 'MIT License\|GNU General Public\|BSD-[23]-Clause\|license = "MIT"' \
       "$ROOT/README.md" "$ROOT"/moonflow-*.rockspec "$ROOT/debian/copyright" \
       "$ROOT/docs/moonflow.1" "$ROOT/packaging/moonflow.pc.in")"
echo "1..$n"
[ "$failed" -eq 0 ]
