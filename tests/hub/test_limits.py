"""The kernel under a class's limits: a memory limit in the environment
(MEM_LIMIT, as JupyterHub's spawners set it from mem_limit) makes a tensor
that would pass it a ResourceExhaustedError, counted against the tensors
already live, and the kernel keeps answering: the learner's session, its
globals included, survives where the limit would otherwise kill it."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "jupyter"))
from mfkernel import run, start_kernel, stop_kernel, stream_text  # noqa: E402


def error_of(reply):
    c = reply["content"]
    return c["status"], c.get("ename"), c.get("evalue", "")


class MemoryLimit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.environ["MEM_LIMIT"] = str(256 * 1024 * 1024)
        try:
            cls.km, cls.kc, _ = start_kernel("limits")
        finally:
            del os.environ["MEM_LIMIT"]

    @classmethod
    def tearDownClass(cls):
        stop_kernel(cls.km, cls.kc)

    def test_allocations_past_the_limit_fail_and_the_kernel_answers(self):
        reply, _ = run(self.kc, "kept = 42\na = tf.zeros({30000000})\nb = tf.zeros({30000000})")
        self.assertEqual(reply["content"]["status"], "ok")
        # 240 MB of tensors live: 120 MB more would pass 256 MiB.
        reply, _ = run(self.kc, "c = tf.zeros({30000000})")
        status, ename, evalue = error_of(reply)
        self.assertEqual((status, ename), ("error", "ResourceExhaustedError"))
        self.assertIn("OOM when allocating a tensor of 120000000 bytes", evalue)
        self.assertIn("the memory limit is 268435456", evalue)
        # One tensor larger than the whole limit fails at once.
        reply, _ = run(self.kc, "d = tf.ones({100000000})")
        status, ename, evalue = error_of(reply)
        self.assertEqual((status, ename), ("error", "ResourceExhaustedError"))
        self.assertIn("OOM when allocating a tensor of 400000000 bytes", evalue)
        # The session goes on: its globals are there, and memory given back
        # can be used again.
        reply, out = run(self.kc, "a = nil; collectgarbage(); collectgarbage()\n"
                                  "c = tf.zeros({30000000})\nprint(kept, c.shape)")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(stream_text(out), "42\t(30000000,)\n")


class NoLimit(unittest.TestCase):
    def test_without_a_limit_the_same_tensors_are_made(self):
        env = os.environ.copy()
        env.pop("MEM_LIMIT", None)
        import subprocess
        from mfkernel import BIN
        out = subprocess.run(
            [BIN, "-e", "a = tf.zeros({30000000}); b = tf.zeros({30000000});"
                        " c = tf.zeros({30000000}); print(c.shape)"],
            env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.stdout, "(30000000,)\n", out.stderr)


if __name__ == "__main__":
    unittest.main()
