"""References for tests/diff/ops/index.lua."""
import numpy as np
from opref import DT, norm_axis, raise_if


def _slice(a, x):
    idx = []
    for d, b, s in zip(x.shape, a["begin"], a["size"]):
        e = d if s == -1 else b + s
        raise_if(b < 0 or b > d or e > d or e < b)
        idx.append(slice(b, e))
    raise_if(len(a["begin"]) != x.ndim)
    return x[tuple(idx)]


def _strided_slice(a, x):
    idx = []
    for i, (b, e, s) in enumerate(zip(a["begin"], a["end"], a["strides"])):
        bit = 1 << i
        # the stride of an ellipsis or a new axis is never read
        raise_if(s == 0 and not (a["ellipsis_mask"] | a["new_axis_mask"]) & bit)
        if a["ellipsis_mask"] & bit:
            idx.append(Ellipsis)
        elif a["new_axis_mask"] & bit:
            idx.append(np.newaxis)
        elif a["shrink_axis_mask"] & bit:
            raise_if(s <= 0)  # "only stride 1 allowed on non-range indexing" (TF: any s > 0)
            idx.append(("shrink", b))
        else:
            idx.append(slice(None if a["begin_mask"] & bit else b, None if a["end_mask"] & bit else e, s))
    if Ellipsis in idx:
        idx = idx[:idx.index(Ellipsis) + 1] + [i for i in idx[idx.index(Ellipsis) + 1:] if i is not Ellipsis]
    # the dimension each shrink index applies to
    dims = []
    consumed = sum(1 for i in idx if i is not np.newaxis and i is not Ellipsis)
    raise_if(consumed > x.ndim)
    d = 0
    out = []
    for i in idx:
        if i is Ellipsis:
            d += x.ndim - consumed
            out.append(Ellipsis)
        elif i is np.newaxis:
            out.append(np.newaxis)
        elif isinstance(i, tuple):
            n = x.shape[d]
            raise_if(not -n <= i[1] < n)
            out.append(i[1])
            d += 1
        else:
            out.append(i)
            d += 1
    return np.array(x[tuple(out)])


def _gather(a, p, i):
    bd = a["batch_dims"]
    axis = norm_axis(a["axis"], p.ndim)
    d = p.shape[axis]
    # TF checks the indices only when the result is not empty
    out_size = int(np.prod(p.shape[:axis])) * int(np.prod(i.shape[bd:])) * int(np.prod(p.shape[axis + 1:]))
    raise_if(out_size > 0 and (i.min() < 0 or i.max() >= d))
    if out_size == 0:  # no index is read
        return np.zeros(p.shape[:axis] + i.shape[bd:] + p.shape[axis + 1:], dtype=p.dtype)
    if bd == 0:
        return np.take(p, i, axis=axis)
    return np.stack([np.take(p[b], i[b], axis=axis - 1) for b in range(p.shape[0])]) \
        if p.shape[0] else np.zeros((0,) + i.shape[1:] + p.shape[axis + 1:], dtype=p.dtype).reshape(
            (0,) + p.shape[1:axis] + i.shape[1:] + p.shape[axis + 1:])


def _where(a, x):
    nz = x != 0 if x.dtype != np.bool_ else x
    if x.ndim == 0:
        return np.zeros((1 if nz else 0, 0), dtype=np.int64)
    return np.argwhere(nz).astype(np.int64)


def _one_hot(a, i):
    depth, axis = a["depth"], a["axis"]
    dt = DT[a["dtype"]]
    hot = i[..., None] == np.arange(depth)
    out = np.where(hot, np.array(a["on"], dtype=dt), np.array(a["off"], dtype=dt)).astype(dt)
    if axis != -1:
        out = np.moveaxis(out, -1, axis)
    return out


def _segment_sum(a, x, ids):
    num = a["num"]
    raise_if(ids.size and ids.max() >= num)
    out_shape = (num,) + x.shape[ids.ndim:]
    flat_x = x.reshape((ids.size,) + x.shape[ids.ndim:])
    if x.dtype.kind == "f":
        out = np.zeros(out_shape, dtype=np.float64)
        for k, s in enumerate(ids.reshape(-1)):
            if s >= 0:
                out[s] += flat_x[k]
        if x.dtype == np.float32:
            from opref import Approx
            scale = np.zeros(out_shape)
            for k, s in enumerate(ids.reshape(-1)):
                if s >= 0:
                    scale[s] += np.abs(flat_x[k].astype(np.float64))
            return Approx(out, x.dtype, 2 + ids.size, scale)
        return out.astype(x.dtype) if ids.size <= 2 else _approx64(out, flat_x, ids, out_shape)
    out = np.zeros(out_shape, dtype=x.dtype)
    for k, s in enumerate(ids.reshape(-1)):
        if s >= 0:
            out[s] += flat_x[k]
    return out


def _approx64(out, flat_x, ids, out_shape):
    from opref import Approx
    scale = np.zeros(out_shape)
    for k, s in enumerate(ids.reshape(-1)):
        if s >= 0:
            scale[s] += np.abs(flat_x[k])
    return Approx(out, np.float64, 2 + ids.size, scale)


REF = {
    "slice": _slice, "strided_slice": _strided_slice, "gather": _gather, "where": _where,
    "one_hot": _one_hot, "unsorted_segment_sum": _segment_sum,
}


def _t_gather(a, p, i):
    import torch
    axis = a["axis"] % p.dim()
    if p.numel() == 0:  # TF reads no index then; PyTorch checks them anyway
        return torch.from_numpy(_gather(a, p.detach().numpy(), i.numpy()))
    if a["batch_dims"] == 0:
        return torch.index_select(p, axis, i.reshape(-1)).reshape(
            p.shape[:axis] + i.shape + p.shape[axis + 1:])
    return torch.stack([torch.index_select(p[b], axis - 1, i[b].reshape(-1)).reshape(
        p.shape[1:axis] + i.shape[1:] + p.shape[axis + 1:]) for b in range(p.shape[0])])


def _t_segment(a, x, ids):
    import torch
    flat = x.reshape((ids.numel(),) + tuple(x.shape[ids.dim():]))
    out = torch.zeros((a["num"],) + tuple(x.shape[ids.dim():]), dtype=x.dtype)
    keep = ids.reshape(-1) >= 0
    return out.index_add(0, ids.reshape(-1)[keep], flat[keep])


TORCH = {
    "slice": lambda a, x: x[tuple(slice(b, d if s == -1 else b + s)
                                  for d, b, s in zip(x.shape, a["begin"], a["size"]))],
    "gather": _t_gather,
    "unsorted_segment_sum": _t_segment,
}
