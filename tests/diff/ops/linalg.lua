-- linalg.lua — MatrixInverse MatrixDeterminant MatrixSolve Cholesky Svd
-- (batched, float32/float64) and Einsum. Gradient cases use matrices
-- far from singular (diagonally dominant; for Cholesky A·Aᵀ + n·I) so
-- finite differences are meaningful; value cases add singular and
-- non-positive-definite matrices, which must raise TF's
-- InvalidArgumentError (det: 0, no error).

local function matrices(r, g, dt, batch, n, kind)
  local shape = g.copy(batch)
  shape[#shape + 1], shape[#shape + 2] = n, n
  local t = g.rand(r, dt, shape, "smooth")
  local count = g.size(batch)
  for b = 0, count - 1 do
    local base = b * n * n
    if kind == "spd" then
      -- M Mᵀ + n I from the random M
      local m = {}
      for i = 1, n * n do m[i] = t.values[base + i] end
      for i = 0, n - 1 do
        for j = 0, n - 1 do
          local s = 0
          for k = 0, n - 1 do s = s + m[i * n + k + 1] * m[j * n + k + 1] end
          t.values[base + i * n + j + 1] = s + (i == j and n or 0)
        end
      end
    elseif kind == "singular" and n > 0 then
      for j = 0, n - 1 do t.values[base + (n - 1) * n + j + 1] = 0.0 end
    elseif kind == "indefinite" and n > 0 then
      t.values[base + 1] = -1.0
    else
      for i = 0, n - 1 do t.values[base + i * n + i + 1] = t.values[base + i * n + i + 1] + 2 * n * (r.chance(0.5) and 1 or -1) end
    end
    if dt == "float32" then
      for i = base + 1, base + n * n do t.values[i] = string.unpack("<f", string.pack("<f", t.values[i])) end
    end
  end
  return t
end

local function linalg(name, op, fn, spd, extra)
  return {
    name = name, ops = { op },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = r.pick(gen.FLOATS)
      if grad then dt = "float64" end
      local batch = g.shape(r, r.range(0, 2), 2)
      local n = r.range(1, 4)
      local kind = spd and "spd" or "dominant"
      if not grad and r.chance(0.15) then kind = spd and "indefinite" or "singular" end
      local inputs = { matrices(r, g, dt, batch, n, kind) }
      if extra then
        local rs = g.copy(batch)
        rs[#rs + 1], rs[#rs + 2] = n, r.range(0, 3)
        if r.chance(0.04) then rs[#rs - 1] = n + 1 end
        inputs[2] = g.rand(r, dt, rs, "smooth")
      end
      return { inputs = inputs, attrs = { adjoint = r.chance(0.3) }, grad = grad }
    end,
    call = fn,
    grad = extra and { 1, 2 } or { 1 },
  }
end

-- equation, operand subscripts (for shapes)
local EQUATIONS = {
  "ij,jk->ik", "bij,bjk->bik", "ij->ji", "ii->", "ii->i", "i,j->ij", "ij->j", "ij,ij->", "i,i->",
  "...ij->...ji", "bi,bi->b", "ijk->kji", "ij,jk", "ij,kj->ik",
}

-- The Svd entries (see below): `static` ones take full_matrices and the
-- vectors' gradients, which need known dimensions.
local function svd_entry(name, static)
  return {
    name = name, ops = { "Svd" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = grad and "float64" or r.pick(gen.FLOATS)
      local shape = g.shape(r, r.range(0, 2), 2)
      local m, n = r.range(grad and 1 or 0, 4), r.range(grad and 1 or 0, 4)
      local full = static and r.chance(0.5) and (not grad or math.abs(m - n) <= 1)
      shape[#shape + 1], shape[#shape + 2] = m, n
      local uv = static or (not grad and r.chance(0.8))
      return { inputs = { g.rand(r, dt, shape, "smooth") }, attrs = { full = full, uv = uv }, grad = grad }
    end,
    call = function(a, x)
      if not a.uv then return tf.linalg.svd(x, a.full, false) end
      local s, u, v = tf.linalg.svd(x, a.full)
      if a.full then
        local r, p = #x.shape, s.shape[#s.shape - 1]
        local begin, size = {}, {}
        for i = 1, r do begin[i], size[i] = 0, -1 end
        size[r] = p
        u, v = tf.slice(u, begin, size), tf.slice(v, begin, size)
      end
      local _, uf, vf = tf.linalg.svd(x, a.full)
      return s, tf.matmul(u * tf.expand_dims(s, -2), v, { transpose_b = true }),
        tf.matmul(uf, uf, { transpose_a = true }), tf.matmul(vf, vf, { transpose_a = true })
    end,
    grad = { 1 },
    dynamic = not static,
  }
end

return {
  linalg("inv", "MatrixInverse", function(a, x) return tf.linalg.inv(x, a.adjoint) end),
  linalg("det", "MatrixDeterminant", function(_, x) return tf.linalg.det(x) end),
  linalg("solve", "MatrixSolve", function(a, m, rhs) return tf.linalg.solve(m, rhs, a.adjoint) end, false, true),
  linalg("cholesky", "Cholesky", function(_, x) return tf.linalg.cholesky(x) end, true),
  -- Svd: its vectors are unique only up to sign (and, for repeated
  -- values or full_matrices' extra columns, a rotation), LAPACK's and
  -- NumPy's differing: the cases compare what is unique, s, u diag(s) v^T
  -- (the input again), and u^T u and v^T v (identities); the gradient
  -- flows through s and all three outputs of the reconstruction.
  svd_entry("svd", false),
  -- full_matrices and the vectors' gradient: TF's _SvdGrad needs the
  -- inner matrix shape (NotImplementedError without it), so these run
  -- without the unknown-dimension way.
  svd_entry("svd_full", true),
  {
    name = "einsum", ops = { "Einsum" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = grad and "float64" or r.pick(gen.NUMERIC)
      local eq = r.pick(EQUATIONS)
      local dims = {}
      local lhs = eq:match("^([^-]*)")
      local inputs = {}
      for subs in lhs:gmatch("[^,]+") do
        local shape = {}
        if subs:sub(1, 3) == "..." then
          for _ = 1, r.range(0, 2) do shape[#shape + 1] = r.range(1, 3) end
          subs = subs:sub(4)
        end
        for ch in subs:gmatch(".") do
          dims[ch] = dims[ch] or r.range(1, 4)
          shape[#shape + 1] = dims[ch]
        end
        if r.chance(0.03) and #shape > 0 then shape[#shape] = shape[#shape] + 1 end -- mismatch
        inputs[#inputs + 1] = g.rand(r, dt, shape, grad and "smooth" or "finite")
      end
      return { inputs = inputs, attrs = { equation = eq }, grad = grad }
    end,
    call = function(a, ...) return tf.einsum(a.equation, ...) end,
    grad = "all",
  },
}
