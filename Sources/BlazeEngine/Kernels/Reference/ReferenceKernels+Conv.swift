// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, following tflite::reference_ops: each output
// accumulates `total` from 0 in Float (filter row, filter column, channel order), then adds the
// bias, then applies the fused activation. Padding taps are skipped (zero padding).

extension ReferenceKernels {
    /// CONV_2D. Input `[N,H,W,C]`, filter OHWI `[O,KH,KW,C]`, optional bias `[O]`, output `[N,OH,OW,O]`.
    public static func conv2D(
        _ p: Conv2DParams, input: TensorView, filter: TensorView, bias: TensorView?,
        output: MutableTensorView
    ) {
        let g = planned(try p.geometry(input: input.shape, filter: filter.shape))
        checkViews(output: output, shape: g.outputShape, bias: bias, channels: g.outC)
        let act = p.activation
        let x = input.data, w = filter.data, y = output.data, bp = bias?.data
        let H = g.inH, W = g.inW, C = g.inC, O = g.outC, KH = g.kernelH, KW = g.kernelW
        let filterStride = KH &* KW &* C
        var out = 0
        for n in 0..<g.batch {
            let image = x + n &* H &* W &* C
            for oy in 0..<g.outH {
                let iy0 = oy &* g.strideH &- g.padTop
                for ox in 0..<g.outW {
                    let ix0 = ox &* g.strideW &- g.padLeft
                    for o in 0..<O {
                        let f = w + o &* filterStride
                        var total: Float = 0
                        for ky in 0..<KH {
                            let iy = iy0 &+ ky &* g.dilationH
                            if iy < 0 || iy >= H { continue }
                            for kx in 0..<KW {
                                let ix = ix0 &+ kx &* g.dilationW
                                if ix < 0 || ix >= W { continue }
                                let xp = image + (iy &* W &+ ix) &* C
                                let fp = f + (ky &* KW &+ kx) &* C
                                for c in 0..<C { total += xp[c] * fp[c] }
                            }
                        }
                        let b: Float = bp.map { $0[o] } ?? 0
                        y[out] = act.apply(total + b)
                        out &+= 1
                    }
                }
            }
        }
    }

    /// DEPTHWISE_CONV_2D. Filter `[1,KH,KW,C·M]`; output channel `c·M+m` reads input channel `c`.
    public static func depthwiseConv2D(
        _ p: DepthwiseConv2DParams, input: TensorView, filter: TensorView, bias: TensorView?,
        output: MutableTensorView
    ) {
        let g = planned(try p.geometry(input: input.shape, filter: filter.shape))
        checkViews(output: output, shape: g.outputShape, bias: bias, channels: g.outC)
        let act = p.activation
        let x = input.data, w = filter.data, y = output.data, bp = bias?.data
        let H = g.inH, W = g.inW, C = g.inC, O = g.outC, KW = g.kernelW, M = p.depthMultiplier
        var out = 0
        for n in 0..<g.batch {
            let image = x + n &* H &* W &* C
            for oy in 0..<g.outH {
                let iy0 = oy &* g.strideH &- g.padTop
                for ox in 0..<g.outW {
                    let ix0 = ox &* g.strideW &- g.padLeft
                    for c in 0..<C {
                        for m in 0..<M {
                            let oc = c &* M &+ m
                            var total: Float = 0
                            for ky in 0..<g.kernelH {
                                let iy = iy0 &+ ky &* g.dilationH
                                if iy < 0 || iy >= H { continue }
                                for kx in 0..<KW {
                                    let ix = ix0 &+ kx &* g.dilationW
                                    if ix < 0 || ix >= W { continue }
                                    total += image[(iy &* W &+ ix) &* C &+ c] * w[(ky &* KW &+ kx) &* O &+ oc]
                                }
                            }
                            let b: Float = bp.map { $0[oc] } ?? 0
                            y[out &+ oc] = act.apply(total + b)
                        }
                    }
                    out &+= O
                }
            }
        }
    }

    /// FULLY_CONNECTED. Weights `[O,I]`; the input is read as `[count/I, I]` rows, the output as
    /// `[count/I, O]` (its shape is `[rows,O]` or, with keepNumDims, the input's leading dims + `[O]`).
    public static func fullyConnected(
        _ p: FullyConnectedParams, input: TensorView, weights: TensorView, bias: TensorView?,
        output: MutableTensorView
    ) {
        let outShape = planned(try p.outputShape(input: input.shape, weights: weights.shape))
        let O = weights.shape[0], I = weights.shape[1]
        checkViews(output: output, shape: outShape, bias: bias, channels: O)
        let rows = input.count / I
        let act = p.activation
        let x = input.data, w = weights.data, y = output.data, bp = bias?.data
        for r in 0..<rows {
            let xr = x + r &* I
            for o in 0..<O {
                let wr = w + o &* I
                var total: Float = 0
                for i in 0..<I { total += xr[i] * wr[i] }
                let b: Float = bp.map { $0[o] } ?? 0
                y[r &* O &+ o] = act.apply(total + b)
            }
        }
    }
}

extension ReferenceKernels {
    /// TRANSPOSE_CONV_BIAS (MediaPipe `Convolution2DTransposeBias`), in MediaPipe's own order:
    /// the output starts as the bias, then every input pixel (row, column, channel order) adds
    /// `x · filter[o, ky, kx, c]` at output `(iy·strideH − padTop + ky, ix·strideW − padLeft + kx)`;
    /// taps that land outside the output are dropped.
    public static func transposeConv2D(
        _ p: TransposeConv2DParams, input: TensorView, filter: TensorView, bias: TensorView?,
        output: MutableTensorView
    ) {
        let g = planned(try p.geometry(input: input.shape, filter: filter.shape))
        checkViews(output: output, shape: g.outputShape, bias: bias, channels: g.outC)
        let x = input.data, w = filter.data, y = output.data, bp = bias?.data
        let H = g.inH, W = g.inW, C = g.inC, O = g.outC, KH = g.kernelH, KW = g.kernelW, OH = g.outH, OW = g.outW
        for n in 0..<g.batch {
            let image = y + n &* OH &* OW &* O
            for i in 0..<(OH &* OW) {
                for o in 0..<O { image[i &* O &+ o] = bp.map { $0[o] } ?? 0 }
            }
            for iy in 0..<H {
                for ix in 0..<W {
                    let xp = x + ((n &* H &+ iy) &* W &+ ix) &* C
                    for c in 0..<C {
                        let v = xp[c]
                        for ky in 0..<KH {
                            let oy = iy &* g.strideH &- g.padTop &+ ky
                            if oy < 0 || oy >= OH { continue }
                            for kx in 0..<KW {
                                let ox = ix &* g.strideW &- g.padLeft &+ kx
                                if ox < 0 || ox >= OW { continue }
                                let yp = image + (oy &* OW &+ ox) &* O
                                for o in 0..<O { yp[o] += v * w[((o &* KH &+ ky) &* KW &+ kx) &* C &+ c] }
                            }
                        }
                    }
                }
            }
        }
    }
}
