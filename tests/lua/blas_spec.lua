-- blas_spec.lua — tf.config.blas(): the OpenBLAS kernel in use and why
-- (core/run/blas.h). The choice itself, in every way moonflow runs, is
-- tests/blas/test_blas.sh's.
describe("tf.config.blas", function()
  it("names the kernel OpenBLAS runs, why, the library and the cost", function()
    local b = tf.config.blas()
    assert.is_string(b.kernel)
    assert.is_truthy(b.kernel:match("^%w+$"))
    -- OpenBLAS's own configuration string names the kernel it loaded
    assert.is_truthy(b.config:find(b.kernel, 1, true))
    if os.getenv("OPENBLAS_CORETYPE") and os.getenv("OPENBLAS_CORETYPE") ~= "" then
      assert.are.equal("OPENBLAS_CORETYPE set by the user", b.reason)
    else
      assert.is_truthy(b.reason:match("; verified$") or b.reason:match("^OpenBLAS"))
    end
    assert.is_truthy(b.library:find("openblas", 1, true))
    assert.is_string(b.cpu)
    assert.is_true(b.seconds > 0)
  end)

  it("is the same answer each time", function()
    local a, b = tf.config.blas(), tf.config.blas()
    assert.are.same(a, b)
  end)

  it("has a docstring", function()
    assert.is_truthy(tf.help(tf.config.blas):find("OPENBLAS_CORETYPE", 1, true))
  end)
end)
