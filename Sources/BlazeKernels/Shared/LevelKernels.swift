import BlazeEngineCore

/// This level's kernel set: the engine's only entry point into the module (see
/// `KernelInterfaces.swift` in BlazeEngineCore). Every level module declares the same name.
package enum LevelKernels: ISAKernelSet {
    package static var level: ISALevel { ConvTiles.level }
    package static var lanes: Int { ConvTiles.lanes }
    package static var convTiles: [ConvTileShape] {
        // Built by Core: an array of Core's type specialised here would be shared with other levels.
        let wide = ConvTiles.shapes.count, all = wide + ConvTiles.narrowShapes.count
        return ConvTileShape.list(count: all) {
            $0 < wide
                ? (ConvTiles.shapes[$0].mr, ConvTiles.shapes[$0].maxNV, ConvTiles.lanes)
                : (ConvTiles.narrowShapes[$0 - wide].mr, ConvTiles.narrowShapes[$0 - wide].maxNV, ConvTiles.narrowLanes)
        }
    }
    package static var depthwiseTilePixels: [Int] { DWShapes.forcedTilePixels }

    package static func prefersPackedConv(_ g: ConvGeometry) -> Bool { ConvTiles.prefersPackedConv(g) }

    package static func prefersPackedFullyConnected(rows: Int, inputSize: Int, outputSize: Int) -> Bool {
        ConvTiles.prefersPackedFullyConnected(rows: rows, inputSize: inputSize, outputSize: outputSize)
    }

    package static var prefersChannelMajorConv: Bool { ConvTiles.prefersChannelMajorConv }

    package static func channelMajorConv(
        filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outputChannels: Int, inputChannels: Int,
        pixels: Int, activation: Activation, residualActivation: Activation
    ) -> any ChannelMajorConvKernel {
        ChannelMajorConv(
            filter: filter, bias: bias, outputChannels: outputChannels, inputChannels: inputChannels, pixels: pixels,
            activation: activation, residualActivation: residualActivation)
    }

    package static func conv(
        params: Conv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        prelu: UnsafePointer<Float>?, residualActivation: Activation, residualChannels: Int?,
        backend: ConvBackend, tile: ConvTileShape?, channelMajorInput: Bool
    ) -> any ConvKernel {
        PackedConv2D(
            params: params, geometry: geometry, filter: filter, bias: bias, prelu: prelu,
            residualActivation: residualActivation, residualChannels: residualChannels, backend: backend, tile: tile,
            channelMajorInput: channelMajorInput)
    }

    package static func fullyConnected(
        params: FullyConnectedParams, rows: Int, inputSize: Int, outputSize: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, backend: ConvBackend
    ) -> any ConvKernel {
        PackedConv2D(
            fullyConnected: params, rows: rows, inputSize: inputSize, outputSize: outputSize, weights: weights,
            bias: bias, backend: backend)
    }

    package static func depthwise(
        params: DepthwiseConv2DParams, geometry: ConvGeometry, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, prelu: UnsafePointer<Float>?, residualActivation: Activation,
        tilePixels: Int?
    ) -> any DepthwiseKernel {
        PackedDepthwiseConv2D(
            params: params, geometry: geometry, filter: filter, bias: bias, prelu: prelu,
            residualActivation: residualActivation, tilePixels: tilePixels)
    }

    package static func pool(params: Pool2DParams, geometry: ConvGeometry, average: Bool) -> any RowKernel {
        Pool2DKernel(params: params, geometry: geometry, average: average)
    }

    package static func resizeBilinear(params: ResizeBilinearParams, inputShape: [Int]) -> any RowKernel {
        ResizeBilinearKernel(params: params, inputShape: inputShape)
    }

    package static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        activation: Activation, range: Range<Int>
    ) {
        SIMDElementwise.add(a, b, output: output, activation: activation, range: range)
    }

    package static func addPrelu(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels: Int,
        output: UnsafeMutablePointer<Float>, activation: Activation, pixels: Range<Int>
    ) {
        SIMDElementwise.addPrelu(a, b, alpha: alpha, channels: channels, output: output, activation: activation, pixels: pixels)
    }

    package static func prelu(
        input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels: Int,
        output: UnsafeMutablePointer<Float>, pixels: Range<Int>
    ) {
        SIMDElementwise.prelu(input: input, alpha: alpha, channels: channels, output: output, pixels: pixels)
    }

    package static func leakyRelu(input: UnsafePointer<Float>, alpha: Float, output: UnsafeMutablePointer<Float>, range: Range<Int>) {
        SIMDElementwise.leakyRelu(input: input, alpha: alpha, output: output, range: range)
    }

    package static func layerNorm(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, channels: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>?, epsilon: Float, rows: Range<Int>
    ) {
        LayerNormRows.run(input, output, channels: channels, gamma: gamma, beta: beta, epsilon: epsilon, rows: rows)
    }

    package static func peakFlopsProbe(iterations: Int) -> (flops: Double, checksum: Float) {
        PeakProbe<ConvTiles.Vec>.run(iterations: iterations)
    }

    package static func partialVectorFaults() -> Int {
        PartialVectorCheck.faults(SIMD16<Float>.self) + PartialVectorCheck.faults(SIMD8<Float>.self)
            + PartialVectorCheck.faults(SIMD4<Float>.self)
    }
}

/// `LevelKernels.peakFlopsProbe`: 12 accumulator chains (2 FMA pipes × 4-cycle latency needs
/// ≥ 8), each `acc = acc·a + b`, nothing but registers.
enum PeakProbe<V: KernelVector> {
    @inline(never)
    static func run(iterations: Int) -> (flops: Double, checksum: Float) {
        var acc = InlineArray<12, V> { V(splat: Float($0) * 0.001) }
        let a = V(splat: 0.999_9), b = V(splat: 0.000_1)
        for _ in 0..<iterations {
            for i in 0..<12 { acc[i] = b.madd(acc[i], a) }
        }
        var sum = V.zero
        for i in 0..<12 { sum = sum.add(acc[i]) }
        return (Double(iterations) * 12 * Double(V.laneCount) * 2, sum.laneSum())
    }
}

/// `LevelKernels.partialVectorFaults()`: loads see only `count` floats before a sentinel (the
/// other lanes must be 0); stores must leave the float after `count` lanes untouched; lane
/// masks (`zeroing`, `blended`) keep exactly the first `count` lanes.
enum PartialVectorCheck {
    static func faults<V: KernelVector>(_: V.Type) -> Int {
        let L = V.laneCount
        var faults = 0
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 2 * L + 1)
        defer { memory.deallocate() }
        for count in 0...L {
            for i in 0..<(2 * L + 1) { memory[i] = i < count ? Float(i + 1) : -99 }
            V.load(memory, count: count).store(memory + L)
            for i in 0..<L where memory[L + i] != (i < count ? Float(i + 1) : 0) { faults += 1 }
            for i in 0..<(2 * L + 1) { memory[i] = i < L ? Float(i + 1) : -7 }
            V.load(memory).store(memory + L, count: count)
            for i in 0...L where memory[L + i] != (i < count ? Float(i + 1) : -7) { faults += 1 }
            V.load(memory).zeroing(fromLane: count).store(memory + L)
            for i in 0..<L where memory[L + i] != (i < count ? Float(i + 1) : 0) { faults += 1 }
            V.load(memory).blended(over: V(splat: -5), lanes: count).store(memory + L)
            for i in 0..<L where memory[L + i] != (i < count ? Float(i + 1) : -5) { faults += 1 }
        }
        return faults
    }
}
