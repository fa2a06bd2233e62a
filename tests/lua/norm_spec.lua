-- norm_spec.lua — tf.norm / tf.linalg.norm and tf.clip_by_norm, ported
-- from TF's norm_op_test.py (every dtype/shape/ord/axis/keepdims case of
-- its table, static and unknown shapes, against a reference computed
-- here as NumPy's np.linalg.norm computes it, with TF's rule that axis =
-- nil is a vector norm of the whole tensor) and clip_ops_test.py's
-- clip_by_norm cases; their gradients (TF's nan at 0 for tf.norm, a
-- finite one for clip_by_norm), eagerly, traced, under a tape and with
-- functions run eagerly.

local H = require("helpers")

after_each(function() tf.config.run_functions_eagerly(false) end)

-- ---- a reference norm on flat Lua arrays ----

local function flatten(v, out)
  if type(v) ~= "table" then out[#out + 1] = v; return out end
  for _, x in ipairs(v) do flatten(x, out) end
  return out
end

local function strides(shape)
  local s, acc = {}, 1
  for i = #shape, 1, -1 do s[i] = acc; acc = acc * shape[i] end
  return s
end

-- Reduces axis (1-based) of (flat, shape) with fn(acc, x), keeping it as size 1.
local function reduce(flat, shape, axis, init, fn)
  local out_shape = table.move(shape, 1, #shape, 1, {})
  out_shape[axis] = 1
  local n = 1
  for _, d in ipairs(out_shape) do n = n * d end
  local out = {}
  for i = 1, n do out[i] = init end
  local st, ost = strides(shape), strides(out_shape)
  for i = 1, #flat do
    local rem, o = i - 1, 0
    for k = 1, #shape do
      local idx = rem // st[k]
      rem = rem % st[k]
      if k ~= axis then o = o + idx * ost[k] end
    end
    out[o + 1] = fn(out[o + 1], flat[i])
  end
  return out, out_shape
end

local function add(a, x) return a + x end
local function max(a, x) return math.max(a, x) end

-- The largest eigenvalue of the symmetric n x n matrix a (1-based rows),
-- by cyclic Jacobi rotations.
local function max_eigenvalue(a, n)
  for _ = 1, 100 do
    local off = 0
    for p = 1, n do for q = p + 1, n do off = off + a[p][q] ^ 2 end end
    if off < 1e-30 then break end
    for p = 1, n do
      for q = p + 1, n do
        if a[p][q] ~= 0 then
          local theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
          local t = (theta >= 0 and 1 or -1) / (math.abs(theta) + math.sqrt(theta * theta + 1))
          local c = 1 / math.sqrt(t * t + 1)
          local sn = t * c
          for k = 1, n do
            local akp, akq = a[k][p], a[k][q]
            a[k][p], a[k][q] = c * akp - sn * akq, sn * akp + c * akq
          end
          for k = 1, n do
            local apk, aqk = a[p][k], a[q][k]
            a[p][k], a[q][k] = c * apk - sn * aqk, sn * apk + c * aqk
          end
        end
      end
    end
  end
  local m = -math.huge
  for i = 1, n do m = math.max(m, a[i][i]) end
  return m
end

-- The matrix 2-norm over axes r and c (1-based) of (flat, shape), both
-- kept as size 1: the square root of the largest eigenvalue of A^T A.
local function spectral(flat, shape, r, c)
  local out_shape = table.move(shape, 1, #shape, 1, {})
  out_shape[r], out_shape[c] = 1, 1
  local st, ost = strides(shape), strides(out_shape)
  local n = 1
  for _, d in ipairs(out_shape) do n = n * d end
  local out = {}
  for o = 0, n - 1 do
    local base, rem = 0, o
    for k = 1, #shape do
      base = base + (rem // ost[k]) * st[k]
      rem = rem % ost[k]
    end
    local function at(i, j) return flat[base + (i - 1) * st[r] + (j - 1) * st[c] + 1] end
    local ata = {}
    for i = 1, shape[c] do
      ata[i] = {}
      for j = 1, shape[c] do
        local sum = 0
        for k = 1, shape[r] do sum = sum + at(k, i) * at(k, j) end
        ata[i][j] = sum
      end
    end
    out[o + 1] = math.sqrt(math.max(0, max_eigenvalue(ata, shape[c])))
  end
  return out, out_shape
end

local function reference(flat, shape, ord, axis, keepdims)
  local rank = #shape
  local function pos(a) return (a % rank) + 1 end
  local f, s = {}, shape
  for i, x in ipairs(flat) do f[i] = math.abs(x) end
  local reduced = {}
  if type(axis) == "table" then
    local r, c = pos(axis[1]), pos(axis[2])
    reduced[r], reduced[c] = true, true
    if ord == 2 then
      f, s = spectral(flat, s, r, c) -- of the signed values
    elseif ord == 1 then
      f, s = reduce(f, s, r, 0, add)
      f, s = reduce(f, s, c, -math.huge, max)
    elseif ord == math.huge then
      f, s = reduce(f, s, c, 0, add)
      f, s = reduce(f, s, r, -math.huge, max)
    else -- fro
      for i, x in ipairs(f) do f[i] = x * x end
      f, s = reduce(f, s, r, 0, add)
      f, s = reduce(f, s, c, 0, add)
      for i, x in ipairs(f) do f[i] = math.sqrt(x) end
    end
  else
    local axes = {}
    if axis == nil then for k = 1, rank do axes[k] = k end else axes[1] = pos(axis) end
    for _, a in ipairs(axes) do reduced[a] = true end
    local p = ord == "euclidean" and 2 or ord
    if p == math.huge then
      for _, a in ipairs(axes) do f, s = reduce(f, s, a, -math.huge, max) end
    else
      for i, x in ipairs(f) do f[i] = x ^ p end
      for _, a in ipairs(axes) do f, s = reduce(f, s, a, 0, add) end
      for i, x in ipairs(f) do f[i] = x ^ (1 / p) end
    end
  end
  if not keepdims then
    local ns = {}
    for k = 1, rank do if not reduced[k] then ns[#ns + 1] = s[k] end end
    s = ns
  end
  return f, s
end

-- A deterministic matrix of values in [-2, 2] (a seeded generator).
local function values(n, seed)
  local out, state = {}, seed
  for i = 1, n do
    state = (state * 1103515245 + 12345) % 2147483648
    out[i] = (state / 2147483648) * 4 - 2
  end
  return out
end

local function check(t, flat, shape, tol)
  assert.are.same(shape, t.shape:as_list())
  local got = flatten(t:numpy(), {})
  if type(got[1]) ~= "number" then got = { t:numpy() } end
  assert.are.equal(#flat, #got)
  for i = 1, #flat do
    local e = flat[i]
    assert.is_true(math.abs(e - got[i]) <= tol * math.max(1, math.abs(e)),
      ("element %d: expected %.9g, got %.9g"):format(i, e, got[i]))
  end
end

describe("tf.norm (norm_op_test.py's table)", function()
  local ORDS = { "euclidean", "fro", 0.5, 1, 2, math.huge }
  for _, dtype in ipairs({ "float32", "float64" }) do
    for _, use_static in ipairs({ true, false }) do
      it(("matches np.linalg.norm for %s, %s shapes"):format(dtype, use_static and "static" or "unknown"), function()
        local n = 0
        for _, rows in ipairs({ 2, 5 }) do
          for _, cols in ipairs({ 2, 5 }) do
            for _, batch in ipairs({ {}, { 2 }, { 2, 3 } }) do
              local shape = table.move(batch, 1, #batch, 1, {})
              shape[#shape + 1], shape[#shape + 2] = rows, cols
              local size = 1
              for _, d in ipairs(shape) do size = size * d end
              local flat = values(size, rows * 100 + cols * 10 + #batch)
              local x = tf.reshape(tf.constant(flat, tf[dtype]), shape)
              if dtype == "float32" then flat = flatten(x:numpy(), {}) end
              for _, ord in ipairs(ORDS) do
                for _, axis in ipairs({ "none", { -2, -1 }, { -1, -2 }, -#shape, 0, #shape - 1 }) do
                  for _, keepdims in ipairs({ false, true }) do
                    local ax = axis ~= "none" and axis or nil
                    local matrix = type(ax) == "table"
                    local fancy = ord == 0.5
                    local skip = (not matrix and ord == "fro") or (matrix and fancy) or ord == "euclidean"
                      or (ax == nil and #shape > 2)
                    if not skip then
                      local want, wshape = reference(flat, shape, ord, ax, keepdims)
                      local got
                      if use_static then
                        got = tf.norm(x, ord, ax, keepdims)
                      else
                        local unknown = {}
                        for k = 1, #shape do unknown[k] = tf.None end
                        local f = tf.func(function(t) return tf.norm(t, ord, ax, keepdims) end,
                          { input_signature = { tf.TensorSpec(unknown, tf[dtype]) } })
                        got = f(x)
                      end
                      check(got, want, wshape, 1e-5)
                      n = n + 1
                    end
                  end
                end
              end
            end
          end
        end
        assert.is_true(n > 200, "cases run: " .. n)
      end)
    end
  end

  it("is the same function as tf.linalg.norm, with euclidean the default", function()
    assert.are.equal(tf.norm, tf.linalg.norm)
    local m = tf.constant({ { 0.0, 1.0 }, { 2.0, 3.0 } })
    H.close(math.sqrt(14), tf.norm(m))
    H.close(math.sqrt(14), tf.norm(m, "euclidean", { 0, 1 }))
    H.close({ 1, math.sqrt(13) }, tf.linalg.norm(m, { axis = -1 }))
    H.tensor_close(tf.norm(m, { ord = 1, axis = 0, keepdims = true }), tf.float32, { 1, 2 }, { { 2, 4 } })
  end)

  it("refuses bad ord values (testBadOrder)", function()
    local matrix = { { 0.0, 1.0 }, { 2.0, 3.0 } }
    for _, ord in ipairs({ "fro", -7, -1.1, 0 }) do
      H.raises("ValueError", "'ord' must be a supported vector norm, got " .. tostring(ord), tf.norm, matrix, ord)
      H.raises("ValueError", "'ord' must be a supported vector norm", tf.norm, matrix, ord, -1)
    end
    for _, ord in ipairs({ "foo", -7, -1.1, 1.1 }) do
      H.raises("ValueError", "'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got "
        .. tostring(ord), tf.norm, matrix, ord, { -2, -1 })
    end
  end)

  it("refuses bad axes (testInvalidAxis)", function()
    local matrix = { { 0.0, 1.0 }, { 2.0, 3.0 } }
    for _, axis in ipairs({ {}, { 1, 2, 3 }, { { 1 } }, { { 1 }, { 2 } }, { 3.1415 }, { 1, 1 } }) do
      H.raises("ValueError", "'axis' must be None, an integer, or a tuple of 2 unique integers", tf.norm, matrix,
        "euclidean", axis)
    end
    H.raises("ValueError", "got (1, 1)", tf.norm, matrix, "euclidean", { 1, 1 })
  end)

  it("computes the matrix 2-norm, the largest singular value, over any two axes", function()
    H.close(2, tf.norm(tf.ones({ 2, 2 }), 2, { 0, 1 }))
    -- diag(3, -4): 4; its gradient is the outer product of the top singular vectors
    local x = tf.constant({ { 3.0, 0.0 }, { 0.0, -4.0 } }, tf.float64)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.norm(x, 2, { -2, -1 })
    tape:stop()
    H.close(4, y)
    H.close({ { 0, 0 }, { 0, -1 } }, tape:gradient(y, x))
    -- axes (2, 0) of a {2, 3, 4} tensor, kept: a {1, 3, 1} result
    local t = tf.reshape(tf.range(24.0), { 2, 3, 4 })
    local n = tf.norm(t, 2, { 2, 0 }, true)
    assert.are.same({ 1, 3, 1 }, n.shape:as_list())
    H.close({ { { 27.27874 }, { 36.795010 }, { 47.103099 } } }, n, 1e-5)
    -- 'nuc' is not among TF's matrix norms
    H.raises("ValueError", "'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got nuc",
      tf.norm, t, "nuc", { 0, 1 })
  end)

  it("has the gradient of its ops: x / norm, and TF's nan at 0", function()
    local x = tf.constant({ 3.0, 4.0 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.norm(x)
    tape:stop()
    H.close({ 0.6, 0.8 }, tape:gradient(y, x))
    local z = tf.zeros({ 2 })
    local t2 = tf.GradientTape()
    t2:watch(z)
    local n = tf.norm(z)
    t2:stop()
    local g = t2:gradient(n, z):numpy()
    assert.is_true(g[1] ~= g[1] and g[2] ~= g[2], "expected nan")
    local t3 = tf.GradientTape()
    t3:watch(x)
    local l1 = tf.norm(x, 1)
    t3:stop()
    H.close({ 1, 1 }, t3:gradient(l1, x))
  end)

  it("names its ops under norm/ when traced, and gives the same with functions run eagerly", function()
    local f = tf.func(function(x) return tf.norm(x) end)
    local cf = f:get_concrete_function(tf.constant({ 1.0, 2.0 }))
    local found = false
    for _, op in ipairs(cf.graph:get_operations()) do
      if op.name == "norm/Sqrt" then found = true end
    end
    assert.is_true(found)
    tf.config.run_functions_eagerly(true)
    H.close(5, f(tf.constant({ 3.0, 4.0 })))
  end)
end)

describe("tf.clip_by_norm (clip_ops_test.py)", function()
  local x23 = function(v) return tf.reshape(tf.constant(v), { 2, 3 }) end

  it("clips when the norm exceeds clip_norm (testClipByNormClipped)", function()
    local x = x23({ -3.0, 0.0, 0.0, 4.0, 0.0, 0.0 })
    H.close({ { -2.4, 0.0, 0.0 }, { 3.2, 0.0, 0.0 } }, tf.clip_by_norm(x, 4.0))
    H.close({ { -2.4, 0.0, 0.0 }, { 3.2, 0.0, 0.0 } }, tf.clip_by_norm(x, tf.constant(4.0)))
  end)

  it("leaves it when not (testClipByNormNotClipped) and at 0 (testClipByNormZero)", function()
    H.close({ { -3.0, 0.0, 0.0 }, { 4.0, 0.0, 0.0 } }, tf.clip_by_norm(x23({ -3.0, 0.0, 0.0, 4.0, 0.0, 0.0 }), 6.0))
    H.close({ { 0, 0, 0 }, { 0, 0, 0 } }, tf.clip_by_norm(x23({ 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }), 6.0))
  end)

  it("clips along axes (WithDim0, WithDim1, NotClippedWithAxes)", function()
    local x = x23({ -3.0, 0.0, 0.0, 4.0, 0.0, 3.0 })
    H.close({ { -2.4, 0.0, 0.0 }, { 3.2, 0.0, 3.0 } }, tf.clip_by_norm(x, 4.0, { 0 }))
    H.close({ { -3.0, 0.0, 0.0 }, { 3.2, 0.0, 2.4 } }, tf.clip_by_norm(x, 4.0, { 1 }))
    H.close({ { -3.0, 0.0, 0.0 }, { 4.0, 0.0, 3.0 } }, tf.clip_by_norm(x, 6.0, { 1 }))
  end)

  it("has a gradient of ones at 0 (testClipByNormGradientZeros), traced too", function()
    local x = tf.zeros({ 3 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local b = tf.clip_by_norm(x, 1.0)
    tape:stop()
    H.close({ 1, 1, 1 }, tape:gradient(b, x))
    local f = tf.func(function(v)
      local t = tf.GradientTape()
      t:watch(v)
      local r = tf.clip_by_norm(v, 1.0)
      t:stop()
      return t:gradient(r, v)
    end)
    H.close({ 1, 1, 1 }, f(x))
  end)

  it("refuses a clip_norm that changes t's shape (testClipByNormBadShape)", function()
    local x = tf.reshape(tf.constant({ -3.0, 0.0, 0.0, 4.0, 0.0, 0.0 }), { 2, 3, 1 })
    H.raises("ValueError", "are incompatible", tf.clip_by_norm, x, tf.constant({ 1.0, 2.0 }), -1)
  end)
end)
