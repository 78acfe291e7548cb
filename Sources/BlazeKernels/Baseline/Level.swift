import BlazeEngineCore

// The baseline level: baseline x86-64 (SSE2), 16 xmm registers of 4 floats, no FMA (`madd` is a
// multiply and an add).
// Everything level-specific lives in this file: the vector type, the tile shapes sized for the
// register file, their instantiations, and which layers go to OpenBLAS. The kernels themselves
// are the shared sources in Shared/ (a link to BlazeKernels/Shared).

/// Conv micro-kernel shapes and dispatch of this level.
enum ConvTiles {
    static let level = ISALevel.baseline
    typealias Vec = SIMD4<Float>
    /// (MR, largest NV) with MR·NV + NV + 1 < 16 xmm registers (4×3, exactly 16, spilled).
    static let shapes: [TileShape] = [TileShape(mr: 1, maxNV: 4), TileShape(mr: 2, maxNV: 4), TileShape(mr: 4, maxNV: 2), TileShape(mr: 6, maxNV: 2), TileShape(mr: 8, maxNV: 1)]

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
        case (6, 1): ConvTile<W, 6, 1>.dispatch(j, strip: strip)
        case (6, 2): ConvTile<W, 6, 2>.dispatch(j, strip: strip)
        case (8, 1): ConvTile<W, 8, 1>.dispatch(j, strip: strip)
        default: preconditionFailure("no \(mr)×\(nv) conv tile")
        }
    }

    /// No tiles of narrower vectors at this level (see the avx512 level's).
    typealias NarrowVec = Vec
    static let narrowShapes: [TileShape] = []
    static var wideVectorCost: Double { 1 }

    /// Pointwise layers on OpenBLAS (`true`) or the SIMD tiles: OpenBLAS' own AVX2/AVX-512 kernels (it dispatches at run time) beat any SSE tile 4–5×.
    static func pointwiseUsesBLAS(_ g: ConvGeometry) -> Bool { true }

    /// Unfused CONV_2D on `PackedConv2D` (`true`) or im2col + OpenBLAS: im2col + OpenBLAS beats the SSE direct conv.
    static func prefersPackedConv(_ g: ConvGeometry) -> Bool { false }

    /// FULLY_CONNECTED on `PackedConv2D` (`true`) or OpenBLAS sgemm/sgemv.
    static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool { false }

    /// Transposed pointwise chains keep their TRANSPOSE nodes and OpenBLAS convs here (see
    /// `pointwiseUsesBLAS`); the kernel suite still runs `ChannelMajorConv` at this level.
    static let prefersChannelMajorConv = false
    /// `ChannelMajorConv`'s tile: 6 output channels × 2 vectors of pixels (15 of 16 registers).
    static let channelMajorTile = (mr: 6, nv: 2)
}

/// Depthwise tile shapes and lane widths of this level.
enum DWShapes {
    /// Channel block widths, widest first (the channels are covered exactly).
    static let laneWidths = [4, 1]
    /// Interior tiles load a kernel row's input columns into registers once (`true`) or read them
    /// as FMA memory operands (`false`: fewer registers, more loads).
    static let columnsInRegisters = true
    /// Pixels per tile of the widest blocks.
    static let tilePixels = [4, 2]
    /// `tilePixels` and 1 (`DWPixelMajor`): what `tilePixels:` accepts. A literal: building it
    /// with `+` emitted an array-growth specialisation shared with other modules (weak symbol).
    static let forcedTilePixels = [4, 2, 1]

    /// 3×3 and 5×5 layers with at least this many widest vectors run them in `DWPixelMajor`
    /// rows (`borderPixels`, the output columns that touch the padding, unused at this level;
    /// docs/tuning.md, "Pixel-major rows").
    static func prefersPixelMajor(_ g: ConvGeometry, wideVectors: Int, borderPixels: Int) -> Bool { wideVectors >= 4 }
    /// `PackedDepthwiseConv2D.vectorsFactor` of 4-vector tiles: 4 adjacent cache lines per pixel
    /// help a streamed input and cost a cached one (docs/tuning.md, "Channel vectors per tile").
    static let fourVectorsFactor = (cached: 0.88, streamed: 0.84)
    /// The same for 2-vector tiles (docs/tuning.md, "Channel vectors per tile").
    static let twoVectorsFactor = 0.86
    /// Inputs larger than this stream from L3 or memory (`PackedDepthwiseConv2D.streamsInput`):
    /// more than L2 holds beside the output on some current x86 cores.
    static let streamedInputBytes = 512 * 1024
    /// Independent accumulators a tile needs to hide the add/FMA latency; the tile choice charges
    /// tiles with fewer.
    static let latencyAccumulators = 8

    /// Channel vectors per tile for a tile of `pixels` pixels (0: no such tile for `path`).
    static func tileVectors(pixels: Int, path: PackedDepthwiseConv2D.Path) -> Int {
        // 16 registers: 8 accumulators (enough independent add chains to hide the latency) fit
        // beside the input columns of a 3×3 row only: 4 pixels × 2 vectors at stride 1 (6 columns),
        // 2 pixels × 4 vectors at stride 2 (5 columns).
        switch (pixels, path) {
        case (4, .k3s1): return 2
        case (2, .k3s2): return 4
        case (2, _): return 0
        default: return 1
        }
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
        case (4, 4, 2): DWTiles<SIMD4<Float>, K, S, 4, 2>.row(j, channel: g.channel)
        case (4, 2, 4): DWTiles<SIMD4<Float>, K, S, 2, 4>.row(j, channel: g.channel)
        case (4, 4, 1): DWTiles<SIMD4<Float>, K, S, 4, 1>.row(j, channel: g.channel)
        case (1, 4, 1): DWTiles<Float, K, S, 4, 1>.row(j, channel: g.channel)
        default: preconditionFailure("no \(g.tilePixels)-pixel × \(g.count) tile of \(g.lanes) lanes")
        }
    }
}
