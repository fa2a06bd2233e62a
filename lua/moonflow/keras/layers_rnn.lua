-- layers_rnn.lua — Keras's recurrent layers: SimpleRNN, LSTM and GRU
-- over (batch, timesteps, features) input, with Keras's weights (kernel,
-- recurrent_kernel, bias; LSTM gates i, f, c, o; GRU gates z, r, h with
-- reset_after = true by default, its bias two rows: input and recurrent),
-- return_sequences and return_state. The loop over time is tf.while_loop:
-- eagerly a Lua loop, traced one While op whose body is one step (the
-- graph does not grow with the sequence), the outputs gathered in a
-- TensorArray, and differentiable both ways.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local control = require("moonflow.ops.control")
local base = require("moonflow.keras.base_layer")
local keras = require("moonflow.keras")
local util = require("moonflow.keras.layer_util")
local check = require("moonflow.keras.check")
local raise = errors.raise

local layers = {}
local F32 = dtypes.float32
local check_mask

local RNN_OPTIONS = { "activation", "recurrent_activation", "use_bias", "kernel_initializer",
  "recurrent_initializer", "bias_initializer", "dropout", "recurrent_dropout", "return_sequences", "return_state",
  "go_backwards" }

local function rnn_options(self, units, opts, what)
  util.named(self, opts)
  if math.type(units) ~= "integer" or units <= 0 then
    raise("ValueError", ("Received an invalid value for argument `units`, expected a positive integer, "
      .. "got %s."):format(tostring(units)), 4)
  end
  self.units = units
  local fname = "tf.keras.layers." .. getmetatable(self)._class_name
  for _, k in ipairs({ "use_bias", "return_sequences", "return_state", "go_backwards", "unit_forget_bias",
    "reset_after" }) do
    check.boolean(opts[k], fname, k)
  end
  -- Keras clips the rates into [0, 1]; a rate of 0 or 1 drops nothing.
  for _, k in ipairs({ "dropout", "recurrent_dropout" }) do
    self[k] = math.min(1.0, math.max(0.0, check.number(opts[k], fname, k) or 0.0))
  end
  self.go_backwards = opts.go_backwards or false
  self.activation = keras.activations.get(opts.activation or "tanh")
  self.recurrent_activation = keras.activations.get(opts.recurrent_activation or "sigmoid")
  self.use_bias = opts.use_bias ~= false
  self.kernel_initializer = util.initializer(opts.kernel_initializer, "glorot_uniform")
  self.recurrent_initializer = util.initializer(opts.recurrent_initializer, "orthogonal")
  self.bias_initializer = util.initializer(opts.bias_initializer, "zeros")
  self.return_sequences = opts.return_sequences or false
  self.return_state = opts.return_state or false
  self._cell = what
end

local function rnn_spec(...)
  local s = util.spec({ "units" }, ...)
  for _, n in ipairs(RNN_OPTIONS) do table.insert(s, #s - 1, n) end
  s.via[#s.via + 1] = rnn_options
  return s
end

-- The weights, named as Keras names them: <layer>/<cell>/kernel (the
-- layer's name scope is open in build).
local function build(self, x, gates, bias_shape, bias_init)
  local dims = util.check_ndim(self, x, 3)
  local features = dims[3]
  if features == nil or features == shapes.None then
    raise("ValueError", "The last dimension of the inputs to a recurrent layer should be defined. Found None.", 3)
  end
  local cell = self._cell
  util.add_weight(self, "kernel", { features, gates * self.units }, self.kernel_initializer, true, cell .. "/kernel")
  util.add_weight(self, "recurrent_kernel", { self.units, gates * self.units }, self.recurrent_initializer, true,
    cell .. "/recurrent_kernel")
  if self.use_bias then
    util.add_weight(self, "bias", bias_shape, bias_init or self.bias_initializer, true, cell .. "/bias")
  end
  self._features = features
end

local function float_input(x)
  x = ops.convert_to_tensor(x)
  if core.dtype(x) ~= F32 then x = ops.cast(x, F32) end
  return x
end

-- The call's options: training (dropout's switch), initial_state and mask.
local CALL_OPTIONS = { training = true, initial_state = true, mask = true }

-- Keras's dropout masks of a recurrent call in training: one for the
-- inputs (batch, features) and one for the state in the recurrent product
-- (batch, units), each drawn once and used at every step; kept values
-- scaled by 1 / (1 - rate). nil where the rate drops nothing.
local function dropout_masks(self, x, state, training)
  if not training then return {} end
  local function mask(rate, like)
    if rate <= 0 or rate >= 1 then return nil end
    return ops.nn.dropout(ops.ones_like(like), rate)
  end
  return { input = mask(self.dropout, ops.reduce_sum(x, 1)), recurrent = mask(self.recurrent_dropout, state) }
end
local function masked(t, m) return m and t * m or t end

-- Runs step(x_t, states) -> output, new states over the time axis of x.
-- Returns the outputs (all steps with return_sequences, else the last)
-- and the final states. Every step's output is gathered in a carried
-- (steps, batch, units) tensor, step t's row added through a 0/1 mask:
-- plain ops, so the traced loop's gradient needs no TensorArray (whose
-- traced gradient inside a While fails here) and eager values are exact.
local function loop(self, x, states, step, mask)
  local x_tm = ops.transpose(x, { 1, 0, 2 })
  -- A mask (batch, steps): at a masked step the states stay and the
  -- output repeats the last one (Keras's rnn with zero_output_for_mask
  -- false); kept as 0/1 floats, steps first.
  local keep_tm = mask and ops.transpose(ops.cast(mask, F32), { 1, 0 })
  local steps = x.shape:as_list()[2]
  local static_steps = math.type(steps) == "integer" and steps >= 0
  if not static_steps then steps = ops.shape(x)[1] end
  local n = #states
  local last = mask and ops.zeros_like(states[1]) or states[1]
  local vars = { ops.constant(0), last }
  for i = 1, n do vars[#vars + 1] = states[i] end
  local positions
  if self.return_sequences then
    positions = ops.reshape(ops.range(0, steps), { -1, 1, 1 })
    vars[#vars + 1] = ops.expand_dims(ops.zeros_like(last), 0) * ops.cast(positions, F32)
  end
  local out = table.pack(control.while_loop(function(i) return ops.less(i, steps) end, function(i, previous, ...)
    local carried = { ... }
    local output, new = step(ops.gather(x_tm, i), table.move(carried, 1, n, 1, {}))
    if keep_tm then
      -- new * 1 + old * 0 is new exactly, and the other way round.
      local keep = ops.expand_dims(ops.gather(keep_tm, i), 1)
      local drop = 1 - keep
      output = output * keep + previous * drop
      for k = 1, n do new[k] = new[k] * keep + carried[k] * drop end
    end
    local next_vars = { i + 1, output }
    for k = 1, n do next_vars[#next_vars + 1] = new[k] end
    if positions then
      local at = ops.cast(ops.equal(positions, i), F32)
      next_vars[#next_vars + 1] = carried[n + 1] + at * ops.expand_dims(output, 0)
    end
    return table.unpack(next_vars)
  end, vars))
  local final = table.move(out, 3, 2 + n, 1, {})
  local outputs = out[2]
  if positions then
    outputs = ops.transpose(out[3 + n], { 1, 0, 2 })
    -- Traced, the carried tensor's shape is not static; the steps and
    -- units are known (a functional model's output shape needs them).
    if static_steps then outputs = ops.reshape(outputs, { -1, steps, self.units }) end
  end
  return outputs, final
end

local function zeros_state(self, x)
  local batch = x.shape:as_list()[1]
  if batch == nil or batch == shapes.None then
    return ops.fill(ops.stack({ ops.shape(x)[0], ops.constant(self.units) }), ops.constant(0, F32))
  end
  return ops.zeros({ batch, self.units }, F32)
end

-- The common call: convert, build, initial states, loop, Keras's results.
local function call(self, x, opts, n_states, step, what)
  local o = util.call_options(opts, what, CALL_OPTIONS)
  x = float_input(x)
  util.check_ndim(self, x, 3)
  -- Keras's go_backwards: the steps run from the last (the mask reversed
  -- with them), and the outputs stay in the order they were made.
  if self.go_backwards then x = ops.reverse(x, { 1 }) end
  local states = {}
  if o.initial_state ~= nil then
    local given = o.initial_state
    if core.is_tensor(given) then given = { given } end
    if type(given) ~= "table" or #given ~= n_states then
      raise("ValueError", ("An `initial_state` was passed that is not compatible with `cell.state_size`. "
        .. "Received `state_spec`=%d states; however `cell.state_size` is %d"):format(
          type(given) == "table" and #given or 1, n_states), 3)
    end
    for i = 1, n_states do states[i] = float_input(given[i]) end
  else
    for i = 1, n_states do states[i] = zeros_state(self, x) end
  end
  local masks = dropout_masks(self, x, states[1], o.training)
  local mask = o.mask ~= nil and check_mask(self, o.mask, x) or nil
  if mask ~= nil and self.go_backwards then mask = ops.reverse(mask, { 1 }) end
  local outputs, final = loop(self, x, states, function(xt, s) return step(xt, s, masks) end, mask)
  if self.return_state then return outputs, table.unpack(final, 1, n_states) end
  return outputs
end

-- A call's mask: (batch, steps) as the input's first two dimensions.
check_mask = function(self, mask, x)
  mask = ops.convert_to_tensor(mask)
  local dims, want = mask.shape:as_list(), x.shape:as_list()
  local ok = #dims == 2
  for i = 1, 2 do
    local a, b = dims[i], want[i]
    if ok and math.type(a) == "integer" and math.type(b) == "integer" and a >= 0 and b >= 0 and a ~= b then ok = false end
  end
  if not ok then
    raise("ValueError", ('Layer "%s": the mask must be shaped (batch, timesteps) as the input %s, got %s')
      :format(self.name, tostring(x.shape), tostring(mask.shape)), 4)
  end
  return mask
end

-- Keras's RNN.compute_mask: the input's mask for every step's output
-- (return_sequences), none for the last one; none for the states.
local function compute_mask(self, _, mask)
  if self.return_sequences then return mask end
  return nil
end

local function matmul_bias(x, w, b)
  local y = ops.matmul(x, w)
  if b ~= nil then y = y + b end
  return y
end

local RNN_TEXT = "go_backwards runs the steps from the last (the outputs in that order, as Keras's). In "
  .. "training (the call's training = true) dropout drops input features and recurrent_dropout the state in "
  .. "the recurrent products, each with one mask for all the steps (rates in [0, 1), default 0). A mask "
  .. "(the call's {mask = bools shaped (batch, timesteps)}, or the one a Sequential or functional model "
  .. "passes on from Embedding(mask_zero) or Masking) skips the masked steps: the states stay and the output "
  .. "repeats the last one."

-- SimpleRNN ------------------------------------------------------------------------
local SimpleRNN = base.Layer:extend("SimpleRNN")
layers.SimpleRNN = SimpleRNN
SimpleRNN._call_options = { initial_state = true }
options.init(SimpleRNN, "tf.keras.layers.SimpleRNN(units [, {activation=, use_bias=, kernel_initializer=, "
  .. "recurrent_initializer=, bias_initializer=, dropout=, recurrent_dropout=, return_sequences=, return_state=, "
  .. "go_backwards=, trainable=, name=}])",
  "A fully connected recurrent layer: h_t = activation(x_t·kernel + h_{t-1}·recurrent_kernel + bias) "
  .. "(tanh by default). Called on (batch, timesteps, features): the last output (batch, units), or every "
  .. "step's (batch, timesteps, units) with return_sequences; with return_state the final state follows "
  .. "as a second result (on a KerasTensor: as many KerasTensors). Options of the call: {initial_state = "
  .. "h0, training =}; initial_state may hold KerasTensors (another layer's states, as a seq2seq decoder's). "
  .. RNN_TEXT,
  rnn_spec(), function(self, units, opts)
  rnn_options(self, units, opts, "simple_rnn_cell")
end)
SimpleRNN.supports_masking = true
SimpleRNN.compute_mask = compute_mask
function SimpleRNN:build(x) build(self, x, 1, { self.units }) end
function SimpleRNN:call(x, opts)
  return call(self, x, opts, 1, function(xt, s, m)
    local h = self.activation(matmul_bias(masked(xt, m.input), self.kernel, self.bias)
      + ops.matmul(masked(s[1], m.recurrent), self.recurrent_kernel))
    return h, { h }
  end, "SimpleRNN")
end

-- LSTM -------------------------------------------------------------------------------
local LSTM = base.Layer:extend("LSTM")
layers.LSTM = LSTM
LSTM._call_options = { initial_state = true }
options.init(LSTM, "tf.keras.layers.LSTM(units [, {activation=, recurrent_activation=, use_bias=, "
  .. "kernel_initializer=, recurrent_initializer=, bias_initializer=, unit_forget_bias=, dropout=, "
  .. "recurrent_dropout=, return_sequences=, return_state=, go_backwards=, trainable=, name=}])",
  "Long short-term memory (Hochreiter 1997) as Keras computes it: z = x_t·kernel + h·recurrent_kernel + "
  .. "bias split into the gates i, f, c, o; c_t = f c + i tanh(z_c), h_t = o tanh(c_t) (activation tanh, "
  .. "recurrent_activation sigmoid). unit_forget_bias (default true) starts the forget gate's bias at 1. "
  .. "Results as SimpleRNN's; with return_state the final h and c follow. " .. RNN_TEXT,
  rnn_spec("unit_forget_bias"), function(self, units, opts)
  rnn_options(self, units, opts, "lstm_cell")
  self.unit_forget_bias = opts.unit_forget_bias ~= false
end)
LSTM.supports_masking = true
LSTM.compute_mask = compute_mask
function LSTM:build(x)
  local u, bias_init = self.units, self.bias_initializer
  local init = bias_init
  if self.unit_forget_bias then
    -- Keras: the bias initializer for i, ones for f, the initializer for c and o.
    init = function(_, dtype)
      return ops.concat({ bias_init({ u }, dtype), ops.ones({ u }, dtype), bias_init({ 2 * u }, dtype) }, 0)
    end
  end
  build(self, x, 4, { 4 * u }, init)
end
function LSTM:call(x, opts)
  local u = self.units
  return call(self, x, opts, 2, function(xt, s, m)
    local h, c = s[1], s[2]
    local z = matmul_bias(masked(xt, m.input), self.kernel, self.bias)
      + ops.matmul(masked(h, m.recurrent), self.recurrent_kernel)
    local zi, zf, zc, zo = table.unpack(ops.split(z, { u, u, u, u }, 1))
    local i, f, o = self.recurrent_activation(zi), self.recurrent_activation(zf), self.recurrent_activation(zo)
    local c_new = f * c + i * self.activation(zc)
    local h_new = o * self.activation(c_new)
    return h_new, { h_new, c_new }
  end, "LSTM")
end

-- GRU ----------------------------------------------------------------------------------
local GRU = base.Layer:extend("GRU")
layers.GRU = GRU
GRU._call_options = { initial_state = true }
options.init(GRU, "tf.keras.layers.GRU(units [, {activation=, recurrent_activation=, use_bias=, "
  .. "kernel_initializer=, recurrent_initializer=, bias_initializer=, reset_after=, dropout=, "
  .. "recurrent_dropout=, return_sequences=, return_state=, go_backwards=, trainable=, name=}])",
  "Gated recurrent unit (Cho 2014) as Keras computes it, gates z, r, h: z = σ(x W_z + h U_z + b), "
  .. "r = σ(x W_r + h U_r + b), h̃ = tanh(x W_h + r ⊙ (h U_h + b_rec)) with reset_after = true (the default, "
  .. "bias shaped (2, 3 units): input and recurrent) or tanh(x W_h + (r ⊙ h) U_h + b) with reset_after = "
  .. "false; h_t = z h + (1 - z) h̃. Results as SimpleRNN's. " .. RNN_TEXT,
  rnn_spec("reset_after"), function(self, units, opts)
  rnn_options(self, units, opts, "gru_cell")
  self.reset_after = opts.reset_after ~= false
end)
GRU.supports_masking = true
GRU.compute_mask = compute_mask
function GRU:build(x)
  local u = self.units
  build(self, x, 3, self.reset_after and { 2, 3 * u } or { 3 * u })
end
function GRU:call(x, opts)
  local u = self.units
  return call(self, x, opts, 1, function(xt, s, m)
    local h = s[1]
    -- Dropout masks the input and the state in the recurrent products; the
    -- update mixes the unmasked state, as Keras's cell.
    local hr = masked(h, m.recurrent)
    -- Read in the step: a traced loop body is a graph of its own.
    local b_in, b_rec = self.bias, nil
    if self.bias and self.reset_after then b_in, b_rec = ops.gather(self.bias, 0), ops.gather(self.bias, 1) end
    local xz, xr, xh = table.unpack(ops.split(matmul_bias(masked(xt, m.input), self.kernel, b_in), { u, u, u }, 1))
    local uz, ur, uh = table.unpack(ops.split(self.recurrent_kernel, { u, u, u }, 1))
    local z, r, hh
    if self.reset_after then
      local inner = matmul_bias(hr, self.recurrent_kernel, b_rec)
      local rz, rr, rh = table.unpack(ops.split(inner, { u, u, u }, 1))
      z = self.recurrent_activation(xz + rz)
      r = self.recurrent_activation(xr + rr)
      hh = self.activation(xh + r * rh)
    else
      z = self.recurrent_activation(xz + ops.matmul(hr, uz))
      r = self.recurrent_activation(xr + ops.matmul(hr, ur))
      hh = self.activation(xh + ops.matmul(r * hr, uh))
    end
    local h_new = z * h + (1 - z) * hh
    return h_new, { h_new }
  end, "GRU")
end

return { layers = layers }
