#!/usr/bin/env python3
"""Every layer of a bundled net alone, BlazeKit against LiteRT (XNNPACK), to find the layers that lag.

For each operator of the original `.tflite` (except the DEQUANTIZE / DENSIFY ops that only unpack
weights) this builds a one-operator model: the same operator and options, its weight inputs stored
as FLOAT32 constants (their values read from LiteRT's reference kernels with all tensors
preserved), its activation inputs as model inputs. The model is converted with `blaze-model
convert`, and timed in lockstep: short blocks of LiteRT's `invoke()` alternating with blocks of a
`bench --serve --model-file` process, so both see the same machine load.

Both sides run each layer hot (weights and activations in cache), so this compares kernels and
per-op overhead, not the memory traffic between layers of a whole net. The sum of the per-layer
medians is printed next to the net's own time on each side: the difference is what running the
layers as one net adds or saves.

Prints a table per layer (slowest gap first) and per layer kind: LiteRT ms, BlazeKit ms, ratio.

    python3 Benchmarks/per_layer_litert.py --model hand_landmark_full [--threads 1] [--blocks 8]
        [--block 10] [--top 25] [--json OUT.json]

Needs: `pip install ai-edge-litert numpy flatbuffers`, and a release build (`swift build -c release`).
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_common import BENCH, ROOT, bench_env, cpu_name, log  # noqa: E402
from litert_side_by_side import MODELS, BenchServer, LiteRTModel, tflite_path  # noqa: E402

BLAZE_MODEL = os.path.join(ROOT, ".build", "release", "blaze-model")
UNPACKING_OPS = {"DEQUANTIZE", "DENSIFY"}
OP_NAMES = {v: k for k, v in schema.BuiltinOperator.__dict__.items() if not k.startswith("_")}


def op_name(model, op):
    code = model.operatorCodes[op.opcodeIndex]
    return OP_NAMES.get(max(code.builtinCode, code.deprecatedBuiltinCode), f"op{code.builtinCode}")


def all_tensor_values(path):
    """Every tensor's value after one run of LiteRT's reference kernels (no delegate), so the
    outputs of the weight-unpacking ops can be stored as constants."""
    interpreter = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                              experimental_preserve_all_tensors=True)
    interpreter.allocate_tensors()
    rng = np.random.default_rng(0)
    for d in interpreter.get_input_details():
        interpreter.set_tensor(d["index"], rng.random(d["shape"], dtype=np.float32))
    interpreter.invoke()
    values = {}
    for d in interpreter.get_tensor_details():
        try:
            values[d["index"]] = interpreter.get_tensor(d["index"])
        except ValueError:
            pass
    return values


def single_op_models(path):
    """(index, op kind, description, bytes of a one-operator model) for every compute op."""
    with open(path, "rb") as f:
        model = schema.ModelT.InitFromPackedBuf(f.read(), 0)
    graph = model.subgraphs[0]
    producers = {t: op for op in graph.operators for t in op.outputs}
    unpacked = {t for t, op in producers.items() if op_name(model, op) in UNPACKING_OPS}
    values = all_tensor_values(path) if unpacked else {}
    operators = list(graph.operators)
    model.signatureDefs = None
    model.metadata = None
    model.metadataBuffer = None

    def shape_of(t):
        shape = graph.tensors[t].shape  # None for a scalar
        return [] if shape is None else list(shape)

    def is_constant(t):
        data = model.buffers[graph.tensors[t].buffer].data
        return data is not None and len(data) > 0

    # Weight tensors that an unpacking op produces become FLOAT32 constants (new buffers).
    for t in sorted(unpacked):
        tensor = graph.tensors[t]
        buffer = schema.BufferT()
        buffer.data = np.ascontiguousarray(values[t], dtype=np.float32).view(np.uint8).reshape(-1)
        model.buffers.append(buffer)
        tensor.buffer = len(model.buffers) - 1
        tensor.type = schema.TensorType.FLOAT32
        tensor.quantization = None

    out = []
    for index, op in enumerate(operators):
        kind = op_name(model, op)
        if kind in UNPACKING_OPS:
            continue
        # Each tensor once: an op may read one tensor twice (MUL x, x), a graph input may not repeat.
        inputs = list(dict.fromkeys(t for t in op.inputs if t >= 0 and not is_constant(t)))
        if not inputs:
            continue
        graph.operators = [op]
        graph.inputs = inputs
        graph.outputs = list(op.outputs)
        builder = flatbuffers.Builder(1 << 20)
        builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
        shapes = [shape_of(t) for t in op.inputs if t >= 0]
        out_shape = shape_of(op.outputs[0])
        out.append((index, kind, f"{shapes} -> {out_shape}", bytes(builder.Output())))
    return out


def lockstep(lite, ours, blocks, block):
    """Medians of all samples per side and the median of the per-block-pair ratios."""
    lite_all, ours_all, ratios = [], [], []
    for _ in range(blocks):
        a = lite.samples_ms(block)
        time.sleep(0.002)
        b = ours.samples_ms(block)
        time.sleep(0.002)
        lite_all += a
        ours_all += b
        ratios.append(statistics.median(b) / statistics.median(a))
    return statistics.median(lite_all), statistics.median(ours_all), statistics.median(ratios)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", choices=MODELS, required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--blocks", type=int, default=8, help="block pairs per layer")
    ap.add_argument("--block", type=int, default=10, help="runs per block")
    ap.add_argument("--top", type=int, default=25, help="layers listed one by one (largest gap first)")
    ap.add_argument("--json", help="also write every layer's figures here")
    ap.add_argument("--kinds", nargs="+", help="only layers of these kinds (e.g. DEPTHWISE_CONV_2D)")
    args = ap.parse_args()
    for binary in (BENCH, BLAZE_MODEL):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: run `swift build -c release` first")

    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        path = tflite_path(args.model, workdir)
        layers = single_op_models(path)
        log(f"{args.model}: {len(layers)} layers")
        isa = "?"
        if args.kinds:
            layers = [layer for layer in layers if layer[1] in args.kinds]
        for index, kind, shapes, data in layers:
            tflite = os.path.join(workdir, f"op{index}.tflite")
            bkm = os.path.join(workdir, f"op{index}.bkm")
            with open(tflite, "wb") as f:
                f.write(data)
            subprocess.run([BLAZE_MODEL, "convert", tflite, "-o", bkm], check=True, capture_output=True, env=bench_env())
            lite = LiteRTModel(tflite, args.threads)
            ours = BenchServer("default", ["--model-file", bkm], args.threads)
            isa = ours.isa
            ours.samples_ms(args.block)  # warm-up block
            lite_ms, ours_ms, ratio = lockstep(lite, ours, args.blocks, args.block)
            ours.close()
            del lite
            rows.append({"index": index, "kind": kind, "shapes": shapes, "litert_ms": lite_ms, "blazekit_ms": ours_ms, "ratio": ratio})
            log(f"  #{index:<4} {kind:<20} {lite_ms:8.4f} {ours_ms:8.4f} {ratio:5.2f}  {shapes}")

        whole_lite = LiteRTModel(path, args.threads)
        whole_ours = BenchServer("default", ["--model", args.model], args.threads)
        net_lite, net_ours, net_ratio = lockstep(whole_lite, whole_ours, args.blocks, args.block)
        whole_ours.close()

    sum_lite = sum(r["litert_ms"] for r in rows)
    sum_ours = sum(r["blazekit_ms"] for r in rows)
    print(f"{args.model} on {cpu_name()}, {args.threads} thread(s), BlazeKit kernel level {isa}; "
          f"lockstep, {args.blocks} block pairs of {args.block} runs per layer; ratio = BlazeKit / LiteRT.\n")
    print("| | LiteRT ms | BlazeKit ms | ratio |\n|---|---:|---:|---:|")
    print(f"| sum of the layers {'measured' if args.kinds else 'alone'} | {sum_lite:.3f} | {sum_ours:.3f} | {sum_ours / sum_lite:.2f} |")
    print(f"| the whole net | {net_lite:.3f} | {net_ours:.3f} | {net_ratio:.2f} |\n")

    kinds = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        k = kinds[r["kind"]]
        k[0] += r["litert_ms"]
        k[1] += r["blazekit_ms"]
        k[2] += 1
    print("| layer kind | layers | LiteRT ms | BlazeKit ms | ratio | gap ms |\n|---|---:|---:|---:|---:|---:|")
    for kind, (a, b, n) in sorted(kinds.items(), key=lambda kv: kv[1][0] - kv[1][1]):
        print(f"| {kind} | {n} | {a:.3f} | {b:.3f} | {b / a:.2f} | {b - a:+.3f} |")

    print(f"\n| # | layer | shapes | LiteRT ms | BlazeKit ms | ratio | gap ms |\n|---:|---|---|---:|---:|---:|---:|")
    for r in sorted(rows, key=lambda r: r["litert_ms"] - r["blazekit_ms"])[:args.top]:
        print(f"| {r['index']} | {r['kind']} | {r['shapes']} | {r['litert_ms']:.4f} | {r['blazekit_ms']:.4f} | "
              f"{r['ratio']:.2f} | {r['blazekit_ms'] - r['litert_ms']:+.4f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"model": args.model, "threads": args.threads, "isa": isa, "layers": rows,
                       "net": {"litert_ms": net_lite, "blazekit_ms": net_ours, "ratio": net_ratio}}, f, indent=1)


if __name__ == "__main__":
    main()
