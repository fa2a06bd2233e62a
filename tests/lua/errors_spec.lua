-- errors_spec.lua — API.md "Errors": every error is an object with .type and
-- .message whose tostring is "type: message"; tf.errors names the types;
-- integer division by zero, shape mismatches and impossible sizes give typed
-- errors; bad arguments to the public functions never escape as raw Lua
-- errors or crash the process, and the session goes on after them.
local tf = tf or require("moonflow")
local H = require("helpers")

local TYPES = { "TypeError", "ValueError", "InvalidArgumentError", "OutOfRangeError",
  "ResourceExhaustedError", "InterruptedError", "NotFoundError" }

describe("error objects", function()
  it("have .type, .message and tostring == type .. ': ' .. message", function()
    local ok, err = pcall(tf.constant, { { 1, 2 }, { 3 } })
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
    assert.is_truthy(err.message:find("non-rectangular", 1, true))
    assert.are.equal(err.type .. ": " .. err.message, tostring(err))
    assert.is_true(tf.errors.is(err))
    assert.is_true(tf.errors.is(err, "ValueError"))
    assert.is_false(tf.errors.is(err, "TypeError"))
    assert.is_false(tf.errors.is("ValueError: x"))
    assert.is_false(tf.errors.is({ type = "ValueError", message = "x" }))
  end)

  it("carry no Lua position prefix in the message", function()
    local _, err = pcall(function() return tf.constant(1) // 0 end)
    H.check_error_object(err)
    assert.is_nil(err.message:find("%.lua:%d+:"))
  end)

  it("tf.errors holds the type names for comparison", function()
    for _, name in ipairs(TYPES) do
      assert.are.equal(name, tf.errors[name], "tf.errors." .. name)
    end
    local _, err = pcall(tf.reshape, tf.range(6), { 4 })
    assert.are.equal(tf.errors.InvalidArgumentError, err.type)
  end)

  it("tf.errors.raise raises an error object of the given type", function()
    local err = H.raises("NotFoundError", "no such thing", tf.errors.raise, "NotFoundError", "no such thing")
    assert.are.equal("NotFoundError: no such thing", tostring(err))
    H.raises("ValueError", "custom", function() tf.errors.raise(tf.errors.ValueError, "custom") end)
  end)

  it("are raised as values through nested pcalls and error()", function()
    local ok, err = pcall(function()
      local ok2, inner = pcall(tf.range, 1, 5, 0)
      assert(not ok2)
      error(inner, 0)
    end)
    assert.is_false(ok)
    H.check_error_object(err)
    assert.are.equal("InvalidArgumentError", err.type)
  end)
end)

describe("typed errors, never crashes", function()
  it("integer division and modulo by zero", function()
    H.raises("InvalidArgumentError", "division by zero", tf.floordiv, tf.constant({ 1, 2 }), 0)
    H.raises("InvalidArgumentError", "division by zero", tf.floormod, tf.constant(1), tf.constant(0))
    H.raises("InvalidArgumentError", "division by zero", tf.floordiv, tf.constant(5, tf.int64), tf.constant(0, tf.int64))
    H.raises("InvalidArgumentError", "division by zero", function() return tf.constant({ 3, 4 }) // tf.constant({ 1, 0 }) end)
    -- float division by zero is not an error
    H.tensor(tf.constant(1.0) / 0, tf.float32, {}, math.huge)
    H.tensor(tf.floordiv(tf.constant(1.0), 0), tf.float32, {}, math.huge)
  end)

  it("shape mismatches", function()
    H.raises("InvalidArgumentError", "Incompatible shapes", tf.add, tf.ones({ 2 }), tf.ones({ 3 }))
    H.raises("InvalidArgumentError", nil, tf.matmul, tf.ones({ 2, 3 }), tf.ones({ 2, 3 }))
    H.raises("InvalidArgumentError", nil, tf.reshape, tf.ones({ 2, 3 }), { 5 })
    H.raises("InvalidArgumentError", nil, tf.concat, { tf.ones({ 2 }), tf.ones({ 2, 2 }) }, 0)
  end)

  -- Each case is Lua source for a call that asks for an impossible amount
  -- of memory; each must raise one of these types.
  local BIG = { ResourceExhaustedError = true, InvalidArgumentError = true, ValueError = true }
  local huge_cases = {
    "tf.zeros({2^40, 2^40})",
    "tf.zeros({1 << 30, 1 << 30})",
    "tf.ones({1 << 20, 1 << 20})",
    "tf.fill({1 << 30, 1 << 30, 1 << 30}, 1)",
    "tf.random.normal({1 << 30, 1 << 30})",
    "tf.tile(tf.ones({1 << 16}), {1 << 30})",
    "tf.range(0, 1e15, 1.0)",
    "tf.reshape(tf.zeros({0}), {1 << 40, 0})",
    "tf.zeros({-1, 2})",
  }
  -- A script printing one line per case: "<case> => <error type>" or
  -- "<case> => returned" / "<case> => raw: <text>".
  local function script()
    local lines = { "local tf = tf or require('moonflow')" }
    for _, c in ipairs(huge_cases) do
      lines[#lines + 1] = ("do local ok, e = pcall(function() return %s end) "
        .. "print(%q .. ' => ' .. (ok and 'returned' or (tf.errors.is(e) and e.type or ('raw: ' .. tostring(e))))) end")
        :format(c, c)
    end
    lines[#lines + 1] = "print(tostring(tf.range(3) + 1))"
    return table.concat(lines, "\n")
  end

  it("impossible sizes", function()
    local out, status
    if H.sanitized() then
      -- ASan aborts on allocations beyond its maximum unless malloc may
      -- return NULL, which is what the release build sees: check that
      -- path in a child with allocator_may_return_null=1.
      out, status = H.run_lua(script(), { ASAN_OPTIONS = H.asan_options("allocator_may_return_null=1") })
    else
      local chunks = {}
      local real_print = print
      local env = setmetatable({ print = function(s) chunks[#chunks + 1] = s end, tf = tf },
        { __index = _G })
      local fn = assert(load(script(), "=huge", "t", env))
      local ok, err = pcall(fn)
      assert(ok, err)
      assert.are.equal(print, real_print)
      out, status = table.concat(chunks, "\n") .. "\n", 0
    end
    assert.are.equal(0, status, out)
    for _, c in ipairs(huge_cases) do
      local got = out:match("\n?" .. c:gsub("%p", "%%%0") .. " => ([^\n]*)")
      assert.is_truthy(got, "no result for " .. c .. " in:\n" .. out)
      assert.is_true(BIG[got] ~= nil, c .. " => " .. got)
    end
    assert.is_truthy(out:find("tf.Tensor([1 2 3], shape=(3,), dtype=int32)", 1, true), out)
  end)

  it("the session works normally after errors", function()
    for _ = 1, 50 do pcall(tf.zeros, { 1 << 30, 1 << 30 }) end
    H.tensor(tf.range(3) + 1, tf.int32, { 3 }, { 1, 2, 3 })
  end)
end)

describe("bad arguments to the public functions", function()
  -- The functions of API.md "Tensors" and "Operations", by path.
  local names = {
    "constant", "zeros", "ones", "fill", "range", "eye", "linspace", "cast", "add", "subtract",
    "multiply", "divide", "floordiv", "floormod", "pow", "negative", "abs", "sign", "square", "sqrt",
    "rsqrt", "exp", "log", "log1p", "sin", "cos", "tanh", "sigmoid", "maximum", "minimum", "round",
    "floor", "ceil", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not", "matmul", "transpose", "reshape", "concat", "stack",
    "unstack", "expand_dims", "squeeze", "tile", "pad", "slice", "strided_slice", "gather", "where",
    "one_hot", "argmax", "argmin", "shape", "size", "rank", "identity", "stop_gradient",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any", "reduce_all",
    "nn.relu", "nn.softmax", "nn.log_softmax", "nn.sigmoid", "nn.conv2d", "nn.max_pool2d", "nn.avg_pool2d",
    "nn.dropout", "nn.embedding_lookup",
    "nn.softmax_cross_entropy_with_logits", "nn.sparse_softmax_cross_entropy_with_logits",
    "image.resize", "strings.length", "strings.join", "random.normal", "random.uniform",
    "random.set_seed", "Variable", "TensorShape", "as_dtype",
  }
  local function lookup(path)
    local v = tf
    for part in path:gmatch("[^.]+") do v = v[part] end
    return v
  end

  local bad = {
    { n = 0 },
    { n = 1, "x" },
    { n = 1, -1 },
    { n = 1, 1.5 },
    { n = 1, true },
    { n = 1, function() end },
    { n = 1, { 1, { 2 } } },
    { n = 2, tf.constant(1), "x" },
    { n = 2, tf.constant({ 1, 2 }), { 1, 2, 3 } },
    { n = 2, tf.constant("s"), tf.constant("s") },
    { n = 2, tf.zeros({ 2, 2 }), tf.zeros({ 3, 3 }) },
    { n = 2, tf.zeros({ 2, 2 }), -5 },
    { n = 2, tf.zeros({ 2, 2 }), 99 },
    { n = 2, tf.zeros({ 2, 2 }), { axis = 7 } },
    { n = 2, tf.zeros({ 2, 2 }), 2.5 },
    { n = 3, tf.zeros({ 2, 2 }), tf.zeros({ 2 }), "x" },
    { n = 2, { tf.zeros({ 2 }), "x" }, 0 },
  }

  for _, name in ipairs(names) do
    it("tf." .. name .. " raises only moonflow error objects", function()
      local fn = lookup(name)
      assert.are.equal("function", type(fn), "tf." .. name .. " is missing")
      local problems = {}
      for i, args in ipairs(bad) do
        local ok, err = pcall(fn, table.unpack(args, 1, args.n))
        if not ok and not tf.errors.is(err) then
          problems[#problems + 1] = ("args #%d: %s"):format(i, tostring(err))
        end
      end
      assert.are.same({}, problems)
    end)
  end
end)

describe("tf.errors, the one list of error types", function()
  it("names every type the library, the session and the kernel raise", function()
    -- Every literal type name given to a raise in the sources (C and Lua).
    local p = assert(io.popen("grep -rhoE "
      .. "'(raise|mfL_raise|core\\.error|errors\\.raise)\\((L, )?\"[A-Za-z]+\"' lua repl jupyter"))
    local seen, missing = 0, {}
    for line in p:lines() do
      local name = line:match('"([A-Za-z]+)"$')
      seen = seen + 1
      if tf.errors[name] ~= name then missing[#missing + 1] = name end
    end
    p:close()
    assert.is_true(seen > 50, "found only " .. seen .. " raises")
    assert.are.same({}, missing)
    for _, name in ipairs({ "RecursionError", "UnavailableError", "UsageError", "SyntaxError", "SystemExit" }) do
      assert.are.equal(name, tf.errors[name])
    end
  end)
end)
