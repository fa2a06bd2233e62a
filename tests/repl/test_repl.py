"""The `moonflow` program: the REPL driven through a pseudo-terminal
(pexpect), and the script runner (-e, files, stdin, arg, exit status)."""
import os
import subprocess
import tempfile
import time
import unittest

import pexpect

from replkit import BIN, CONTINUATION, PROMPT, TIMEOUT, ReplSession, environment


class Repl(ReplSession, unittest.TestCase):
    """One REPL per test, with its own HOME (for the history file)."""

    def test_expression_echo(self):
        self.assertEqual(self.run_line("1+1"), "2\n")
        self.assertEqual(self.run_line("1, 'a', {1, 2, x = 3}"), "1\ta\t{1, 2, x = 3}\n")
        self.assertEqual(self.run_line("local y = 1"), "")

    def test_multiline_function_definition(self):
        self.repl.sendline("function double(x)")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("  return x * 2")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("end")
        self.repl.expect_exact(PROMPT)
        self.assertEqual(self.run_line("double(21)"), "42\n")

    def test_error_then_session_goes_on(self):
        self.run_line("kept = 5")
        out = self.run_line("tf.constant({{1}, {1, 2}})")
        self.assertRegex(out, r"^ValueError: .*ragged")
        out = self.run_line("tf.constant('a') + 1")
        self.assertRegex(out, r"^TypeError: ")
        self.assertEqual(self.run_line("kept"), "5\n")

    def test_comparing_a_tensor_with_a_number_warns_once(self):
        self.run_line("n = 1")
        self.assertEqual(self.run_line("n == 1"), "true\n")
        self.run_line("x = tf.constant(1)")
        self.assertEqual(self.run_line("print('x == 1')"), "x == 1\n")
        out = self.run_line("x == 1")
        self.assertIn("WARNING: `x == 1` compares a tensor with a Lua number", out)
        self.assertIn("`x:numpy() == 1`, or elementwise, `tf.equal(x, 1)`", out)
        self.assertTrue(out.endswith("false\n"), out)
        self.assertEqual(self.run_line("1 == x"), "false\n")

    def test_graph_optimized_shows_before_and_after(self):
        self.run_line("g2 = tf.func(function(x) local unused = x * 3; return (x + 0) * 2 end)")
        self.run_line("g2(tf.constant(1.0))")
        out = self.run_line("%graph g2 --optimized  -- what the passes do")
        self.assertRegex(out, r"^\d+ ops -> \d+ ops \(folded \d+, simplified \d+")
        before, _, after = out.partition("\n\nafter:\n")
        self.assertIn("before the optimiser:\ngraph g2: ", before)
        self.assertIn("(unused)", before)
        self.assertTrue(after.startswith("graph g2: "), after)
        self.assertNotIn("(unused)", after)

    def test_error_inside_a_function_shows_a_traceback(self):
        self.run_line("function inner() error('deep') end")
        self.run_line("function outer() inner() return 1 end")
        out = self.run_line("outer()")
        self.assertRegex(out, r"^LuaError: stdin\[\d+\]:1: deep\nstack traceback:\n")
        self.assertIn("in function 'inner'", out)
        self.assertNotIn("session.lua", out)
        self.assertEqual(self.run_line("error('top')"), "LuaError: stdin[4]:1: top\n")

    def test_python_habits_name_the_lua_way(self):
        out = self.run_line("import tensorflow as tf")
        self.assertIn("SyntaxError: stdin[1]:1: syntax error near 'tensorflow'", out)
        self.assertIn("Lua has no import: tf is already loaded", out)
        self.assertIn("%tutorial 13-from-python", out)
        # a Python block's colon is an error at once, not a continuation prompt
        out = self.run_line("for i in range(3):")
        self.assertIn("a Lua block ends with end", out)
        self.assertEqual(self.run_line("x = 1 + 1"), "")
        self.assertEqual(self.run_line("x"), "2\n")

    def test_a_never_assigned_global_is_a_name_error(self):
        out = self.run_line("s = tf.TensorSpec({None}, tf.float32)")
        self.assertEqual(out, "NameError: name 'None' is not defined: Lua's None is nil (in a shape: tf.None)"
                              " (lesson 13 lists the differences: %tutorial 13-from-python)\n"
                              "stack traceback:\n\tstdin[1]:1: in main chunk\n")
        self.assertEqual(self.run_line("spec"), "NameError: name 'spec' is not defined\n"
                                                "stack traceback:\n\tstdin[2]:1: in main chunk\n")
        self.run_line("result, gradient = 1, nil")
        self.assertEqual(self.run_line("print(gradient)"), "nil\n")  # assigned, if nil: Python's None
        self.run_line("model = 1")
        self.assertIn("Did you mean: 'model'?", self.run_line("modle"))
        self.assertEqual(self.run_line("rawget(_G, 'nothing')"), "nil\n")
        self.assertIn("Strict globals are off", self.run_line("%strict off"))
        self.assertEqual(self.run_line("print(None)"), "nil\n")
        self.assertIn("Strict globals are on", self.run_line("%strict on"))
        self.assertIn("NameError", self.run_line("print(None)"))

    def test_eager_error_names_the_line_without_library_frames(self):
        self.run_line("function f(a)\n  return a + tf.ones({3})\nend")
        out = self.run_line("y = f(tf.ones({2}))")
        self.assertEqual(out, "InvalidArgumentError: Incompatible shapes: [2] vs. [3] [Op:AddV2]\n"
                              "stack traceback:\n\t[C]: in metamethod 'add'\n"
                              "\tstdin[1]:2: in function 'f'\n\tstdin[2]:1: in main chunk\n")
        self.assertNotIn("lua/moonflow", self.run_line("tf.reshape(tf.ones({2}), {5})"))

    def test_tensor_echo_is_tf_repr(self):
        out = self.run_line("tf.constant({1, 2})")
        self.assertEqual(out, "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>\n")
        out = self.run_line("print(tf.constant({1, 2}))")
        self.assertEqual(out, "tf.Tensor([1 2], shape=(2,), dtype=int32)\n")

    def test_ctrl_c_interrupts_a_loop(self):
        self.run_line("survivor = 7")
        self.repl.sendline("while true do end")
        time.sleep(0.5)
        self.repl.sendintr()
        self.repl.expect_exact(PROMPT)
        self.assertIn("InterruptedError: interrupted by the user", self.repl.before)
        self.assertEqual(self.run_line("print('alive', survivor)"), "alive\t7\n")

    def test_ctrl_c_interrupts_a_tensor_loop(self):
        self.repl.sendline("x = tf.constant(1.0) while true do x = x * 1.0 end")
        time.sleep(0.5)
        self.repl.sendintr()
        self.repl.expect_exact(PROMPT)
        self.assertIn("InterruptedError", self.repl.before)
        self.assertEqual(self.run_line("2 + 3"), "5\n")

    def test_ctrl_c_at_the_prompt_clears_the_line(self):
        self.repl.send("this is not lua")
        time.sleep(0.2)
        self.repl.sendintr()
        self.repl.expect_exact(PROMPT)
        self.repl.sendline("function half(x)")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendintr()  # drops the unfinished chunk too
        self.repl.expect_exact(PROMPT)
        self.assertEqual(self.run_line("1 + 2"), "3\n")

    def test_time_and_who_magics(self):
        self.run_line("x = tf.constant({{1.5, 2}, {3, 4}})")
        self.run_line("n = 3")
        out = self.run_line("%time tf.reduce_sum(x)")
        self.assertRegex(out, r"^Wall time: [\d.]+ (s|ms|µs|ns)\n<tf.Tensor: shape=\(\), dtype=float32, numpy=10.5>\n$")
        out = self.run_line("%who")
        self.assertRegex(out, r"\nn +number +3\n")
        self.assertRegex(out, r"\nx +\S*Tensor +shape=\(2, 2\) dtype=float32\n")

    def test_cell_time_runs_the_lines_up_to_a_blank_line(self):
        self.repl.sendline("%%time")
        self.repl.sendline("tm = 1")
        self.repl.sendline("tm = tm + 1")
        self.repl.sendline("")
        self.repl.expect(r"Wall time: [\d.]+ (s|ms|µs|ns)")
        self.repl.expect_exact(PROMPT)
        self.assertEqual(self.run_line("tm"), "2\n")

    def test_timeit_and_unknown_magic(self):
        out = self.run_line("%timeit -n 100 -r 3 local s = 1 + 1")
        self.assertRegex(out, r"^[\d.]+ \S+ ± [\d.]+ \S+ per loop \(median ± MAD of 3 runs, 100 loops each\)\n$")
        out = self.run_line("%nosuch")
        self.assertEqual(out, "UsageError: unknown magic %nosuch (%help lists the magics)\n")

    def test_reset_and_eager(self):
        self.run_line("gone = 1")
        self.assertRegex(self.run_line("%reset"), r"^Removed 1 user global\.\n$")
        self.assertTrue(self.run_line("gone").startswith("NameError: name 'gone' is not defined"))
        self.assertEqual(self.run_line("rawget(_G, 'gone')"), "nil\n")
        self.assertRegex(self.run_line("%eager on"), r"^Eager mode is on")
        self.assertEqual(self.run_line("tf.executing_eagerly()"), "true\n")
        self.assertRegex(self.run_line("%eager off"), r"^Eager mode is off")

    def test_tab_completion(self):
        self.repl.send("tf.rang\t")
        time.sleep(0.3)
        self.repl.sendline("(3)")
        self.repl.expect_exact(PROMPT)
        self.assertIn("numpy=array([0, 1, 2], dtype=int32)", self.repl.before)
        self.repl.send("string.g\t")  # ambiguous: the second tab lists
        time.sleep(0.3)
        self.repl.send("\t")
        self.repl.expect(r"string\.gmatch\s+string\.gsub")
        self.repl.sendintr()
        self.repl.expect_exact(PROMPT)

    def test_tab_completion_offers_an_objects_methods(self):
        self.run_line("vv = tf.Variable(1.0)")
        self.repl.send("vv:assign_\t")  # ambiguous: the second tab lists
        time.sleep(0.3)
        self.repl.send("\t")
        self.repl.expect(r"vv:assign_add\s+vv:assign_sub")
        self.repl.sendintr()
        self.repl.expect_exact("^C")
        self.repl.expect_exact(PROMPT)
        self.repl.send("vv:rea\t")
        time.sleep(0.3)
        self.repl.sendline("()")
        self.repl.expect_exact(PROMPT)
        self.assertIn("numpy=1.0", self.repl.before)

    def test_io_read_reads_the_terminal(self):
        self.repl.sendline("answer = io.read()")
        time.sleep(0.3)
        self.repl.sendline("forty-two")
        self.repl.expect_exact(PROMPT)
        self.assertEqual(self.run_line("answer"), "forty-two\n")

    def test_banner_names_the_lessons_and_progress_bars(self):
        self.repl.close()
        self.repl = pexpect.spawn(BIN, env=environment(self.home.name), encoding="utf-8",
                                  timeout=self.timeout, dimensions=self.dimensions)
        self.repl.expect_exact(PROMPT)
        self.assertIn("%tutorial", self.repl.before)
        self.assertIn("tf.progress", self.repl.before)

    def test_ctrl_d_exits_and_keeps_history(self):
        self.run_line("1+1")
        self.repl.sendeof()
        self.repl.expect(pexpect.EOF)
        self.repl.close()
        self.assertEqual(self.repl.exitstatus, 0)
        with open(os.path.join(self.home.name, ".moonflow_history")) as f:
            self.assertIn("1+1", f.read())


    def test_help_cells_print_tf_help(self):
        direct = self.run_line("print(tf.help(tf.add))")
        self.assertIn("tf.add(", direct)
        self.assertEqual(self.run_line("?tf.add").strip(), direct.strip())
        self.assertEqual(self.run_line("tf.add?").strip(), direct.strip())
        self.run_line("function helped(a) return a end")
        self.assertIn("Source:\nfunction helped(a)", self.run_line("helped??"))
        self.assertEqual(self.run_line("?no_such_name"), "Object `no_such_name` not found.\n")

    def leaves_like_ctrl_d(self, line):
        self.run_line("1+1")
        self.repl.sendline(line)
        self.repl.expect(pexpect.EOF)
        self.repl.close()
        self.assertEqual(self.repl.exitstatus, 0)
        with open(os.path.join(self.home.name, ".moonflow_history")) as f:
            self.assertIn("1+1", f.read())

    def test_exit_leaves_like_ctrl_d(self):
        self.leaves_like_ctrl_d("exit")

    def test_quit_leaves_like_ctrl_d(self):
        self.leaves_like_ctrl_d("  quit()  ")

    def test_exit_in_code_is_a_name(self):
        self.assertEqual(self.run_line("exit = 1"), "")
        self.assertEqual(self.run_line("print(exit)"), "1\n")
        self.assertEqual(self.run_line("exit + 1"), "2\n")
        self.assertRegex(self.run_line("exit(0)"), r"^LuaError: .*attempt to call a number value")
        # exit inside an unfinished chunk is a line of that chunk
        self.repl.sendline("for i = 1, 2 do")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("exit")
        self.repl.expect_exact(CONTINUATION)
        self.assertRegex(self.run_line("end"), r"^SyntaxError: ")
        self.repl.sendline("exit")
        self.repl.expect(pexpect.EOF)

    def test_multi_line_history_entries_survive_a_restart(self):
        self.repl.sendline("function hist_f(a)")
        self.repl.expect_exact(CONTINUATION)
        self.repl.sendline("  return a * 2")
        self.repl.expect_exact(CONTINUATION)
        self.run_line("end")
        self.run_line("1+1")
        self.repl.sendeof()
        self.repl.expect(pexpect.EOF)
        self.repl.close()
        self.repl = pexpect.spawn(BIN, env=environment(self.home.name), encoding="utf-8",
                                  timeout=self.timeout, dimensions=self.dimensions)
        self.repl.expect_exact(PROMPT)
        # Up twice: the function, whole; running it defines hist_f again.
        self.repl.send("\x1b[A\x1b[A")
        time.sleep(0.3)
        self.repl.sendline("")
        self.repl.expect_exact(PROMPT)
        self.assertEqual(self.run_line("hist_f(21)"), "42\n")


def run(args, stdin=None, cwd=None):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)  # not a terminal: no colour anyway
    return subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, env=env)


class Script(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def script(self, text):
        path = os.path.join(self.dir.name, "script.lua")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_arg_table_and_varargs(self):
        path = self.script("print(arg[0], arg[1], arg[2], #arg, select('#', ...), ...)\n"
                           "print(arg[-1] == nil, arg[-2] ~= nil)\n")
        r = run(["-e", "x = 1", path, "a", "b c"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, f"{path}\ta\tb c\t2\t2\ta\tb c\nfalse\ttrue\n")
        self.assertEqual(r.stderr, "")

    def test_dash_e_and_tf_preloaded(self):
        r = run(["-e", "print(1 + 1)", "-e", "print(tf.range(3))"])
        self.assertEqual(r.stdout, "2\ntf.Tensor([0 1 2], shape=(3,), dtype=int32)\n")
        self.assertEqual(r.returncode, 0)

    def test_error_exit_status_and_stderr(self):
        path = self.script("print('before')\nlocal t = tf.constant({{1}, {1, 2}})\nprint('after')\n")
        r = run([path])
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "before\n")
        self.assertRegex(r.stderr, r"^ValueError: .*ragged")
        self.assertNotIn("\033[", r.stderr)
        r = run(["-e", "error('plain')"])
        self.assertEqual((r.returncode, r.stderr), (1, "LuaError: (command line):1: plain\n"))
        r = run(["-e", "x = = 1"])
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^SyntaxError: ")

    def test_scripts_read_missing_globals_as_nil_unless_they_opt_in(self):
        r = run([self.script("print(None)\n")])
        self.assertEqual((r.returncode, r.stdout), (0, "nil\n"))
        r = run([self.script("tf.config.set_strict_globals(true)\nprint(None)\n")])
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("NameError: name 'None' is not defined"), r.stderr)

    def test_stdin_script(self):
        r = run(["-", "z"], stdin="print(arg[0], ...)\n")
        self.assertEqual(r.stdout, "-\tz\n")
        r = run([], stdin="print(2 * 21)\n")
        self.assertEqual(r.stdout, "42\n")

    def test_io_write_print_and_stderr_streams(self):
        r = run(["-e", "io.write('a') io.stdout:write('b') print('c') io.stderr:write('e')"
                       " print(io.type(io.stdout), io.output() == io.stdout)"])
        self.assertEqual(r.stdout, "abc\nfile\ttrue\n")
        self.assertEqual(r.stderr, "e")

    def test_script_reads_stdin(self):
        path = self.script("for line in io.lines() do io.write('[', line, ']') end\n")
        r = run([path], stdin="x\ny\n")
        self.assertEqual(r.stdout, "[x][y]")

    def test_os_exit_status(self):
        self.assertEqual(run(["-e", "os.exit(3)"]).returncode, 3)

    def test_version_and_help(self):
        r = run(["--version"])
        # the version, then the BLAS kernel in use and why (core/run/blas.h)
        self.assertRegex(r.stdout, r"^moonflow \S+ \(Lua 5\.4\)\n"
                                   r"BLAS: OpenBLAS kernel \w+ \(.+\), /\S+\n$")
        self.assertEqual(r.returncode, 0)
        r = run(["--help"])
        self.assertIn("usage: moonflow", r.stdout)
        self.assertIn("install-kernel", r.stdout)
        r = run(["--bogus"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("unknown option", r.stderr)

    def test_missing_script(self):
        r = run([os.path.join(self.dir.name, "nope.lua")])
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^NotFoundError: cannot open .*nope\.lua")


if __name__ == "__main__":
    unittest.main()
