"""References for tests/diff/ops/strings.lua."""
import re

import numpy as np
from opref import raise_if


def _length(a, x):
    unit = a["unit"]
    raise_if(unit not in ("BYTE", "UTF8_CHAR"))
    f = (lambda s: len(s)) if unit == "BYTE" else (lambda s: len(s.decode("utf-8")))
    return np.array([f(s) for s in x.reshape(-1)], dtype=np.int32).reshape(x.shape)


def _join(a, *xs):
    shapes = {x.shape for x in xs if x.ndim > 0}
    raise_if(len(shapes) > 1)
    shape = shapes.pop() if shapes else ()
    sep = a["sep"].encode()
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        out[idx] = sep.join(x[()] if x.ndim == 0 else x[idx] for x in xs)
    return out


def _spacing(dim, ndims):
    if dim == ndims - 1:
        return " "
    return "\n" * (ndims - dim - 1) + " " * (dim + 1)


def _fmt(x, s):
    """TF's Tensor::SummarizeValue(s, print_v2) (tensor.cc): the limit is
    min(s, number of elements) (all of them for s < 0), taken at each end
    of every dimension, with '...' between when a dimension is longer."""
    if x.ndim == 0:
        return str(int(x))
    ends = x.size if s < 0 else min(s, x.size)
    flat = x.reshape(-1)
    out = []

    def one(dim, start):
        if dim == x.ndim:
            out.append(str(int(flat[start])))
            return
        out.append("[")
        n = x.shape[dim]
        per = int(np.prod(x.shape[dim + 1:]))
        for i in range(min(ends, n)):
            if i > 0:
                out.append(_spacing(dim, x.ndim))
            one(dim + 1, start + per * i)
        if n > 2 * ends:
            out.append(_spacing(dim, x.ndim))
            out.append("...")
        for i in range(max(ends, n - ends), n):
            out.append(_spacing(dim, x.ndim))
            one(dim + 1, start + per * i)
        out.append("]")

    one(0, 0)
    return "".join(out)


def _format(a, *xs):
    pieces = a["template"].split("{}")
    raise_if(len(pieces) - 1 != len(xs))
    out = pieces[0]
    for x, p in zip(xs, pieces[1:]):
        out += _fmt(x, a["summarize"]) + p
    r = np.empty((), dtype=object)
    r[()] = out.encode()
    return r


def _obj(values, shape):
    out = np.empty(shape, dtype=object)
    flat = out.reshape(-1)
    for i, v in enumerate(values):
        flat[i] = v
    return out


def _map(x, f):
    return _obj([f(v) for v in x.reshape(-1)], x.shape)


def _case(a, x):
    f = {"lower": bytes.lower, "upper": bytes.upper, "strip": lambda s: s.strip(b" \t\n\v\f\r")}[a["which"]]
    return _map(x, f)


def _substr(a, x, pos, ln):
    shape = np.broadcast(x, pos).shape
    xs, ps, ls = (np.broadcast_to(v, shape).reshape(-1) for v in (x, pos, ln))
    out = []
    for s, p, n in zip(xs, ps, ls):
        p, n = int(p), int(n)
        units = s.decode("utf-8") if a["unit"] == "UTF8_CHAR" else s
        raise_if(p > len(units) or p < -len(units))
        if p < 0:
            p += len(units)
        piece = units[p:] if n < 0 else units[p:p + n]
        out.append(piece.encode("utf-8") if a["unit"] == "UTF8_CHAR" else piece)
    return _obj(out, shape)


def _sparse(rows):
    idx, vals = [], []
    for i, pieces in enumerate(rows):
        for j, p in enumerate(pieces):
            idx.append([i, j])
            vals.append(p)
    widest = max([len(p) for p in rows], default=0)
    return [np.array(idx, dtype=np.int64).reshape(len(idx), 2), _obj(vals, (len(vals),)),
            np.array([len(rows), widest], dtype=np.int64)]


def _split_v2(a, x):
    sep, m = a["sep"].encode(), a["maxsplit"]
    return _sparse([s.split(sep or None, m) for s in x.reshape(-1)])


def _split_v1(a, x):
    delim, skip = a["delim"].encode(), a["skip"]
    rows = []
    for s in x.reshape(-1):
        if not delim:
            pieces = [bytes([b]) for b in s]
        else:
            pieces = re.split(b"[" + re.escape(delim) + b"]", s)
            if skip:
                pieces = [p for p in pieces if p]
        rows.append(pieces)
    return _sparse(rows)


def _to_number(a, x):
    out = a["out"]
    vals = []
    for s in x.reshape(-1):
        t = s.strip(b" \t\n\v\f\r").decode()
        raise_if(t == "" or "x" in t.lower())
        try:
            v = float(t) if out.startswith("float") else int(t, 10)
        except ValueError:
            raise_if(True)
        if out == "int32":
            raise_if(not -2**31 <= v < 2**31)
        vals.append(v)
    return np.array(vals, dtype=out).reshape(x.shape)


def _as_string(a, x):
    is_float = x.dtype.kind == "f"
    raise_if(a["scientific"] and a["shortest"])
    raise_if(not is_float and (a["scientific"] or a["shortest"] or a["precision"] > -1))
    fmt = "%" + a["fill"]
    if a["width"] > -1:
        fmt += str(a["width"])
    if a["precision"] > -1:
        fmt += ".%d" % a["precision"]
    fmt += ("g" if a["shortest"] else "e" if a["scientific"] else "f") if is_float else "d"
    if x.dtype == np.bool_:
        return _map(x, lambda v: b"true" if v else b"false")
    return _map(x, lambda v: (fmt % (float(v) if is_float else int(v))).encode())


def _reduce_join(a, x):
    rank = x.ndim
    axes = [d + rank if d < 0 else d for d in a["axes"]]
    raise_if(any(d < 0 or d >= rank for d in axes) or len(set(axes)) != len(axes))
    kept = [d for d in range(rank) if d not in axes]
    moved = np.transpose(x, kept + sorted(axes))
    lead = [x.shape[d] for d in kept]
    flat = moved.reshape(lead + [int(np.prod([x.shape[d] for d in axes], dtype=np.int64))])
    sep = a["sep"].encode()
    out = np.empty(lead, dtype=object)
    for idx in np.ndindex(*lead):
        out[idx] = sep.join(flat[idx])
    if a["keep"]:
        out = out.reshape([1 if d in axes else x.shape[d] for d in range(rank)])
    return out


def _decode_raw(a, x):
    dt = np.dtype(a["out"]).newbyteorder("<" if a["little"] else ">")
    flat = list(x.reshape(-1))
    n = len(flat[0]) if flat else 0
    for s in flat:
        raise_if(len(s) % dt.itemsize != 0 or len(s) != n)
    rows = [np.frombuffer(s, dtype=dt).astype(a["out"]) for s in flat]
    return np.array(rows, dtype=a["out"]).reshape(x.shape + (n // dt.itemsize,))


def _pattern(p):
    try:
        return re.compile(p)
    except re.error:
        raise_if(True)


def _full_match(a, x):
    rx = _pattern(a["pattern"])
    return np.array([rx.fullmatch(s.decode()) is not None for s in x.reshape(-1)], dtype=bool).reshape(x.shape)


def _rewrite(rw, m):
    out, i = [], 0
    while i < len(rw):
        c = rw[i]
        if c == "\\" and i + 1 < len(rw):
            i += 1
            c = rw[i]
            out.append("\\" if c == "\\" else (m.group(int(c)) or ""))
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _replace_one(rx, s, rw, glob):
    """RE2::GlobalReplace (or Replace): no empty match where the last match ended."""
    out, p, lastend = [], 0, -1
    while p <= len(s):
        m = rx.search(s, p)
        if not m:
            break
        out.append(s[p:m.start()])
        if m.start() == lastend and m.end() == m.start():
            if p >= len(s):
                break
            out.append(s[p])
            p += 1
            continue
        out.append(_rewrite(rw, m))
        p = lastend = m.end()
        if not glob:
            break
    out.append(s[p:])
    return "".join(out)


def _regex_replace(a, x):
    rx = _pattern(a["pattern"])
    rw = a["rewrite"]
    raise_if(rw.endswith("\\") and not rw.endswith("\\\\"))
    wanted = [int(d) for d in re.findall(r"\\(\d)", rw.replace("\\\\", ""))]
    raise_if(max(wanted, default=0) > rx.groups)
    return _map(x, lambda s: _replace_one(rx, s.decode(), rw, a["global"]).encode())


def _pieces(s):
    """(code point or None, byte offset, byte length) for each character of
    s, None for each maximal ill-formed subsequence (Python's codec and ICU
    agree on them)."""
    out, i = [], 0
    while i < len(s):
        try:
            good, bad = s[i:].decode("utf-8"), None
        except UnicodeDecodeError as e:
            good, bad = s[i:i + e.start].decode("utf-8"), (i + e.start, e.end - e.start)
        for ch in good:
            n = len(ch.encode("utf-8"))
            out.append((ord(ch), i, n))
            i += n
        if bad is None:
            break
        out.append((None, bad[0], bad[1]))
        i = bad[0] + bad[1]
    return out


def _unicode_decode(a, x):
    splits, vals, offs = [0], [], []
    for s in x.reshape(-1):
        for cp, at, _ in _pieces(s):
            if cp is None:
                raise_if(a["errors"] == "strict")
                if a["errors"] == "ignore":
                    continue
                cp = a["replacement"]
            elif a["controls"] and cp < 0x20:
                cp = a["replacement"]
            vals.append(cp)
            offs.append(at)
        splits.append(len(vals))
    out = [np.array(splits, dtype=np.int64), np.array(vals, dtype=np.int32)]
    if a["offsets"]:
        out.append(np.array(offs, dtype=np.int64))
    return out


def _unicode_encode(a, v, splits):
    out = []
    for k in range(len(splits) - 1):
        chars = []
        for cp in v[splits[k]:splits[k + 1]]:
            cp = int(cp)
            if not (0 <= cp <= 0x10FFFF) or 0xD800 <= cp <= 0xDFFF:
                raise_if(a["errors"] == "strict")
                if a["errors"] == "ignore":
                    continue
                cp = a["replacement"]
            chars.append(chr(cp))
        out.append("".join(chars).encode("utf-8"))
    return _obj(out, (len(out),))


REF = {"string_length": _length, "string_join": _join, "string_format": _format,
       "string_case": _case, "substr": _substr, "string_split_v2": _split_v2, "string_split": _split_v1,
       "string_to_number": _to_number, "as_string": _as_string, "reduce_join": _reduce_join,
       "decode_raw": _decode_raw, "regex_full_match": _full_match, "regex_replace": _regex_replace,
       "unicode_decode": _unicode_decode, "unicode_encode": _unicode_encode}
