"""README's "A tour" section runs as written: its ```lua blocks are pasted
into a fresh session one after the other (as a lesson's steps, through
tests/tutorials/run_lesson.lua), and each one's output must match the
```output block below it (lessons.py's matching: "<...>" stands for any
text within a line). A README a newcomer cannot paste is a failing test."""
import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tutorials"))
import lessons  # noqa: E402

README = os.path.join(lessons.ROOT, "README.md")


def tour_section():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## A tour\n(.*?)^## ", text, re.S | re.M)
    if not m:
        raise AssertionError("README.md has no '## A tour' section")
    return m.group(1)


class ReadmeTour(unittest.TestCase):
    def test_the_tour_runs_as_written(self):
        section = tour_section()
        self.assertNotIn("moonflow> ", section, "a prompt in the tour cannot be pasted")
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "00-readme-tour.md"), "w", encoding="utf-8") as f:
                f.write("# The README's tour\n" + section)
            steps, finished, output = lessons.run_lesson("00-readme-tour", 120, tutorials=tmp)
        self.assertTrue(finished, output[-3000:])
        code_steps = [s for s in steps if s.kind == "code"]
        self.assertGreaterEqual(len(code_steps), 8)
        for step in code_steps:
            self.assertIsNone(step.error, "tour block at line %d raised:\n%s" % (step.line, step.error))
            self.assertTrue(lessons.matches(step.expected or "", step.actual, step.tolerance),
                            "tour block at line %d printed:\n%s\nexpected:\n%s"
                            % (step.line, step.actual, step.expected))


if __name__ == "__main__":
    unittest.main()
