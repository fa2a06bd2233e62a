"""onnx_eval.py — a small NumPy interpreter for the ONNX ops moonflow's
exporter emits, written from the ONNX operator specs. Debian's python3-onnx
(1.12) predates onnx.reference.ReferenceEvaluator and onnxruntime is not
packaged, so the tests run exported models with this instead."""
import numpy as np
from onnx import helper, numpy_helper

TYPES = {1: np.float32, 6: np.int32, 7: np.int64, 9: np.bool_, 11: np.float64,
         2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 10: np.float16, 12: np.uint32,
         13: np.uint64}


def _attrs(node):
    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        out[a.name] = v.decode() if isinstance(v, bytes) else v
    return out


def _conv(x, w, strides, dilations, auto_pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    sh, sw = strides
    dh, dw = dilations
    ekh, ekw = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if auto_pad == "SAME_UPPER":
        oh, ow = -(-h // sh), -(-wd // sw)
        ph = max((oh - 1) * sh + ekh - h, 0)
        pw = max((ow - 1) * sw + ekw - wd, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - ekh) // sh + 1, (wd - ekw) // sw + 1
    y = np.zeros((n, o, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * sh:i * sh + ekh:dh, j * sw:j * sw + ekw:dw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y


def _reduce(fn, x, axes, keep):
    return fn(x, axis=tuple(int(a) for a in axes), keepdims=bool(keep)).astype(x.dtype)


def run_graph(graph, env):
    env = dict(env)
    for t in graph.initializer:
        env[t.name] = numpy_helper.to_array(t)
    for node in graph.node:
        a = _attrs(node)
        x = [env[i] if i else None for i in node.input]
        op = node.op_type
        binary = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Max": np.maximum,
                  "Min": np.minimum, "Equal": np.equal, "Less": np.less, "LessOrEqual": np.less_equal,
                  "Greater": np.greater, "GreaterOrEqual": np.greater_equal, "And": np.logical_and,
                  "Or": np.logical_or}
        unary = {"Neg": np.negative, "Abs": np.abs, "Exp": np.exp, "Log": np.log, "Sqrt": np.sqrt,
                 "Tanh": np.tanh, "Not": np.logical_not, "Sign": np.sign, "Floor": np.floor,
                 "Ceil": np.ceil, "Sin": np.sin, "Cos": np.cos, "Round": np.round,
                 "Reciprocal": lambda v: (1 / v).astype(v.dtype), "Identity": lambda v: v,
                 "Sigmoid": lambda v: (1 / (1 + np.exp(-v))).astype(v.dtype),
                 "Relu": lambda v: np.maximum(v, 0).astype(v.dtype)}
        if op in binary:
            out = [np.asarray(binary[op](x[0], x[1]))]
        elif op == "Div":
            out = [np.asarray(x[0] / x[1]).astype(x[0].dtype)]
        elif op == "Pow":
            out = [np.power(x[0], x[1]).astype(x[0].dtype)]
        elif op in unary:
            out = [np.asarray(unary[op](x[0]))]
        elif op == "Cast":
            out = [x[0].astype(TYPES[a["to"]])]
        elif op == "Where":
            out = [np.where(x[0], x[1], x[2])]
        elif op == "MatMul":
            out = [np.matmul(x[0], x[1])]
        elif op == "Transpose":
            out = [np.transpose(x[0], a.get("perm"))]
        elif op in ("Softmax", "LogSoftmax"):
            ax = a.get("axis", -1)
            e = np.exp(x[0] - x[0].max(axis=ax, keepdims=True))
            s = e / e.sum(axis=ax, keepdims=True)
            out = [(s if op == "Softmax" else np.log(s)).astype(x[0].dtype)]
        elif op.startswith("Reduce"):
            axes = x[1] if len(x) > 1 else a.get("axes")
            fn = {"ReduceSum": np.sum, "ReduceMean": np.mean, "ReduceMax": np.max,
                  "ReduceMin": np.min, "ReduceProd": np.prod}[op]
            out = [_reduce(fn, x[0], axes, a.get("keepdims", 1))]
        elif op == "Reshape":
            out = [x[0].reshape([int(v) for v in x[1]])]
        elif op == "Concat":
            out = [np.concatenate(x, axis=a["axis"])]
        elif op == "Shape":
            out = [np.array(x[0].shape, np.int64)]
        elif op == "Unsqueeze":
            out = [np.expand_dims(x[0], tuple(int(v) for v in x[1]))]
        elif op == "Squeeze":
            out = [np.squeeze(x[0], tuple(int(v) for v in x[1])) if len(x) > 1 else np.squeeze(x[0])]
        elif op == "Conv":
            out = [_conv(x[0], x[1], a.get("strides", [1, 1]), a.get("dilations", [1, 1]),
                         a.get("auto_pad", "NOTSET"))]
        elif op == "If":
            branch = a["then_branch"] if bool(x[0]) else a["else_branch"]
            out = run_graph(branch, env)
        elif op == "Loop":
            body = a["body"]
            cond, vs, it = bool(x[1]), list(x[2:]), 0
            names = [i.name for i in body.input]
            while cond and (x[0] is None or it < x[0]):
                res = run_graph(body, {**env, names[0]: np.array(it, np.int64),
                                       names[1]: np.array(cond), **dict(zip(names[2:], vs))})
                cond, vs, it = bool(res[0]), res[1:], it + 1
            out = vs
        else:
            raise NotImplementedError(op)
        for name, v in zip(node.output, out):
            env[name] = v
    return [env[o.name] for o in graph.output]


def run_model(model, feeds):
    return run_graph(model.graph, feeds)
