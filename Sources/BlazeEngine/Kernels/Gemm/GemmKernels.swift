import COpenBLAS

/// CONV_2D and FULLY_CONNECTED on OpenBLAS `cblas_sgemm` (row-major), with a fused bias +
/// activation epilogue. Same semantics as `ReferenceKernels`; results differ only by the summation
/// order inside the GEMM.
///
/// Convolution is `output[pixels, O] = im2col[pixels, K] × filter[O, K]ᵀ` with `K = KH·KW·C`: the
/// OHWI filter already is a row-major `[O, K]` matrix, and an im2col row holds the receptive field of
/// one output pixel in the same (ky, kx, c) order (zeros at padding taps). 1×1 stride-1 unpadded
/// convolutions skip im2col and multiply the input `[N·H·W, C]` directly.
///
/// These kernels do not configure OpenBLAS threading or core selection; whoever owns the runtime
/// should (see PITFALLS: single-threaded OpenBLAS, `OPENBLAS_CORETYPE`).
public enum GemmKernels {
    /// True when the convolution is a plain matrix product over the input pixels.
    @inline(__always)
    static func isPointwise(_ g: ConvGeometry) -> Bool {
        g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1 && g.padTop == 0 && g.padLeft == 0
            && g.outH == g.inH && g.outW == g.inW
    }

    /// Floats of im2col scratch `conv2D` needs for geometry `g` (one image; batches reuse it).
    /// 0 for 1×1 stride-1 unpadded convolutions.
    public static func conv2DScratchCount(_ g: ConvGeometry) -> Int {
        if isPointwise(g) { return 0 }
        return g.outH * g.outW * g.kernelH * g.kernelW * g.inC
    }

    /// CONV_2D. `scratch` must hold `conv2DScratchCount(geometry)` floats; if nil (and scratch is
    /// needed) a temporary buffer is allocated for the call.
    public static func conv2D(_ p: Conv2DParams, input: TensorView, filter: TensorView, bias: TensorView?,
                              output: MutableTensorView, scratch: UnsafeMutablePointer<Float>?) {
        OpenBLAS.ensureConfigured()  // single-threaded, right core, even before any Model exists
        let g = ReferenceKernels.planned(try p.geometry(input: input.shape, filter: filter.shape))
        precondition(output.count == g.batch * g.outH * g.outW * g.outC, "CONV_2D output view does not match geometry")
        precondition(bias == nil || bias!.count == g.outC, "CONV_2D bias count")
        let O = g.outC, C = g.inC
        let K = g.kernelH * g.kernelW * C
        let pixels = g.outH * g.outW

        if isPointwise(g) {
            sgemmABt(m: g.batch * pixels, n: O, k: C, a: input.data, b: filter.data, c: output.data)
        } else {
            let needed = conv2DScratchCount(g)
            let owned: UnsafeMutablePointer<Float>? = scratch == nil ? .allocate(capacity: needed) : nil
            defer { owned?.deallocate() }
            let cols = scratch ?? owned!
            let imageIn = g.inH * g.inW * C, imageOut = pixels * O
            for n in 0..<g.batch {
                im2col(g, input: input.data + n * imageIn, columns: cols)
                sgemmABt(m: pixels, n: O, k: K, a: cols, b: filter.data, c: output.data + n * imageOut)
            }
        }
        epilogue(output.data, rows: g.batch * pixels, columns: O, bias: bias?.data, activation: p.activation)
    }

    /// FULLY_CONNECTED: `output[rows, O] = input[rows, I] × weights[O, I]ᵀ` + bias, activation.
    public static func fullyConnected(_ p: FullyConnectedParams, input: TensorView, weights: TensorView, bias: TensorView?,
                                      output: MutableTensorView) {
        OpenBLAS.ensureConfigured()  // single-threaded, right core, even before any Model exists
        let outShape = ReferenceKernels.planned(try p.outputShape(input: input.shape, weights: weights.shape))
        precondition(output.count == ReferenceKernels.elementCount(outShape), "FULLY_CONNECTED output view does not match")
        let O = weights.shape[0], I = weights.shape[1]
        precondition(bias == nil || bias!.count == O, "FULLY_CONNECTED bias count")
        let rows = input.count / I
        if rows == 1 {
            cblas_sgemv(CblasRowMajor, CblasNoTrans, blasInt(O), blasInt(I), 1, weights.data, blasInt(I),
                        input.data, 1, 0, output.data, 1)
        } else {
            sgemmABt(m: rows, n: O, k: I, a: input.data, b: weights.data, c: output.data)
        }
        epilogue(output.data, rows: rows, columns: O, bias: bias?.data, activation: p.activation)
    }

    // MARK: - Pieces

    @inline(__always)
    static func blasInt(_ v: Int) -> Int32 {
        precondition(v <= Int(Int32.max), "matrix dimension exceeds the BLAS integer range")
        return Int32(truncatingIfNeeded: v)
    }

    /// `C[m,n] = A[m,k] × B[n,k]ᵀ`, all row-major and dense.
    static func sgemmABt(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>,
                         c: UnsafeMutablePointer<Float>) {
        if m == 0 || n == 0 { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, blasInt(m), blasInt(n), blasInt(k),
                    1, a, blasInt(k), b, blasInt(k), 0, c, blasInt(n))
    }

    /// One image `[H,W,C]` → `[OH·OW, KH·KW·C]` rows in (ky, kx, c) order, zeros at padding taps.
    static func im2col(_ g: ConvGeometry, input: UnsafePointer<Float>, columns: UnsafeMutablePointer<Float>) {
        let H = g.inH, W = g.inW, C = g.inC, KH = g.kernelH, KW = g.kernelW
        var dst = columns
        for oy in 0..<g.outH {
            let iy0 = oy &* g.strideH &- g.padTop
            for ox in 0..<g.outW {
                let ix0 = ox &* g.strideW &- g.padLeft
                for ky in 0..<KH {
                    let iy = iy0 &+ ky &* g.dilationH
                    if iy < 0 || iy >= H {
                        dst.update(repeating: 0, count: KW &* C)
                        dst += KW &* C
                        continue
                    }
                    let row = input + iy &* W &* C
                    for kx in 0..<KW {
                        let ix = ix0 &+ kx &* g.dilationW
                        if ix < 0 || ix >= W {
                            dst.update(repeating: 0, count: C)
                        } else {
                            dst.update(from: row + ix &* C, count: C)
                        }
                        dst += C
                    }
                }
            }
        }
    }

    /// `y[r, o] = activation(y[r, o] + bias[o])` in place.
    static func epilogue(_ y: UnsafeMutablePointer<Float>, rows: Int, columns: Int, bias: UnsafePointer<Float>?,
                         activation: Activation) {
        switch (bias, activation) {
        case (nil, .none):
            return
        case (let b?, .none):
            for r in 0..<rows {
                let row = y + r &* columns
                for o in 0..<columns { row[o] += b[o] }
            }
        case (let b?, let act):
            for r in 0..<rows {
                let row = y + r &* columns
                for o in 0..<columns { row[o] = act.apply(row[o] + b[o]) }
            }
        case (nil, let act):
            for i in 0..<(rows &* columns) { y[i] = act.apply(y[i]) }
        }
    }
}
