"""%tutorial driven through the REPL in a pseudo-terminal (pexpect): the
lesson list, opening a lesson, next and back, running a step, editing a
step's code (lines typed after `%tutorial edit` until a lone "."), revert,
an exercise checked before and after it is solved, hints, and errors that
leave the session usable. A small lesson written by the test keeps the
expectations exact; the real lessons are listed and opened too."""
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lessons  # noqa: E402

PROMPT = "moonflow> "
TIMEOUT = 20 * lessons.SLOW

DEMO = textwrap.dedent('''\
    # A demo lesson

    First, a number.

    ```lua
    a = 40 + 2
    a
    ```
    ```output
    42
    ```

    Then a tensor.

    ```lua
    v = tf.constant({1, 2, 3})
    print(v)
    ```

    ## Exercise

    Make `w`, the tensor `v` times 10.

    ```exercise
    w = nil -- v times 10
    ```
    ```check
    if w == nil then return "w is not defined yet" end
    if tf.reduce_all(tf.equal(w, v * 10)):numpy() ~= true then return "w should be v * 10" end
    return true
    ```
    ```solution
    w = v * 10
    ```
    ```hint
    Tensors multiply by Lua numbers: `v * 10`.
    ```

    Well done.
    ''')


PREDICT = textwrap.dedent('''\
    # Predictions

    ```lua
    f = tf.func(function(a) print("Tracing") return a end)
    f(1); f(2); f(1)
    ```
    ```output
    Tracing
    Tracing
    ```
    ```predict
    How many times does "Tracing" print?
    answer: 2 | two
    ```

    ```lua
    f(2)
    ```
    ```predict
    Does f(2) print "Tracing" this time (yes or no)?
    answer: no
    ```

    The end.
    ''')


class Stepper(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.TemporaryDirectory()
        self.lessons = os.path.join(self.home.name, "tutorials")
        os.makedirs(self.lessons)
        with open(os.path.join(self.lessons, "01-demo.md"), "w") as f:
            f.write(DEMO)
        with open(os.path.join(self.lessons, "02-more.md"), "w") as f:
            f.write("# More\n\n```exercise\nz = 0\n```\n```check\nreturn z == 1 or 'z should be 1'\n```\n"
                    "```hint\nSet z to one.\n```\n")
        self.repl = self.spawn(self.lessons)

    def spawn(self, tutorials):
        env = lessons.environment()
        env.update(HOME=self.home.name, MOONFLOW_TUTORIALS=tutorials)
        repl = pexpect.spawn(lessons.BIN, env=env, encoding="utf-8", timeout=TIMEOUT,
                             dimensions=(50, 200))
        repl.expect_exact(PROMPT)
        return repl

    def tearDown(self):
        self.repl.close(force=True)
        self.home.cleanup()

    def line(self, text, expect=PROMPT):
        """Types a line; returns what came back before `expect` (echo removed)."""
        self.repl.sendline(text)
        self.repl.expect_exact(expect)
        out = self.repl.before.replace("\r\n", "\n")
        return out[len(text) + 1:] if out.startswith(text + "\n") else out

    def test_list_open_next_back_run(self):
        out = self.line("%tutorial")
        self.assertIn("01-demo", out)
        self.assertIn("A demo lesson", out)
        self.assertIn("02-more", out)
        out = self.line("%tutorial demo")
        self.assertIn("── 01-demo · step 1 of 4 ", out)
        self.assertIn("A demo lesson", out)
        self.assertIn("First, a number.", out)
        self.assertIn("    a = 40 + 2\n    a\n", out)
        self.assertEqual(self.line("%tutorial run"), "42\n")
        self.assertEqual(self.line("a + 1"), "43\n")
        out = self.line("%tutorial next")
        self.assertIn("── 01-demo · step 2 of 4 ", out)
        self.assertIn("Then a tensor.", out)
        self.assertIn("    v = tf.constant({1, 2, 3})", out)
        out = self.line("%tutorial back")
        self.assertIn("step 1 of 4", out)
        out = self.line("%tutorial next")
        self.assertIn("step 2 of 4", out)
        self.assertEqual(self.line("%tutorial run"), "tf.Tensor([1 2 3], shape=(3,), dtype=int32)\n")
        out = self.line("%tutorial next")
        self.assertIn("── 01-demo · step 3 of 4 · exercise 1 ", out)
        out = self.line("%tutorial next")
        self.assertIn("step 4 of 4", out)
        self.assertIn("Well done.", out)
        self.assertIn("last step", self.line("%tutorial next"))
        self.assertIn("step 3 of 4", self.line("%tutorial go 3"))
        self.assertIn("step 1 of 4", self.line("%tutorial 1"))

    def test_next_warns_about_a_step_not_run(self):
        self.line("%tutorial 01-demo")
        out = self.line("%tutorial next")
        self.assertIn("step 1 was not run", out)

    def test_edit_a_step_and_revert(self):
        self.line("%tutorial 01-demo")
        self.line("%tutorial next")
        self.repl.sendline("%tutorial edit")
        self.repl.expect_exact("edit> ")
        self.assertIn("Editing step 2", self.repl.before)
        self.assertIn("    v = tf.constant({1, 2, 3})", self.repl.before)
        self.line("v = tf.constant({7, 8})", expect="edit> ")
        self.line("print(v * 2)", expect="edit> ")
        out = self.line(".")
        self.assertEqual(out, "tf.Tensor([14 16], shape=(2,), dtype=int32)\n")
        out = self.line("%tutorial show")
        self.assertIn("    v = tf.constant({7, 8})\n    print(v * 2)\n", out)
        self.assertIn("(edited; %tutorial revert restores it)", out)
        self.assertEqual(self.line("%tutorial run"), "tf.Tensor([14 16], shape=(2,), dtype=int32)\n")
        self.assertEqual(self.line("v"), "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([7, 8], dtype=int32)>\n")
        # Editing survives moving away and back.
        self.line("%tutorial next")
        self.assertIn("    v = tf.constant({7, 8})", self.line("%tutorial back"))
        out = self.line("%tutorial revert")
        self.assertIn("    v = tf.constant({1, 2, 3})\n    print(v)\n", out)
        self.assertNotIn("edited", out)
        # A lone "." keeps the code.
        self.line("%tutorial edit", expect="edit> ")
        self.assertIn("(code unchanged)", self.line("."))
        # One-line form (revert did not run the step: v is still the edited one).
        self.assertEqual(self.line("%tutorial edit print(#v)"), "2\n")

    def test_complete_an_exercise(self):
        self.line("%tutorial 01-demo")
        self.line("%tutorial run")
        self.line("%tutorial next")
        self.line("%tutorial run")
        self.line("%tutorial next")
        self.assertIn("✗ Not yet: w is not defined yet", self.line("%tutorial check"))
        self.assertIn("Tensors multiply by Lua numbers", self.line("%tutorial hint"))
        self.line("%tutorial run")
        self.assertIn("✗ Not yet: w is not defined yet", self.line("%tutorial check"))
        # A wrong answer typed at the prompt.
        self.line("w = v + 10")
        self.assertIn("✗ Not yet: w should be v * 10", self.line("%tutorial check"))
        # The right one, through edit.
        self.line("%tutorial edit", expect="edit> ")
        self.line("w = v * 10", expect="edit> ")
        out = self.line(".")
        self.assertIn("%tutorial check checks your solution", out)
        out = self.line("%tutorial check")
        self.assertIn("✓ Exercise 1 of 01-demo passed.", out)
        self.assertIn("Lesson 01-demo complete.", out)
        # From the closing step, check means the exercise before it.
        self.line("%tutorial next")
        out = self.line("%tutorial check")
        self.assertIn("Checking exercise 1 (step 3):", out)
        self.assertIn("✓ Exercise 1 of 01-demo passed.", out)
        self.assertIn("w = v * 10", self.line("%tutorial solution"))
        self.assertIn("Closed 01-demo.", self.line("%tutorial quit"))
        self.assertRegex(self.line("%tutorial"), r"✓ 01-demo +A demo lesson")

    def test_a_lesson_never_replaces_the_learners_globals(self):
        self.line("a = 'mine'")
        self.line("%tutorial 01-demo")
        self.assertEqual(self.line("%tutorial run"), "42\n")
        # The lesson's a is lesson.a; the learner's a is untouched.
        self.assertEqual(self.line("a"), "mine\n")
        self.assertEqual(self.line("lesson.a"), "42\n")
        self.line("%tutorial next")
        self.line("%tutorial run")
        # Names the learner has not defined read the open lesson's.
        self.assertEqual(self.line("v * 2"),
                         "<tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 4, 6], dtype=int32)>\n")
        self.assertEqual(self.line("rawget(_G, 'v')"), "nil\n")
        self.line("%tutorial quit")
        self.assertIn("NameError: name 'v' is not defined", self.line("v * 2"))
        self.assertEqual(self.line("lesson.a"), "42\n")

    def test_a_second_lesson_becomes_the_global_lesson(self):
        self.line("%tutorial 01-demo")
        self.line("%tutorial run")
        out = self.line("%tutorial 02-more")
        self.assertNotIn("your global `lesson` is kept", out)
        # lesson is the open lesson's environment: the first lesson's names
        # are not in it
        self.assertEqual(self.line("rawget(lesson, 'a')"), "nil\n")
        self.line("%tutorial run")
        self.assertEqual(self.line("lesson.z"), "0\n")
        # a global `lesson` the learner made is kept, and the message names
        # where the lesson's names are (tutorial is a global at the prompt)
        self.line("%tutorial quit")
        self.line("lesson = 'mine'")
        out = self.line("%tutorial 01-demo")
        self.assertIn("your global `lesson` is kept", out)
        self.line("%tutorial run")
        self.assertEqual(self.line("lesson"), "mine\n")
        self.assertEqual(self.line("tutorial.environment().a"), "42\n")

    def test_predict_then_run(self):
        with open(os.path.join(self.lessons, "03-predict.md"), "w") as f:
            f.write(PREDICT)
        out = self.line("%tutorial 03-predict")
        self.assertIn("Predict, then run: How many times does \"Tracing\" print?", out)
        self.assertIn("%tutorial guess ANSWER", out)
        out = self.line("%tutorial guess 3")
        self.assertIn("✗ You said 3; it is 2. Run it and see why:", out)
        self.assertEqual(out.count("] Tracing\n"), 2, out)
        self.line("%tutorial next")
        out = self.line("%tutorial guess No.")
        self.assertIn("✓ Right: no. Now watch it happen:", out)
        self.assertIn("UsageError: this step asks for no prediction",
                      self.line("%tutorial next") + self.line("%tutorial guess 1"))
        # Run asks for the prediction first, at the prompt.
        self.line("%tutorial 03-predict")
        self.repl.sendline("%tutorial run")
        self.repl.expect_exact("Your prediction (Enter skips): ")
        out = self.line("two")
        self.assertIn("✓ Right: 2. Now watch it happen:", out)
        # Enter skips, and the answer is shown.
        self.line("%tutorial 03-predict")
        self.repl.sendline("%tutorial run")
        self.repl.expect_exact("Your prediction (Enter skips): ")
        self.assertIn("(no prediction: the answer is 2)", self.line(""))

    def test_check_by_name_without_an_open_lesson(self):
        out = self.line("%tutorial check 02-more 1")
        self.assertIn("✗ Not yet: z should be 1", out)
        # the advice a failed check gives holds with no lesson open (a
        # notebook's check cell): the hint of the exercise just checked
        self.assertIn("(%tutorial hint gives a hint)", out)
        self.assertEqual(self.line("%tutorial hint"), "Set z to one.\n")
        self.assertEqual(self.line("%tutorial hint 02-more 1"), "Set z to one.\n")
        self.assertIn("UsageError: 01-demo has no exercise 7", self.line("%tutorial hint 01-demo 7"))
        self.line("z = 1")
        self.assertIn("✓ Exercise 1 of 02-more passed.", self.line("%tutorial check 02-more 1"))

    def test_errors_leave_the_session_usable(self):
        self.assertIn("UsageError: no lesson named \"nosuch\"", self.line("%tutorial nosuch"))
        self.assertIn("UsageError: no lesson is open", self.line("%tutorial next"))
        self.line("%tutorial 01-demo")
        self.line("%tutorial edit", expect="edit> ")
        self.line("error('boom')", expect="edit> ")
        out = self.line(".")
        self.assertIn("boom", out)
        self.assertIn("01-demo[1]:1:", out)
        self.assertIn("UsageError: 01-demo has steps 1 to 4", self.line("%tutorial go 9"))
        self.assertEqual(self.line("1 + 1"), "2\n")

    def test_the_real_lessons_are_listed_and_open(self):
        self.repl.close(force=True)
        self.repl = self.spawn(lessons.TUTORIALS)
        out = self.line("%tutorial")
        for name in lessons.lesson_names():
            self.assertIn(name, out)
        out = self.line("%tutorial 1")
        self.assertRegex(out, r"── 01-tensors · step 1 of \d+ ")
        self.assertIn("0-based", out)
        out = self.line("%help %tutorial")
        self.assertIn("%tutorial NAME", out)


class CellForm(unittest.TestCase):
    def test_edit_as_a_cell_magic(self):
        """Jupyter's way to edit: a cell "%%tutorial edit" with the new code."""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "01-demo.md"), "w") as f:
                f.write(DEMO)
            env = lessons.environment()
            env.update(MOONFLOW_TUTORIALS=d)
            proc = subprocess.run([lessons.BIN, "-e", "%tutorial 01-demo", "-e",
                                   "%%tutorial edit\nb = 2\nprint(b * 21)"],
                                  capture_output=True, text=True, env=env, timeout=TIMEOUT)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(proc.stdout.endswith("42\n"), proc.stdout)


if __name__ == "__main__":
    unittest.main()
