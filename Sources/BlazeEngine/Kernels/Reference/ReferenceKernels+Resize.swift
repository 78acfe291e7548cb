// RESIZE_BILINEAR, a transcription of tflite::reference_ops::ResizeBilinear (float path).

extension ReferenceKernels {
    /// `scale = in/out`, or `(in-1)/(out-1)` with alignCorners (when out > 1). Source coordinate
    /// `s = out·scale`, or `(out+0.5)·scale − 0.5` with halfPixelCenters. Neighbours:
    /// `lo = max(floor(s), 0)`, `hi = min(ceil(s), in-1)`, and the weight is `s − lo` with the
    /// *unclamped* `s` — exactly TFLite's arithmetic, so a negative `s` (first half-pixel rows when
    /// upscaling) gives `lo == hi == 0` and returns the edge value, never an extrapolation.
    public static func resizeBilinear(_ p: ResizeBilinearParams, input: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(input.shape))
        precondition(output.count == elementCount(outShape), "RESIZE_BILINEAR output view does not match")
        let N = input.shape[0], H = input.shape[1], W = input.shape[2], C = input.shape[3]
        let OH = p.height, OW = p.width
        let hs = ResizeSampling.scale(input: H, output: OH, alignCorners: p.alignCorners)
        let ws = ResizeSampling.scale(input: W, output: OW, alignCorners: p.alignCorners)

        // Horizontal interpolation values, computed once per call.
        var xs = [(lo: Int, hi: Int, s: Float)]()
        xs.reserveCapacity(OW)
        for ox in 0..<OW { xs.append(ResizeSampling.source(ox, scale: ws, halfPixel: p.halfPixelCenters, size: W)) }

        let x = input.data, y = output.data
        xs.withUnsafeBufferPointer { xs in
            var out = 0
            for n in 0..<N {
                let image = x + n &* H &* W &* C
                for oy in 0..<OH {
                    let (y0, y1, inY) = ResizeSampling.source(oy, scale: hs, halfPixel: p.halfPixelCenters, size: H)
                    let dy = inY - Float(y0)
                    for ox in 0..<OW {
                        let (x0, x1, inX) = xs[ox]
                        let dx = inX - Float(x0)
                        let p00 = image + (y0 &* W &+ x0) &* C, p10 = image + (y1 &* W &+ x0) &* C
                        let p01 = image + (y0 &* W &+ x1) &* C, p11 = image + (y1 &* W &+ x1) &* C
                        for c in 0..<C {
                            // Same association as TFLite: v·(1−dy)·(1−dx) + … summed left to right.
                            let a = p00[c] * (1 - dy) * (1 - dx)
                            let b = p10[c] * dy * (1 - dx)
                            let d = p01[c] * (1 - dy) * dx
                            let e = p11[c] * dy * dx
                            y[out &+ c] = a + b + d + e
                        }
                        out &+= C
                    }
                }
            }
        }
    }
}
