"""The lesson notebooks open in Debian's classic notebook server 6.4 (what
`make jupyter` runs) with their graph pictures visible: the server started
on loopback with a token, the executed lesson that draws graphs opened in
headless Chromium, its kernel started and idle, and each %graph picture in
the output area drawn at its size with ink in it (the export test's
method), not the empty box the notebook's sanitizer leaves of an untrusted
SVG: tutorials/build_notebooks.py signs the notebooks it executes for
the user who builds them, as the server does for a notebook its user ran.
About 20 s (the notebooks are built once for tests/export's modules)."""
import json
import os
import shutil
import socket
import subprocess
import time
import unittest
import urllib.request

import executed

NOTEBOOK_SERVER = "/usr/bin/jupyter-notebook"
LESSON = "05-concrete-functions.ipynb"  # draws two graphs


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ClassicNotebook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home, env, notebooks = executed.build()
        cls.dir = os.path.join(cls.home, "classic")
        os.makedirs(cls.dir, exist_ok=True)
        for path in notebooks:
            shutil.copy(path, cls.dir)
        cls.env = dict(env)
        cls.token = os.urandom(16).hex()
        cls.port = free_port()
        cls.url = "http://127.0.0.1:%d" % cls.port
        cls.log = open(os.path.join(cls.home, "classic.log"), "w")
        argv = [NOTEBOOK_SERVER, "--no-browser", "--ip=127.0.0.1", "--port=%d" % cls.port,
                "--port-retries=0", "--NotebookApp.token=" + cls.token,
                "--notebook-dir=" + cls.dir]
        if os.getuid() == 0:
            argv.append("--allow-root")
        cls.server = subprocess.Popen(argv, env=cls.env, stdout=cls.log, stderr=subprocess.STDOUT)
        deadline = time.time() + executed.TIMEOUT
        while True:
            try:
                cls.api("/api/status")
                break
            except OSError:
                if cls.server.poll() is not None or time.time() > deadline:
                    raise AssertionError("the notebook server did not start:\n" + cls.server_log())
                time.sleep(0.25)

    @classmethod
    def tearDownClass(cls):
        try:
            for session in cls.api("/api/sessions"):
                cls.api("/api/sessions/" + session["id"], method="DELETE")
        finally:
            cls.server.terminate()
            try:
                cls.server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                cls.server.kill()
                cls.server.wait()
            cls.log.close()

    @classmethod
    def api(cls, path, method="GET"):
        req = urllib.request.Request(cls.url + path, method=method,
                                     headers={"Authorization": "token " + cls.token})
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
        return json.loads(body) if body else None

    @classmethod
    def server_log(cls):
        cls.log.flush()
        with open(cls.log.name) as f:
            return f.read()[-3000:]

    def test_lesson_opens_with_its_graph_pictures_visible(self):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        driver = executed.browser(self.home)
        try:
            driver.get("%s/notebooks/%s?token=%s" % (self.url, LESSON, self.token))
            # The page has rendered the saved outputs and the kernel it
            # started for the notebook answers (idle).
            idle = ("return !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded"
                    " && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
                    " && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'))")
            try:
                WebDriverWait(driver, executed.TIMEOUT, 0.25).until(lambda d: d.execute_script(idle))
            except Exception:
                raise AssertionError("the notebook never showed an idle kernel:\n" + self.server_log())
            # build_notebooks.py signed it for this user (the same
            # JUPYTER_DATA_DIR): untrusted, the notebook's sanitizer removes
            # every SVG and the graphs are empty.
            self.assertTrue(driver.execute_script("return Jupyter.notebook.trusted"),
                            "the lesson opened untrusted")
            self.assertEqual(len(self.api("/api/sessions")), 1)
            pictures = driver.find_elements(By.CSS_SELECTOR, ".output_subarea .moonflow-graph > svg")
            # Lesson 5 draws two graphs.
            self.assertGreaterEqual(len(pictures), 2)
            for svg in pictures:
                driver.execute_script("arguments[0].scrollIntoView()", svg)
                w, h, fraction = executed.ink(svg.screenshot_as_png)
                self.assertGreater(min(w, h), 50, "a graph picture drawn %dx%d" % (w, h))
                self.assertGreater(fraction, 0.02, "a blank graph picture (%.4f ink)" % fraction)
                self.assertLess(fraction, 0.9, "a filled box, not a graph")
        finally:
            driver.quit()


if __name__ == "__main__":
    unittest.main()
