-- lazy_load_spec.lua — what a session loads at start (issue 28's start-up
-- and eager-speed regressions): the parts a session may never use (Keras,
-- tf.data, ragged tensors, the string ops, the saved-model and ONNX
-- writers, tf.debug, the reference's examples, the table of TensorFlow's
-- names) load on first touch of a name they publish, and every name
-- behaves as before: reached, listed by pairs, completed, documented,
-- refused with AttributeError when it does not exist. Each case runs in a
-- fresh process, since this suite's own process has touched everything.
local H = require("helpers")

-- Runs `code` in a fresh session; returns its output, failing on a
-- non-zero exit.
local function fresh(code)
  local out, status = H.run_lua(code)
  assert.are.equal(0, status, out)
  return out
end

-- Lua that prints "name=yes" or "name=no" for each module: loaded or not.
local function loaded_report(modules)
  local parts = {}
  for _, m in ipairs(modules) do
    parts[#parts + 1] = ('io.write(%q, "=", package.loaded[%q] and "yes" or "no", " ")'):format(m, m)
  end
  return table.concat(parts, " ") .. " print()"
end

local LATER = {
  "moonflow.keras", "moonflow.keras.module", "moonflow.keras.layers", "moonflow.keras.metrics",
  "moonflow.data", "moonflow.data.dataset", "moonflow.io.saved_model", "moonflow.io.onnx",
  "moonflow.tensor.ragged", "moonflow.ops.string", "moonflow.ops.split", "moonflow.ops.regex",
  "moonflow.ops.unicode", "moonflow.debug", "moonflow.reference.help", "moonflow.reference.examples",
  "moonflow.strict.tf_names",
}

local function all_no(modules)
  local parts = {}
  for _, m in ipairs(modules) do parts[#parts + 1] = m .. "=no" end
  return table.concat(parts, " ")
end

describe("a fresh session", function()
  it("has not loaded the parts it has not touched", function()
    local out = fresh(loaded_report(LATER))
    assert.are.equal(all_no(LATER), out:match("^(.-)%s*$"))
  end)

  it("still computes eagerly and traces without them", function()
    local out = fresh([[
      local f = tf.func(function(x) return x * 2 + 1 end)
      print(f(tf.constant({0.0, 1.5})))
      print(tf.reduce_sum(tf.constant({1, 2, 3})))
    ]] .. loaded_report({ "moonflow.keras", "moonflow.data", "moonflow.tensor.ragged", "moonflow.ops.string" }))
    assert.are.equal(table.concat({
      "tf.Tensor([1. 4.], shape=(2,), dtype=float32)",
      "tf.Tensor(6, shape=(), dtype=int32)",
      "moonflow.keras=no moonflow.data=no moonflow.tensor.ragged=no moonflow.ops.string=no",
    }, "\n"), out:match("^(.-)%s*$"))
  end)
end)

describe("a name made on first touch", function()
  it("loads its part then, and only its part", function()
    local out = fresh([[
      local Dense = tf.keras.layers.Dense
      print(tf.help(Dense):match("^[^\n]*"))
      local layer = Dense(2, { kernel_initializer = "ones" })
      print(layer(tf.constant({{1.0, 2.0}})))
    ]] .. loaded_report({ "moonflow.keras", "moonflow.data", "moonflow.tensor.ragged" }))
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.is_truthy(lines[1]:find("tf.keras.layers.Dense(units", 1, true), out)
    assert.are.equal("tf.Tensor([[3. 3.]], shape=(1, 2), dtype=float32)", lines[2])
    -- tf.help walks every public name to find Dense's: that loads the rest
    assert.are.equal("moonflow.keras=yes moonflow.data=yes moonflow.tensor.ragged=yes", lines[3]:match("^(.-)%s*$"))
  end)

  it("is the same value at every touch, and a name of a namespace", function()
    local out = fresh([[
      local a = tf.keras
      print(a == tf.keras, rawget(tf, "keras") == a, tf.keras.layers.Dense == tf.keras.layers.Dense)
      print(tf.data.Dataset == require("moonflow.data").Dataset, tf.Module == require("moonflow.keras.module").Module)
      print(tf.ragged.constant({{1, 2}, {3}}))
    ]])
    assert.are.equal("true\ttrue\ttrue\ntrue\ttrue\n<tf.RaggedTensor [[1, 2], [3]]>", out:match("^(.-)%s*$"))
  end)

  it("reaches the string ops, which make ragged tensors, from any of their names", function()
    local out = fresh([[
      print(tf.strings.split(tf.constant({"a b", "c"})))
      print(tf.as_string(tf.constant(7)))
      print(tf.io.decode_raw(tf.constant("\1\0\0\0"), tf.int32))
    ]])
    assert.are.equal(table.concat({
      "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>",
      "tf.Tensor(b'7', shape=(), dtype=string)",
      "tf.Tensor([1], shape=(1,), dtype=int32)",
    }, "\n"), out:match("^(.-)%s*$"))
  end)

  it("reaches tf.io's lazy names beside its loaded ones", function()
    local out = fresh([[
      print(type(tf.io.write_npy), type(tf.io.decode_csv))
    ]] .. loaded_report({ "moonflow.data" }))
    assert.are.equal("function\tfunction\nmoonflow.data=yes", out:match("^(.-)%s*$"))
  end)
end)

describe("a part loaded on first touch", function()
  it("stays the one module require answers, even when package.loaded forgets it (busted's insulation)", function()
    local out = fresh([[
      local m = tf.keras.Sequential({ tf.keras.layers.Dense(2) })
      m(tf.constant({ { 1.0, 2.0, 3.0 } }))
      local module = package.loaded["moonflow.keras.module"]
      for name in pairs(package.loaded) do
        if name:find("^moonflow%.keras") then package.loaded[name] = nil end
      end
      print(require("moonflow.keras.module") == module)
      -- the saved-model writer, loaded now, knows the model for a module
      local ckpt = tf.train.Checkpoint({ model = m })
      print(getmetatable(ckpt) ~= nil)
    ]])
    assert.are.equal("true\ntrue", out:match("^(.-)%s*$"))
  end)
end)

describe("the names not yet made", function()
  it("are listed by pairs, which makes them", function()
    local out = fresh([[
      local seen = {}
      for k in pairs(tf) do seen[k] = true end
      print(seen.keras, seen.data, seen.strings, seen.RaggedTensor, seen.saved_model, seen.Module, seen.add)
      local io_names = {}
      for k in pairs(tf.io) do io_names[#io_names + 1] = k end
      table.sort(io_names)
      print(table.concat(io_names, " "))
    ]])
    assert.are.equal("true\ttrue\ttrue\ttrue\ttrue\ttrue\ttrue\n"
      .. "decode_csv decode_raw read_npy read_npz write_npy", out:match("^(.-)%s*$"))
  end)

  it("are offered by completion without loading them", function()
    local out = fresh([[
      local session = require("moonflow.session")
      local m = session.complete("tf.ker", 6)
      local r = session.complete("tf.Ragged", 9)
      print(table.concat(m, " "), table.concat(r, " "))
    ]] .. loaded_report({ "moonflow.keras", "moonflow.tensor.ragged" }))
    assert.are.equal("keras\tRaggedTensor RaggedTensorSpec\nmoonflow.keras=no moonflow.tensor.ragged=no",
      out:match("^(.-)%s*$"))
  end)

  it("are suggested for a typo, and a typo loads nothing", function()
    local out = fresh([[
      local ok, e = pcall(function() return tf.kerass end)
      print(e.type, e.message)
      ok, e = pcall(function() return tf.sparse end)
      print(e.type, e.message)
    ]] .. loaded_report({ "moonflow.keras" }))
    assert.are.equal(table.concat({
      "AttributeError\tmodule 'tf' has no attribute 'kerass'. Did you mean: 'keras'?",
      "AttributeError\tmodule 'tf' has no attribute 'sparse': moonflow has no tf.sparse yet (README.md, "
        .. "\"Limits\", lists what TensorFlow has and moonflow lacks)",
      "moonflow.keras=no",
    }, "\n"), out:match("^(.-)%s*$"))
  end)

  it("are strict once made", function()
    local out = fresh([[
      local ok, e = pcall(function() return tf.keras.layers.Densse end)
      print(e.type, e.message)
      ok, e = pcall(function() return tf.strings.splitt end)
      print(e.type, e.message)
    ]])
    assert.are.equal(table.concat({
      "AttributeError\tmodule 'tf.keras.layers' has no attribute 'Densse'. Did you mean: 'Dense'?",
      "AttributeError\tmodule 'tf.strings' has no attribute 'splitt'. Did you mean: 'split'?",
    }, "\n"), out:match("^(.-)%s*$"))
  end)
end)
