#!/usr/bin/python3
"""ops_reference.py — the references' side of tests/diff/ops.lua.

Reads the cases ops.lua writes on stdin:

    case <index> <entry name>
    attrs <JSON>
    in <tensor>                 (each input, in order)
    out <tensor> | err <Type>   (moonflow's eager results, or its error)
    w <result index> <tensor>   (the weight of each float result in the loss)
    grad <input index> <tensor> | grad <input index> none
    end

with <tensor> = <dtype> <rank> <dims...> : <values...> (floats as C99 hex,
strings as s<hex bytes>). For each case it checks moonflow's results
against REF[name] (NumPy under TF's rules: tests/diff/ops/<family>.py),
then the tape's gradient of loss = sum_k sum(out_k * w_k) against central
finite differences of the reference in float64 and against PyTorch's
autograd (TORCH[name]) where the family has one. Prints "fail <index>
<why>" per failing case and "checked <n> values, <m> gradients".
"""
import glob
import importlib.util
import json
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
np.seterr(all="ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from opref import DT, Approx, Check, LooseZero, TFError  # noqa: E402

REF, TORCH, GRAD = {}, {}, {}
for path in sorted(glob.glob(os.path.join(HERE, "ops", "*.py"))):
    spec = importlib.util.spec_from_file_location("diffops_" + os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    REF.update(getattr(mod, "REF", {}))
    TORCH.update(getattr(mod, "TORCH", {}))
    GRAD.update(getattr(mod, "GRAD", {}))

torch = None


def get_torch():
    global torch
    if torch is None:
        import torch as t
        t.set_num_threads(1)
        torch = t
    return torch


def parse_value(s, dt):
    if dt == "bool":
        return s == "1"
    if dt in ("int32", "int64", "int8", "int16", "uint8", "uint16", "uint32"):
        return int(s)
    if dt == "uint64":
        return int(s) % 2**64  # a Lua integer holds it wrapped
    if dt == "string":
        return bytes.fromhex(s[1:])
    if s in ("nan", "-nan"):
        return float("nan")
    return float.fromhex(s)


def parse_tensor(words):
    dt, rank = words[0], int(words[1])
    shape = tuple(int(w) for w in words[2:2 + rank])
    assert words[2 + rank] == ":"
    vals = [parse_value(w, dt) for w in words[3 + rank:]]
    arr = np.empty(len(vals), dtype=DT[dt])
    for i, v in enumerate(vals):
        arr[i] = v
    return arr.reshape(shape)


def as_list(v):
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


def show(a, n=8):
    flat = np.asarray(a).reshape(-1)
    text = ",".join(repr(x) for x in flat[:n].tolist())
    return "[" + text + (",..." if flat.size > n else "") + "]"


def check_one(i, want, got):
    if isinstance(want, Check):
        why = want.fn(got)
        return None if why is None else "result %d: %s" % (i, why)
    if isinstance(want, Approx):
        if got.shape != want.value.shape:
            return "result %d: shape %s, reference %s" % (i, got.shape, want.value.shape)
        if got.dtype != want.dtype:
            return "result %d: dtype %s, reference %s" % (i, got.dtype, want.dtype)
        exact = want.value.astype(np.longdouble)
        g = got.astype(np.longdouble)
        rounded = exact.astype(want.dtype)
        fi = np.finfo(want.dtype)
        # relative to the magnitudes, and absolute in the subnormal range
        # (whose spacing is fixed): IEEE results, as the whole project
        # computes them (no flush to zero)
        bound = want.ulps * fi.eps * (np.abs(exact) + want.scale) + want.ulps * fi.tiny * fi.eps
        ok = (np.abs(g - exact) <= bound) | (g == exact) | (np.isnan(rounded) & np.isnan(got)) | \
            (np.isinf(got) & (rounded == got))
        ok |= np.isinf(got) & (np.abs(exact) >= np.finfo(want.dtype).max)
        if not ok.all():
            k = int(np.argmin(ok.reshape(-1)))
            return "result %d element %d: %r, reference %r (bound %g)" % (
                i, k, got.reshape(-1)[k].item(), float(exact.reshape(-1)[k]),
                float(np.broadcast_to(bound, exact.shape).reshape(-1)[k]))
        return None
    loose = isinstance(want, LooseZero)
    want = np.asarray(want.value if loose else want)
    if got.shape != want.shape:
        return "result %d: shape %s, reference %s" % (i, got.shape, want.shape)
    if got.dtype != want.dtype:
        return "result %d: dtype %s, reference %s" % (i, got.dtype, want.dtype)
    w, g = want.reshape(-1), got.reshape(-1)
    if got.dtype.kind == "f":
        same = (w == g) & (loose | (np.signbit(w) == np.signbit(g)))
        same |= np.isnan(w) & np.isnan(g)
    else:
        same = np.array([a == b for a, b in zip(w.tolist(), g.tolist())], dtype=bool)
    if not same.all():
        k = int(np.argmin(same))
        return "result %d element %d: %r, reference %r" % (i, k, g[k], w[k])
    return None


def check_values(name, a, inputs, outs, err):
    try:
        want = as_list(REF[name](a, *inputs))
    except TFError as e:
        if err == str(e):
            return None
        return "moonflow %s, TF's rules raise %s" % ("raised " + err if err else "gives a result", e)
    if err:
        return "moonflow raised %s, TF's rules give a result" % err
    if len(want) != len(outs):
        return "%d results, reference %d" % (len(outs), len(want))
    for i, (w, g) in enumerate(zip(want, outs)):
        why = check_one(i, w, g)
        if why:
            return why + " [inputs: %s]" % "; ".join(show(x) for x in inputs)
    return None


def grad_tol(dtype, against):
    """(rtol, atol) of a gradient of dtype, relative to the reference
    gradient's largest magnitude (and 1)."""
    if dtype == np.float64:
        return 2e-6 if against == "fd" else 1e-9
    return 2e-3 if against == "fd" else 1e-4


def close(got, want, rtol):
    finite = np.abs(want[np.isfinite(want)])
    scale = max(float(np.max(finite)) if finite.size else 0.0, 1.0)
    g = got.astype(np.float64)
    err = np.where((g == want) | (np.isnan(g) & np.isnan(want)), 0.0, np.abs(g - want))
    if want.size and not (err <= rtol * scale).all():
        k = int(np.argmax(err.reshape(-1)))
        return "element %d: %r, reference %r (tolerance %g)" % (
            k, got.reshape(-1)[k].item(), want.reshape(-1)[k], rtol * scale)
    return None


def outputs_of(name, a, inputs, ws):
    outs = as_list(REF[name](a, *inputs))
    res = {}
    for k in ws:
        o = outs[k - 1]
        o = o.value if isinstance(o, (Approx, LooseZero)) else o
        res[k] = np.array(o, dtype=np.float64)  # a copy: o may be a view of the input
    return res


def finite_differences(name, a, inputs, ws, i):
    """d loss / d input i by central differences, loss = sum_k sum(out_k *
    w_k); the differences of the outputs are taken before the weighting,
    so large constant results do not cancel the digits away."""
    xs = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in inputs]
    x = xs[i]
    g = np.zeros(x.shape, dtype=np.float64)
    flat = x.reshape(-1)
    for j in range(flat.size):
        v = flat[j]
        h = 1e-6 * max(1.0, abs(v))
        flat[j] = v + h
        up = outputs_of(name, a, xs, ws)
        flat[j] = v - h
        down = outputs_of(name, a, xs, ws)
        flat[j] = v
        g.reshape(-1)[j] = sum(float(np.sum((up[k] - down[k]) * ws[k].astype(np.float64)))
                               for k in ws) / (2 * h)
    return g


def torch_check(name, a, inputs, outs, ws, grads):
    if all(outs[k - 1].size == 0 for k in ws):
        return None  # nothing to compare (the zero gradients were checked)
    t = get_torch()
    ts = []
    for i, x in enumerate(inputs):
        if x.dtype.kind == "f":
            ts.append(t.tensor(x.astype(np.float64), requires_grad=(i + 1) in grads))
        elif x.dtype.kind == "b":
            ts.append(t.tensor(x))
        else:
            ts.append(t.tensor(x.astype(np.int64)))
    touts = as_list(TORCH[name](a, *ts))
    loss = None
    for k, w in ws.items():
        o = touts[k - 1]
        mine = outs[k - 1]
        why = close(mine, o.detach().numpy().astype(np.float64).reshape(mine.shape),
                    grad_tol(mine.dtype, "fd"))
        if why:
            return "PyTorch's result %d: %s" % (k - 1, why)
        term = (o.reshape(mine.shape) * t.tensor(w.astype(np.float64))).sum()
        loss = term if loss is None else loss + term
    srcs = [ts[i - 1] for i in sorted(grads)]
    if loss is None or not srcs:
        return None
    if not loss.requires_grad:  # PyTorch's graph does not reach the inputs
        tg = [None] * len(srcs)
    else:
        tg = t.autograd.grad(loss, srcs, allow_unused=True)
    for i, g in zip(sorted(grads), tg):
        want = np.zeros(inputs[i - 1].shape) if g is None else g.numpy()
        got = grads[i]
        got = np.zeros(inputs[i - 1].shape, dtype=inputs[i - 1].dtype) if got is None else got
        why = close(got, want, grad_tol(got.dtype, "torch"))
        if why:
            return "gradient of input %d vs PyTorch: %s" % (i, why)
    return None


def check_grads(name, a, inputs, outs, ws, grads):
    defined = GRAD[name](a, inputs, ws) if name in GRAD else None
    for i, got in sorted(grads.items()):
        fd = defined[i - 1] if defined else finite_differences(name, a, inputs, ws, i - 1)
        if got is None:
            got = np.zeros(fd.shape, dtype=inputs[i - 1].dtype)
        if got.shape != fd.shape:
            return "gradient of input %d: shape %s, input %s" % (i, got.shape, fd.shape)
        why = close(got, fd, grad_tol(got.dtype, "fd"))
        if why:
            return "gradient of input %d vs finite differences: %s [inputs: %s]" % (
                i, why, "; ".join(show(x) for x in inputs))
    if name in TORCH:
        return torch_check(name, a, inputs, outs, ws, grads)
    return None


def run_case(name, lines):
    a, inputs, outs, err, ws, grads = {}, [], [], None, {}, {}
    for words in lines:
        kind = words[0]
        if kind == "attrs":
            a = json.loads(" ".join(words[1:]))
            a = a if isinstance(a, dict) else {}  # Lua's empty table
        elif kind == "in":
            inputs.append(parse_tensor(words[1:]))
        elif kind == "out":
            outs.append(parse_tensor(words[1:]))
        elif kind == "err":
            err = words[1]
        elif kind == "w":
            ws[int(words[1])] = parse_tensor(words[2:])
        elif kind == "grad":
            grads[int(words[1])] = None if words[2] == "none" else parse_tensor(words[2:])
    if name not in REF:
        return "no reference REF[%r] in tests/diff/ops/*.py" % name, 0
    why = check_values(name, a, inputs, outs, err)
    if why or not grads:
        return why, 0
    return check_grads(name, a, inputs, outs, ws, grads), 1


def main():
    checked = ngrads = 0
    name, lines = None, []
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "case":
            index, name, lines = int(words[1]), words[2], []
        elif words[0] == "end":
            checked += 1
            try:
                why, g = run_case(name, lines)
                ngrads += g
            except Exception as e:  # a reference bug names the case too
                why = "ops_reference.py: %s: %s" % (type(e).__name__, e)
            if why:
                print("fail %d %s" % (index, why.replace("\n", "\\n")))
        else:
            lines.append(words)
    print("checked %d values, %d gradients" % (checked, ngrads))


if __name__ == "__main__":
    main()
