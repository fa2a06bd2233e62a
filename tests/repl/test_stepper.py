"""%step at the REPL: a prompt of its own reads stepper commands (help lists
them), p prints a full value, set replaces one and runs again what read it,
nan stops at the first NaN, q and the end return to the session, Ctrl-C
leaves it."""
import unittest

from replkit import PROMPT, ReplSession

STEP = "(step) "


class StepperSession(ReplSession, unittest.TestCase):
    timeout = 30

    def step_line(self, line, expect=STEP):
        self.repl.sendline(line)
        self.repl.expect_exact(expect)
        out = self.repl.before.replace("\r\n", "\n")
        return out[len(line) + 1:] if out.startswith(line + "\n") else out

    def define(self):
        self.run_line("sf = tf.func(function(x) local y = x * 2; local d = y - 3; return tf.math.log(d) end)")

    def test_prompt_commands(self):
        self.define()
        out = self.step_line("%step sf tf.constant({1.0, 2.0})")
        self.assertIn("at the start of sf", out)
        out = self.step_line("help")
        self.assertIn("b NAME|LINE", out)
        self.assertIn("o              run the next node over", out)
        out = self.step_line("n")
        self.assertIn("step 1: mul (Mul) in sf", out)
        self.assertIn("out mul:0 = [2 4]", out)
        self.assertIn("tf.Tensor([2. 4.], shape=(2,), dtype=float32)", self.step_line("p mul"))
        out = self.step_line("n")
        self.assertIn("out sub:0 = [-1 1]", out)
        out = self.step_line("set mul tf.constant({5.0, 6.0})")
        self.assertIn("mul set; ran again: sub", out)
        self.assertIn("out sub:0 = [2 3]", out)
        self.assertIn("UsageError", self.step_line("frobnicate"))
        out = self.step_line("c", PROMPT)
        self.assertIn("finished after 4 steps: returned [0.693147182 1.09861231]", out)
        # back at the session's prompt
        self.assertIn("3", self.run_line("print(1 + 2)"))

    def test_nan_and_quit(self):
        self.define()
        self.step_line("%step sf tf.constant({1.0, 2.0})")
        out = self.step_line("nan")
        self.assertIn("Log", out)
        self.assertIn("NaN/Inf!", out)
        self.step_line("q", PROMPT)
        self.assertIn("3", self.run_line("print(1 + 2)"))

    def test_ctrl_c_leaves_the_stepper(self):
        self.define()
        self.step_line("%step sf tf.constant({1.0, 2.0})")
        self.repl.sendcontrol("c")
        self.repl.expect_exact(PROMPT)
        self.assertIn("3", self.run_line("print(1 + 2)"))


class TraceDiffSession(ReplSession, unittest.TestCase):
    timeout = 30

    def test_trace_diff_prints_plus_minus_lines(self):
        self.run_line("td = tf.func(function(x, flag) if flag then return x * 2 else return x + 1 end end)")
        self.run_line("td(tf.constant({1.0, 2.0}), true)")
        self.run_line("td(tf.constant({1.0, 2.0}), false)")
        out = self.run_line("%trace diff td")
        self.assertIn("td: trace #1 -> trace #2", out)
        self.assertIn("  flag: Literal[true] -> Literal[false]", out)
        self.assertIn("- mul = Mul", out)
        self.assertIn("+ add = AddV2", out)
        self.assertIn("~ Identity = Identity: inputs (mul:0) -> (add:0)", out)
        self.assertIn("pass a tensor instead", out)
        out = self.run_line("%trace diff td 2 1")
        self.assertIn("td: trace #2 -> trace #1", out)
        self.assertIn("UsageError", self.run_line("%trace diff td 1"))


class ProfileSession(ReplSession, unittest.TestCase):
    timeout = 30

    def test_profile_prints_the_table(self):
        self.run_line("w = tf.Variable(tf.ones({64, 64}))")
        self.run_line("pf = tf.func(function(x) local h = tf.matmul(x, w); return tf.reduce_sum(tf.nn.relu(h)) end)")
        out = self.run_line("%profile pf tf.ones({64, 64}) --runs 4")
        self.assertIn("profile of pf: 4 runs", out)
        self.assertIn("MatMul", out)
        self.assertIn("line 1: pf = tf.func(", out)
        self.assertIn("by name scope:", out)
        self.assertIn("UsageError", self.run_line("%profile pf tf.ones({64, 64}) --runs many"))


if __name__ == "__main__":
    unittest.main()
