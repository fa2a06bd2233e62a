"""A tracing session at the REPL: a tf.func typed over several lines,
called with three signatures; %sig lists three traces, %eager on runs the
Lua print on every call, %eager off restores tracing, %graph shows the ops,
%trace explains, and a function typed interactively is AutoGraph-converted."""
import unittest

from replkit import CONTINUATION, PROMPT, ReplSession


class TracingSession(ReplSession, unittest.TestCase):
    timeout = 30
    dimensions = (50, 250)

    def define_double(self):
        self.repl.sendline("double = tf.func(function(a)")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline('  print("Tracing with", a)')
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("  return a + a")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("end)")
        self.repl.expect_exact(PROMPT)

    def test_three_signatures_sig_eager_graph(self):
        self.define_double()
        out = self.run_line("double(tf.constant(1))")
        self.assertIn('[trace double#1] Tracing with\tTensor("a:0", shape=(), dtype=int32)', out)
        self.assertIn("<tf.Tensor: shape=(), dtype=int32, numpy=2>", out)
        self.assertIn("[trace double#2] Tracing with", self.run_line("double(tf.constant(1.5))"))
        self.assertIn("[trace double#3] Tracing with", self.run_line('double(tf.constant("a"))'))
        self.assertNotIn("Tracing", self.run_line("double(tf.constant(7))"))

        sig = self.run_line("%sig double")
        self.assertIn("double: 3 traces", sig)
        for dt in ("int32", "float32", "string"):
            self.assertIn("a (POSITIONAL): TensorSpec(shape=(), dtype=tf.%s, name=None)" % dt, sig)

        self.assertIn("Eager mode is on", self.run_line("%eager on"))
        for _ in range(2):
            out = self.run_line("double(tf.constant(1))")
            self.assertIn("Tracing with\ttf.Tensor(1, shape=(), dtype=int32)", out)
            self.assertNotIn("[trace", out)
        self.assertIn("Eager mode is off", self.run_line("%eager off"))
        self.assertNotIn("Tracing", self.run_line("double(tf.constant(1))"))
        self.assertIn("[trace double#4]", self.run_line("double(tf.constant({1, 2}))"))

        graph = self.run_line("%graph double tf.constant(1.0)")
        self.assertIn("graph double: 3 ops", graph)
        self.assertIn("Placeholder", graph)
        self.assertIn("AddV2(a:0, a:0)", graph)
        self.assertIn("Identity", graph)

        trace = self.run_line("%trace double")
        self.assertIn("#1 at", trace)
        self.assertIn("why: first call", trace)
        self.assertIn("why: trace #1 differs in a: dtype int32 -> float32", trace)
        self.assertIn("why: closest earlier trace #2 (of 2) differs in a: dtype float32 -> string", trace)

    def test_interactive_function_is_converted(self):
        self.repl.sendline("f = tf.func(function(x)")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("  if x > 0 then return x * 2 end")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("  return -x")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("end)")
        self.repl.expect_exact(PROMPT)
        self.assertIn("numpy=6.0", self.run_line("f(tf.constant(3.0))"))
        self.assertIn("numpy=2.0", self.run_line("f(tf.constant(-2.0))"))
        code = self.run_line("print(tf.autograph.to_code(f))")
        self.assertIn("ag__.if_return(ag__.gt(x, 0)", code)


if __name__ == "__main__":
    unittest.main()
