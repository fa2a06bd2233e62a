-- nn.lua — MatMul BatchMatMulV2 Softmax LogSoftmax the two cross
-- entropies BiasAdd Conv2D ResizeBilinear, and (through their gradients,
-- whose graphs must contain them) BiasAddGrad Conv2DBackpropInput
-- Conv2DBackpropFilter ResizeBilinearGrad.

local function f32(v)
  if v ~= v or math.abs(v) > 3.4e38 then return v end
  return string.unpack("<f", string.pack("<f", v))
end

local function numbers(r, g, dt, shape, grad)
  if grad then return g.rand(r, dt, shape, "smooth") end
  return g.rand(r, dt, shape, gen.is_float(dt) and (r.chance(0.8) and "finite" or "any") or "finite")
end

local function data_dtype(r, grad, ints)
  if grad then return r.pick({ "float64", "float32" }) end
  return r.pick(ints and gen.NUMERIC or gen.FLOATS)
end

return {
  {
    name = "matmul", ops = { "MatMul" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad, true)
      local m, k, n = r.range(0, 4), r.range(0, 4), r.range(0, 4)
      local ta, tb = r.chance(0.3), r.chance(0.3)
      local k2 = r.chance(0.04) and k + 1 or k
      local sa = ta and { k, m } or { m, k }
      local sb = tb and { n, k2 } or { k2, n }
      return { inputs = { numbers(r, g, dt, sa, grad), numbers(r, g, dt, sb, grad) },
        attrs = { transpose_a = ta, transpose_b = tb }, grad = grad }
    end,
    call = function(a, x, y) return tf.matmul(x, y, { transpose_a = a.transpose_a, transpose_b = a.transpose_b }) end,
    grad = { 1, 2 },
    dynamic = false, -- tf.matmul picks MatMul or BatchMatMulV2 by the static rank
  },
  {
    name = "batch_matmul", ops = { "BatchMatMulV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad, true)
      local m, k, n = r.range(0, 3), r.range(1, 3), r.range(0, 3)
      local batch = g.shape(r, r.range(1, 2), 3)
      local ba, bb = {}, {}
      for i, d in ipairs(batch) do
        ba[i] = r.chance(0.3) and 1 or d
        bb[i] = r.chance(0.3) and 1 or d
      end
      if r.chance(0.3) then table.remove(bb, 1) end
      if r.chance(0.03) then ba[1] = ba[1] + 1; bb[1] = ba[1] + 1 end -- batch dims that do not broadcast
      local ta, tb = r.chance(0.3), r.chance(0.3)
      local sa, sb = g.copy(ba), g.copy(bb)
      sa[#sa + 1], sa[#sa + 2] = ta and k or m, ta and m or k
      sb[#sb + 1], sb[#sb + 2] = tb and n or k, tb and k or n
      return { inputs = { numbers(r, g, dt, sa, grad), numbers(r, g, dt, sb, grad) },
        attrs = { transpose_a = ta, transpose_b = tb }, grad = grad }
    end,
    call = function(a, x, y) return tf.matmul(x, y, { transpose_a = a.transpose_a, transpose_b = a.transpose_b }) end,
    grad = { 1, 2 },
    dynamic = false,
  },
  {
    name = "softmax", ops = { "Softmax" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local rank = r.range(1, 3)
      local dt = data_dtype(r, grad)
      return { inputs = { numbers(r, g, dt, g.shape(r, rank, 4), grad) },
        attrs = { axis = r.chance(0.5) and -1 or r.range(-rank, rank - 1) }, grad = grad }
    end,
    call = function(a, x) return tf.nn.softmax(x, a.axis) end,
    grad = { 1 },
  },
  {
    name = "log_softmax", ops = { "LogSoftmax" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local rank = r.range(1, 3)
      local dt = data_dtype(r, grad)
      return { inputs = { numbers(r, g, dt, g.shape(r, rank, 4), grad) },
        attrs = { axis = r.chance(0.5) and -1 or r.range(-rank, rank - 1) }, grad = grad }
    end,
    call = function(a, x) return tf.nn.log_softmax(x, a.axis) end,
    grad = { 1 },
  },
  {
    name = "softmax_cross_entropy", ops = { "SoftmaxCrossEntropyWithLogits" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad)
      local shape = { r.range(1, 4), r.range(1, 4) }
      -- each row a distribution, as TF requires (its gradient assumes it)
      local labels = g.rand(r, dt, shape, "positive")
      for i = 0, shape[1] - 1 do
        local sum = 0
        for j = 1, shape[2] do sum = sum + labels.values[i * shape[2] + j] end
        for j = 1, shape[2] do
          local v = labels.values[i * shape[2] + j] / sum
          labels.values[i * shape[2] + j] = dt == "float32" and f32(v) or v
        end
      end
      local logits = numbers(r, g, dt, shape, grad)
      -- other shapes: the op broadcasts them or raises; value cases only, as
      -- the labels' gradient would have the broadcast shape (TF's too)
      if not grad and r.chance(0.06) then logits = numbers(r, g, dt, { shape[1], shape[2] + 1 }, grad) end
      return { inputs = { labels, logits }, grad = grad }
    end,
    call = function(_, labels, logits) return tf.nn.softmax_cross_entropy_with_logits(labels, logits) end,
    grad = { 1, 2 },
  },
  {
    name = "sparse_softmax_cross_entropy", ops = { "SparseSoftmaxCrossEntropyWithLogits" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad)
      -- labels of any rank, logits with one more axis (the classes)
      local lshape = g.shape(r, r.range(0, 2), 3)
      local c = r.range(1, 4)
      local labels = {}
      for i = 1, g.size(lshape) do
        labels[i] = r.range(0, c - 1)
        if r.chance(0.03) then labels[i] = r.pick({ -1, c }) end -- out of range
      end
      local xshape = g.copy(lshape)
      xshape[#xshape + 1] = c
      return { inputs = { g.T(r.pick(gen.INTS), lshape, labels), numbers(r, g, dt, xshape, grad) }, grad = grad }
    end,
    call = function(_, labels, logits) return tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits) end,
    grad = { 2 },
  },
  {
    name = "bias_add", ops = { "BiasAdd", "BiasAddGrad" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad, true)
      local shape = g.shape(r, r.range(2, 4), 3)
      local c = shape[#shape]
      if r.chance(0.04) then c = c + 1 end
      return { inputs = { numbers(r, g, dt, shape, grad), numbers(r, g, dt, { c }, grad) }, grad = grad }
    end,
    call = function(_, x, b) return tf.nn.bias_add(x, b) end,
    grad = { 1, 2 },
  },
  {
    name = "conv2d", ops = { "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad)
      local n, h, w, c, o = r.range(1, 2), r.range(1, 6), r.range(1, 6), r.range(1, 3), r.range(1, 3)
      local kh, kw = r.range(1, 3), r.range(1, 3)
      local stride = r.range(1, 3)
      local dilation = stride == 1 and r.chance(0.3) and 2 or 1
      local padding = r.pick({ "VALID", "SAME" })
      local fc = r.chance(0.04) and c + 1 or c
      -- float32 3x3 stride-1 filters with 16 or more channels each way and
      -- 32 tiles of 4x4 outputs: the Winograd path (values only: finite
      -- differences at this size cost too much; test_conv.c checks the
      -- input gradient's use of it). Finite values: with 144+ products a
      -- sum, float32 overflow turns up, and a float32 sum of an overflowing
      -- product and an infinite one is NaN where the exact reference is
      -- infinite, on either path; test_conv.c checks non-finite inputs.
      if not grad and dt == "float32" and r.chance(0.3) then
        c, o, h, w = r.range(16, 19), r.range(16, 18), r.range(15, 20), r.range(15, 20)
        return { inputs = { g.rand(r, dt, { 2, h, w, c }, "finite"), g.rand(r, dt, { 3, 3, c, o }, "finite") },
          attrs = { stride = 1, padding = padding, dilation = 1 }, grad = false }
      end
      return { inputs = { numbers(r, g, dt, { n, h, w, c }, grad), numbers(r, g, dt, { kh, kw, fc, o }, grad) },
        attrs = { stride = stride, padding = padding, dilation = dilation }, grad = grad }
    end,
    call = function(a, x, f) return tf.nn.conv2d(x, f, a.stride, a.padding, "NHWC", a.dilation) end,
    grad = { 1, 2 },
  },
  {
    name = "depthwise_conv2d",
    ops = { "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad)
      local n, h, w, c, m = r.range(1, 2), r.range(1, 6), r.range(1, 6), r.range(1, 3), r.range(1, 3)
      local kh, kw = r.range(1, 3), r.range(1, 3)
      local stride = r.range(1, 3)
      local dilation = stride == 1 and r.chance(0.3) and 2 or 1
      local fc = r.chance(0.04) and c + 1 or c
      return { inputs = { numbers(r, g, dt, { n, h, w, c }, grad), numbers(r, g, dt, { kh, kw, fc, m }, grad) },
        attrs = { stride = stride, padding = r.pick({ "VALID", "SAME" }), dilation = dilation }, grad = grad }
    end,
    call = function(a, x, f) return tf.nn.depthwise_conv2d(x, f, a.stride, a.padding, "NHWC", a.dilation) end,
    grad = { 1, 2 },
  },
  {
    -- tf.nn.conv2d_transpose: Conv2DBackpropInput with output_shape as its
    -- input sizes; out_backprop has conv2d's output size for that shape
    name = "conv2d_transpose", ops = { "Conv2DBackpropInput" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt = data_dtype(r, grad)
      local n, h, w, c, o = r.range(1, 2), r.range(1, 6), r.range(1, 6), r.range(1, 3), r.range(1, 3)
      local kh, kw = r.range(1, 3), r.range(1, 3)
      local stride = r.range(1, 3)
      local padding = r.pick({ "VALID", "SAME" })
      local function out_size(x, k)
        if padding == "SAME" then return (x + stride - 1) // stride end
        local v = x - k + stride
        return v < 0 and -1 or v // stride
      end
      local oh, ow = out_size(h, kh), out_size(w, kw)
      if oh < 0 or ow < 0 then padding = "SAME"; oh, ow = out_size(h, kh), out_size(w, kw) end
      if r.chance(0.04) then oh = oh + 1 end -- sizes that do not match
      return { inputs = { numbers(r, g, dt, { n, oh, ow, o }, grad), numbers(r, g, dt, { kh, kw, c, o }, grad) },
        attrs = { out = { n, h, w, c }, stride = stride, padding = padding }, grad = grad }
    end,
    call = function(a, y, f) return tf.nn.conv2d_transpose(y, f, a.out, a.stride, a.padding) end,
    grad = { 1, 2 },
  },
  {
    name = "resize_bilinear", ops = { "ResizeBilinear", "ResizeBilinearGrad" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local shape = { r.range(1, 2), r.range(1, 5), r.range(1, 5), r.range(1, 2) }
      local x = numbers(r, g, "float32", shape, grad)
      for i, v in ipairs(x.values) do x.values[i] = f32(v) end
      return { inputs = { x }, attrs = { size = { r.range(1, 7), r.range(1, 7) } }, grad = grad }
    end,
    call = function(a, x) return tf.image.resize(x, a.size) end,
    grad = { 1 },
  },
}
