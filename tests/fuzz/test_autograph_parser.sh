#!/bin/sh
# A bounded sample of the AutoGraph front-end fuzzer (make fuzz runs 20,000):
# the library's own Lua and mutations of it through the lexer, parser,
# printer and converter, checked against Lua's own compiler. Prints TAP.
COUNT=1500
[ "${MOONFLOW_SANITIZE:-0}" = 1 ] && COUNT=300
exec "${MOONFLOW_BIN:-build/release/moonflow}" tests/fuzz/autograph_parser.lua --seed 1 --count "$COUNT"
