import BlazeEngine
import Foundation

/// `bench --layer pointwise P K O [--tile MRxNV] [--activation relu6]`: one 1×1 conv of P pixels,
/// K input and O output channels on the active kernel level, timed alone, one thread. Two figures:
/// `hot` runs it back to back on the same buffers (everything it touches stays in cache), `cold`
/// runs it after streaming through a buffer larger than the last-level cache share, as a layer in
/// a network finds its input in L2/L3. Their gap says how much of a layer's time is memory.
/// `--tile` forces the SIMD tiles (a level that gives the layer to OpenBLAS shows path
/// `blasPointwise` without it).
enum LayerBench {
    struct Spec {
        var pixels: Int, depth: Int, outputs: Int
        var tile: ConvTileShape?
        var activation: Activation = .none
    }

    static func parse(_ values: [String]) throws -> Spec {
        guard values.count == 4, values[0] == "pointwise", let p = Int(values[1]), let k = Int(values[2]), let o = Int(values[3]),
            p >= 1, k >= 1, o >= 1
        else {
            throw BlazeError(.invalidInput, "--layer expects: pointwise P K O (positive integers)")
        }
        return Spec(pixels: p, depth: k, outputs: o)
    }

    static func parseTile(_ text: String) throws -> ConvTileShape {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 1, parts[1] >= 1 else { throw BlazeError(.invalidInput, "--tile expects MRxNV, e.g. 6x2") }
        return ConvTileShape(rows: parts[0], maxVectors: parts[1])
    }

    static func run(_ spec: Spec, runs: Int) throws {
        let level = try KernelLevels.active()
        let kernels = try KernelLevels.kernels(for: level)
        if let tile = spec.tile, !kernels.convTiles.contains(where: { $0.rows == tile.rows && tile.maxVectors <= $0.maxVectors }) {
            throw BlazeError(
                .invalidInput,
                "level \(level) has no \(tile.rows)×\(tile.maxVectors) tile; it has " + kernels.convTiles.map { "\($0.rows)x\($0.maxVectors)" }.joined(separator: ", "))
        }
        let P = spec.pixels, K = spec.depth, O = spec.outputs
        let g = ConvGeometry(
            batch: 1, inH: P, inW: 1, inC: K, outH: P, outW: 1, outC: O, kernelH: 1, kernelW: 1,
            strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, padTop: 0, padLeft: 0)
        var rng = SystemRandomNumberGenerator()
        let filter = (0..<(O * K)).map { _ in Float.random(in: -1...1, using: &rng) }
        let bias = (0..<O).map { _ in Float.random(in: -1...1, using: &rng) }
        let input = (0..<(P * K)).map { _ in Float.random(in: -1...1, using: &rng) }
        var output = [Float](repeating: 0, count: P * O)
        let kernel = filter.withUnsafeBufferPointer { f in
            bias.withUnsafeBufferPointer { b in
                kernels.conv(
                    params: Conv2DParams(padding: .valid, activation: spec.activation), geometry: g, filter: f.baseAddress!,
                    bias: b.baseAddress!, prelu: nil, residualActivation: .none, residualChannels: nil,
                    backend: spec.tile == nil ? .automatic : .simd, tile: spec.tile)
            }
        }
        var flush = [Float](repeating: 1, count: 8 << 20)  // 32 MB
        func time(cold: Bool) -> (median: Double, min: Double) {
            var samples: [Double] = []
            for _ in 0..<runs {
                if cold {
                    var s: Float = 0
                    flush.withUnsafeMutableBufferPointer { f in for i in stride(from: 0, to: f.count, by: 16) { f[i] += 1; s += f[i] } }
                    if s == -1 { print("") }
                }
                let t0 = DispatchTime.now().uptimeNanoseconds
                input.withUnsafeBufferPointer { x in
                    output.withUnsafeMutableBufferPointer { y in
                        kernel.run(input: x.baseAddress!, output: y.baseAddress!, residual: nil, work: 0..<kernel.workCount)
                    }
                }
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            samples.sort()
            return (samples[samples.count / 2], samples[0])
        }
        _ = time(cold: false)
        let (hot, hotMin) = time(cold: false)
        let cold = time(cold: true).median
        let gflop = Double(kernel.flops) / 1e9
        let peak = try Roofline.gflops(level)
        print(
            "pointwise P=\(P) K=\(K) O=\(O) level \(level) path \(kernel.kind) tile \(kernel.tileRows)x\(kernel.tileVectors): "
                + String(
                    format: "hot min %.1f GFLOP/s, hot %.4f ms %.1f GFLOP/s (%.0f %%), cold %.4f ms %.1f GFLOP/s (%.0f %%) of %.1f",
                    gflop / hotMin * 1e3, hot, gflop / hot * 1e3, 100 * gflop / hot * 1e3 / peak, cold, gflop / cold * 1e3, 100 * gflop / cold * 1e3 / peak, peak))
    }
}
