-- check.lua — run by test_blas.sh in each way moonflow runs (the program,
-- stock lua5.4 with moonflow.so, the Jupyter kernel): prints one line
-- "kernel|reason|verdict", the kernel tf.config.blas() names, why, and
-- whether tf.matmul (float32 and float64, plain and transposed) and
-- tf.linalg.inv (LAPACK) agree with a loop in Lua to a tolerance: never
-- exact bits, which differ between kernels.
local tf = tf or require("moonflow")
local b = tf.config.blas()
local m, k, n = 37, 70, 45
local seed = 7
local function r()
  seed = (seed * 1103515245 + 12345) % 2147483648
  return (seed % 65536) / 32768 - 1
end
local A, B = {}, {}
for i = 1, m do
  A[i] = {}
  for j = 1, k do A[i][j] = r() end
end
for i = 1, k do
  B[i] = {}
  for j = 1, n do B[i][j] = r() end
end
-- |got - want| over the sum of |terms| (+1): the error a rounding of each
-- term can make, whatever order a kernel adds them in.
local worst = 0
local function product(C)
  for i = 1, m do
    for j = 1, n do
      local sum, mag = 0, 0
      for p = 1, k do
        local x = A[i][p] * B[p][j]
        sum, mag = sum + x, mag + math.abs(x)
      end
      worst = math.max(worst, math.abs(C[i][j] - sum) / (mag + 1))
    end
  end
end
local Bt = {}
for j = 1, n do
  Bt[j] = {}
  for p = 1, k do Bt[j][p] = B[p][j] end
end
for _, dt in ipairs({tf.float32, tf.float64}) do
  local a = tf.constant(A, dt)
  product(tf.matmul(a, tf.constant(B, dt)):numpy())
  product(tf.matmul(a, tf.constant(Bt, dt), {transpose_b = true}):numpy())
  -- inv(M) M = I for M = A A^T + k I, well conditioned
  local mm = tf.matmul(a, a, {transpose_b = true}) + tf.eye(m, {dtype = dt}) * k
  local id = tf.matmul(tf.linalg.inv(mm), mm):numpy()
  for i = 1, m do
    for j = 1, m do worst = math.max(worst, math.abs(id[i][j] - (i == j and 1 or 0))) end
  end
end
print(("%s|%s|%s"):format(b.kernel, b.reason, worst < 1e-5 and "right" or ("wrong by " .. worst)))
