"""peer.py — the NumPy and PyTorch side of the benchmark suite (run.sh).

    /usr/bin/python3 tests/bench/peer.py numpy
    /usr/bin/python3 tests/bench/peer.py torch THREADS
    /usr/bin/python3 tests/bench/peer.py conv THREADS [TAG]
    /usr/bin/python3 tests/bench/peer.py mlp THREADS
    /usr/bin/python3 tests/bench/peer.py lesson14 THREADS
    /usr/bin/python3 tests/bench/peer.py kerasfit THREADS

Debian's python3-numpy and python3-torch, run by /usr/bin/python3. Figures
are printed as "@ key seconds" lines and notes as "# ..." lines, as
bench.lua does, with the same method: one warm-up repeat, then 41 repeats
of about 5 ms for small operations (5-9 repeats of one call for large
ones); the best repeat and the median of wall-clock time and the best
repeat of process CPU time are printed (key, key.median, key.cpu).

run.sh runs the numpy section with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
unset (that command alone) and the torch sections with the environment
moonflow and the direct cblas program see, so that BLAS-bound figures
compare the same OpenBLAS kernel. Each section says which kernel the
loaded OpenBLAS runs. torch.set_num_threads is set to the threads moonflow
uses for the same work: 1 for elementwise and per-op work (moonflow's own
pool is set to one thread for that work; the torch section then repeats the
16M add and the 1M chain at THREADS), THREADS
(= OPENBLAS_NUM_THREADS) for conv2d and the MLP, whose GEMMs moonflow hands
to OpenBLAS's pool. The 100-op chain on 16 elements is also timed through
torch.jit.script (key chain16.jit.torch). conv's TAG suffixes its key (run.sh's "(info) … native"
run with OpenBLAS's own kernel choice).
"""
import ctypes
import os
import statistics
import sys
import time

now = time.perf_counter


def out(key, best, med=None, cpu=None):
    print("@ %s %.9g" % (key, best))
    if med is not None:
        print("@ %s.median %.9g" % (key, med))
    if cpu is not None:
        print("@ %s.cpu %.9g" % (key, cpu))


def note(text):
    print("# " + text)


def measure(fn, inner, reps):
    for _ in range(inner):
        fn()
    times, cpus = [], []
    for _ in range(reps):
        c0, t0 = time.process_time(), now()
        for _ in range(inner):
            fn()
        t1, c1 = now(), time.process_time()
        times.append((t1 - t0) / inner)
        cpus.append((c1 - c0) / inner)
    return min(times), statistics.median(times), min(cpus)


def calibrate(fn, target):
    n = 1
    while True:
        t0 = now()
        for _ in range(n):
            fn()
        dt = now() - t0
        if dt >= target / 4 or n >= 1 << 24:
            return max(1, int(n * target / max(dt, 1e-9)))
        n *= 4


def auto(fn, target=0.005, reps=41):
    return measure(fn, calibrate(fn, target), reps)


def blas_kernel():
    """Which OpenBLAS kernel the process runs: threadpoolctl if installed,
    else ask every loaded OpenBLAS directly."""
    try:
        import threadpoolctl
        infos = [i for i in threadpoolctl.threadpool_info() if i.get("internal_api") == "openblas"]
        if infos:
            return ", ".join("%s %s (%s threads, threadpoolctl)" % (
                os.path.basename(i["filepath"]), i.get("architecture"), i.get("num_threads"))
                for i in infos)
    except ImportError:
        pass
    seen = []
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if "blas" in path and path.endswith(tuple(".so" + s for s in ("", ".0", ".3"))) \
                    and path not in seen:
                seen.append(path)
    found = []
    for path in seen:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            found.append("%s %s" % (os.path.basename(path), lib.openblas_get_corename().decode()))
        except (OSError, AttributeError):
            pass
    return ", ".join(found) or "no OpenBLAS loaded"


def chain(x, tanh):
    for i in range(1, 101):
        k = i % 3
        if k == 1:
            x = x * 1.0001
        elif k == 2:
            x = x + 0.5
        else:
            x = tanh(x)
    return x


def section_numpy():
    import numpy as np
    note("NumPy %s; OpenBLAS: %s; OPENBLAS_CORETYPE=%s" % (
        np.__version__, blas_kernel(), os.environ.get("OPENBLAS_CORETYPE", "(unset)")))
    a, b = np.float32(1.0) + np.zeros((), np.float32), np.zeros((), np.float32) + np.float32(1.0)
    assert a.shape == () and a.dtype == np.float32
    out("overhead.np", *auto(lambda: a + b))

    rng = np.random.default_rng(1)
    n = 16 * 1024 * 1024
    a16 = rng.random(n, dtype=np.float32)
    b16 = rng.random(n, dtype=np.float32)
    out("add16m.np", *measure(lambda: a16 + b16, 1, 9))

    big = rng.random(1024 * 1024, dtype=np.float32)
    assert chain(big, np.tanh).dtype == np.float32
    out("chain1m.np", *measure(lambda: chain(big, np.tanh), 1, 5))
    small = rng.random(16, dtype=np.float32)
    out("chain16.np", *auto(lambda: chain(small, np.tanh)))


def torch_setup(threads):
    import torch
    torch.set_num_threads(threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    return torch


def section_torch(threads):
    global torch
    torch = torch_setup(1)
    note("PyTorch %s (%d thread for elementwise and per-op work, as moonflow); OpenBLAS: %s" % (
        torch.__version__, torch.get_num_threads(), blas_kernel()))
    torch.set_grad_enabled(False)
    a, b = torch.tensor(1.0), torch.tensor(1.0)
    out("overhead.torch", *auto(lambda: a + b))

    n = 16 * 1024 * 1024
    g = torch.Generator().manual_seed(1)
    a16 = torch.rand(n, generator=g)
    b16 = torch.rand(n, generator=g)
    out("add16m.torch", *measure(lambda: a16 + b16, 1, 9))

    x = torch.tensor(1.0)
    f = torch.jit.script(lambda_plus_one)
    for _ in range(10):
        f(x)  # the profiling executor optimises after a few calls
    assert f(x).item() == 2.0
    out("func.jit.torch", *auto(lambda: f(x)))
    out("func.eager1.torch", *auto(lambda: x + 1))

    big = torch.rand(1024 * 1024, generator=g)
    out("chain1m.torch", *measure(lambda: chain(big, torch.tanh), 1, 5))
    small = torch.rand(16, generator=g)
    out("chain16.torch", *auto(lambda: chain(small, torch.tanh)))

    # The same chain compiled by TorchScript (the function, loop and all, as
    # moonflow's tf.func gets it); the profiling executor specialises and
    # optimises it over its first calls, so it is warmed up first.
    script = torch.jit.script(chain_script)
    for _ in range(20):
        script(small)
    assert torch.allclose(script(small), chain(small, torch.tanh))
    out("chain16.jit.torch", *auto(lambda: script(small)))

    torch.set_num_threads(threads)
    out("add16m.torch.t%d" % threads, *measure(lambda: a16 + b16, 1, 9))
    out("chain1m.torch.t%d" % threads, *measure(lambda: chain(big, torch.tanh), 1, 5))


def lambda_plus_one(x):
    return x + 1


torch = None  # set by section_torch: chain_script's `torch` for TorchScript


def chain_script(x):
    for i in range(1, 101):
        k = i % 3
        if k == 1:
            x = x * 1.0001
        elif k == 2:
            x = x + 0.5
        else:
            x = torch.tanh(x)
    return x


def section_conv(threads, tag=None):
    torch = torch_setup(threads)
    note("PyTorch conv2d (oneDNN %s) at %d threads; OpenBLAS: %s" % (
        "on" if torch.backends.mkldnn.is_available() else "off", torch.get_num_threads(),
        blas_kernel()))
    torch.set_grad_enabled(False)
    g = torch.Generator().manual_seed(1)
    x = torch.rand(1, 100, 200, 200, generator=g)
    w = torch.rand(100, 100, 3, 3, generator=g)
    conv = torch.nn.functional.conv2d
    assert conv(x, w).shape == (1, 100, 198, 198)
    key = "conv.t%d.torch" % threads + ("." + tag if tag else "")
    out(key, *measure(lambda: conv(x, w), 1, 5))


def section_mlp(threads):
    torch = torch_setup(threads)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(64, 784, generator=g)
    labels = torch.randint(0, 10, (64,), generator=g)
    w1 = (torch.randn(784, 256, generator=g) * 0.05).requires_grad_()
    b1 = torch.zeros(256, requires_grad=True)
    w2 = (torch.randn(256, 10, generator=g) * 0.05).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
    params = [w1, b1, w2, b2]
    ce = torch.nn.functional.cross_entropy

    def step():
        h = torch.relu(x @ w1 + b1)
        loss = ce(h @ w2 + b2, labels)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, gr in zip(params, grads):
                p.sub_(gr * 0.01)
        return loss

    out("mlp.t%d.torch" % threads, *auto(step, 0.05, 9))


DIGITS = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"


def section_lesson14(threads):
    """Lesson 14's model (tutorials/14-convolutions.md) in PyTorch: Conv2d 3x3
    'same', BatchNorm2d (Keras momentum 0.9 is torch's 0.1), ReLU, MaxPool2d,
    Dropout 0.25, Linear; Adam 0.01; one epoch of 20 steps of 50 images."""
    import gzip
    torch = torch_setup(threads)
    rows = [[float(v) for v in line.split(",")] for line in gzip.open(DIGITS, "rt")]
    x = torch.tensor([r[:-1] for r in rows], dtype=torch.float32).reshape(-1, 1, 8, 8) / 16
    y = torch.tensor([int(r[-1]) for r in rows], dtype=torch.int64)
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16, momentum=0.1),
                        nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(),
                        nn.Linear(16 * 4 * 4, 10))
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    ce = nn.functional.cross_entropy
    xs = [x[50 * b:50 * b + 50] for b in range(20)]
    ys = [y[50 * b:50 * b + 50] for b in range(20)]

    def epoch():
        for xb, yb in zip(xs, ys):
            opt.zero_grad()
            loss = ce(net(xb), yb)
            loss.backward()
            opt.step()
        return loss.item()

    epoch()
    out("lesson14.t%d.torch" % threads, *measure(epoch, 1, 15))
    note("PyTorch lesson 14 epoch: final batch loss %.3f" % epoch())
def section_kerasfit(threads):
    """12. Lesson 16's model (tutorials/16-keras-fit.md) in PyTorch: Linear 64->32,
    ReLU, Linear 32->10, Adam 0.01, cross-entropy on logits; one epoch of 30
    steps of 50 digits, in order (moonflow's fit runs with shuffle off)."""
    import gzip
    torch = torch_setup(threads)
    rows = [[float(v) for v in line.split(",")] for line in gzip.open(DIGITS, "rt")]
    x = torch.tensor([r[:-1] for r in rows], dtype=torch.float32)[:1500] / 16
    y = torch.tensor([int(r[-1]) for r in rows], dtype=torch.int64)[:1500]
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    ce = nn.functional.cross_entropy
    xs = [x[50 * b:50 * b + 50] for b in range(30)]
    ys = [y[50 * b:50 * b + 50] for b in range(30)]

    def epoch():
        for xb, yb in zip(xs, ys):
            opt.zero_grad()
            loss = ce(net(xb), yb)
            loss.backward()
            opt.step()
        return loss.item()

    epoch()
    out("kerasfit.t%d.torch" % threads, *measure(epoch, 1, 15))
    note("PyTorch lesson 16 epoch: final batch loss %.3f" % epoch())


def section_data():
    """9. PyTorch's DataLoader over a TensorDataset (num_workers=0, shuffled,
    batches of 64), the same elementwise ops per batch: per element."""
    torch = torch_setup(1)
    g = torch.Generator().manual_seed(1)
    n = 60000
    x = torch.rand(n, 64, generator=g)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x), batch_size=64,
                                         shuffle=True, num_workers=0, generator=g)

    def epoch():
        for (b,) in loader:
            torch.tanh(b * 2.0 + 1.0) * 0.5

    best, med, cpu = measure(epoch, 1, 3)
    out("data.torch", best / n, med / n, cpu / n)


def main():
    name = sys.argv[1]
    if name == "numpy":
        section_numpy()
    elif name == "torch":
        section_torch(int(sys.argv[2]))
    elif name == "conv":
        section_conv(int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
    elif name == "mlp":
        section_mlp(int(sys.argv[2]))
    elif name == "lesson14":
        section_lesson14(int(sys.argv[2]))
    elif name == "data":
        section_data()
    elif name == "kerasfit":
        section_kerasfit(int(sys.argv[2]))
    else:
        sys.exit("usage: peer.py numpy | torch THREADS | conv THREADS [TAG] | mlp THREADS | lesson14 THREADS | data | kerasfit THREADS")


if __name__ == "__main__":
    main()
