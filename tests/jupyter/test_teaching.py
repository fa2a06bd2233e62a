"""Teaching aids in notebooks: tf.progress updates one display in place,
and Lua prints made while a tf.func is traced are marked."""
import unittest

import mfkernel as mk


class TestTeaching(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc, _ = mk.start_kernel("teaching")

    @classmethod
    def tearDownClass(cls):
        mk.stop_kernel(cls.km, cls.kc)

    def test_progress_bar_updates_one_display(self):
        reply, outputs = mk.run(self.kc, 'for i in tf.progress(5, {label = "train"}) do end')
        self.assertEqual(reply["content"]["status"], "ok")
        first = mk.of_type(outputs, "display_data")
        updates = mk.of_type(outputs, "update_display_data")
        self.assertEqual(len(first), 1)
        self.assertGreaterEqual(len(updates), 1)
        display_id = first[0]["content"]["transient"]["display_id"]
        for u in updates:
            self.assertEqual(u["content"]["transient"]["display_id"], display_id)
        final = updates[-1]["content"]["data"]
        self.assertIn("train [", final["text/plain"])
        self.assertIn("5/5 100%", final["text/plain"])
        self.assertIn("<progress", final["text/html"])

    def test_prints_while_tracing_are_marked(self):
        mk.run(self.kc, 'double = tf.func(function(a) print("Tracing with", a) return a + a end)')
        _, outputs = mk.run(self.kc, "double(tf.constant(1))")
        self.assertEqual(mk.stream_text(outputs),
                         '[trace double#1] Tracing with\tTensor("a:0", shape=(), dtype=int32)\n')
        _, outputs = mk.run(self.kc, "double(tf.constant(2))")
        self.assertEqual(mk.stream_text(outputs), "")
        _, outputs = mk.run(self.kc, 'print("not tracing")')
        self.assertEqual(mk.stream_text(outputs), "not tracing\n")

    def test_comparing_a_tensor_with_a_number_warns_once(self):
        mk.run(self.kc, "t = tf.constant({1.5, 2})")
        _, outputs = mk.run(self.kc, "if t ~= 2 then print('differs') end")
        self.assertEqual(mk.stream_text(outputs), "differs\n")
        text = mk.stream_text(outputs, "stderr")
        self.assertIn("WARNING: `t ~= 2` compares a tensor with a Lua number", text)
        self.assertIn("it is always true", text)
        self.assertIn("`tf.not_equal(t, 2)`", text)


if __name__ == "__main__":
    unittest.main()
