"""Keras's fit in Jupyter (issue 27): the progress is one display per
epoch, updated in place (update_display_data with the same display_id)
and ending on Keras's line; "Epoch i/n" is printed to the stream; and a
verbose = 0 fit shows nothing."""
import unittest

from mfkernel import KernelTestCase, of_type, stream_text

SETUP = (
    'tf.random.set_seed(3)\n'
    'kx = tf.random.normal({64, 4})\n'
    'ky = tf.cast(tf.greater(tf.reduce_sum(kx, -1), 0), tf.int32)\n'
    'km = tf.keras.Sequential({tf.keras.layers.Dense(8, {activation = "relu"}), tf.keras.layers.Dense(2)})\n'
    'km:compile({optimizer = "adam", loss = tf.keras.losses.SparseCategoricalCrossentropy(true),'
    ' metrics = {"accuracy"}})\n'
)


class TestKerasFit(KernelTestCase):
    def test_progress_is_one_display_per_epoch_updated_in_place(self):
        self.ok(SETUP)
        _, outputs = self.ok('kh = km:fit(kx, ky, {epochs = 2, batch_size = 16})')
        shown = of_type(outputs, "display_data")
        updated = of_type(outputs, "update_display_data")
        self.assertEqual(len(shown), 2, outputs)
        ids = [m["content"]["transient"]["display_id"] for m in shown]
        self.assertNotEqual(ids[0], ids[1])
        self.assertTrue(updated, outputs)
        for m in updated:
            self.assertIn(m["content"]["transient"]["display_id"], ids)
        # The last update of each display is Keras's final line.
        for display_id in ids:
            last = [m for m in updated if m["content"]["transient"]["display_id"] == display_id][-1]
            text = last["content"]["data"]["text/plain"]
            self.assertRegex(text, r"^4/4 \[=+\] - \d+s \d+[mu]?s/step - loss: \d\.\d{4} - accuracy: \d\.\d{4}$")
        text = stream_text(outputs)
        self.assertIn("Epoch 1/2", text)
        self.assertIn("Epoch 2/2", text)

    def test_verbose_0_shows_nothing(self):
        self.ok(SETUP)
        _, outputs = self.ok('km:fit(kx, ky, {epochs = 1, verbose = 0})')
        self.assertEqual(of_type(outputs, "display_data"), [])
        self.assertEqual(stream_text(outputs), "")


if __name__ == "__main__":
    unittest.main()
