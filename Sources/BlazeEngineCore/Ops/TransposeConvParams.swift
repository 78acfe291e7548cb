/// Transposed convolution with bias (MediaPipe's `Convolution2DTransposeBias` custom op).
/// Filter layout OHWI `[O,KH,KW,C]`; each input pixel scatters `x · filter` into a `KH×KW`
/// output window whose origin is `(iy·strideH − padTop, ix·strideW − padLeft)`, on top of the bias.
public struct TransposeConv2DParams: Sendable, Equatable {
    public var strideH: Int, strideW: Int
    public var padding: Padding

    public init(strideH: Int, strideW: Int, padding: Padding) {
        self.strideH = strideH; self.strideW = strideW; self.padding = padding
    }

    /// Output size and leading crop of one spatial dimension. VALID keeps the full
    /// `stride·(in − 1) + kernel`; SAME crops `max(0, kernel − (in − 1) mod stride − 1)`, the
    /// smaller half at the start (as MediaPipe's kernel does).
    public func resolve(input: Int, kernel: Int, stride: Int) -> (output: Int, padBefore: Int) {
        let full = stride * (input - 1) + kernel
        guard padding == .same else { return (full, 0) }
        let crop = max(0, kernel - (input - 1) % stride - 1)
        return (full - crop, crop / 2)
    }

    /// Output `[N,OH,OW,O]` and leading crops, validated against input and filter shapes.
    public func geometry(input: [Int], filter: [Int]) throws -> TransposeConvGeometry {
        guard input.count == 4, filter.count == 4 else {
            throw BlazeError(.shapeMismatch, "TRANSPOSE_CONV_BIAS expects rank-4 input and filter, got \(ShapeMath.describe(input)) and \(ShapeMath.describe(filter))")
        }
        guard filter[3] == input[3] else {
            throw BlazeError(.shapeMismatch, "TRANSPOSE_CONV_BIAS filter has \(filter[3]) input channels, input has \(input[3])")
        }
        let limit = 1 << 16
        guard (1...limit).contains(strideH), (1...limit).contains(strideW),
            input.allSatisfy({ (1...limit).contains($0) }), filter.allSatisfy({ (1...limit).contains($0) })
        else {
            throw BlazeError(
                .shapeMismatch, "TRANSPOSE_CONV_BIAS stride \(strideH)×\(strideW) with input \(ShapeMath.describe(input)) and filter \(ShapeMath.describe(filter)) is out of range")
        }
        let h = resolve(input: input[1], kernel: filter[1], stride: strideH)
        let w = resolve(input: input[2], kernel: filter[2], stride: strideW)
        guard h.output >= 1, w.output >= 1, h.output <= limit, w.output <= limit else {
            throw BlazeError(.shapeMismatch, "TRANSPOSE_CONV_BIAS output \(h.output)×\(w.output) is out of range")
        }
        return TransposeConvGeometry(
            batch: input[0], inH: input[1], inW: input[2], inC: input[3],
            outH: h.output, outW: w.output, outC: filter[0],
            kernelH: filter[1], kernelW: filter[2], strideH: strideH, strideW: strideW,
            padTop: h.padBefore, padLeft: w.padBefore)
    }
}

/// Resolved sizes of one transposed convolution.
public struct TransposeConvGeometry: Sendable, Equatable {
    public var batch: Int, inH: Int, inW: Int, inC: Int
    public var outH: Int, outW: Int, outC: Int
    public var kernelH: Int, kernelW: Int
    public var strideH: Int, strideW: Int
    /// Output rows / columns cropped from the start of the full (VALID) result.
    public var padTop: Int, padLeft: Int

    public var outputShape: [Int] { [batch, outH, outW, outC] }
}
