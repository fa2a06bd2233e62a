#!/bin/sh
# A bounded sample of the AutoGraph program generator (make fuzz runs
# thousands): 200 programs, seed 1, each traced, retraced, run eagerly and
# as plain Lua. Prints TAP.
exec "${MOONFLOW_BIN:-build/release/moonflow}" tests/fuzz/autograph_programs.lua 200 1
