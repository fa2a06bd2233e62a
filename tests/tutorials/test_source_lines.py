"""Every node the lessons trace from user code carries the line that made it
(issue 29): each lesson runs through source_coverage.lua, which lists the
nodes of every graph it traced (nested graphs included) that have no source
line; Placeholders and the Identity nodes a trace adds for its outputs are
graph plumbing, not counted."""
import os
import subprocess
import unittest

import lessons

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "source_coverage.lua")


class SourceLines(unittest.TestCase):
    def test_every_traced_node_has_a_line(self):
        total = 0
        for name in lessons.lesson_names():
            with self.subTest(lesson=name):
                proc = subprocess.run([lessons.BIN, SCRIPT, name], stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, env=lessons.environment(),
                                      cwd=lessons.ROOT, timeout=300 * lessons.SLOW)
                report = [l for l in proc.stdout.split("\n") if l.startswith("nodes ")]
                self.assertEqual(len(report), 1, proc.stdout[-2000:])
                _, nodes, _, missing = report[0].split()
                total += int(nodes)
                tail = proc.stdout.split(report[0], 1)[1].strip()
                self.assertEqual(int(missing), 0, "%s: nodes without a line:\n%s" % (name, tail[:2000]))
        self.assertGreater(total, 1000)


if __name__ == "__main__":
    unittest.main()
