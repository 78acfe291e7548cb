import BlazeEngineCore

/// Vectorised elementwise kernels (no packing needed). Each takes an explicit sub-range so a
/// thread pool can split it; ranges are in *elements* for `add` and in *pixels* (rows of
/// `channels` floats) for the per-channel ones. Outputs may be exactly equal to an input pointer
/// (in place) but must not partially overlap one. Nothing allocates.
enum SIMDElementwise {
    typealias Vec = ConvTiles.Vec

    /// ADD of two same-shape tensors with fused activation: `out[i] = act(a[i] + b[i])`, `i ∈ range`.
    package static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        activation: Activation = .none, range: Range<Int>
    ) {
        let act = ActivationBounds(activation)
        let L = Vec.laneCount
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ L <= end {
            act.apply(Vec.load(a + i).add(Vec.load(b + i))).store(output + i)
            i &+= L
        }
        while i < end {
            output[i] = act.apply(a[i] + b[i])
            i &+= 1
        }
    }

    /// ADD with fused activation, then PReLU with per-channel `alpha[channels]` (the BlazeBlock
    /// tail `ADD → PRELU`): tensors are `[pixels, channels]`, computes pixels `pixels`.
    package static func addPrelu(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>,
        channels C: Int, output: UnsafeMutablePointer<Float>, activation: Activation = .none,
        pixels: Range<Int>
    ) {
        let act = ActivationBounds(activation)
        let L = Vec.laneCount
        for p in pixels {
            let o = p &* C
            var c = 0
            while c &+ L <= C {
                act.apply(Vec.load(a + (o &+ c)).add(Vec.load(b + (o &+ c)))).prelu(Vec.load(alpha + c)).store(output + (o &+ c))
                c &+= L
            }
            while c < C {
                output[o &+ c] = act.apply(a[o &+ c] + b[o &+ c]).prelu(alpha[c])
                c &+= 1
            }
        }
    }

    /// PRELU with per-channel alpha: `out = x < 0 ? alpha[c]·x : x` over `[pixels, channels]`.
    package static func prelu(
        input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels C: Int,
        output: UnsafeMutablePointer<Float>, pixels: Range<Int>
    ) {
        let L = Vec.laneCount
        for p in pixels {
            let o = p &* C
            var c = 0
            while c &+ L <= C {
                Vec.load(input + (o &+ c)).prelu(Vec.load(alpha + c)).store(output + (o &+ c))
                c &+= L
            }
            while c < C {
                output[o &+ c] = input[o &+ c].prelu(alpha[c])
                c &+= 1
            }
        }
    }

    /// LEAKY_RELU with one scalar alpha: `out[i] = x[i] > 0 ? x[i] : alpha·x[i]`, `i ∈ range` (the
    /// reference kernel's expression lane by lane, so bitwise equal to it).
    package static func leakyRelu(input: UnsafePointer<Float>, alpha: Float, output: UnsafeMutablePointer<Float>, range: Range<Int>) {
        let L = Vec.laneCount
        let a = Vec(splat: alpha)
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ L <= end {
            Vec.load(input + i).leakyRelu(a).store(output + i)
            i &+= L
        }
        while i < end {
            output[i] = input[i].leakyRelu(alpha)
            i &+= 1
        }
    }

    /// Bias + epilogue over `[rows, channels]` in place (the BLAS path of `PackedConv2D`).
    /// `forceResidualActivation`: the residual was already accumulated into `y` (in-place BLAS).
    static func convEpilogue(
        _ y: UnsafeMutablePointer<Float>, rows: Int, channels C: Int, bias: UnsafePointer<Float>,
        alpha: UnsafePointer<Float>, residual: UnsafePointer<Float>?, residualChannels: Int,
        epilogue e: FusedEpilogue, forceResidualActivation: Bool
    ) {
        let L = Vec.laneCount
        for r in 0..<rows {
            let row = y + r &* C
            let res = residual.map { $0 + r &* residualChannels }
            var c = 0
            while c &+ L <= C {
                var v = e.activation.apply(Vec.load(row + c).add(Vec.load(bias + c)))
                if let res {
                    let rv: Vec =
                        c &+ L <= residualChannels
                        ? Vec.load(res + c)
                        : (c < residualChannels ? Vec.load(res + c, count: residualChannels &- c) : Vec.zero)
                    v = e.residualActivation.apply(v.add(rv))
                } else if forceResidualActivation {
                    v = e.residualActivation.apply(v)
                }
                if e.hasPrelu { v = v.prelu(Vec.load(alpha + c)) }
                v.store(row + c)
                c &+= L
            }
            while c < C {
                var v = e.activation.apply(row[c] + bias[c])
                if let res {
                    v = e.residualActivation.apply(v + (c < residualChannels ? res[c] : 0))
                } else if forceResidualActivation {
                    v = e.residualActivation.apply(v)
                }
                if e.hasPrelu { v = v.prelu(alpha[c]) }
                row[c] = v
                c &+= 1
            }
        }
    }
}
