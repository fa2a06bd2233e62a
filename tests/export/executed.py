"""The executed lesson notebooks the export tests open, built once per
test process (tutorials/build_notebooks.py, as `make notebooks` ships
them) and shared by tests/export's modules, so the lessons run once however
many renderers look at them. The directory goes when the process exits."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tutorials"))
import lessons  # noqa: E402

TIMEOUT = 120 * lessons.SLOW
_built = None


def build():
    """(home, env, notebook paths): a private Jupyter home (data, config,
    runtime and IPython directories, the moonflow kernel installed in its
    prefix, on JUPYTER_PATH), its environment, and the executed notebooks."""
    global _built
    if _built is not None:
        return _built
    home = tempfile.mkdtemp(prefix="moonflow-export-")
    atexit.register(shutil.rmtree, home, True)
    env = lessons.environment()
    for var, sub in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_CONFIG_DIR", "config"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        env[var] = os.path.join(home, sub)
        os.makedirs(env[var], exist_ok=True)
    env["JUPYTER_PLATFORM_DIRS"] = "0"
    prefix = os.path.join(home, "prefix")
    subprocess.run([lessons.BIN, "install-kernel", "--prefix", prefix], check=True, env=env,
                   stdout=subprocess.DEVNULL, timeout=60)
    env["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    out = os.path.join(home, "nb")
    proc = subprocess.run(["/usr/bin/python3", os.path.join(lessons.TUTORIALS, "build_notebooks.py"),
                           lessons.BIN, out], capture_output=True, text=True, env=env,
                          timeout=TIMEOUT * 20)
    if proc.returncode != 0:
        raise AssertionError("build_notebooks.py failed:\n" + proc.stderr[-4000:])
    notebooks = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".ipynb"))
    _built = (home, env, notebooks)
    return _built


def ink(png):
    """(width, height, fraction of pixels that are not near-white)."""
    import io
    from PIL import Image
    im = Image.open(io.BytesIO(png)).convert("L")
    hist = im.histogram()
    return im.size[0], im.size[1], sum(hist[:200]) / float(im.size[0] * im.size[1])


def browser(home, width=1280, height=1600):
    """Headless Chromium (Debian's chromium and chromium-driver) driven by
    selenium, with its profile under `home`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=%d,%d" % (width, height),
              "--user-data-dir=" + tempfile.mkdtemp(prefix="chromium-", dir=home)):
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(TIMEOUT)
    return driver
