-- einsum.lua — the einsum family (core/ops/ops_einsum.c): tf.einsum, its
-- equation resolved as TF's _einsum_v2 does (implicit output made
-- explicit), and more than two operands contracted pairwise.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local raise = errors.raise

local op = core.op
local H = state.H
local to_tensor = core_ops.to_tensor

local M = {}

-- Label characters in byte order (Python's sorted on str).
local function sorted_chars(set)
  local list = {}
  for ch in pairs(set) do list[#list + 1] = ch end
  table.sort(list, function(a, b) return a:byte() < b:byte() end)
  return table.concat(list)
end

-- TF's _einsum_v2_parse_and_resolve_equation: spaces dropped, and an
-- implicit output made explicit (the labels used once, sorted, after "..."
-- when an input has one).
local function resolve_equation(equation, n)
  equation = equation:gsub(" ", "")
  local lhs, arrow = equation:match("^([%a,%.]+)(.*)$")
  if not lhs or (arrow ~= "" and not arrow:match("^%->[%a%.]*$")) then
    raise("ValueError", "Indices have incorrect format. Received: " .. equation .. ".", 4)
  end
  local inputs = {}
  for term in (lhs .. ","):gmatch("([^,]*),") do inputs[#inputs + 1] = term end
  if #inputs ~= n then
    raise("ValueError", ('Got %d arguments for equation "%s", expecting %d.'):format(n, equation, #inputs), 4)
  end
  if arrow ~= "" then return equation, inputs, arrow:sub(3) end
  local counts, ellipsis = {}, false
  for _, term in ipairs(inputs) do
    if term:find("...", 1, true) then ellipsis = true end
    for ch in term:gmatch("%a") do counts[ch] = (counts[ch] or 0) + 1 end
  end
  local once = {}
  for ch, k in pairs(counts) do if k == 1 then once[ch] = true end end
  local output = (ellipsis and "..." or "") .. sorted_chars(once)
  return lhs .. "->" .. output, inputs, output
end

local function einsum_op(equation, operands, name)
  return op(H.Einsum, { equation = equation, name = name }, table.unpack(operands))
end

-- More than two operands: contracted left to right, each step keeping the
-- labels a later operand or the output still needs (TF asks opt_einsum
-- for an order; the values agree up to rounding).
local function einsum_chain(inputs, output, operands, name)
  local acc, acc_subs = operands[1], inputs[1]
  for i = 2, #operands do
    local later = output
    for j = i + 1, #inputs do later = later .. inputs[j] end
    local keep, seen = {}, {}
    local ellipsis = (acc_subs .. inputs[i]):find("...", 1, true) ~= nil
    if ellipsis then keep[1] = "..." end
    for ch in (acc_subs .. inputs[i]):gmatch("%a") do
      if not seen[ch] and later:find(ch, 1, true) then keep[#keep + 1] = ch end
      seen[ch] = true
    end
    local subs = i == #operands and output or table.concat(keep)
    acc = einsum_op(acc_subs .. "," .. inputs[i] .. "->" .. subs, { acc, operands[i] },
      i == #operands and name or nil)
    acc_subs = subs
  end
  return acc
end

M.einsum = common.op_def("Einsum", function(equation, ...)
  local args = table.pack(...)
  local opts = args[args.n]
  if type(opts) == "table" and not core.is_tensor(opts) and opts[1] == nil and next(opts) ~= nil then
    args.n = args.n - 1
  else
    opts = {}
  end
  if type(equation) ~= "string" then
    raise("TypeError", "tf.einsum: the equation must be a string, got a " .. type(equation), 2)
  end
  local _ = opts.optimize -- TF's contraction-order hint: moonflow's order is fixed
  local operands = {}
  for i = 1, args.n do operands[i] = to_tensor(args[i]) end
  local resolved, inputs, output = resolve_equation(equation, #operands)
  if #operands <= 2 then return einsum_op(resolved, operands, opts.name) end
  return einsum_chain(inputs, output, operands, opts.name)
end, "tf.einsum(equation, ...)",
"Examples: 'ij,jk->ik' (matmul), 'bij,bjk->bik', 'ij->ji', 'ii->' (trace), 'ii->i' (diagonal), "
.. "'i,j->ij' (outer), 'ij->j' (sum), '...ij->...ji'; implicit output allowed; more than two operands are "
.. "contracted left to right.",
{ required = 1, vararg = true, "optimize", "name" })

M.namespaces = { tf = { "einsum" }, linalg = { "einsum" } }

return M
