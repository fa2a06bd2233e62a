-- svd_op_spec.lua — tensorflow/python/kernel_tests/linalg/svd_op_test.py
-- (SvdOpTest, _GetSvdOpTest's table, SvdGradOpTest), ported for
-- tf.linalg.svd.
--
-- Translation: run_in_graph_and_eager_modes is eager and inside a tf.func;
-- use_static_shape = false (a placeholder) is a tf.func over an
-- input_signature of unknown dimensions. The inputs are
-- np.random.uniform(-1, 1) draws from tfhelpers' seeded generator.
--
-- Differences, argued:
-- - CompareSingularValues and CompareSingularVectors compare with
--   np.linalg.svd, which Lua does not have. The port checks what makes
--   them right instead: s is descending and non-negative, its squares sum
--   to the squared Frobenius norm, and it is the same with compute_uv
--   false; the first min(m, n) vectors of the full and the reduced
--   decompositions agree up to sign (CompareSingularVectors' own
--   normalisation); CheckApproximation and CheckUnitary as TF's.
-- - The table's 32- and 100-row and column shapes are left out (each
--   such case checks 10^3 to 10^4 elements a few times in Lua, for no
--   other path, and the suite has a time limit).
-- - SvdGradOpTest's shapes are (3, 4), (4, 3), (4, 4), (2, 2, 2, 3) and
--   (2, 5), (5, 2) in place of (10, 11), (11, 10), (11, 11) and (5, 11),
--   (11, 5): the same cases of m < n, m > n, square and batched, with
--   Jacobians small enough for a Lua gradient checker (one tape call per
--   output element). SvdGradGradOpTest is TF1-only (run_v1_only).
-- - complex dtypes, testThrowDeterminismError (GPU only): not applicable.
-- - DISABLED_testBadInputs (disabled for CUDA) holds on the CPU and is
--   kept: NaN or inf in the matrix gives NaN s, u and v.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function uniform(shape)
  local v = T.rand_values(shape)
  for i, x in ipairs(v) do v[i] = 2 * x - 1 end
  return v
end

-- x[..., :, 0:k] of a tensor of known rank.
local function columns(x, k)
  local r = #x.shape
  local begin, size = {}, {}
  for i = 1, r do begin[i], size[i] = 0, -1 end
  size[r] = k
  return tf.slice(x, begin, size)
end

local function check_unitary(x, tol)
  local xx = tf.matmul(x, x, { transpose_a = true })
  local n = xx.shape[#xx.shape - 1]
  T.equal(tf.broadcast_to(tf.eye(n, nil, { dtype = x.dtype }), xx.shape):numpy(), xx, tol)
end

-- a ~= u diag(s) v^T, diag(s) padded with zeros for full matrices.
local function check_approximation(a, u, s, v, tol)
  local p = s.shape[#s.shape - 1]
  local recon = tf.matmul(columns(u, p) * tf.expand_dims(s, -2), columns(v, p), { transpose_b = true })
  T.equal(a:numpy(), recon, tol)
end

local function check_singular_values(a, s, tol)
  local flat = T.flatten(s:numpy())
  local p = s.shape[#s.shape - 1]
  for i = 1, #flat do
    assert.is_true(flat[i] >= 0, "s >= 0")
    if (i - 1) % p > 0 then assert.is_true(flat[i] <= flat[i - 1] * (1 + tol), "s descends") end
  end
  local r = #a.shape
  local fro = tf.reduce_sum(tf.square(a), { r - 2, r - 1 })
  T.equal(fro:numpy(), tf.reduce_sum(tf.square(s), -1), tol * 10)
end

-- CompareSingularVectors' sign normalisation: x * sign(sum(y / x)) ~ y.
local function compare_vectors(x, y, k, tol)
  x, y = columns(x, k), columns(y, k)
  local phase = tf.sign(tf.reduce_sum(y / x, -2, true))
  T.equal((x * phase):numpy(), y, 2 * tol)
end

local function svd_case(dtype, shape, static, compute_uv, full)
  local tol = dtype == tf.float32 and 3e-4 or 1e-12
  local a = T.tensor(uniform(shape), shape, dtype)
  local run = function(x) return tf.linalg.svd(x, full, compute_uv) end
  local f = run
  if not static then
    local dims = {}
    for i = 1, #shape do dims[i] = tf.None end
    f = T.quiet(tf.func, run, { input_signature = { tf.TensorSpec(dims, dtype) } })
  end
  local s, u, v = T.quiet(f, a)
  local m, n = shape[#shape - 1], shape[#shape]
  local p = math.min(m, n)
  local sshape = table.move(shape, 1, #shape - 2, 1, {})
  sshape[#sshape + 1] = p
  assert.are.same(sshape, s.shape:as_list())
  check_singular_values(a, s, tol)
  T.equal(tf.linalg.svd(a, false, false):numpy(), s, tol)
  if not compute_uv then
    assert.is_nil(u)
    return
  end
  local ushape = table.move(shape, 1, #shape - 1, 1, {})
  ushape[#ushape + 1] = full and m or p
  local vshape = table.move(shape, 1, #shape - 2, 1, {})
  vshape[#vshape + 1], vshape[#vshape + 2] = n, full and n or p
  assert.are.same(ushape, u.shape:as_list())
  assert.are.same(vshape, v.shape:as_list())
  if p > 0 then
    local _, u2, v2 = tf.linalg.svd(a, not full)
    compare_vectors(u2, u, p, tol)
    compare_vectors(v2, v, p, tol)
  end
  check_approximation(a, u, s, v, tol)
  check_unitary(u, tol)
  check_unitary(v, tol)
end

describe("svd_op_test.py SvdOpTest", function()
  it("testWrongDimensions", function()
    -- assertRaisesRegex((ValueError, InvalidArgumentError), "rank.* 2.*0")
    local function raises(pattern, x, traced)
      local f = traced and T.quiet(tf.func, function(t) return tf.linalg.svd(t) end) or tf.linalg.svd
      local ok, err = pcall(f, x)
      assert.is_false(ok)
      assert.is_true(err.type == "InvalidArgumentError" or err.type == "ValueError", err.type)
      assert.is_truthy(tostring(err.message):match(pattern), err.message)
    end
    for _, traced in ipairs({ false, true }) do
      raises("rank.* 2.*0", tf.constant(1.0), traced)
      raises("rank.* 2.*1", tf.constant({ 1.0, 2.0 }), traced)
    end
  end)

  it("testExecuteMultipleWithoutError", function()
    -- (stateless_random_normal: moonflow has no stateless random ops; a
    -- seeded draw of tfhelpers' generator in its place)
    T.seed(42)
    local m = T.tensor(T.randn_values({ 6, 5 }), { 6, 5 })
    for _, compute_uv in ipairs({ true, false }) do
      for _, full in ipairs({ true, false }) do
        local r1 = table.pack(tf.linalg.svd(m, full, compute_uv))
        local r2 = table.pack(tf.linalg.svd(tf.identity(m), full, compute_uv))
        assert.are.equal(compute_uv and 3 or 1, r1.n)
        for i = 1, r1.n do assert.are.same(r1[i]:numpy(), r2[i]:numpy()) end
      end
    end
  end)

  it("testEmptyBatches", function()
    local s, u, v = tf.linalg.svd(tf.ones({ 0, 2, 2 }))
    assert.are.same({ 0, 2 }, s.shape:as_list())
    assert.are.same({ 0, 2, 2 }, u.shape:as_list())
    assert.are.same({ 0, 2, 2 }, v.shape:as_list())
  end)

  it("testBadInputs (disabled in TF for CUDA; the CPU's NaN)", function()
    for _, bad in ipairs({ 0 / 0, math.huge }) do
      local s, u, v = tf.linalg.svd(tf.constant({ { 1.0, bad }, { 0.0, 1.0 } }, tf.float64))
      for _, t in ipairs({ s, u, v }) do
        for _, x in ipairs(T.flatten(t:numpy())) do assert.is_true(x ~= x) end
      end
    end
  end)
end)

describe("svd_op_test.py _GetSvdOpTest's table", function()
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    for _, compute_uv in ipairs({ false, true }) do
      for _, full in ipairs({ false, true }) do
        it(("%s compute_uv=%s full_matrices=%s"):format(dtype.name, compute_uv, full), function()
          T.seed(42)
          for _, rows in ipairs({ 0, 1, 2, 5, 10 }) do
            for _, cols in ipairs({ 0, 1, 2, 5, 10 }) do
              local batches = { {}, { 3 } }
              if math.max(rows, cols) < 10 then batches[3] = { 3, 2 } end
              for _, batch in ipairs(batches) do
                local shape = table.move(batch, 1, #batch, 1, {})
                shape[#shape + 1], shape[#shape + 2] = rows, cols
                for _, static in ipairs({ true, false }) do svd_case(dtype, shape, static, compute_uv, full) end
              end
            end
          end
        end)
      end
    end
  end
end)

-- _NormalizingSvd: u and v signed so that the first row of u (m >= n) or
-- of v (n > m) is non-negative.
local function normalizing_svd(a, full)
  local s, u, v = tf.linalg.svd(a, full)
  local m, n = a.shape[#a.shape - 2], a.shape[#a.shape - 1]
  local top = m >= n and u or v
  local r = #top.shape
  local begin, size = {}, {}
  for i = 1, r do begin[i], size[i] = 0, -1 end
  size[r - 1] = 1
  local phase = tf.sign(tf.slice(top, begin, size))
  return s, u * columns(phase, u.shape[r - 1]), v * columns(phase, v.shape[r - 1])
end

describe("svd_op_test.py SvdGradOpTest", function()
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    for _, compute_uv in ipairs({ false, true }) do
      for _, full in ipairs({ false, true }) do
        it(("%s compute_uv=%s full_matrices=%s"):format(dtype.name, compute_uv, full), function()
          local eps = dtype == tf.float32 and 2 ^ -23 or 2 ^ -52
          local delta = 0.25 * eps ^ (1 / 3)
          local tol = dtype == tf.float32 and 3e-2 or 1e-6
          local shapes = { { 3, 4 }, { 4, 3 }, { 4, 4 }, { 2, 2, 2, 3 } }
          if not full or not compute_uv then shapes[#shapes + 1], shapes[#shapes + 2] = { 2, 5 }, { 5, 2 } end
          for _, mat in ipairs(shapes) do
            for _, batch in ipairs({ {}, { 3 } }) do
              local shape = table.move(batch, 1, #batch, 1, {})
              table.move(mat, 1, #mat, #shape + 1, shape)
              T.seed(42)
              local a = T.tensor(uniform(shape), shape, dtype)
              local funcs
              if compute_uv then
                funcs = {
                  function(x) return (normalizing_svd(x, full)) end,
                  function(x) return select(2, normalizing_svd(x, full)) end,
                  function(x) return select(3, normalizing_svd(x, full)) end,
                }
              else
                funcs = { function(x) return (tf.linalg.svd(x, false, false)) end }
              end
              for _, f in ipairs(funcs) do T.check_jacobians(f, { a }, tol, tol, { delta = delta }) end
            end
          end
        end)
      end
    end
  end
end)
