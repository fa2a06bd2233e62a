"""e2e.py — the end-to-end figures a user sees (run.sh, benchmark 10), each
beside its peer in the same run:

    /usr/bin/python3 tests/bench/e2e.py kernel   # Jupyter round trip
    /usr/bin/python3 tests/bench/e2e.py repl     # start to first prompt

kernel: an execute_request of a trivial cell ("1 + 1"), timed from the
request to the moment a frontend knows the cell is done (its execute_reply
on shell and the kernel's "idle" on iopub), through Debian's jupyter_client,
for moonflow's kernel (installed by `moonflow install-kernel` into a private
prefix, as the kernel tests do) and Debian's ipykernel; 20 warm-up cells,
then 300 timed. Figures: best and median, keys kernel.rtt.mf and
kernel.rtt.ipykernel.

repl: the moonflow program started in a pseudo-terminal (pexpect) until its
first prompt, beside /usr/bin/python3 and lua5.4 to theirs; 10 starts each.
Keys repl.start.mf, repl.start.python, repl.start.lua.

Prints "@ key seconds" and "# note" lines, as bench.lua and peer.py do.
"""
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
now = time.perf_counter
# ipykernel's debugger warns on stderr about frozen modules at each start.
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")


def out(key, values):
    print("@ %s %.9g" % (key, min(values)))
    print("@ %s.median %.9g" % (key, statistics.median(values)))


def note(text):
    print("# " + text)


def round_trips(kc, warm, count):
    times = []
    for i in range(warm + count):
        t0 = now()
        msg_id = kc.execute("1 + 1", store_history=False)
        replied = idle = False
        while not (replied and idle):
            if not replied:
                reply = kc.get_shell_msg(timeout=30)
                replied = reply["parent_header"].get("msg_id") == msg_id
                if replied and reply["content"]["status"] != "ok":
                    raise RuntimeError("the cell failed: %r" % reply["content"])
            else:
                m = kc.get_iopub_msg(timeout=30)
                idle = (m["parent_header"].get("msg_id") == msg_id
                        and m["msg_type"] == "status"
                        and m["content"]["execution_state"] == "idle")
        if i >= warm:
            times.append(now() - t0)
    return times


def kernel_rtt(name, key, start):
    km, kc = start()
    try:
        out(key, round_trips(kc, 20, 300))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def start_moonflow():
    sys.path.insert(0, os.path.join(ROOT, "tests", "jupyter"))
    import mfkernel  # a private Jupyter home and the kernelspec
    km, kc, _ = mfkernel.start_kernel("bench")
    return km, kc


def start_ipykernel():
    from jupyter_client.manager import KernelManager
    km = KernelManager(kernel_name="python3")
    km.start_kernel(stdout=open(os.devnull, "wb"), stderr=open(os.devnull, "wb"))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def section_kernel():
    import jupyter_client
    note("jupyter_client %s" % jupyter_client.__version__)
    kernel_rtt("moonflow", "kernel.rtt.mf", start_moonflow)
    try:
        import ipykernel
        note("ipykernel %s" % ipykernel.__version__)
        kernel_rtt("ipykernel", "kernel.rtt.ipykernel", start_ipykernel)
    except ImportError:
        note("python3-ipykernel is not installed: no peer figure")


def start_times(argv, prompt, env, count=10):
    import pexpect
    times = []
    for _ in range(count):
        t0 = now()
        p = pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8", timeout=60,
                          dimensions=(40, 200))
        p.expect_exact(prompt)
        times.append(now() - t0)
        p.close(force=True)
    return times


def section_repl():
    home = tempfile.mkdtemp(prefix="moonflow-bench-")
    env = dict(os.environ, HOME=home, TERM="dumb", NO_COLOR="1")
    binary = os.environ.get("MOONFLOW_BIN", os.path.join(ROOT, "build", "release", "moonflow"))
    out("repl.start.mf", start_times([binary], "moonflow> ", env))
    out("repl.start.python", start_times(["/usr/bin/python3", "-q", "-i"], ">>> ", env))
    out("repl.start.lua", start_times(["lua5.4", "-i"], "> ", env))


def main():
    sections = {"kernel": section_kernel, "repl": section_repl}
    if len(sys.argv) != 2 or sys.argv[1] not in sections:
        sys.exit("usage: e2e.py kernel | repl")
    sections[sys.argv[1]]()


if __name__ == "__main__":
    main()
