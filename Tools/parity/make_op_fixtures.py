#!/usr/bin/env python3
"""Single-op TFLite models and their LiteRT outputs, for the converter's new-op tests.

For each op in ``OPS`` this writes, under ``--out`` (default
Tests/BlazeConvertTests/Fixtures/ops):

* ``<op>.tflite``        a one-operator TFLite model (schema v3) built here with the
                         ``flatbuffers`` package, FLOAT32 input ``x`` of ``SHAPE`` -> output ``y``;
* ``<op>.input.npy``     the input: seeded uniform noise in ``RANGE`` plus the op's corner points
                         (exactly -3, 0, 3 and values around them for HARD_SWISH; +-0, +-inf, NaNs,
                         denormals and the largest magnitude for LEAKY_RELU);
* ``<op>.output.npy``    what LiteRT's interpreter (``ai_edge_litert``, 1 thread) computes from it:
                         with its default XNNPACK delegate, or (``"kernel": "reference"``) with
                         TFLite's builtin reference kernels (``OpResolverType.BUILTIN_REF``).

LEAKY_RELU (builtin options ``LeakyReluOptions { alpha }``) is written twice. ``leaky_relu``
(alpha 0.3) runs on XNNPACK, and the script checks that TFLite's reference kernel gives the same
bits. ``leaky_relu_negative_alpha`` (alpha -1.7, with a signalling NaN and negative denormals)
runs on the reference kernel, ``x > 0 ? x : alpha*x``, BlazeKit's definition. XNNPACK differs
from it there, and the script prints on how many elements: it computes ``x < 0 ? alpha*x : x``
(+-0 keep their sign, a signalling NaN is not quieted) with denormals flushed to zero (a negative
denormal comes back unchanged), which is also why ``leaky_relu`` has no negative denormal.
The LEAKY_RELU inputs come from their own seeded generators, so the fixtures made before them
(HARD_SWISH and the transposed convolutions, from the shared one) stay as they were.

Also one-operator models of MediaPipe's ``Convolution2DTransposeBias`` custom op (``CUSTOM_OPS``:
odd input sizes, kernels 3x3 / 2x3 / 4x4, strides 1-3, SAME and VALID), with seeded weights and
bias stored as FLOAT32 constants and the options as MediaPipe writes them (raw int32 padding,
stride_w, stride_h; TfLitePadding 1 = SAME, 2 = VALID). LiteRT runs them through its XNNPACK
delegate, the only LiteRT kernel for this op.

The Swift test converts ``<op>.tflite`` with BlazeKit's converter, runs it on the input and
compares with the LiteRT output. Run: ``pip install ai-edge-litert numpy flatbuffers`` then
``python3 Tools/parity/make_op_fixtures.py``.
"""
import argparse
import os

import flatbuffers
import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

def bits(u32):
    """The float32 with bit pattern `u32` (NaN payloads, signalling NaNs)."""
    return np.array([u32], dtype=np.uint32).view(np.float32)[0]


SHAPE = [1, 7, 9, 13]
RANGE = (-8.0, 8.0)
SEED = 20261201
# name -> TFLite BuiltinOperator code, builtin options (union type, float32 fields by slot), extra
# corner points of the input, and which LiteRT kernel computes the expected output.
TINY, HUGE = float(np.finfo(np.float32).smallest_subnormal), float(np.finfo(np.float32).max)
LEAKY_RELU_CORNERS = [0.0, -0.0, np.inf, -np.inf, np.nan, -1e-7, 1e-7, -1.0, 1.0, TINY, 1e-39, -HUGE, HUGE]
OPS = {
    "hard_swish": {"code": 117,
                   "corners": [-3.0, 0.0, 3.0, -3.0001, -2.9999, 2.9999, 3.0001, -1e-7, 1e-7, -6, 6, -0.5, 0.5]},
    "leaky_relu": {"code": 98, "options": (75, {0: 0.3}), "corners": LEAKY_RELU_CORNERS, "seed": SEED + 98,
                   "kernel": "xnnpack", "same_on": "reference"},
    # Besides the corners: negative denormals, a signalling NaN (bits 0x7fa00001), a negative quiet NaN.
    "leaky_relu_negative_alpha": {"code": 98, "options": (75, {0: -1.7}), "seed": SEED + 99, "kernel": "reference",
                                  "corners": LEAKY_RELU_CORNERS + [-TINY, -1e-39, bits(0x7FA00001), bits(0xFFC00123)],
                                  "differs_on": "xnnpack"},
}
RESOLVERS = {"xnnpack": OpResolverType.AUTO, "reference": OpResolverType.BUILTIN_REF}
# name -> (input NHWC, output channels, kernel (h, w), stride (h, w), TfLitePadding)
CUSTOM_OPS = {
    "transpose_conv_bias_same": ([1, 7, 9, 13], 5, (3, 3), (2, 2), 1),
    "transpose_conv_bias_valid": ([1, 5, 6, 4], 3, (2, 3), (3, 1), 2),
    "transpose_conv_bias_same_k4": ([1, 6, 5, 8], 2, (4, 4), (2, 3), 1),
}


def vector(builder, values, prepend, width):
    builder.StartVector(width, len(values), width)
    for v in reversed(values):
        prepend(v)
    return builder.EndVector()


def table(builder, fields):
    """fields: list of (slot, kind, value); kind in uoffset, int32, uint32, int8, uint8, float32."""
    builder.StartObject(max(slot for slot, _, _ in fields) + 1 if fields else 0)
    for slot, kind, value in fields:
        if kind == "uoffset":
            builder.PrependUOffsetTRelativeSlot(slot, value, 0)
        elif kind == "int32":
            builder.PrependInt32Slot(slot, value, -1)   # default -1: always written
        elif kind == "uint32":
            builder.PrependUint32Slot(slot, value, 0xFFFFFFFF)
        elif kind == "int8":
            builder.PrependInt8Slot(slot, value, -1)
        elif kind == "uint8":
            builder.PrependUint8Slot(slot, value, 0xFF)
        elif kind == "float32":   # always written, whatever the schema default
            builder.PrependFloat32(value)
            builder.Slot(slot)
    return builder.EndObject()


def one_op_model(code, options=None):
    """options: (BuiltinOptions union type, {slot: float32 value}) or None."""
    b = flatbuffers.Builder(1024)
    ints = lambda vals: vector(b, vals, b.PrependInt32, 4)
    offsets = lambda vals: vector(b, vals, b.PrependUOffsetTRelative, 4)
    name_x, name_y = b.CreateString("x"), b.CreateString("y")
    # Tensor: 0 shape, 1 type (FLOAT32 = 0), 2 buffer, 3 name.
    tensors = []
    for name in (name_x, name_y):
        shape = ints(SHAPE)
        tensors.append(table(b, [(0, "uoffset", shape), (1, "int8", 0), (2, "uint32", 0), (3, "uoffset", name)]))
    tensor_vec = offsets(tensors)
    # Operator: 0 opcode_index, 1 inputs, 2 outputs, 3 builtin_options_type, 4 builtin_options.
    op_inputs, op_outputs = ints([0]), ints([1])
    op_fields = [(0, "uint32", 0), (1, "uoffset", op_inputs), (2, "uoffset", op_outputs)]
    if options is not None:
        union_type, floats = options
        option_table = table(b, [(slot, "float32", v) for slot, v in sorted(floats.items())])
        op_fields += [(3, "uint8", union_type), (4, "uoffset", option_table)]
    operator = table(b, op_fields)
    operator_vec = offsets([operator])
    sg_inputs, sg_outputs, sg_name = ints([0]), ints([1]), b.CreateString("main")
    # SubGraph: 0 tensors, 1 inputs, 2 outputs, 3 operators, 4 name.
    subgraph = table(b, [(0, "uoffset", tensor_vec), (1, "uoffset", sg_inputs), (2, "uoffset", sg_outputs),
                         (3, "uoffset", operator_vec), (4, "uoffset", sg_name)])
    subgraph_vec = offsets([subgraph])
    # OperatorCode: 0 deprecated_builtin_code (int8), 2 version, 3 builtin_code (int32).
    opcode = table(b, [(0, "int8", min(code, 127)), (2, "int32", 1), (3, "int32", code)])
    opcode_vec = offsets([opcode])
    buffer0 = table(b, [])   # buffer 0: the empty sentinel every tensor without data points at
    buffer_vec = offsets([buffer0])
    description = b.CreateString("BlazeKit single-op fixture (Tools/parity/make_op_fixtures.py)")
    # Model: 0 version, 1 operator_codes, 2 subgraphs, 3 description, 4 buffers.
    model = table(b, [(0, "uint32", 3), (1, "uoffset", opcode_vec), (2, "uoffset", subgraph_vec),
                      (3, "uoffset", description), (4, "uoffset", buffer_vec)])
    b.Finish(model, file_identifier=b"TFL3")
    return bytes(b.Output())


def transpose_conv_model(in_shape, out_c, kernel, stride, padding, weights, bias):
    """One Convolution2DTransposeBias operator: x, constant OHWI weights, constant bias -> y."""
    b = flatbuffers.Builder(4096)
    ints = lambda vals: vector(b, vals, b.PrependInt32, 4)
    offsets = lambda vals: vector(b, vals, b.PrependUOffsetTRelative, 4)
    ubytes = lambda data: b.CreateByteVector(bytes(data))
    (kh, kw), (sh, sw) = kernel, stride

    def size(n, k, s):
        full = s * (n - 1) + k
        return full - (max(0, k - (n - 1) % s - 1) if padding == 1 else 0)

    out_shape = [1, size(in_shape[1], kh, sh), size(in_shape[2], kw, sw), out_c]
    shapes = [in_shape, list(weights.shape), list(bias.shape), out_shape]
    names = [b.CreateString(n) for n in ("x", "weights", "bias", "y")]
    tensors = []
    for i, (name, shape) in enumerate(zip(names, shapes)):
        buffer = {1: 1, 2: 2}.get(i, 0)
        tensors.append(table(b, [(0, "uoffset", ints(shape)), (1, "int8", 0), (2, "uint32", buffer), (3, "uoffset", name)]))
    tensor_vec = offsets(tensors)
    options = ubytes(np.array([padding, sw, sh], dtype="<i4").tobytes())
    op_inputs, op_outputs = ints([0, 1, 2]), ints([3])
    # Operator: 0 opcode_index, 1 inputs, 2 outputs, 5 custom_options (format 6 left at FLEXBUFFERS = 0).
    operator = table(b, [(0, "uint32", 0), (1, "uoffset", op_inputs), (2, "uoffset", op_outputs), (5, "uoffset", options)])
    operator_vec = offsets([operator])
    sg_inputs, sg_outputs, sg_name = ints([0]), ints([3]), b.CreateString("main")
    subgraph = table(b, [(0, "uoffset", tensor_vec), (1, "uoffset", sg_inputs), (2, "uoffset", sg_outputs),
                         (3, "uoffset", operator_vec), (4, "uoffset", sg_name)])
    subgraph_vec = offsets([subgraph])
    custom_code = b.CreateString("Convolution2DTransposeBias")
    # OperatorCode: 0 deprecated_builtin_code = CUSTOM (32), 1 custom_code, 2 version, 3 builtin_code.
    opcode = table(b, [(0, "int8", 32), (1, "uoffset", custom_code), (2, "int32", 1), (3, "int32", 32)])
    opcode_vec = offsets([opcode])
    data = [ubytes(weights.astype("<f4").tobytes()), ubytes(bias.astype("<f4").tobytes())]
    buffers = [table(b, [])] + [table(b, [(0, "uoffset", d)]) for d in data]
    buffer_vec = offsets(buffers)
    description = b.CreateString("BlazeKit single-op fixture (Tools/parity/make_op_fixtures.py)")
    model = table(b, [(0, "uint32", 3), (1, "uoffset", opcode_vec), (2, "uoffset", subgraph_vec),
                      (3, "uoffset", description), (4, "uoffset", buffer_vec)])
    b.Finish(model, file_identifier=b"TFL3")
    return bytes(b.Output())


def run(path, x, kernel="xnnpack"):
    """The one-op model at `path` run by LiteRT (1 thread) on `x`, with `kernel` (see RESOLVERS)."""
    interpreter = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=RESOLVERS[kernel])
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).copy()


def run_and_save(path, x, stem, kernel="xnnpack"):
    """Runs the one-op model at `path` in LiteRT (1 thread) on `x`; saves `stem`.input/.output.npy."""
    y = run(path, x, kernel)
    np.save(stem + ".input.npy", x)
    np.save(stem + ".output.npy", y)
    return y


def differing_bits(a, b):
    """How many elements of two float32 arrays differ bit for bit."""
    return int(np.count_nonzero(a.view(np.uint32) != b.view(np.uint32)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(here, "..", "..", "Tests", "BlazeConvertTests", "Fixtures", "ops"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(SEED)
    for name, spec in OPS.items():
        data = one_op_model(spec["code"], spec.get("options"))
        path = os.path.join(args.out, name + ".tflite")
        with open(path, "wb") as f:
            f.write(data)
        op_rng = np.random.default_rng(spec["seed"]) if "seed" in spec else rng
        x = op_rng.uniform(*RANGE, size=SHAPE).astype(np.float32)
        corners = np.array(spec["corners"], dtype=np.float32)
        x.reshape(-1)[: corners.size] = corners
        kernel = spec.get("kernel", "xnnpack")
        y = run_and_save(path, x, os.path.join(args.out, name), kernel)
        note = ""
        if "same_on" in spec:
            n = differing_bits(y, run(path, x, spec["same_on"]))
            assert n == 0, f"{name}: {kernel} and {spec['same_on']} differ on {n} elements"
            note = f", bitwise equal on {spec['same_on']}"
        if "differs_on" in spec:
            note = f", {differing_bits(y, run(path, x, spec['differs_on']))} elements differ on {spec['differs_on']}"
        finite = y[np.isfinite(y)]
        print(f"{name}: {path} ({len(data)} bytes, {kernel}), finite output range [{finite.min():.4g}, {finite.max():.4g}]{note}")
    for name, (in_shape, out_c, kernel, stride, padding) in CUSTOM_OPS.items():
        weights = rng.uniform(-1, 1, size=[out_c, kernel[0], kernel[1], in_shape[3]]).astype(np.float32)
        bias = rng.uniform(-1, 1, size=[out_c]).astype(np.float32)
        data = transpose_conv_model(in_shape, out_c, kernel, stride, padding, weights, bias)
        path = os.path.join(args.out, name + ".tflite")
        with open(path, "wb") as f:
            f.write(data)
        x = rng.uniform(-2, 2, size=in_shape).astype(np.float32)
        y = run_and_save(path, x, os.path.join(args.out, name))
        print(f"{name}: {path} ({len(data)} bytes), output {list(y.shape)} range [{y.min():.4f}, {y.max():.4f}]")


if __name__ == "__main__":
    main()
