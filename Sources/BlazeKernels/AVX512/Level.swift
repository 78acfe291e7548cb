import BlazeEngineCore

// The avx512 level: AVX-512 F/BW/DQ/VL (`-target-cpu skylake-avx512`): 32 zmm registers of 16 floats.
// Everything level-specific lives in this file: the vector type, the tile shapes sized for the
// register file, their instantiations, and which layers go to OpenBLAS. The kernels themselves
// are the shared sources in Shared/ (a link to BlazeKernels/Shared).

/// Conv micro-kernel shapes and dispatch of this level.
enum ConvTiles {
    static let level = ISALevel.avx512
    typealias Vec = SIMD16<Float>
    /// (MR, largest NV) with MR·NV + NV + 1 ≤ 32 zmm registers, and at most 16 accumulators when
    /// NV > 1: LLVM keeps larger tiles' accumulators on the stack between tiles. 7×2 covers a 7×7
    /// map in whole tiles. No 8-row tiles: LLVM hoists an 8×2 tile's 32 broadcasts and spills 15.
    /// Evidence: docs/tuning.md, "`avx512` tile shapes".
    static let shapes: [TileShape] = [
        TileShape(mr: 1, maxNV: 4), TileShape(mr: 2, maxNV: 4), TileShape(mr: 4, maxNV: 4), TileShape(mr: 6, maxNV: 2), TileShape(mr: 7, maxNV: 2),
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
        case (12, 1): ConvTile<W, 12, 1>.dispatch(j, strip: strip)
        case (14, 1): ConvTile<W, 14, 1>.dispatch(j, strip: strip)
        default: preconditionFailure("no \(mr)×\(nv) conv tile")
        }
    }

    /// Tiles of 8-lane (ymm) vectors, the same shapes with the same 32 registers. On a CPU whose
    /// 16-lane FMA costs two 8-lane ones (`wideVectorCost`, AMD Zen 4) they waste fewer lanes
    /// where O is not a multiple of 16 (docs/tuning.md, "8-lane tiles at `avx512`").
    typealias NarrowVec = SIMD8<Float>
    static let narrowShapes: [TileShape] = shapes

    /// The cost of one 16-lane vector operation in 8-lane ones (cost model, `PackedConv2D`).
    static var wideVectorCost: Double { CPUInfo.halfRateWideVectors ? 2 : 1 }

    /// Pointwise layers on OpenBLAS (`true`) or the SIMD tiles: the 16-lane FMA tiles reach 90 % of peak; OpenBLAS (SkylakeX) is slower and needs a separate epilogue pass.
    static func pointwiseUsesBLAS(_ g: ConvGeometry) -> Bool { false }

    /// Unfused CONV_2D on `PackedConv2D` (`true`) or im2col + OpenBLAS: the direct conv needs no im2col pass.
    static func prefersPackedConv(_ g: ConvGeometry) -> Bool { true }

    /// FULLY_CONNECTED on `PackedConv2D` (`true`) or OpenBLAS sgemm/sgemv.
    static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool { true }

    /// Transposed pointwise chains (MLP-Mixer token mixing) on `ChannelMajorConv` instead of a
    /// channel-major-input conv and a TRANSPOSE node.
    static let prefersChannelMajorConv = true
    /// `ChannelMajorConv`'s tile: 4 output channels × 4 vectors of pixels (16 accumulators, as the
    /// 4×4 conv tile; face_blendshapes' 64 pixels are exactly 4 vectors).
    static let channelMajorTile = (mr: 4, nv: 4)
}

/// Depthwise tile shapes and lane widths of this level.
enum DWShapes {
    /// Channel block widths, widest first (the channels are covered exactly).
    static let laneWidths = [16, 8, 4, 1]
    /// Interior tiles load a kernel row's input columns into registers once (`true`) or read them
    /// as FMA memory operands (`false`: fewer registers, more loads).
    static let columnsInRegisters = true
    /// Pixels per tile of the widest blocks.
    static let tilePixels = [8, 4, 2]
    /// `tilePixels` and 1 (`DWPixelMajor`): what `tilePixels:` accepts. A literal: building it
    /// with `+` emitted an array-growth specialisation shared with other modules (weak symbol).
    static let forcedTilePixels = [8, 4, 2, 1]

    /// 3×3 and 5×5 layers run their widest vectors (at least 2) in `DWPixelMajor` rows when the
    /// input streams (`PackedDepthwiseConv2D.streamsInput`) and at most a tenth of the output
    /// columns touch the padding (`borderPixels`: those run one pixel at a time, on their valid
    /// columns; zero columns through pointer selects, as the border tiles do, were slower still).
    /// Tiles win on cached inputs and where many pixels touch the padding (docs/tuning.md,
    /// "Pixel-major rows").
    static func prefersPixelMajor(_ g: ConvGeometry, wideVectors: Int, borderPixels: Int) -> Bool {
        wideVectors >= 2 && PackedDepthwiseConv2D.streamsInput(g) && borderPixels * 10 <= g.outW
    }
    /// `PackedDepthwiseConv2D.vectorsFactor` of 4-vector tiles: as costly per computed pixel as one
    /// vector, so 2-vector tiles win on equal pixel counts (docs/tuning.md, "Channel vectors per tile").
    static let fourVectorsFactor = (cached: 1.0, streamed: 1.0)
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
        // 32 registers: 8 accumulators (8×1, 4×2, 2×4) hide the FMA latency.
        return 8 / pixels
    }

    /// The general path's pixels for a block of `lanes` channels.
    @inline(__always)
    static func generalPixels(lanes: Int, _ j: DWRowJob, channel: Int) {
        switch lanes {
        case 16: DWRowGeneral.pixels(SIMD16<Float>.self, j, channel: channel)
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
        case (16, 8, 1): DWTiles<SIMD16<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (16, 4, 2): DWTiles<SIMD16<Float>, K, S, 4, 2>.row(j, channel: g.channel)
        case (16, 2, 4): DWTiles<SIMD16<Float>, K, S, 2, 4>.row(j, channel: g.channel)
        case (8, 8, 1): DWTiles<SIMD8<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (4, 8, 1): DWTiles<SIMD4<Float>, K, S, 8, 1>.row(j, channel: g.channel)
        case (1, 8, 1): DWTiles<Float, K, S, 8, 1>.row(j, channel: g.channel)
        default: preconditionFailure("no \(g.tilePixels)-pixel × \(g.count) tile of \(g.lanes) lanes")
        }
    }
}
