import BlazeEngineCore

// The neon level: AArch64 Advanced SIMD, 32 q registers of 4 floats, FMA (`fmla`, through BLAZE_FMA).
// Everything level-specific lives in this file: the vector type, the tile shapes sized for the
// register file, their instantiations, and which layers go to OpenBLAS. The kernels themselves
// are the shared sources in Shared/ (a link to BlazeKernels/Shared).
// The register budget is the avx512 level's (32 registers, 16 accumulators at most); its vectors
// are the baseline level's 4 lanes. Not timed on arm64 hardware yet: these tables follow the
// register file (docs/isa-levels.md), and Tools/isa/strip_spills.sh checks that no conv strip
// keeps its accumulators on the stack.

/// Conv micro-kernel shapes and dispatch of this level.
enum ConvTiles {
    static let level = ISALevel.neon
    typealias Vec = SIMD4<Float>
    /// (MR, largest NV) with MR·NV accumulators + NV weight vectors + 1 broadcast ≤ 32 q registers
    /// and at most 16 accumulators (as the avx512 level, whose 32 registers LLVM spills from wider
    /// tiles). 7×2 covers 7×7 maps in whole tiles.
    static let shapes: [TileShape] = [
        TileShape(mr: 1, maxNV: 4), TileShape(mr: 2, maxNV: 4), TileShape(mr: 4, maxNV: 4), TileShape(mr: 6, maxNV: 2), TileShape(mr: 7, maxNV: 2),
        TileShape(mr: 8, maxNV: 2),
        TileShape(mr: 12, maxNV: 1),
        TileShape(mr: 14, maxNV: 1)
    ]

    /// One MR×NV tile of `W` vectors (`Vec`, or `NarrowVec` for `narrowShapes`), or (`strip`)
    /// that many whole tiles in a row (`ConvTile.runStrip`).
    @inline(__always)
    static func run<W: KernelVector>(_: W.Type, mr: Int, nv: Int, _ j: ConvTileJob, strip: Int? = nil) {
        switch (mr, nv) {
        case (1, 1): ConvTile<W, 1, 1>.dispatch(j, strip: strip)
        case (1, 2): ConvTile<W, 1, 2>.dispatch(j, strip: strip)
        case (1, 3): ConvTile<W, 1, 3>.dispatch(j, strip: strip)
        case (1, 4): ConvTile<W, 1, 4>.dispatch(j, strip: strip)
        case (2, 1): ConvTile<W, 2, 1>.dispatch(j, strip: strip)
        case (2, 2): ConvTile<W, 2, 2>.dispatch(j, strip: strip)
        case (2, 3): ConvTile<W, 2, 3>.dispatch(j, strip: strip)
        case (2, 4): ConvTile<W, 2, 4>.dispatch(j, strip: strip)
        case (4, 1): ConvTile<W, 4, 1>.dispatch(j, strip: strip)
        case (4, 2): ConvTile<W, 4, 2>.dispatch(j, strip: strip)
        case (4, 3): ConvTile<W, 4, 3>.dispatch(j, strip: strip)
        case (4, 4): ConvTile<W, 4, 4>.dispatch(j, strip: strip)
        case (6, 1): ConvTile<W, 6, 1>.dispatch(j, strip: strip)
        case (6, 2): ConvTile<W, 6, 2>.dispatch(j, strip: strip)
        case (7, 1): ConvTile<W, 7, 1>.dispatch(j, strip: strip)
        case (7, 2): ConvTile<W, 7, 2>.dispatch(j, strip: strip)
        case (8, 1): ConvTile<W, 8, 1>.dispatch(j, strip: strip)
        case (8, 2): ConvTile<W, 8, 2>.dispatch(j, strip: strip)
        case (12, 1): ConvTile<W, 12, 1>.dispatch(j, strip: strip)
        case (14, 1): ConvTile<W, 14, 1>.dispatch(j, strip: strip)
        default: preconditionFailure("no \(mr)×\(nv) conv tile")
        }
    }

    /// No tiles of narrower vectors at this level (see the avx512 level's).
    typealias NarrowVec = Vec
    static let narrowShapes: [TileShape] = []
    static var wideVectorCost: Double { 1 }

    /// Pointwise layers on OpenBLAS (`true`) or the SIMD tiles: the FMA tiles fuse bias and
    /// activation into the store, as at the other FMA levels.
    static func pointwiseUsesBLAS(_ g: ConvGeometry) -> Bool { false }

    /// Unfused CONV_2D on `PackedConv2D` (`true`) or im2col + OpenBLAS: the direct conv needs no im2col pass.
    static func prefersPackedConv(_ g: ConvGeometry) -> Bool { true }

    /// FULLY_CONNECTED on `PackedConv2D` (`true`) or OpenBLAS sgemm/sgemv.
    static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool { true }

    /// Transposed pointwise chains (MLP-Mixer token mixing) on `ChannelMajorConv` instead of a
    /// channel-major-input conv and a TRANSPOSE node.
    static let prefersChannelMajorConv = true
    /// `ChannelMajorConv`'s tile: 4 output channels × 4 vectors of pixels (16 accumulators, as the
    /// 4×4 conv tile).
    static let channelMajorTile = (mr: 4, nv: 4)
}

/// Depthwise tile shapes and lane widths of this level.
enum DWShapes {
    /// Channel block widths, widest first (the channels are covered exactly).
    static let laneWidths = [4, 1]
    /// Interior tiles load a kernel row's input columns into registers once (`true`) or read them
    /// as FMA memory operands (`false`: fewer registers, more loads). AArch64 FMAs take no memory
    /// operand: every column is a load into a register either way.
    static let columnsInRegisters = true
    /// Pixels per tile of the widest blocks.
    static let tilePixels = [8, 4, 2]
    /// `tilePixels` and 1 (`DWPixelMajor`): what `tilePixels:` accepts. A literal: building it
    /// with `+` emitted an array-growth specialisation shared with other modules (weak symbol).
    static let forcedTilePixels = [8, 4, 2, 1]

    /// 3×3 and 5×5 layers with at least this many widest vectors run them in `DWPixelMajor`
    /// rows (`borderPixels`, the output columns that touch the padding, unused at this level).
    /// The baseline level's threshold: the same 4-lane vectors, so the same channel count per
    /// pixel before pixel-major rows pay off.
    static func prefersPixelMajor(_ g: ConvGeometry, wideVectors: Int, borderPixels: Int) -> Bool { wideVectors >= 4 }
    /// `PackedDepthwiseConv2D.vectorsFactor` of 4-vector tiles: four 4-lane vectors are one
    /// 64-byte cache line per pixel (the x86 levels' penalty came from four lines per pixel).
    static let fourVectorsFactor = (cached: 1.0, streamed: 1.0)
    /// The same for 2-vector tiles (docs/tuning.md, "Channel vectors per tile").
    static let twoVectorsFactor = 0.86
    /// Inputs larger than this stream from L3 or memory (`PackedDepthwiseConv2D.streamsInput`):
    /// the x86 levels' value, kept until arm64 hardware can time it (docs/isa-levels.md).
    static let streamedInputBytes = 512 * 1024
    /// Independent accumulators a tile needs to hide the add/FMA latency; the tile choice charges
    /// tiles with fewer.
    static let latencyAccumulators = 8

    /// Channel vectors per tile for a tile of `pixels` pixels (0: no such tile for `path`).
    static func tileVectors(pixels: Int, path: PackedDepthwiseConv2D.Path) -> Int {
        // 32 registers: 8 accumulators (8×1, 4×2, 2×4) hide the FMA latency (2 pipes × 4 cycles
        // on Cortex-A76 / Neoverse N1) beside a row's input columns and weights.
        8 / pixels
    }

    /// The general path's pixels for a block of `lanes` channels.
    @inline(__always)
    static func generalPixels(lanes: Int, _ j: DWRowJob, channel: Int) {
        switch lanes {
        case 4: DWRowGeneral.pixels(SIMD4<Float>.self, j, channel: channel)
        default: DWRowGeneral.pixels(Float.self, j, channel: channel)
        }
    }
}

/// Square K×K kernel, stride S, dilation 1: dispatch on lanes and tile shape.
enum DWRowK<let K: Int, let S: Int>: DWRowKernel {
    @inline(__always)
    static func run(_ j: DWRowJob, group g: PackedDepthwiseConv2D.Group) {
        switch (g.lanes, g.tilePixels, g.count) {
        case (4, 8, 1): DWTiles<SIMD4<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (4, 4, 2): DWTiles<SIMD4<Float>, K, S, 4, 2>.row(j, channel: g.channel)
        case (4, 2, 4): DWTiles<SIMD4<Float>, K, S, 2, 4>.row(j, channel: g.channel)
        case (1, 8, 1): DWTiles<Float, K, S, 8, 1>.row(j, channel: g.channel)
        default: preconditionFailure("no \(g.tilePixels)-pixel × \(g.count) tile of \(g.lanes) lanes")
        }
    }
}
