"""The stepper's picture as a browser draws it: the HTML of a `%step n`
update (what a notebook page shows) rendered by headless Chromium, and the
screenshot checked for the node just run (highlighted blue) and the nodes
already run (green)."""
import os
import shutil
import subprocess
import tempfile
import unittest

from mfkernel import KernelTestCase, of_type

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def near(pixel, rgb, tol=12):
    return all(abs(int(a) - b) <= tol for a, b in zip(pixel[:3], rgb))


@unittest.skipUnless(CHROMIUM, "chromium is not installed")
class TestStepperScreenshot(KernelTestCase):
    def test_highlighted_node_in_a_browser(self):
        from PIL import Image
        self.ok("shot = tf.func(function(x)\n"
                "  local y = x * 2\n"
                "  local z = y + 1\n"
                "  return tf.reduce_sum(z)\n"
                "end)")
        self.ok("%step shot tf.constant({1.0, 2.0})")
        self.ok("%step n")
        _, outputs = self.ok("%step n")
        [updated] = of_type(outputs, "update_display_data")
        html = updated["content"]["data"]["text/html"]
        with tempfile.TemporaryDirectory() as d:
            page, png = os.path.join(d, "page.html"), os.path.join(d, "shot.png")
            with open(page, "w", encoding="utf-8") as f:
                f.write("<!DOCTYPE html><html><body style='background:#fff'>%s</body></html>" % html)
            subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--screenshot=" + png, "--window-size=900,1200", "file://" + page],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
            img = Image.open(png).convert("RGB")
            pixels = list(img.getdata())
        blue = sum(1 for p in pixels if near(p, (0x9f, 0xc5, 0xf8)))
        green = sum(1 for p in pixels if near(p, (0xd9, 0xea, 0xd3)))
        self.assertGreater(blue, 500, "the node just run is not highlighted")
        self.assertGreater(green, 500, "the nodes already run are not drawn green")
        self.assertGreater(len(set(pixels)), 20, "a blank page")


if __name__ == "__main__":
    unittest.main()
