"""The lesson notebooks export and open anywhere: every notebook
tutorials/build_notebooks.py writes (executed, as `make notebooks` ships
them) exports with Debian's nbconvert 6.5 `--to html` and `--to markdown`,
the exported pages are self-contained (no script or font from the network),
and each HTML page, opened in headless Chromium (Debian's chromium and
chromium-driver, driven by python3-selenium), shows its graph pictures:
each %graph picture is drawn at its size with ink in it (non-blank pixels
where the graph is), not an empty box."""
import io
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tutorials"))
import lessons  # noqa: E402
import executed  # noqa: E402

JUPYTER = "/usr/bin/jupyter"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
TIMEOUT = 120 * lessons.SLOW


def setUpModule():
    # The executed notebooks, built once for every module here (executed.py).
    global HOME, ENV, NOTEBOOKS, EXPORTS
    HOME, ENV, NOTEBOOKS = executed.build()
    EXPORTS = {(p, to): export(p, to) for p in NOTEBOOKS for to in ("html", "markdown")}


def export(path, to):
    return subprocess.run([JUPYTER, "nbconvert", "--to", to, path], capture_output=True, text=True,
                          env=ENV, timeout=TIMEOUT)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1600", "--user-data-dir=" + os.path.join(HOME, "chromium")):
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(TIMEOUT)
    return driver


def ink(png):
    """(width, height, fraction of pixels that are not near-white)."""
    from PIL import Image
    im = Image.open(io.BytesIO(png)).convert("L")
    hist = im.histogram()
    return im.size[0], im.size[1], sum(hist[:200]) / float(im.size[0] * im.size[1])


class Export(unittest.TestCase):
    def test_every_notebook_exports_to_html_and_markdown(self):
        self.assertEqual([os.path.basename(p)[:-6] for p in NOTEBOOKS], lessons.lesson_names())
        for path in NOTEBOOKS:
            for to, ext in (("html", ".html"), ("markdown", ".md")):
                proc = EXPORTS[path, to]
                self.assertEqual(proc.returncode, 0, "%s --to %s:\n%s" % (path, to, proc.stderr[-3000:]))
                out = path[:-6] + ext
                self.assertTrue(os.path.getsize(out) > 1000, out)
            page = open(path[:-6] + ".html", encoding="utf-8").read()
            # Nothing fetched from the network: scripts and fonts are local
            # (Debian's nbconvert points at /usr/share/javascript) or inline.
            self.assertEqual(re.findall(r'<script[^>]+src="https?:[^"]*"', page), [], path)
            self.assertEqual(re.findall(r'@import url\(["\']?https?:[^)]*\)', page), [], path)
            self.assertNotIn("<?xml", page, path)
            self.assertNotIn("<!DOCTYPE svg", page, path)

    def test_graph_pictures_survive_markdown(self):
        graphs = 0
        for path in NOTEBOOKS:
            self.assertEqual(EXPORTS[path, "markdown"].returncode, 0)
            md = open(path[:-6] + ".md", encoding="utf-8").read()
            graphs += md.count('<div class="moonflow-graph"><svg')
            # Each picture keeps its shapes, not an empty <svg>.
            for svg in re.findall(r"<svg.*?</svg>", md, re.S):
                self.assertRegex(svg, r"<(polygon|path|ellipse)\b")
        self.assertGreaterEqual(graphs, 2)

    def test_headless_chromium_shows_every_page_and_its_graph_pictures(self):
        from selenium.webdriver.common.by import By
        driver = browser()
        pictures = 0
        try:
            for path in NOTEBOOKS:
                html = path[:-6] + ".html"
                self.assertEqual(EXPORTS[path, "html"].returncode, 0)
                driver.get("file://" + html)
                name = os.path.basename(path)
                w, h, page_ink = ink(driver.get_screenshot_as_png())
                self.assertGreater(page_ink, 0.01, "%s: the page is blank" % name)
                for svg in driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output svg"):
                    driver.execute_script("arguments[0].scrollIntoView()", svg)
                    w, h, fraction = ink(svg.screenshot_as_png)
                    pictures += 1
                    self.assertGreater(min(w, h), 50, "%s: a graph picture drawn %dx%d" % (name, w, h))
                    # A drawn graph: outlines, arrows and labels cover a few
                    # percent of the box; an empty one none.
                    self.assertGreater(fraction, 0.02, "%s: a blank graph picture (%.4f ink)"
                                       % (name, fraction))
                    self.assertLess(fraction, 0.9, "%s: a filled box, not a graph" % name)
        finally:
            driver.quit()
        # 05-concrete-functions draws two graphs.
        self.assertGreaterEqual(pictures, 2)


if __name__ == "__main__":
    unittest.main()
