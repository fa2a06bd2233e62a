#!/bin/sh
# test_deb.sh — the Debian packaging (debian/): the tree, copied to a
# temporary directory (no build output lands in the repository), builds with
# `dpkg-buildpackage -us -uc -b` into moonflow (the program, its man page,
# kernelspec and lessons), lua-moonflow (the Lua 5.4 module), libmoonflow0
# and libmoonflow-dev (library, header, pkg-config file); lintian reports no
# error and no warning; the packages, unpacked into a temporary root, run.
# A sanitizer run skips it: it builds its own release binaries.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
if [ "${MOONFLOW_SANITIZE:-0}" = 1 ]; then
  echo "ok 1 - the Debian packages # SKIP built by the release run only"
  echo "1..1"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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

mkdir "$tmp/src"
tar -C "$ROOT" --exclude=./build --exclude=./.git --exclude=./tutorials/notebooks -cf - . |
  tar -C "$tmp/src" -xf -
(cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" dpkg-buildpackage -us -uc -b) \
  >"$tmp/build.log" 2>&1
status=$?
check "dpkg-buildpackage -us -uc -b builds" "0" "$status"
[ "$status" = 0 ] || { tail -40 "$tmp/build.log" | sed 's/^/# /'; echo "1..$n"; exit 1; }
arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for p in moonflow lua-moonflow libmoonflow0 libmoonflow-dev; do
  check "builds $p" "yes" "$([ -f "$tmp/${p}_0.1.0_$arch.deb" ] && echo yes)"
done

lintian --tag-display-limit 0 "$tmp/moonflow_0.1.0_${arch}.changes" >"$tmp/lintian" 2>&1
check "lintian reports no error" "" "$(grep '^E: ' "$tmp/lintian")"
check "lintian reports no warning" "" "$(grep '^W: ' "$tmp/lintian")"

contents() { dpkg-deb -c "$tmp/${1}_0.1.0_$arch.deb" | awk '{print $6}' | sed 's|^\./|/|'; }
has() { # has PACKAGE PATH
  check "$1 installs $2" "yes" "$(contents "$1" | grep -qx "$2" && echo yes)"
}
has moonflow /usr/bin/moonflow
has moonflow /usr/share/man/man1/moonflow.1.gz
has moonflow /usr/share/jupyter/kernels/moonflow/kernel.json
has moonflow /usr/share/moonflow/tutorials/01-tensors.md
has lua-moonflow "/usr/lib/$ma/lua/5.4/moonflow.so"
has lua-moonflow /usr/share/lua/5.4/moonflow/tf.lua
has libmoonflow0 "/usr/lib/$ma/libmoonflow.so.0.1.0"
has libmoonflow-dev /usr/include/moonflow/moonflow.h
has libmoonflow-dev "/usr/lib/$ma/libmoonflow.a"
has libmoonflow-dev "/usr/lib/$ma/pkgconfig/moonflow.pc"
check "moonflow depends on lua-moonflow of its version" "yes" \
  "$(dpkg-deb -f "$tmp/moonflow_0.1.0_$arch.deb" Depends | grep -q 'lua-moonflow (= 0.1.0)' && echo yes)"

# Unpacked into a temporary root, the packages work.
R=$tmp/root
for p in moonflow lua-moonflow libmoonflow0 libmoonflow-dev; do dpkg-deb -x "$tmp/${p}_0.1.0_$arch.deb" "$R"; done
check "the packaged kernelspec runs /usr/bin/moonflow" "/usr/bin/moonflow" \
  "$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['argv'][0])" \
     "$R/usr/share/jupyter/kernels/moonflow/kernel.json")"
check "the packaged program runs" "tf.Tensor([0 2 4], shape=(3,), dtype=int32)" \
  "$(cd "$tmp" && env -u MOONFLOW_LUA_DIR "$R/usr/bin/moonflow" -e 'print(tf.range(3) * 2)' 2>&1)"
check "the packaged module loads in lua5.4" "tf.Tensor(6.0, shape=(), dtype=float32)" \
  "$(cd "$tmp" && env -u MOONFLOW_LUA_DIR LUA_CPATH="$R/usr/lib/$ma/lua/5.4/?.so" \
     LUA_PATH="$R/usr/share/lua/5.4/?.lua" lua5.4 -e \
     'print(require("moonflow").reduce_sum(require("moonflow").constant({1.0, 2.0, 3.0})))' 2>&1)"
MANWIDTH=80 man --warnings -l "$R/usr/share/man/man1/moonflow.1.gz" >/dev/null 2>"$tmp/manerr"
check "the packaged man page renders without warnings" "" "$(cat "$tmp/manerr")"
echo "1..$n"
[ "$failed" -eq 0 ]
