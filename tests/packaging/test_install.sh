#!/bin/sh
# test_install.sh — `make install` into a temporary prefix gives what a
# distribution packages: the program (which finds its Lua library and
# lessons from the prefix), the Lua module for stock lua5.4, the shared and
# static library with the header and a pkg-config file (moonflow.pc) that
# builds examples/run_saved.c as documented, the kernelspec naming the
# installed program, and the moonflow(1) man page, which man renders
# without a warning. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
SANITIZE=${MOONFLOW_SANITIZE:-0}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix
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

make -C "$ROOT" --no-print-directory install SANITIZE="$SANITIZE" PREFIX="$P" >"$tmp/log" 2>&1
check "make install PREFIX=... succeeds" "0" "$?"
[ -x "$P/bin/moonflow" ] || { sed 's/^/# /' "$tmp/log"; echo "1..$n"; exit 1; }

for f in bin/moonflow lib/libmoonflow.a lib/libmoonflow.so lib/pkgconfig/moonflow.pc \
         include/moonflow/moonflow.h lib/lua/5.4/moonflow.so share/lua/5.4/moonflow/tf.lua \
         share/man/man1/moonflow.1 share/jupyter/kernels/moonflow/kernel.json \
         share/moonflow/tutorials/01-tensors.md; do
  check "installs $f" "yes" "$([ -e "$P/$f" ] && echo yes)"
done
check "libmoonflow.so's SONAME" "libmoonflow.so.0" \
  "$(readelf -d "$P/lib/libmoonflow.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"

# The installed program and module, away from the source tree.
env -u MOONFLOW_LUA_DIR -u MOONFLOW_ROOT HOME="$tmp" "$P/bin/moonflow" \
  -e 'print(tf.range(3) * 2)' -e '%tutorial' >"$tmp/out" 2>&1
check "the installed program runs" "tf.Tensor([0 2 4], shape=(3,), dtype=int32)" "$(head -1 "$tmp/out")"
check "the installed program lists the installed lessons" "yes" \
  "$(grep -q '01-tensors' "$tmp/out" && echo yes)"
# A sanitizer build's module needs the ASan runtime loaded first.
PRELOAD=
[ "$SANITIZE" = 1 ] && PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
check "stock lua5.4 requires the installed module" "tf.Tensor(6.0, shape=(), dtype=float32)" \
  "$(cd "$tmp" && env -u MOONFLOW_LUA_DIR LD_PRELOAD="$PRELOAD" LUA_CPATH="$P/lib/lua/5.4/?.so" \
     LUA_PATH="$P/share/lua/5.4/?.lua" lua5.4 -e \
     'local tf = require("moonflow"); print(tf.reduce_sum(tf.constant({1.0, 2.0, 3.0})))' 2>&1)"
# The reference's examples are found by file in the installed tree.
check "the installed module's tf.help shows the reference's example" "yes" \
  "$(cd "$tmp" && env -u MOONFLOW_LUA_DIR LD_PRELOAD="$PRELOAD" LUA_CPATH="$P/lib/lua/5.4/?.so" \
     LUA_PATH="$P/share/lua/5.4/?.lua" lua5.4 -e \
     'local tf = require("moonflow"); print(tf.help(tf.range):find("\nExample:\n", 1, true) and "yes")' 2>&1)"
check "the kernelspec runs the installed program" "$P/bin/moonflow kernel -f {connection_file}" \
  "$($PY -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['argv']))" \
     "$P/share/jupyter/kernels/moonflow/kernel.json")"

# pkg-config: the documented line, the library named before the source.
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
# The library is named with --no-as-needed for itself alone: Debian's gcc
# links --as-needed, which drops a library named before the objects using
# it, and the documented line names it before the source file.
check "pkg-config --cflags --libs moonflow" \
  "-I$P/include/moonflow -L$P/lib -Wl,--push-state,--no-as-needed -lmoonflow -Wl,--pop-state" \
  "$(pkg-config --cflags --libs moonflow | sed 's/ *$//')"
check "pkg-config --static adds Libs.private" "yes" \
  "$(pkg-config --static --libs moonflow | grep -q -- '-ljansson.*-lpthread' && echo yes)"
check "pkg-config --modversion" "0.1.0" "$(pkg-config --modversion moonflow)"
SANFLAGS=
[ "$SANITIZE" = 1 ] && SANFLAGS="-fsanitize=address,undefined"
# shellcheck disable=SC2046
cc $SANFLAGS $(pkg-config --cflags --libs moonflow) "$ROOT/examples/run_saved.c" \
  -o "$tmp/run_saved" >"$tmp/log" 2>&1
check "cc \$(pkg-config --cflags --libs moonflow) examples/run_saved.c builds" "" "$(cat "$tmp/log")"

"$P/bin/moonflow" -e "
local m = tf.Module()
m.w = tf.Variable(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), {name = 'w'})
m.predict = tf.func(function(x) return tf.nn.relu(tf.matmul(x, m.w) - 5.0) end,
  {input_signature = {tf.TensorSpec({tf.None, 2}, tf.float32, 'x')}})
tf.saved_model.save(m, '$tmp/prog')
" >"$tmp/log" 2>&1
check "the installed program saves a program" "" "$(cat "$tmp/log")"
# relu([[1, 1], [2, 0.5]] @ [[1, 2], [3, 4]] - 5) = [[0, 1], [0, 1]]
check "the program built with pkg-config runs it, linked to libmoonflow.so" \
  "output_0: float32[2,2] 0 1 0 1" \
  "$(LD_LIBRARY_PATH="$P/lib" "$tmp/run_saved" "$tmp/prog" serving_default 1,1,2,0.5 2>&1)"
check "run_saved needs libmoonflow.so.0" "yes" \
  "$(readelf -d "$tmp/run_saved" | grep -q 'NEEDED.*libmoonflow.so.0' && echo yes)"

# The man page: rendered with every warning on, none printed.
MANWIDTH=80 man --warnings -l "$P/share/man/man1/moonflow.1" >"$tmp/man" 2>"$tmp/manerr"
check "man --warnings -l moonflow.1 renders without warnings" "" "$(cat "$tmp/manerr")"
check "groff -ww -man finds nothing to warn about" "" \
  "$(groff -ww -man -z -Tutf8 "$P/share/man/man1/moonflow.1" 2>&1)"
for s in NAME SYNOPSIS OPTIONS COMMANDS ENVIRONMENT; do
  check "the man page has $s" "yes" "$(grep -q "^$s" "$tmp/man" && echo yes)"
done
for word in install-kernel MOONFLOW_NUM_THREADS MEM_LIMIT NO_COLOR "moonflow run"; do
  check "the man page documents $word" "yes" "$(grep -q -- "$word" "$tmp/man" && echo yes)"
done
echo "1..$n"
[ "$failed" -eq 0 ]
