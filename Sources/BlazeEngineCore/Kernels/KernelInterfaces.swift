// The contract between the engine and its per-ISA kernel modules.
//
// Each ISA level (`ISALevel`) has one kernel module, built from the same generic sources with its
// own `-target-cpu` and its own tile tables: `BlazeKernels` (baseline, SSE2), `BlazeKernelsAVX2`,
// `BlazeKernelsAVX512` (x86-64 only), `BlazeKernelsNEON` (aarch64). Each exports one `ISAKernelSet`
// type; the engine picks one at run time and only ever talks to these protocols, so no code of
// one level is reachable from another.
//
// Kernel objects pack their weights once (at init, in the level's own layout), are immutable
// afterwards and serve any number of threads at once. `run` allocates nothing. Work is cut into
// `workCount` independent units; any split into contiguous ranges gives the same bytes.

/// The path a prepared CONV_2D / FULLY_CONNECTED takes.
package enum ConvKernelPath: Sendable, Equatable {
    /// 1×1 stride 1 (and FULLY_CONNECTED): register tiles of pixels × channel vectors.
    case pointwise
    /// Pointwise with very few outputs (detector heads): dot products over the input channels.
    case dotPointwise
    /// Any other conv, straight from the NHWC input (no im2col).
    case direct
    /// Pointwise through OpenBLAS `sgemm` plus a vectorised epilogue.
    case blasPointwise
}

/// Who computes the pointwise layers of a `ConvKernel`.
package enum ConvBackend: Sendable, Equatable {
    /// The level's cost model decides per layer (SIMD tiles or OpenBLAS).
    case automatic
    /// Always the level's SIMD tiles.
    case simd
    /// OpenBLAS for pointwise layers (other layers still use the SIMD direct path).
    case blas
}

/// A prepared multiply-accumulate kernel of register tiles with a fused epilogue and an optional
/// residual, whose work is `workCount` units that any threads may run.
package protocol TiledKernel: AnyObject, Sendable {
    /// Register tile: rows (pixels or output channels) and vectors per tile.
    var tileRows: Int { get }
    var tileVectors: Int { get }
    var workCount: Int { get }
    /// 2 · multiply-adds of a whole run.
    var flops: Int { get }
    /// Computes work units `work` (a sub-range of `0..<workCount`). `output` must not overlap
    /// `input`; `residual` is either exactly `output` (same layout) or disjoint from it.
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?, work: Range<Int>)
}

/// A prepared CONV_2D or FULLY_CONNECTED with fused epilogue: `y = act(x∗w + b)`, then optionally
/// `y = residualAct(y + residual)` and a per-channel PReLU. Tiles are output pixels × channel
/// vectors.
package protocol ConvKernel: TiledKernel {
    var geometry: ConvGeometry { get }
    var kind: ConvKernelPath { get }
    /// Floats per vector.
    var tileLanes: Int { get }
    /// Pointwise: pixels per work unit.
    var pixelsPerUnit: Int { get }
    /// Output-channel groups per pixel unit / row (1 unless the spatial size is small).
    var channelGroups: Int { get }
    /// Channels per pixel of the residual tensor (`O` unless the residual is channel-padded).
    var residualChannels: Int { get }
}

/// A prepared DEPTHWISE_CONV_2D with the same fused epilogue; work units are output rows.
package protocol DepthwiseKernel: AnyObject, Sendable {
    var params: DepthwiseConv2DParams { get }
    var geometry: ConvGeometry { get }
    /// Pixels per register tile of the widest channel blocks.
    var tilePixels: Int { get }
    var workCount: Int { get }
    var flops: Int { get }
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?, rows: Range<Int>)
}

/// A prepared row-parallel kernel without weights (pooling, RESIZE_BILINEAR).
package protocol RowKernel: Sendable {
    var workCount: Int { get }
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>)
}

/// A register tile shape of the conv micro-kernel: `rows` pixels × up to `maxVectors` vectors of
/// `lanes` floats (a level may have tiles of narrower vectors than its widest, e.g. 8-lane tiles
/// at the 16-lane `avx512` level; nil in a request: the level's widest).
package struct ConvTileShape: Sendable, Equatable, CustomStringConvertible {
    package var rows: Int
    package var maxVectors: Int
    package var lanes: Int?
    package init(rows: Int, maxVectors: Int, lanes: Int? = nil) {
        self.rows = rows; self.maxVectors = maxVectors; self.lanes = lanes
    }

    /// `4x4`, or `4x4/8` for a tile of 8-lane vectors.
    package var description: String { "\(rows)x\(maxVectors)" + (lanes.map { "/\($0)" } ?? "") }

    /// `count` shapes from `shape(i)` (lets a level module list its shapes without specialising
    /// array code on this type itself).
    package static func list(count: Int, _ shape: (Int) -> (rows: Int, maxVectors: Int, lanes: Int)) -> [ConvTileShape] {
        (0..<count).map {
            let s = shape($0); return ConvTileShape(rows: s.rows, maxVectors: s.maxVectors, lanes: s.lanes)
        }
    }
}

/// A prepared pointwise CONV_2D on channel-major tensors: input `[K, P]`, output `[O, P]` (row `o`
/// is output channel `o` of every pixel), `y = residualAct(act(W·x + b) + residual)` with the
/// residual in the output's layout — MLP-Mixer token mixing without its transposes. Work units
/// are groups of output channels; tiles are output channels × pixel vectors.
package protocol ChannelMajorConvKernel: TiledKernel {
    var outputChannels: Int { get }
    var inputChannels: Int { get }
    var pixels: Int { get }
}

/// Every kernel of one ISA level, and that level's policy for the layers it does not take.
package protocol ISAKernelSet {
    static var level: ISALevel { get }
    /// Floats per vector of the conv tiles (4, 8 or 16).
    static var lanes: Int { get }
    /// The conv micro-kernel shapes compiled into this level (every lane width, `lanes` set).
    static var convTiles: [ConvTileShape] { get }
    /// Accepted values of `depthwise(…, tilePixels:)`.
    static var depthwiseTilePixels: [Int] { get }
    /// Whether an unfused CONV_2D runs on `conv(…)` (true) or on im2col + OpenBLAS (false).
    static func prefersPackedConv(_ g: ConvGeometry) -> Bool
    /// Whether FULLY_CONNECTED runs on `fullyConnected(…)` (true) or on OpenBLAS sgemm/sgemv.
    static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool

    /// CONV_2D. `filter` OHWI, `bias` `[O]`, `prelu` `[O]` alpha of a fused PRELU; `tile` forces
    /// one of `convTiles` (benchmarks, tests). `channelMajorInput` (pointwise only): the input is
    /// stored `[C, N·H·W]`, the source of a folded TRANSPOSE.
    static func conv(
        params: Conv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        prelu: UnsafePointer<Float>?, residualActivation: Activation, residualChannels: Int?,
        backend: ConvBackend, tile: ConvTileShape?, channelMajorInput: Bool
    ) -> any ConvKernel
    /// Whether the engine runs transposed pointwise chains (TRANSPOSE, pointwise CONV_2Ds,
    /// TRANSPOSE back) on `channelMajorConv` at this level.
    static var prefersChannelMajorConv: Bool { get }
    /// Pointwise CONV_2D on channel-major tensors: `filter` `[O, K]` (OHWI, 1×1), `bias` `[O]`.
    static func channelMajorConv(
        filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outputChannels: Int, inputChannels: Int,
        pixels: Int, activation: Activation, residualActivation: Activation
    ) -> any ChannelMajorConvKernel
    /// FULLY_CONNECTED over `rows` rows: `weights` `[O, I]`.
    static func fullyConnected(
        params: FullyConnectedParams, rows: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, backend: ConvBackend
    ) -> any ConvKernel
    /// DEPTHWISE_CONV_2D. `filter` `[1, KH, KW, C·M]`.
    static func depthwise(
        params: DepthwiseConv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, prelu: UnsafePointer<Float>?, residualActivation: Activation,
        tilePixels: Int?
    ) -> any DepthwiseKernel
    /// MAX_POOL_2D / AVERAGE_POOL_2D.
    static func pool(params: Pool2DParams, geometry: ConvGeometry, average: Bool) -> any RowKernel
    /// RESIZE_BILINEAR of an `[N, H, W, C]` input (bit-identical to the reference kernel).
    static func resizeBilinear(params: ResizeBilinearParams, inputShape: [Int]) -> any RowKernel

    /// `out[i] = act(a[i] + b[i])` for `i ∈ range`.
    static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        activation: Activation, range: Range<Int>)
    /// ADD + activation, then per-channel PReLU over `[pixels, channels]`.
    static func addPrelu(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels: Int,
        output: UnsafeMutablePointer<Float>, activation: Activation, pixels: Range<Int>)
    /// Per-channel PReLU over `[pixels, channels]`.
    static func prelu(
        input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels: Int,
        output: UnsafeMutablePointer<Float>, pixels: Range<Int>)
    /// LEAKY_RELU `out[i] = x[i] > 0 ? x[i] : alpha·x[i]` for `i ∈ range`, bitwise the reference
    /// kernel's. `output` may be exactly `input`.
    static func leakyRelu(input: UnsafePointer<Float>, alpha: Float, output: UnsafeMutablePointer<Float>, range: Range<Int>)

    /// Layer normalisation of rows `rows` of `[rows, channels]` over the last axis, with γ and an
    /// optional β of `channels` values: bitwise the TFLite decomposition MEAN → SQUARED_DIFFERENCE
    /// → MEAN → ADD ε → RSQRT → MUL γ → MUL / NEG / SUB → ADD run by the reference kernels.
    /// `output` may be exactly `input`.
    static func layerNorm(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, channels: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>?, epsilon: Float, rows: Range<Int>)

    /// Self-test of the partial (channel-tail) vector loads and stores of every vector width this
    /// level uses: each must touch exactly `count` lanes. Returns the number of wrong lanes (0:
    /// none). An integer, not strings: building arrays of a shared type inside a level module
    /// would emit specialisations shared with other levels (see Tools/isa/check_isa_isolation.sh).
    static func partialVectorFaults() -> Int

    /// The level's arithmetic roofline probe: `iterations` steps of 12 independent register-only
    /// multiply-adds on `lanes`-wide vectors (FMA where the level has it). Returns the flops done
    /// and a value that depends on every result (so nothing is optimised away).
    static func peakFlopsProbe(iterations: Int) -> (flops: Double, checksum: Float)
}

extension ConvKernel {
    /// Whole tensor.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil) {
        run(input: input, output: output, residual: residual, work: 0..<workCount)
    }

    /// Balanced contiguous range `part` of `parts` over `0..<workCount`.
    package func partition(_ part: Int, of parts: Int) -> Range<Int> { WorkRange.part(part, of: parts, count: workCount) }
}

extension ChannelMajorConvKernel {
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil) {
        run(input: input, output: output, residual: residual, work: 0..<workCount)
    }
}

extension DepthwiseKernel {
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil) {
        run(input: input, output: output, residual: residual, rows: 0..<workCount)
    }

    package func partition(_ part: Int, of parts: Int) -> Range<Int> { WorkRange.part(part, of: parts, count: workCount) }
}

extension RowKernel {
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, rows: 0..<workCount)
    }

    package func partition(_ part: Int, of parts: Int) -> Range<Int> { WorkRange.part(part, of: parts, count: workCount) }
}

extension ISAKernelSet {
    package static func conv(
        params: Conv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        prelu: UnsafePointer<Float>? = nil, residualActivation: Activation = .none,
        residualChannels: Int? = nil, backend: ConvBackend = .automatic, channelMajorInput: Bool = false
    ) -> any ConvKernel {
        conv(
            params: params, geometry: geometry, filter: filter, bias: bias, prelu: prelu, residualActivation: residualActivation,
            residualChannels: residualChannels, backend: backend, tile: nil, channelMajorInput: channelMajorInput)
    }

    package static func depthwise(
        params: DepthwiseConv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, prelu: UnsafePointer<Float>? = nil,
        residualActivation: Activation = .none
    ) -> any DepthwiseKernel {
        depthwise(
            params: params, geometry: geometry, filter: filter, bias: bias, prelu: prelu,
            residualActivation: residualActivation, tilePixels: nil)
    }
}

/// The one balanced splitter of `0..<count` into contiguous parts, used by kernels, steps and
/// the worker pool alike (so a split never depends on who computes it).
package enum WorkRange {
    /// Part `part` of `parts` (empty when there are more parts than units).
    @inline(__always)
    package static func part(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        precondition(parts >= 1 && part >= 0 && part < parts, "partition part \(part) of \(parts)")
        let lo = count * part / parts, hi = count * (part + 1) / parts
        return lo..<hi
    }
}
