#!/usr/bin/env python3
"""Dump a few folded weight tensors of the two fixture models as computed by LiteRT.

Used by Tests/BlazeConvertTests (TFLiteFoldingTests) to check that the Swift converter folds
DEQUANTIZE (fp16 -> fp32) and DENSIFY (sparse CSR -> dense) exactly as TFLite does.

For each model the script runs the LiteRT interpreter with the builtin kernels only (no XNNPACK,
so DENSIFY/DEQUANTIZE run as TFLite ops) and ``experimental_preserve_all_tensors=True``, invokes it
once on zeros, and reads the DEQUANTIZE output tensors with ``interpreter.get_tensor``:

* face_detection_full_range_sparse: the output of the DEQUANTIZE that follows the first DENSIFY
  (smallest sparse tensor, all values written) and of the one that follows the DENSIFY of the
  largest sparse tensor (checksums and a few values);
* face_detection_short_range: the DEQUANTIZE outputs of the first rank-4 (conv filter) fp16
  weight and of the largest one (checksums and a few values).

Checksums are float64 sums over the float32 values: sum, sum of |v|, sum of v^2, number of
non-zeros. Values are written with ``repr(float(np.float32(v)))``, which round-trips exactly.

Run from the repository root (needs ``pip install ai-edge-litert tflite numpy``):

    python3 Tools/parity/dump_tflite_weights.py [--models Models/sources] \
        [--out Tests/BlazeConvertTests/Fixtures/parity/folded_weights.json]

With ``--checksums DIR`` it instead writes ``DIR/<stem>.checksums.json`` for every ``DIR/*.tflite``:
{DEQUANTIZE output name: [sum, sum of |v|, element count]} over all DEQUANTIZE outputs. The
env-gated ``TFLiteLocalModelsTests`` (BLAZECONVERT_TFLITE_DIR=DIR) compares the converter's
folded constants of all nets against these files.
"""
import argparse
import json
import os

import numpy as np
import tflite
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tflite.BuiltinOperator import BuiltinOperator


def opcodes(model):
    return [max(model.OperatorCodes(i).DeprecatedBuiltinCode(), model.OperatorCodes(i).BuiltinCode())
            for i in range(model.OperatorCodesLength())]


def dequantize_outputs_after(model, kind):
    """(input tensor, DEQUANTIZE output tensor) pairs; kind=DENSIFY follows DENSIFY -> DEQUANTIZE chains."""
    sg = model.Subgraphs(0)
    codes = opcodes(model)
    producer = {}
    for i in range(sg.OperatorsLength()):
        op = sg.Operators(i)
        for t in op.OutputsAsNumpy():
            producer[int(t)] = (codes[op.OpcodeIndex()], op)
    pairs = []
    for i in range(sg.OperatorsLength()):
        op = sg.Operators(i)
        if codes[op.OpcodeIndex()] != BuiltinOperator.DEQUANTIZE:
            continue
        src = int(op.Inputs(0))
        if kind == BuiltinOperator.DENSIFY:
            p = producer.get(src)
            if p is None or p[0] != BuiltinOperator.DENSIFY:
                continue
            src = int(p[1].Inputs(0))
        pairs.append((src, int(op.Outputs(0))))
    return pairs


def describe(interp, model, tensor_index, full):
    sg = model.Subgraphs(0)
    name = sg.Tensors(tensor_index).Name().decode()
    values = np.array(interp.get_tensor(tensor_index), dtype=np.float32)
    v64 = values.astype(np.float64).ravel()
    entry = {
        "name": name,
        "shape": list(values.shape),
        "sum": float(v64.sum()),
        "sumAbs": float(np.abs(v64).sum()),
        "sumSquares": float((v64 * v64).sum()),
        "nonZeros": int(np.count_nonzero(v64)),
        "first": [repr(float(v)) for v in values.ravel()[:32]],
    }
    if full:
        entry["values"] = [repr(float(v)) for v in values.ravel()]
    else:
        flat = values.ravel()
        picks = list(range(0, flat.size, max(1, flat.size // 64)))[:64]
        entry["picks"] = {str(i): repr(float(flat[i])) for i in picks}
    return entry


def dump(path, picks):
    data = open(path, "rb").read()
    model = tflite.Model.GetRootAsModel(data, 0)
    interp = Interpreter(model_path=path, num_threads=1,
                         experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
                         experimental_preserve_all_tensors=True)
    interp.allocate_tensors()
    for d in interp.get_input_details():
        interp.set_tensor(d["index"], np.zeros(d["shape"], dtype=d["dtype"]))
    interp.invoke()
    return [describe(interp, model, t, full) for t, full in picks(model)]


def checksums(folder):
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".tflite"):
            continue
        path = os.path.join(folder, file)
        model = tflite.Model.GetRootAsModel(open(path, "rb").read(), 0)
        sg = model.Subgraphs(0)
        picks = [out for _, out in dequantize_outputs_after(model, BuiltinOperator.DEQUANTIZE)]
        interp = Interpreter(model_path=path, num_threads=1,
                             experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
                             experimental_preserve_all_tensors=True)
        interp.allocate_tensors()
        for d in interp.get_input_details():
            interp.set_tensor(d["index"], np.zeros(d["shape"], dtype=d["dtype"]))
        interp.invoke()
        result = {}
        for t in picks:
            v = np.array(interp.get_tensor(t), dtype=np.float32).astype(np.float64).ravel()
            result[sg.Tensors(t).Name().decode()] = [float(v.sum()), float(np.abs(v).sum()), int(v.size)]
        with open(os.path.join(folder, file[:-len(".tflite")] + ".checksums.json"), "w") as f:
            json.dump(result, f, indent=0, sort_keys=True)


REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=os.path.join(REPO, "Models", "sources"),
                    help="folder holding face_detection_short_range.tflite and "
                         "face_detection_full_range_sparse.tflite (default: Models/sources)")
    ap.add_argument("--out", default=os.path.join(REPO, "Tests", "BlazeConvertTests", "Fixtures", "parity",
                                                  "folded_weights.json"),
                    help="output JSON (default: Tests/BlazeConvertTests/Fixtures/parity/folded_weights.json)")
    ap.add_argument("--checksums", metavar="DIR",
                    help="instead, write DIR/<stem>.checksums.json for every DIR/*.tflite")
    args = ap.parse_args()
    if args.checksums:
        checksums(args.checksums)
        return

    def sparse_picks(model):
        sg = model.Subgraphs(0)
        pairs = dequantize_outputs_after(model, BuiltinOperator.DENSIFY)
        size = lambda p: int(np.prod(sg.Tensors(p[0]).ShapeAsNumpy()))
        largest = max(pairs, key=lambda p: (size(p), -p[0]))
        return [(pairs[0][1], True), (largest[1], False)]

    def fp16_picks(model):
        sg = model.Subgraphs(0)
        pairs = dequantize_outputs_after(model, BuiltinOperator.DEQUANTIZE)
        size = lambda p: int(np.prod(sg.Tensors(p[0]).ShapeAsNumpy()))
        first_conv = next(p for p in pairs if sg.Tensors(p[0]).ShapeLength() == 4)
        largest = max(pairs, key=lambda p: (size(p), -p[0]))
        return [(first_conv[1], False), (largest[1], False)]

    result = {
        "generator": "Tools/parity/dump_tflite_weights.py",
        "face_detection_full_range_sparse": dump(
            os.path.join(args.models, "face_detection_full_range_sparse.tflite"), sparse_picks),
        "face_detection_short_range": dump(
            os.path.join(args.models, "face_detection_short_range.tflite"), fp16_picks),
    }
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
