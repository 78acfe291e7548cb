"""NumPy versions of MediaPipe's face-attention custom ops and a runner that lets LiteRT run a
model containing them (LiteRT's Python package has no kernels for them).

The ops follow MediaPipe's C++ kernels (mediapipe/util/tflite/operations/
landmarks_to_transform_matrix.cc, transform_tensor_bilinear.cc, transform_landmarks.cc, version
2 of each) in float32, with float64 exactly where the C++ mixes in a double literal.

``CustomOpRunner`` rewrites the model: the custom operators are removed, their outputs become
extra graph inputs and their inputs extra graph outputs. Each ``invoke`` then runs every builtin
op in LiteRT; the custom ops are evaluated here from the tensors LiteRT produced and fed back,
until their outputs stop changing (one pass per level of custom ops, here three).
"""
from __future__ import annotations

import numpy as np
from flatbuffers import Builder, flexbuffers
from ai_edge_litert import schema_py_generated as S
from ai_edge_litert.interpreter import Interpreter

f32, f64 = np.float32, np.float64
CUSTOM_OPS = ("Landmarks2TransformMatrix", "TransformTensorBilinear", "TransformLandmarks")


def _mat_mul(a, b, n):
    out = [f32(0)] * (n * n)
    for r in range(n):
        for c in range(n):
            s = f32(0)
            for k in range(n):
                s = f32(s + f32(a[r * n + k] * b[k * n + c]))
            out[r * n + c] = s
    return out


def _mat_vec3(m, v):
    out = []
    for r in range(3):
        s = f32(0)
        for k in range(3):
            s = f32(s + f32(m[r * 3 + k] * v[k]))
        out.append(s)
    return out


def _rot3(r):
    c, s = f32(np.cos(f32(r))), f32(np.sin(f32(r)))
    return [c, f32(-s), f32(0), s, c, f32(0), f32(0), f32(0), f32(1)]


def landmarks_to_transform_matrix(landmarks, o):
    p = landmarks.reshape(-1, 3).astype(f32)
    left, right = p[o["left_rotation_idx"]], p[o["right_rotation_idx"]]
    rotation = f32(f32(o["target_rotation_radians"]) - f32(np.arctan2(f32(right[1] - left[1]), f32(right[0] - left[0]))))
    rot, unrot = _rot3(rotation), _rot3(f32(-rotation))
    pts = [_mat_vec3(rot, [p[i][0], p[i][1], f32(1)]) for i in o["subset_idxs"]]
    hi = [pts[0][0], pts[0][1]]
    lo = [pts[0][0], pts[0][1]]
    for q in pts[1:]:
        if hi[0] < q[0]:
            hi[0] = q[0]
        if hi[1] < q[1]:
            hi[1] = q[1]
        if lo[0] > q[0]:
            lo[0] = q[0]
        if lo[1] > q[1]:
            lo[1] = q[1]
    width, height = f32(hi[0] - lo[0]), f32(hi[1] - lo[1])
    centre = _mat_vec3(unrot, [f32(f32(lo[0] + hi[0]) / f32(2)), f32(f32(lo[1] + hi[1]) / f32(2)), f32(1)])
    one, zero = f32(1), f32(0)
    t = [one, zero, zero, zero, zero, one, zero, zero, zero, zero, one, zero, zero, zero, zero, one]
    t = _mat_mul(t, [one, zero, zero, centre[0], zero, one, zero, centre[1], zero, zero, one, zero, zero, zero, zero, one], 4)
    r = f32(-rotation)
    c, s = f32(np.cos(r)), f32(np.sin(r))
    t = _mat_mul(t, [c, f32(-s), zero, zero, s, c, zero, zero, zero, zero, one, zero, zero, zero, zero, one], 4)
    sx = f32(f32(f32(o["scale_x"]) * width) / f32(o["output_width"]))
    sy = f32(f32(f32(o["scale_y"]) * height) / f32(o["output_height"]))
    t = _mat_mul(t, [sx, zero, zero, zero, zero, sy, zero, zero, zero, zero, one, zero, zero, zero, zero, one], 4)
    shx, shy = f32(-1.0 * (o["output_width"] / 2.0)), f32(-1.0 * (o["output_height"] / 2.0))
    t = _mat_mul(t, [one, zero, zero, shx, zero, one, zero, shy, zero, zero, one, zero, zero, zero, zero, one], 4)
    return np.array(t, dtype=f32).reshape(1, 4, 4)


def transform_tensor_bilinear(x, m, o):
    _, H, W, C = x.shape
    m = m.reshape(-1).astype(f32)
    rx, ry = [m[0], m[1], m[2], m[3]], [m[4], m[5], m[6], m[7]]
    rx[3] = f32(f64(rx[3]) + (f64(rx[0]) * 0.5 + f64(rx[1]) * 0.5 - 0.5))
    ry[3] = f32(f64(ry[3]) + (f64(ry[0]) * 0.5 + f64(ry[1]) * 0.5 - 0.5))
    OH, OW = o["output_height"], o["output_width"]
    out = np.zeros((1, OH, OW, C), dtype=f32)
    img = x[0].astype(f32)

    def read(h, w):
        return np.zeros(C, f32) if h < 0 or w < 0 or h >= H or w >= W else img[h, w]

    for oy in range(OH):
        for ox in range(OW):
            fx, fy = f32(ox), f32(oy)
            tx = f32(f32(f32(f32(rx[0] * fx) + f32(rx[1] * fy)) + f32(rx[2] * f32(0))) + f32(rx[3] * f32(1)))
            ty = f32(f32(f32(f32(ry[0] * fx) + f32(ry[1] * fy)) + f32(ry[2] * f32(0))) + f32(ry[3] * f32(1)))
            if tx < 0 or tx > W - 1 or ty < 0 or ty > H - 1:
                continue
            x0, y0 = int(np.floor(tx)), int(np.floor(ty))
            right, lower = f32(tx - f32(np.floor(tx))), f32(ty - f32(np.floor(ty)))
            q11, q21, q12, q22 = read(y0, x0), read(y0, x0 + 1), read(y0 + 1, x0), read(y0 + 1, x0 + 1)
            upper = ((1.0 - f64(right)) * q11.astype(f64) + (right * q21).astype(f32).astype(f64)).astype(f32)
            below = ((1.0 - f64(right)) * q12.astype(f64) + (right * q22).astype(f32).astype(f64)).astype(f32)
            out[0, oy, ox] = ((lower * below).astype(f32).astype(f64) + (1.0 - f64(lower)) * upper.astype(f64)).astype(f32)
    return out


def transform_landmarks(lm, m):
    m = m.reshape(-1).astype(f32)
    out = lm.astype(f32).copy()
    x, y = out[0, :, 0].copy(), out[0, :, 1].copy()
    z = np.float32(0)
    out[0, :, 0] = (((m[0] * x).astype(f32) + (m[1] * y).astype(f32)).astype(f32) + f32(m[2] * z)).astype(f32) + f32(m[3] * f32(1))
    out[0, :, 1] = (((m[4] * x).astype(f32) + (m[5] * y).astype(f32)).astype(f32) + f32(m[6] * z)).astype(f32) + f32(m[7] * f32(1))
    return out.astype(f32)


class CustomOpRunner:
    """Runs a model with MediaPipe custom ops: LiteRT for the rest, NumPy for those."""

    def __init__(self, model_bytes: bytes, **interpreter_args):
        model = S.ModelT.InitFromPackedBuf(bytearray(model_bytes), 0)
        sg = model.subgraphs[0]
        self.custom = []
        kept = []
        for op in sg.operators:
            code = model.operatorCodes[op.opcodeIndex]
            name = code.customCode.decode() if code.customCode else None
            if name in CUSTOM_OPS:
                options = flexbuffers.Loads(bytes(op.customOptions)) if op.customOptions is not None and len(op.customOptions) else {}
                self.custom.append((name, list(op.inputs), list(op.outputs), options))
            else:
                kept.append(op)
        sg.operators = kept
        self.graph_inputs, self.graph_outputs = list(sg.inputs), list(sg.outputs)
        fed = [t for _, _, outs, _ in self.custom for t in outs]
        read = sorted({t for _, ins, _, _ in self.custom for t in ins} - set(fed))
        # Custom outputs that feed another custom op directly are also read back.
        read_all = sorted(set(read) | {t for _, ins, _, _ in self.custom for t in ins})
        sg.inputs = self.graph_inputs + fed
        sg.outputs = self.graph_outputs + [t for t in read_all if t not in fed]
        self.fed, self.read = fed, [t for t in read_all if t not in fed]
        self.shapes = {i: list(sg.tensors[i].shape) for i in range(len(sg.tensors))}
        b = Builder(len(model_bytes) + 4096)
        b.Finish(model.Pack(b), file_identifier=b"TFL3")
        self.interpreter = Interpreter(model_content=bytes(b.Output()), **interpreter_args)
        self.interpreter.allocate_tensors()
        self.inputs = self.interpreter.get_input_details()
        self.outputs = self.interpreter.get_output_details()

    def run(self, x: np.ndarray):
        values = {t: np.zeros(self.shapes[t], np.float32) for t in self.fed}
        it = self.interpreter
        for _ in range(len(self.custom) + 1):
            it.set_tensor(self.inputs[0]["index"], x)
            for k, t in enumerate(self.fed):
                it.set_tensor(self.inputs[1 + k]["index"], values[t])
            it.invoke()
            got = {t: it.get_tensor(self.outputs[len(self.graph_outputs) + k]["index"]) for k, t in enumerate(self.read)}
            got.update(values)
            changed = False
            for name, ins, outs, o in self.custom:
                a = [got[t] for t in ins]
                if name == "Landmarks2TransformMatrix":
                    y = landmarks_to_transform_matrix(a[0], o)
                elif name == "TransformTensorBilinear":
                    y = transform_tensor_bilinear(a[0], a[1], o)
                else:
                    y = transform_landmarks(a[0], a[1])
                if not np.array_equal(y, values[outs[0]]):
                    changed = True
                values[outs[0]] = got[outs[0]] = y
            if not changed:
                break
        else:
            raise RuntimeError("custom op values did not settle")
        return [(self.outputs[k]["name"], it.get_tensor(self.outputs[k]["index"]).copy()) for k in range(len(self.graph_outputs))]
