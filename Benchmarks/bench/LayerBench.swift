import BlazeEngine
import Foundation

/// `bench --layer pointwise P K O [--tile MRxNV] [--relu6] [--residual R]`: one 1×1 conv of P
/// pixels, K input and O output channels (with a fused residual ADD of R channels + ReLU);
/// `bench --layer depthwise H W C K S [--tile T] [--relu6]`: one K×K depthwise conv of stride S (SAME padding) over an H×W×C input, tiles of T pixels forced with
/// `--tile`. Either runs on the active kernel level, timed alone, one thread. Two figures:
/// `hot` runs it back to back on the same buffers (everything it touches stays in cache), `cold`
/// runs it after streaming through a buffer larger than the last-level cache share, as a layer in
/// a network finds its input in L2/L3. Their gap says how much of a layer's time is memory.
/// `--tile` forces the SIMD tiles (a level that gives the layer to OpenBLAS shows path
/// `blasPointwise` without it).
enum LayerBench {
    enum Kind { case pointwise, depthwise }

    struct Spec {
        var kind = Kind.pointwise
        /// Pointwise: P, K, O. Depthwise: H, W, C, K, S.
        var sizes: [Int]
        var tile: ConvTileShape?
        var tilePixels: Int?
        /// `--versus MRxNV` (pointwise) or `--versus T` (depthwise): a second kernel with that
        /// tile, timed alternately with the first.
        var versus: ConvTileShape?
        var versusPixels: Int?
        var activation: Activation = .none
        /// Pointwise `--residual R`: a fused residual ADD of R channels per pixel (R ≤ O; the
        /// last O − R channels get none, as after a channel-padding PAD) followed by a ReLU.
        var residualChannels: Int?
    }

    /// Values after `--layer` that `kind` takes (nil: no such layer kind).
    static func valueCount(kind: String) -> Int? {
        switch kind {
        case "pointwise": 3
        case "depthwise": 5
        default: nil
        }
    }

    static func parse(_ values: [String]) throws -> Spec {
        let sizes = values.dropFirst().compactMap { Int($0) }.filter { $0 >= 1 }
        switch values.first {
        case "pointwise" where values.count == 4 && sizes.count == 3:
            return Spec(kind: .pointwise, sizes: sizes)
        case "depthwise" where values.count == 6 && sizes.count == 5:
            return Spec(kind: .depthwise, sizes: sizes)
        default:
            throw BlazeError(.invalidInput, "--layer expects: pointwise P K O, or depthwise H W C K S (positive integers)")
        }
    }

    /// `--tile` (or `--versus`): MRxNV (or MRxNV/LANES for a level's narrower tiles, e.g. 4x3/8) for pointwise layers, pixels per tile for depthwise ones.
    static func parseTile(_ text: String, into spec: inout Spec, versus: Bool = false) throws {
        if spec.kind == .depthwise {
            guard let t = Int(text), t >= 1 else { throw BlazeError(.invalidInput, "--tile of a depthwise layer expects pixels per tile, e.g. 8") }
            if versus { spec.versusPixels = t } else { spec.tilePixels = t }
        } else {
            let tile = try parseTile(text)
            if versus { spec.versus = tile } else { spec.tile = tile }
        }
    }

    static func parseTile(_ text: String) throws -> ConvTileShape {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        let parts = halves[0].split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        let lanes = halves.count == 2 ? Int(halves[1]) : nil
        guard halves.count <= 2, parts.count == 2, let rows = parts[0], let nv = parts[1], rows >= 1, nv >= 1,
            halves.count == 1 || (lanes ?? 0) >= 1
        else { throw BlazeError(.invalidInput, "--tile expects MRxNV or MRxNV/LANES, e.g. 6x2 or 4x3/8") }
        return ConvTileShape(rows: rows, maxVectors: nv, lanes: lanes)
    }

    static func run(_ spec: Spec, runs: Int) throws {
        let level = try KernelLevels.active()
        let kernels = try KernelLevels.kernels(for: level)
        if spec.kind == .depthwise { return try runDepthwise(spec, runs: runs, level: level, kernels: kernels) }
        func name(_ t: ConvTileShape) -> String { "\(t.rows)x\(t.maxVectors)" + (t.lanes == kernels.lanes ? "" : t.lanes.map { "/\($0)" } ?? "") }
        for tile in [spec.tile, spec.versus].compactMap({ $0 })
        where !kernels.convTiles.contains(where: { $0.rows == tile.rows && tile.maxVectors <= $0.maxVectors && $0.lanes == (tile.lanes ?? kernels.lanes) }) {
            throw BlazeError(
                .invalidInput,
                "level \(level) has no \(name(tile)) tile; it has " + kernels.convTiles.map(name).joined(separator: ", "))
        }
        let P = spec.sizes[0], K = spec.sizes[1], O = spec.sizes[2]
        let g = ConvGeometry(
            batch: 1, inH: P, inW: 1, inC: K, outH: P, outW: 1, outC: O, kernelH: 1, kernelW: 1,
            strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, padTop: 0, padLeft: 0)
        var rng = SystemRandomNumberGenerator()
        let filter = (0..<(O * K)).map { _ in Float.random(in: -1...1, using: &rng) }
        let bias = (0..<O).map { _ in Float.random(in: -1...1, using: &rng) }
        let input = Aligned((0..<(P * K)).map { _ in Float.random(in: -1...1, using: &rng) })
        let output = Aligned([Float](repeating: 0, count: P * O))
        let residualChannels = spec.residualChannels
        let residual = residualChannels.map { R in Aligned((0..<(P * R)).map { _ in Float.random(in: -1...1, using: &rng) }) }
        let residualPointer = residual.map { UnsafePointer($0.pointer) }
        func make(_ tile: ConvTileShape?) -> any ConvKernel {
            filter.withUnsafeBufferPointer { f in
                bias.withUnsafeBufferPointer { b in
                    kernels.conv(
                        params: Conv2DParams(padding: .valid, activation: spec.activation), geometry: g, filter: f.baseAddress!,
                        bias: b.baseAddress!, prelu: nil, residualActivation: residualChannels == nil ? .none : .relu,
                        residualChannels: residualChannels,
                        backend: tile == nil ? .automatic : .simd, tile: tile, channelMajorInput: false)
                }
            }
        }
        func name(_ k: any ConvKernel) -> String { name(ConvTileShape(rows: k.tileRows, maxVectors: k.tileVectors, lanes: k.tileLanes)) }
        let kernel = make(spec.tile)
        try printTimes(
            "pointwise P=\(P) K=\(K) O=\(O)" + (residualChannels.map { " residual \($0)" } ?? "") + " level \(level) path \(kernel.kind) tile \(name(kernel))",
            flops: kernel.flops, level: level, runs: runs
        ) { kernel.run(input: input.pointer, output: output.pointer, residual: residualPointer, work: 0..<kernel.workCount) }
        if let versus = spec.versus {
            let other = make(versus)
            printVersus(name(other), over: name(kernel), runs: runs) {
                kernel.run(input: input.pointer, output: output.pointer, residual: residualPointer, work: 0..<kernel.workCount)
            } versus: {
                other.run(input: input.pointer, output: output.pointer, residual: residualPointer, work: 0..<other.workCount)
            }
        }
    }

    /// Times `body` hot and cold (`time`) and prints `label: hot min …, hot …, cold … of PEAK`,
    /// GFLOP/s against the level's roofline.
    static func printTimes(_ label: String, flops: Int, level: ISALevel, runs: Int, _ body: () -> Void) throws {
        let (hot, hotMin, cold) = time(runs: runs, body)
        let gflop = Double(flops) / 1e9
        let peak = try Roofline.gflops(level)
        print(
            label + ": "
                + String(
                    format: "hot min %.1f GFLOP/s, hot %.4f ms %.1f GFLOP/s (%.0f %%), cold %.4f ms %.1f GFLOP/s (%.0f %%) of %.1f",
                    gflop / hotMin * 1e3, hot, gflop / hot * 1e3, 100 * gflop / hot * 1e3 / peak, cold, gflop / cold * 1e3, 100 * gflop / cold * 1e3 / peak, peak))
    }

    /// Times `a` (tile `mine`) and `b` (tile `other`) alternately and prints the median ratio.
    static func printVersus(_ other: String, over mine: String, runs: Int, _ a: () -> Void, versus b: () -> Void) {
        let ratio = alternate(runs: runs, a, versus: b)
        print("versus tile \(other), runs alternating: time \(other) / \(mine) = " + String(format: "%.3f", ratio) + " (median of pairs)")
    }

    /// Median over `runs` back-to-back pairs of time(`b`) / time(`a`): both see the same machine
    /// state, which on a shared host drifts by tens of percent between seconds.
    static func alternate(runs: Int, _ a: () -> Void, versus b: () -> Void) -> Double {
        func timed(_ body: () -> Void) -> Double {
            let t0 = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - t0)
        }
        for _ in 0..<max(3, runs / 10) { a(); b() }
        var ratios: [Double] = []
        for i in 0..<runs {
            // Alternate which goes first, so neither always follows the other's cache footprint.
            let ta: Double, tb: Double
            if i % 2 == 0 {
                ta = timed(a); tb = timed(b)
            } else {
                tb = timed(b); ta = timed(a)
            }
            ratios.append(tb / ta)
        }
        ratios.sort()
        return ratios[ratios.count / 2]
    }

    static func runDepthwise(_ spec: Spec, runs: Int, level: ISALevel, kernels: any ISAKernelSet.Type) throws {
        let H = spec.sizes[0], W = spec.sizes[1], C = spec.sizes[2], K = spec.sizes[3], S = spec.sizes[4]
        for t in [spec.tilePixels, spec.versusPixels].compactMap({ $0 }) where !kernels.depthwiseTilePixels.contains(t) {
            throw BlazeError(.invalidInput, "level \(level) has depthwise tiles of \(kernels.depthwiseTilePixels.map(String.init).joined(separator: ", ")) pixels, not \(t)")
        }
        let params = DepthwiseConv2DParams(strideH: S, strideW: S, padding: .same, activation: spec.activation)
        let g = try params.geometry(input: [1, H, W, C], filter: [1, K, K, C])
        var rng = SystemRandomNumberGenerator()
        let filter = (0..<(K * K * C)).map { _ in Float.random(in: -1...1, using: &rng) }
        let bias = (0..<C).map { _ in Float.random(in: -1...1, using: &rng) }
        let input = Aligned((0..<(H * W * C)).map { _ in Float.random(in: -1...1, using: &rng) })
        let output = Aligned([Float](repeating: 0, count: g.outH * g.outW * C))
        func make(_ tilePixels: Int?) -> any DepthwiseKernel {
            filter.withUnsafeBufferPointer { f in
                bias.withUnsafeBufferPointer { b in
                    kernels.depthwise(
                        params: params, geometry: g, filter: f.baseAddress!, bias: b.baseAddress!, prelu: nil,
                        residualActivation: .none, tilePixels: tilePixels)
                }
            }
        }
        let kernel = make(spec.tilePixels)
        try printTimes("depthwise \(H)x\(W)x\(C) k\(K) s\(S) level \(level) tile \(kernel.tilePixels) px", flops: kernel.flops, level: level, runs: runs) {
            kernel.run(input: input.pointer, output: output.pointer, residual: nil, rows: 0..<kernel.workCount)
        }
        if let versus = spec.versusPixels {
            let other = make(versus)
            printVersus("\(other.tilePixels) px", over: "\(kernel.tilePixels) px", runs: runs) {
                kernel.run(input: input.pointer, output: output.pointer, residual: nil, rows: 0..<kernel.workCount)
            } versus: {
                other.run(input: input.pointer, output: output.pointer, residual: nil, rows: 0..<other.workCount)
            }
        }
    }

    /// Median and minimum of `runs` hot runs of `body` (after one warm-up pass), and the median
    /// of `runs` cold ones (each after streaming 32 MB through the caches), in ms.
    static func time(runs: Int, _ body: () -> Void) -> (hot: Double, hotMin: Double, cold: Double) {
        var flush = [Float](repeating: 1, count: 8 << 20)  // 32 MB
        func measure(cold: Bool) -> (median: Double, min: Double) {
            var samples: [Double] = []
            for _ in 0..<runs {
                if cold {
                    var s: Float = 0
                    flush.withUnsafeMutableBufferPointer { f in for i in stride(from: 0, to: f.count, by: 16) { f[i] += 1; s += f[i] } }
                    if s == -1 { print("") }
                }
                let t0 = DispatchTime.now().uptimeNanoseconds
                body()
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            samples.sort()
            return (samples[samples.count / 2], samples[0])
        }
        _ = measure(cold: false)
        let (hot, hotMin) = measure(cold: false)
        return (hot, hotMin, measure(cold: true).median)
    }

    /// A 64-byte aligned copy of `values`, as tensors are in a network's arena (a Swift array's
    /// elements are only 16-byte aligned, so every 64-byte vector load would straddle two lines).
    final class Aligned {
        let pointer: UnsafeMutablePointer<Float>
        init(_ values: [Float]) {
            pointer = UnsafeMutableRawPointer.allocate(byteCount: max(values.count, 1) * 4, alignment: 64).bindMemory(to: Float.self, capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
        }
        deinit { pointer.deallocate() }
    }
}
