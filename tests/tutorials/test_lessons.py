"""Every lesson in tutorials/ runs, step by step, in a fresh `moonflow`
session (tests/tutorials/run_lesson.lua, the same code path as %tutorial
run), and each step prints what its ```output block says (no block: no
output). Each exercise's check fails on the starting code and passes on the
written solution, and every lesson ends with an exercise."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lessons  # noqa: E402

# The lessons the issue asks for; each must exist.
REQUIRED = ["01-tensors", "02-tf-func", "03-retracing", "04-signatures", "05-concrete-functions",
            "06-variables", "07-gradients", "08-autograph", "09-limitations", "10-performance",
            "11-training", "12-saving", "13-from-python", "14-convolutions"]


def describe(step):
    exp = lessons.normalise(step.expected or "")
    act = lessons.normalise(step.actual)
    text = f"step {step.index} (line {step.line})"
    if step.error:
        text += f" raised:\n{step.error}"
    return f"{text}\n--- expected\n{exp}\n--- actual\n{act}"


class Matching(unittest.TestCase):
    """A block opened "```output ±T" lets each number differ by up to T
    (summation order differs between BLAS kernels); the text around the
    numbers, and every number of a block without it, must match exactly."""

    def test_exact_without_tolerance(self):
        self.assertTrue(lessons.matches("accuracy 0.848", "accuracy 0.848"))
        self.assertFalse(lessons.matches("accuracy 0.848", "accuracy 0.852"))

    def test_numbers_within_tolerance(self):
        self.assertTrue(lessons.matches("epoch 2  accuracy 0.848", "epoch 2  accuracy 0.852", 0.01))
        self.assertFalse(lessons.matches("epoch 2  accuracy 0.848", "epoch 2  accuracy 0.870", 0.01))
        self.assertFalse(lessons.matches("epoch 2  accuracy 0.848", "epoch 3  accuracy 0.848", 0.01 / 2))

    def test_text_stays_exact(self):
        self.assertFalse(lessons.matches("loss 1.437", "lost 1.437", 0.01))
        self.assertTrue(lessons.matches("a <...> b 1.5", "a anything b 1.504", 0.01))


class LessonsExist(unittest.TestCase):
    def test_every_required_lesson_is_there(self):
        self.assertEqual([n for n in REQUIRED if n not in lessons.lesson_names()], [])


def make_test(name):
    def test(self):
        steps, finished, raw = lessons.run_lesson(name)
        self.assertTrue(finished, f"{name} did not run to its end:\n{raw[-3000:]}")
        problems = []
        for s in steps:
            if s.kind == "code":
                if s.error or not lessons.matches(s.expected, s.actual, s.tolerance):
                    problems.append(describe(s))
            else:
                starter = s.checks.get("starter-check", ("missing", ""))
                solution = s.checks.get("solution-check", ("missing", ""))
                if s.error:
                    problems.append(f"exercise {s.exercise}: the solution raised:\n{s.error}")
                if starter[0] != "fail":
                    problems.append(f"exercise {s.exercise}: the check passes on the starting code")
                if solution[0] != "pass":
                    problems.append(f"exercise {s.exercise}: the check fails on the solution: {solution[1]}")
        kinds = [s.kind for s in steps]
        if "exercise" not in kinds:
            problems.append("the lesson has no exercise")
        elif kinds[-1] != "exercise":
            problems.append("the lesson's last step with code is not an exercise")
        self.assertEqual(problems, [], "\n\n".join(problems))
    return test


class Lessons(unittest.TestCase):
    pass


for _name in sorted(set(REQUIRED) | set(lessons.lesson_names())):
    setattr(Lessons, "test_" + _name.replace("-", "_"), make_test(_name))


if __name__ == "__main__":
    unittest.main()
