"""Shared setup for the Jupyter kernel tests: a kernelspec installed by
`moonflow install-kernel --prefix` into a private temporary directory (never
the user's own Jupyter dirs), and helpers to start the real kernel with
Debian's jupyter_client and to read its messages."""
import atexit
import os
import queue
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.environ.get("MOONFLOW_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("MOONFLOW_BIN") or os.path.join(ROOT, "build", "release", "moonflow")
# Sanitizer builds run several times slower.
SLOW = 3 if os.environ.get("MOONFLOW_SANITIZE") == "1" else 1
TIMEOUT = 30 * SLOW

_home = tempfile.mkdtemp(prefix="moonflow-jupyter-")
atexit.register(shutil.rmtree, _home, True)
PREFIX = os.path.join(_home, "prefix")
# Everything Jupyter reads or writes goes under the temporary directory.
for var, sub in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_CONFIG_DIR", "config"),
                 ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
    os.environ[var] = os.path.join(_home, sub)
    os.makedirs(os.environ[var], exist_ok=True)
os.environ["JUPYTER_PATH"] = os.path.join(PREFIX, "share", "jupyter")
os.environ["JUPYTER_PLATFORM_DIRS"] = "0"
os.environ.setdefault("NO_COLOR", "1")

_installed = False
_started = []


@atexit.register
def _kill_leftover_kernels():
    """A test that died half-way must not leave a kernel running."""
    for km in _started:
        try:
            if km.is_alive():
                km.shutdown_kernel(now=True)
        except Exception:
            pass


def install_kernelspec():
    """Installs the kernelspec once per test process; returns its dir."""
    global _installed
    kdir = os.path.join(PREFIX, "share", "jupyter", "kernels", "moonflow")
    if not _installed:
        subprocess.run([BIN, "install-kernel", "--prefix", PREFIX], check=True,
                       stdout=subprocess.DEVNULL, timeout=60)
        _installed = True
    return kdir


def kernel_log_path(name):
    return os.path.join(_home, name + ".stderr")


def start_kernel(log_name="kernel"):
    """Starts the kernel; returns (manager, client, stderr path). The
    kernel's stderr (its log) goes to a file a test can read."""
    from jupyter_client.manager import KernelManager
    install_kernelspec()
    log = kernel_log_path(log_name)
    km = KernelManager(kernel_name="moonflow")
    # stdout too: a kernel must never hold the test runner's pipe open. The
    # file stays open: a restart launches again with the same arguments.
    err = open(log, "ab")
    atexit.register(err.close)
    km.start_kernel(stdout=err, stderr=err)
    _started.append(km)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
    except Exception:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        raise
    return km, kc, log


def stop_kernel(km, kc):
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=False)


def drain(get_msg, wait=0.2, limit=10000):
    """Discards what is waiting on a channel: pass the client's blocking
    getter (kc.get_iopub_msg, kc.get_shell_msg). Bounded, so a kernel that
    floods a channel fails the test instead of hanging it."""
    for _ in range(limit):
        try:
            get_msg(timeout=wait)
        except queue.Empty:
            return
    raise AssertionError("a channel never went quiet")


def run(kc, code, timeout=None, **kw):
    """Executes code; returns (reply, outputs) where outputs is every iopub
    message of this request between busy and idle (status excluded), in
    order. Each output gets a `_t` arrival time."""
    timeout = timeout or TIMEOUT
    msg_id = kc.execute(code, **kw)
    outputs, reply = [], None
    deadline = time.monotonic() + timeout
    idle = False
    while not idle:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no idle status for %r within %ss" % (code, timeout))
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        msg["_t"] = time.monotonic()
        if msg["msg_type"] == "status":
            idle = msg["content"]["execution_state"] == "idle"
            continue
        outputs.append(msg)
    reply = shell_reply(kc, msg_id, deadline - time.monotonic())
    return reply, outputs


# Replies read while waiting for another one, by (client, parent msg_id):
# replies need not come in request order (an aborted execute is answered
# before the failing cell that aborted it).
_early_replies = {}


def shell_reply(kc, msg_id, timeout=None):
    early = _early_replies.pop((id(kc), msg_id), None)
    if early is not None:
        return early
    timeout = timeout if timeout and timeout > 0 else TIMEOUT
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no shell reply to %s" % msg_id)
        msg = kc.get_shell_msg(timeout=left)
        parent = msg["parent_header"].get("msg_id")
        if parent == msg_id:
            return msg
        _early_replies[(id(kc), parent)] = msg


def stream_text(outputs, name="stdout"):
    return "".join(m["content"]["text"] for m in outputs
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


def of_type(outputs, msg_type):
    return [m for m in outputs if m["msg_type"] == msg_type]


class KernelTestCase(unittest.TestCase):
    """One kernel for the class; each test starts with empty channels."""

    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc, cls.log = start_kernel(cls.__name__)

    @classmethod
    def tearDownClass(cls):
        stop_kernel(cls.km, cls.kc)

    def setUp(self):
        drain(self.kc.get_iopub_msg, 0.05)
        drain(self.kc.get_shell_msg, 0.05)

    def ok(self, code, **kw):
        reply, outputs = run(self.kc, code, **kw)
        if reply["content"]["status"] != "ok":
            self.fail("%r failed: %s: %s" % (code, reply["content"].get("ename"),
                                             reply["content"].get("evalue")))
        return reply, outputs

    def result_text(self, outputs):
        results = of_type(outputs, "execute_result")
        self.assertEqual(len(results), 1, outputs)
        return results[0]["content"]["data"]["text/plain"]

    def value(self, code):
        """The text/plain result of evaluating code."""
        _, outputs = self.ok(code)
        return self.result_text(outputs)
