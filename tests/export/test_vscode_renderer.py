"""Every rich output of the executed lesson notebooks renders as VS Code's
notebook renderer shows it: VS Code puts a text/html or image/svg+xml
output into a sandboxed webview with innerHTML, scripts disabled and a
strict Content-Security-Policy (nothing loaded from outside). A static
page does the same for each output of each notebook (one <iframe
sandbox=""> per rich MIME type of an output, CSP default-src 'none';
style-src 'unsafe-inline'; img-src data:), headless Chromium draws it, and
each graph picture and tensor table must show ink at its size, no output
may carry a script or an event handler (they would not run) or name
anything external (a URL in src, href, url() or @import, a <link>; the
CSP would block it). About 30 s once the notebooks are built."""
import html
import os
import unittest

import executed

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
RICH = ("text/html", "image/svg+xml")


def rich_outputs(notebooks):
    """[(label, mime, content)] for every rich output, in notebook order."""
    import nbformat
    found = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        for n, cell in enumerate(nb.cells):
            for k, out in enumerate(cell.get("outputs", [])):
                for mime in RICH:
                    value = out.get("data", {}).get(mime)
                    if value is not None:
                        value = "".join(value) if isinstance(value, list) else value
                        found.append(("%s cell %d output %d %s" % (os.path.basename(path), n, k, mime),
                                      mime, value))
    return found


def frame(content):
    # A webview as tall as a graph picture's first screen (the export
    # test's window), a table's a smaller one.
    height = 1500 if kind(content) == "graph" else 400
    doc = ('<!DOCTYPE html><html><head><meta charset="utf-8">'
           '<meta http-equiv="Content-Security-Policy" content="%s"></head>'
           '<body style="margin:0;background:#fff">%s</body></html>') % (CSP, content)
    return ('<iframe sandbox="" width="1200" height="%d" style="display:block;border:0" srcdoc="%s">'
            '</iframe>') % (height, html.escape(doc, quote=True))


def kind(content):
    """graph (an SVG picture, alone or in HTML), table (a tensor) or other."""
    if "<svg" in content:
        return "graph"
    if "<table" in content:
        return "table"
    return "other"


class VSCodeRenderer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home, _, notebooks = executed.build()
        cls.outputs = rich_outputs(notebooks)
        cls.page = os.path.join(cls.home, "vscode.html")
        with open(cls.page, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>")
            f.write("".join(frame(content) for _, _, content in cls.outputs))
            f.write("</body></html>")

    def test_the_lessons_have_graph_and_table_outputs(self):
        kinds = [kind(c) for _, _, c in self.outputs]
        # Lessons 5 and 11 draw graphs (each as image/svg+xml and text/html);
        # every lesson that shows a tensor in Jupyter shows a table.
        self.assertGreaterEqual(kinds.count("graph"), 8)
        self.assertGreaterEqual(kinds.count("table"), 10)

    def test_no_output_relies_on_a_script_or_an_external_resource(self):
        for label, _, content in self.outputs:
            with self.subTest(label):
                self.assertNotRegex(content, r"(?i)<script\b")
                self.assertNotRegex(content, r"(?i)\son[a-z]+\s*=")
                self.assertNotRegex(content, r"(?i)javascript:")
                self.assertNotRegex(content, r"(?i)(src|href)\s*=\s*[\"']?(https?:|//)")
                self.assertNotRegex(content, r"(?i)url\(\s*[\"']?(https?:|//)")
                self.assertNotRegex(content, r"(?i)@import|<link\b|<\?xml|<!DOCTYPE")

    def test_every_graph_and_table_renders_in_a_sandboxed_frame(self):
        from selenium.webdriver.common.by import By
        driver = executed.browser(self.home)
        try:
            driver.get("file://" + self.page)
            frames = driver.find_elements(By.TAG_NAME, "iframe")
            self.assertEqual(len(frames), len(self.outputs))
            for (label, _, content), element in zip(self.outputs, frames):
                with self.subTest(label):
                    what = kind(content)
                    driver.switch_to.frame(element)
                    try:
                        selector = {"graph": "svg", "table": "table"}.get(what, "body")
                        drawn = driver.find_elements(By.CSS_SELECTOR, selector)
                        self.assertTrue(drawn, "%s: no <%s> in the frame" % (label, selector))
                        driver.execute_script("arguments[0].scrollIntoView()", drawn[0])
                        w, h, fraction = executed.ink(drawn[0].screenshot_as_png)
                    finally:
                        driver.switch_to.default_content()
                    if what == "graph":
                        self.assertGreater(min(w, h), 50, "%s: drawn %dx%d" % (label, w, h))
                        # A blank picture has no ink; a large graph drawn at
                        # its natural size is mostly white, so count pixels
                        # (a node's box and label alone make hundreds).
                        self.assertGreater(w * h * fraction, 400, "%s: blank (%dx%d, %.4f ink)"
                                           % (label, w, h, fraction))
                        self.assertLess(fraction, 0.9, "%s: a filled box, not a graph" % label)
                    else:
                        # A scalar's table is one number: a few dozen pixels.
                        self.assertGreater(w * h * fraction, 10, "%s: blank (%dx%d, %.4f ink)"
                                           % (label, w, h, fraction))
        finally:
            driver.quit()


if __name__ == "__main__":
    unittest.main()
