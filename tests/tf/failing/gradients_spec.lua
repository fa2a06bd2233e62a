-- gradients_spec.lua — tensorflow/python/ops/gradients_test.py, ported.
-- Those tests call tf.gradients on a TF1 graph; the TF2 form, and moonflow's,
-- is a GradientTape inside a tf.func (the computation is traced into a
-- graph and differentiated there). `constant(v, shape=s)` is tf.fill(s, v).

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

-- gradients.gradients(ys, xs) inside a graph: the tape-in-tf.func form.
-- `build()` returns the target(s) and the list of sources, all made
-- inside the traced function.
local function graph_gradients(build)
  local f = tf.func(function()
    local tape = tf.GradientTape({ persistent = true })
    local ys, xs = build(tape)
    tape:stop()
    return tape:gradient(ys, xs)
  end)
  return f()
end

