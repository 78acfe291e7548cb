import BlazeEngineCore

// The avx2 level: AVX2 + FMA (`-target-cpu haswell`): 16 ymm registers of 8 floats.
// Everything level-specific lives in this file: the vector type, the tile shapes sized for the
// register file, their instantiations, and which layers go to OpenBLAS. The kernels themselves
// are the shared sources in Shared/ (a link to BlazeKernels/Shared).

/// Conv micro-kernel shapes and dispatch of this level.
enum ConvTiles {
    static let level = ISALevel.avx2
    typealias Vec = SIMD8<Float>
    /// (MR, largest NV) with MR·NV accumulators + NV weight vectors + 1 broadcast ≤ 16 ymm registers.
    /// 5×2 is for 7×7 layers (49 pixels: 10 tiles, against 9 of 6 with one mostly shifted in;
    /// docs/tuning.md, "`avx2` 5×2 tile").
    static let shapes: [TileShape] = [
        TileShape(mr: 1, maxNV: 4), TileShape(mr: 2, maxNV: 4), TileShape(mr: 4, maxNV: 3), TileShape(mr: 5, maxNV: 2), TileShape(mr: 6, maxNV: 2), TileShape(mr: 8, maxNV: 1),
        TileShape(mr: 12, maxNV: 1)
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
        case (5, 1): ConvTile<W, 5, 1>.dispatch(j, strip: strip)
        case (5, 2): ConvTile<W, 5, 2>.dispatch(j, strip: strip)
        case (6, 1): ConvTile<W, 6, 1>.dispatch(j, strip: strip)
        case (6, 2): ConvTile<W, 6, 2>.dispatch(j, strip: strip)
        case (8, 1): ConvTile<W, 8, 1>.dispatch(j, strip: strip)
        case (12, 1): ConvTile<W, 12, 1>.dispatch(j, strip: strip)
        default: preconditionFailure("no \(mr)×\(nv) conv tile")
        }
    }

    /// No tiles of narrower vectors at this level (see the avx512 level's).
    typealias NarrowVec = Vec
    static let narrowShapes: [TileShape] = []
    static var wideVectorCost: Double { 1 }

    /// Pointwise layers on OpenBLAS (`true`) or the SIMD tiles: the 8-lane FMA tiles (6×2, 4×3) run at OpenBLAS' speed or better and fuse the epilogue.
    static func pointwiseUsesBLAS(_ g: ConvGeometry) -> Bool { false }

    /// Unfused CONV_2D on `PackedConv2D` (`true`) or im2col + OpenBLAS: the direct conv needs no im2col pass.
    static func prefersPackedConv(_ g: ConvGeometry) -> Bool { true }

    /// FULLY_CONNECTED on `PackedConv2D` (`true`) or OpenBLAS sgemm/sgemv.
    static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool { true }

    /// Transposed pointwise chains (MLP-Mixer token mixing) on `ChannelMajorConv` instead of a
    /// channel-major-input conv and a TRANSPOSE node.
    static let prefersChannelMajorConv = true
    /// `ChannelMajorConv`'s tile: 6 output channels × 2 vectors of pixels (12 accumulators + 2
    /// input vectors + 1 broadcast of the 16 ymm registers, as the 6×2 conv tile).
    static let channelMajorTile = (mr: 6, nv: 2)
}

/// Depthwise tile shapes and lane widths of this level.
enum DWShapes {
    /// Channel block widths, widest first (the channels are covered exactly).
    static let laneWidths = [8, 4, 1]
    /// Interior tiles load a kernel row's input columns into registers once (`true`) or read them
    /// as FMA memory operands (`false`: fewer registers, more loads).
    static let columnsInRegisters = false
    /// Pixels per tile of the widest blocks.
    static let tilePixels = [8, 4, 2]
    /// `tilePixels` and 1 (`DWPixelMajor`): what `tilePixels:` accepts. A literal: building it
    /// with `+` emitted an array-growth specialisation shared with other modules (weak symbol).
    static let forcedTilePixels = [8, 4, 2, 1]

    /// 3×3 and 5×5 layers with at least this many widest vectors run them in `DWPixelMajor`
    /// rows (`borderPixels`, the output columns that touch the padding, unused at this level;
    /// docs/tuning.md, "Pixel-major rows").
    static func prefersPixelMajor(_ g: ConvGeometry, wideVectors: Int, borderPixels: Int) -> Bool { wideVectors >= 3 }
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
        // Columns as FMA memory operands: 8 accumulators + 1 weight vector fit any tile (8×1,
        // 4×2, 2×4), enough independent FMA chains for 2 pipes × 4 cycles of latency.
        8 / pixels
    }

    /// The general path's pixels for a block of `lanes` channels.
    @inline(__always)
    static func generalPixels(lanes: Int, _ j: DWRowJob, channel: Int) {
        switch lanes {
        case 8: DWRowGeneral.pixels(SIMD8<Float>.self, j, channel: channel)
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
        case (8, 8, 1): DWTiles<SIMD8<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (8, 4, 2): DWTiles<SIMD8<Float>, K, S, 4, 2>.row(j, channel: g.channel)
        case (8, 2, 4): DWTiles<SIMD8<Float>, K, S, 2, 4>.row(j, channel: g.channel)
        case (4, 8, 1): DWTiles<SIMD4<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (1, 8, 1): DWTiles<Float, K, S, 8, 1>.row(j, channel: g.channel)
        default: preconditionFailure("no \(g.tilePixels)-pixel × \(g.count) tile of \(g.lanes) lanes")
        }
    }
}
