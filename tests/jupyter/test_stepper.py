"""%step in the Jupyter kernel: the stepper's picture is shown once
(display_data with a display id) and every `%step <command>` cell updates it
in place (update_display_data with the same id): the node just run
highlighted in the SVG, the nodes run labelled with shape and value, a NaN
node red."""
import re
import unittest

from mfkernel import KernelTestCase, of_type, stream_text


class TestStepper(KernelTestCase):
    def test_step_draws_once_and_updates_in_place(self):
        self.ok("sf = tf.func(function(x)\n"
                "  local y = x * 2\n"
                "  local z = tf.math.log(y - 3)\n"
                "  return z\n"
                "end)")
        _, outputs = self.ok("%step sf tf.constant({1.0, 2.0})")
        [shown] = of_type(outputs, "display_data")
        display_id = shown["content"]["transient"]["display_id"]
        self.assertTrue(display_id)
        self.assertIn("at the start of sf", shown["content"]["data"]["text/plain"])
        self.assertIn("<svg", shown["content"]["data"]["text/html"])

        _, outputs = self.ok("%step n")
        [updated] = of_type(outputs, "update_display_data")
        self.assertEqual(updated["content"]["transient"]["display_id"], display_id)
        self.assertEqual(of_type(outputs, "display_data"), [])
        data = updated["content"]["data"]
        self.assertIn("step 1: mul (Mul) in sf", data["text/plain"])
        self.assertIn("made at", data["text/plain"])
        html = data["text/html"]
        # the node just run: highlighted (blue border, marker) and labelled
        # with its variable, shape and value
        self.assertIn("\u25b6 mul", html)
        self.assertIn("y = Mul", html)
        self.assertIn("(2,) [2 4]", html)
        self.assertIn('stroke="#1f4e9e"', html)

        _, outputs = self.ok("%step nan")
        [updated] = of_type(outputs, "update_display_data")
        data = updated["content"]["data"]
        self.assertIn("Log", data["text/plain"])
        self.assertIn("NaN/Inf!", data["text/plain"])
        self.assertIn('fill="#f4a6a6"', data["text/html"])

        _, outputs = self.ok("%step p sub")
        self.assertIn("tf.Tensor([-1.  1.]", stream_text(outputs))
        self.assertEqual(of_type(outputs, "update_display_data"), [])

        _, outputs = self.ok("%step c")
        [updated] = of_type(outputs, "update_display_data")
        self.assertIn("finished after", updated["content"]["data"]["text/plain"])
        _, outputs = self.ok("%step q")
        self.assertIn("left the stepper", stream_text(outputs))

    def test_graph_nodes_show_variable_and_line(self):
        self.ok("gl = tf.func(function(x)\n"
                "  local y = x * 2\n"
                "  return y + 1\n"
                "end)\n"
                "gl(tf.constant(1.0))")
        _, outputs = self.ok("%graph gl")
        [shown] = of_type(outputs, "display_data")
        svg = shown["content"]["data"]["image/svg+xml"]
        self.assertIn(">y = Mul</text>", svg)
        self.assertRegex(svg, r'xlink:title="[^"]*:2: y = x \* 2"')
        self.assertIn("-- line 2: y = x * 2", shown["content"]["data"]["text/plain"])

    def test_trace_diff_draws_the_union_graph_coloured_by_change(self):
        self.ok("tdj = tf.func(function(x, flag) if flag then return x * 2 else return x + 1 end end)\n"
                "tdj(tf.constant({1.0, 2.0}), true)\n"
                "tdj(tf.constant({1.0, 2.0}), false)")
        _, outputs = self.ok("%trace diff tdj")
        [shown] = of_type(outputs, "display_data")
        data = shown["content"]["data"]
        self.assertIn("- mul = Mul", data["text/plain"])
        html = data["text/html"]
        self.assertIn("<svg", html)
        # removed red, added green, changed orange
        self.assertIn('fill="#f8d7da"', html)
        self.assertIn('fill="#c6efce"', html)
        self.assertIn('fill="#ffe0b2"', html)
        self.assertIn(">removed</text>", html)
        self.assertIn(">added</text>", html)

    def test_profile_draws_the_graph_coloured_by_self_time(self):
        self.ok("pw = tf.Variable(tf.ones({64, 64}))\n"
                "pj = tf.func(function(x)\n"
                "  local h = tf.matmul(x, pw)\n"
                "  return tf.reduce_sum(tf.nn.relu(h))\n"
                "end)")
        _, outputs = self.ok("%profile pj tf.ones({64, 64}) --runs 3")
        [shown] = of_type(outputs, "display_data")
        data = shown["content"]["data"]
        self.assertIn("profile of pj: 3 runs", data["text/plain"])
        html = data["text/html"]
        self.assertIn("<svg", html)
        self.assertIn("ms self, 3 calls", html)
        # the slowest node is the reddest
        self.assertIn('fill="#ff3737"', html)


if __name__ == "__main__":
    unittest.main()
