-- io: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.io.decode_csv"] = {
    example = [[
local cols = tf.io.decode_csv(tf.constant({"1,2.5,a", "3,,b"}), {0, 1.0, ""})
print(cols[1])
print(cols[2])
print(cols[3])
]],
    output = [[
tf.Tensor([1 3], shape=(2,), dtype=int32)
tf.Tensor([2.5 1. ], shape=(2,), dtype=float32)
tf.Tensor([b'a' b'b'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[tf.io.decode_csv(tf.constant({"1,x"}), {0, 0})]], type = "InvalidArgumentError", message = "Field 1 in record 0 is not a valid int32: x" },
      { code = [[tf.io.decode_csv(tf.constant({"1,2,3"}), {0, 0})]], type = "InvalidArgumentError", message = "Expect 2 fields but have 3 in record 0" },
    },
  },
  ["tf.io.read_npy"] = {
    example = [[
local path = os.tmpname() .. ".npy"
tf.io.write_npy(path, tf.constant({{1.5, 2.5}}))
print(tf.io.read_npy(path))
os.remove(path)
]],
    output = [=[
tf.Tensor([[1.5 2.5]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.io.read_npy("/nonexistent/x.npy")]], type = "NotFoundError", message = "cannot open '/nonexistent/x.npy': No such file or directory" },
      { code = [[tf.io.read_npy(42)]], type = "TypeError", message = "tf.io.read_npy: argument 'path' must be a string, got a number" },
    },
  },
  ["tf.io.read_npz"] = {
    example = [[
-- an .npz is a zip of .npy files (NumPy's np.savez); here one made of
-- two files tf.io.write_npy wrote, zipped by Python's zipfile
local a, b = os.tmpname() .. ".npy", os.tmpname() .. ".npy"
tf.io.write_npy(a, tf.constant({1, 2}))
tf.io.write_npy(b, tf.eye(2))
local path = os.tmpname() .. ".npz"
os.execute(("python3 -c \"import zipfile; z = zipfile.ZipFile('%s', 'w'); "
  .. "z.write('%s', 'a.npy'); z.write('%s', 'b.npy'); z.close()\""):format(path, a, b))
local arrays = tf.io.read_npz(path)
print(arrays.a)
print(arrays.b)
os.remove(a); os.remove(b); os.remove(path)
]],
    output = [=[
tf.Tensor([1 2], shape=(2,), dtype=int32)
tf.Tensor(
[[1. 0.]
 [0. 1.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.io.read_npz("/nonexistent/x.npz")]], type = "NotFoundError", message = "cannot open '/nonexistent/x.npz': No such file or directory" },
    },
  },
  ["tf.io.write_npy"] = {
    example = [[
local path = os.tmpname() .. ".npy"
tf.io.write_npy(path, tf.constant({1, 2, 3}, tf.int64))
local f = io.open(path, "rb")
print(f:read(6) == "\x93NUMPY")
f:close()
print(tf.io.read_npy(path))
os.remove(path)
]],
    output = [[
true
tf.Tensor([1 2 3], shape=(3,), dtype=int64)
]],
    errors = {
      { code = [[tf.io.write_npy("/nonexistent/dir/x.npy", tf.constant(1))]], type = "NotFoundError", message = "cannot write '/nonexistent/dir/x.npy': No such file or directory" },
    },
  },
  ["tf.saved_model.SaveOptions"] = {
    example = [[
print(tf.saved_model.SaveOptions())
print(tf.saved_model.SaveOptions({ experimental_custom_gradients = false }))
]],
    output = [[
SaveOptions(experimental_custom_gradients=True)
SaveOptions(experimental_custom_gradients=False)
]],
    errors = {
      { code = [[tf.saved_model.SaveOptions({ custom_gradients = false })]], type = "TypeError", message = "tf.saved_model.SaveOptions got an unexpected keyword argument" },
    },
  },
  ["tf.saved_model.load"] = {
    example = [[
local Scale = tf.Module:extend("Scale")
function Scale:init() self.k = tf.Variable(3.0) end
Scale.__call = tf.func(function(self, x) return self.k * x end,
  { input_signature = { tf.TensorSpec({}, tf.float32) } })
local dir = os.tmpname()
os.remove(dir)
tf.saved_model.save(Scale(), dir)
local loaded = tf.saved_model.load(dir)
print(loaded(tf.constant(2.0)))
os.execute("rm -r " .. dir)
]],
    output = [[
tf.Tensor(6.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.saved_model.load("/nonexistent/model")]], type = "NotFoundError", message = "cannot open saved program '/nonexistent/model': No such file or" },
    },
  },
  ["tf.saved_model.save"] = {
    example = [[
local M = tf.Module:extend("M")
function M:init() self.v = tf.Variable({1.0, 2.0}) end
M.f = tf.func(function(self, x) return x + self.v end,
  { input_signature = { tf.TensorSpec({2}, tf.float32) } })
local dir = os.tmpname()
os.remove(dir)
local m = M()
tf.saved_model.save(m, dir, { signatures = { serving_default = m.f } })
local loaded = tf.saved_model.load(dir)
print(loaded.signatures.serving_default(tf.constant({1.0, 1.0})))
os.execute("rm -r " .. dir)
]],
    output = [[
tf.Tensor([2. 3.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[
local M = tf.Module:extend("M")
M.f = tf.func(function(self, x) return x end)
local m = M()
tf.saved_model.save(m, os.tmpname(), { signatures = { serving_default = M.f } })]], type = "ValueError", message = "tf.saved_model.save: signature 'serving_default' is the method 'f'" },
      { code = [[tf.saved_model.save(42, os.tmpname())]], type = "ValueError", message = "Expected an object of type `Trackable`, such as `tf.Module` or a" },
    },
  },
  ["tf.train.Checkpoint"] = {
    example = [[
local v = tf.Variable({1.0, 2.0})
local dir = os.tmpname()
os.remove(dir)
local ckpt = tf.train.Checkpoint({ weights = v })
local path = ckpt:write(dir)
v:assign({0.0, 0.0})
ckpt:read(path)
print(v)
os.execute("rm -r " .. dir)
]],
    output = [[
<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>
]],
    errors = {
      { code = [[tf.train.Checkpoint({ weights = 42 })]], type = "ValueError", message = "`Checkpoint` was expecting weights to be a trackable object (an object" },
      { code = [[tf.train.Checkpoint({ weights = tf.Variable(1.0) }):read("/nonexistent/ckpt")]], type = "NotFoundError", message = "cannot open saved program '/nonexistent/ckpt': No such file or directory" },
    },
  },
  ["tf.onnx.export"] = {
    example = [[
local M = tf.Module:extend("M")
function M:init() self.w = tf.Variable({{2.0}}) end
M.__call = tf.func(function(self, x) return tf.matmul(x, self.w) end,
  { input_signature = { tf.TensorSpec({tf.None, 1}, tf.float32) } })
local path = os.tmpname() .. ".onnx"
print(tf.onnx.export(M(), path) == path)
local f = io.open(path, "rb")
print(#f:read("a") > 0)
f:close()
os.remove(path)
]],
    output = [[
true
true
]],
    errors = {
      { code = [[tf.onnx.export(42, os.tmpname())]], type = "TypeError", message = "tf.onnx.export expects a concrete function, a traced tf.func or a" },
    },
  },
}
