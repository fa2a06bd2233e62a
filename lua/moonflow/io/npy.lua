-- npy.lua — tf.io: NumPy .npy / .npz files, so arrays move between moonflow
-- and NumPy (np.load / np.save) with no converter. Supported dtypes:
-- float32, float64, int32, int64, bool (C order); big-endian files are
-- converted on reading; string tensors are refused (see core/tensor/npy.h).

local core = require("moonflow.core")
local doc = require("moonflow.doc")
local argcheck = require("moonflow.argcheck")

local M = {}

local function as_tensor(t)
  if core.is_tensor(t) then return t end
  local mt = getmetatable(t)
  -- a tf.Variable (asking any other object for read_value is an AttributeError)
  if type(t) == "table" and type(mt) == "table" and mt.__tf_tensor then return mt.__tf_tensor(t) end
  return core.convert(t)
end

M.write_npy = doc.def(function(path, t)
  argcheck.string(path, "tf.io.write_npy", "path")
  core.npy_write(path, as_tensor(t))
end, "tf.io.write_npy(path, tensor)",
"Writes a tensor (or variable, or Lua value) as a NumPy .npy file that np.load reads. "
.. "float32, float64, int32, int64 and bool; a string tensor is a TypeError.")

M.read_npy = doc.def(function(path)
  argcheck.string(path, "tf.io.read_npy", "path")
  return core.npy_read(path)
end, "tf.io.read_npy(path)",
"Reads a NumPy .npy file (np.save's format, versions 1.0-3.0, C order) as an eager tensor. "
.. "Malformed files raise InvalidArgumentError; dtypes moonflow lacks raise TypeError.")

M.read_npz = doc.def(function(path)
  argcheck.string(path, "tf.io.read_npz", "path")
  local arrays = core.npz_read(path)
  return arrays
end, "tf.io.read_npz(path)",
"Reads a NumPy .npz archive (np.savez / np.savez_compressed) as a table name -> tensor.")

return M
