import COpenBLAS

/// CONV_2D (im2col + sgemm) and FULLY_CONNECTED (sgemm/sgemv) bound to their memory, with the
/// work cut by `GemmSplit` into calls that are the same for every thread count.
///
/// Convolution is `y[pixels, O] = im2col[pixels, K] × filter[O, K]ᵀ`, `K = KH·KW·C` (the OHWI filter
/// is a row-major `[O, K]` matrix); 1×1 stride-1 unpadded convolutions multiply the input directly.
/// Row pieces build their own im2col rows and run on one thread each; column pieces need every
/// im2col row, so the im2col pass runs first (split by rows), then the column pieces.
final class GemmStep: ParallelJob {
    enum Shape {
        /// `A` is the input itself (`[m, k]` rows).
        case pointwise
        /// `A` is built by im2col into `scratch` (`[m, k]`).
        case im2col(ConvGeometry)
        /// `m == 1` FULLY_CONNECTED: `y[n] = W[n, k] · x[k]` through sgemv.
        case vector
    }

    let shape: Shape
    let m: Int, n: Int, k: Int
    /// The conv input image(s) `[N,H,W,C]` for `.im2col`; otherwise the matrix `A` itself.
    let input: UnsafePointer<Float>
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>
    let bias: UnsafePointer<Float>?
    let activation: Activation
    let y: UnsafeMutablePointer<Float>
    let scratch: UnsafeMutablePointer<Float>?
    let split: GemmSplit
    /// The im2col pass that precedes column pieces (nil otherwise).
    let im2colPass: Im2colPass?

    /// Floats of im2col scratch the CONV_2D needs (0 when pointwise).
    static func scratchCount(_ g: ConvGeometry) -> Int {
        isPointwise(g) ? 0 : g.batch * g.outH * g.outW * g.kernelH * g.kernelW * g.inC
    }

    static func isPointwise(_ g: ConvGeometry) -> Bool {
        g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1 && g.padTop == 0 && g.padLeft == 0
            && g.outH == g.inH && g.outW == g.inW
    }

    init(
        conv g: ConvGeometry, activation: Activation, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?, threads: Int
    ) {
        OpenBLAS.ensureConfigured()  // single-threaded OpenBLAS before any call from our threads
        let pointwise = Self.isPointwise(g)
        shape = pointwise ? .pointwise : .im2col(g)
        m = g.batch * g.outH * g.outW
        n = g.outC
        k = g.kernelH * g.kernelW * g.inC
        self.input = input
        a = pointwise ? input : UnsafePointer(scratch!)
        b = filter
        self.bias = bias
        self.activation = activation
        y = output
        self.scratch = pointwise ? nil : scratch
        split = GemmSplit(m: m, n: n, k: k)
        if !pointwise && split.alongColumns {
            im2colPass = Im2colPass(
                g, input: input, columns: scratch!,
                parts: Parallelism.tasks(units: m, work: m * k, minWork: Parallelism.minElementwiseWork, threads: threads))
        } else {
            im2colPass = nil
        }
    }

    init(
        fullyConnected activation: Activation, input: UnsafePointer<Float>, inputCount: Int, weights: UnsafePointer<Float>,
        weightsShape: [Int], bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        OpenBLAS.ensureConfigured()
        n = weightsShape[0]
        k = weightsShape[1]
        m = inputCount / k
        shape = m == 1 ? .vector : .pointwise
        self.input = input
        a = input
        b = weights
        self.bias = bias
        self.activation = activation
        y = output
        scratch = nil
        split = GemmSplit(m: m, n: n, k: k)
        im2colPass = nil
    }

    func execute(_ pool: WorkerPool) {
        if let pass = im2colPass { pool.run(pass, taskCount: pass.parts) }
        pool.run(self, taskCount: split.pieces)
    }

    /// Builds all im2col rows, split by rows (a pure copy: any split gives the same bytes).
    final class Im2colPass: ParallelJob {
        let g: ConvGeometry
        let input: UnsafePointer<Float>
        let columns: UnsafeMutablePointer<Float>
        let parts: Int
        init(_ g: ConvGeometry, input: UnsafePointer<Float>, columns: UnsafeMutablePointer<Float>, parts: Int) {
            self.g = g; self.input = input; self.columns = columns; self.parts = parts
        }
        func runTask(_ index: Int) {
            GemmStep.im2col(g, input: input, rows: WorkerPool.part(index, of: parts, count: g.batch * g.outH * g.outW), columns: columns)
        }
    }

    /// Piece `piece`: one sgemm/sgemv call and its epilogue.
    func runTask(_ piece: Int) {
        let r = split.range(piece)
        if r.isEmpty { return }
        if split.alongColumns {
            let yp = y + r.lowerBound
            multiply(a, rows: m, b + r.lowerBound * k, columns: r.count, into: yp)
            Self.epilogue(yp, rows: m, columns: r.count, rowStride: n, bias: bias.map { $0 + r.lowerBound }, activation: activation)
        } else {
            if case .im2col(let g) = shape { Self.im2col(g, input: input, rows: r, columns: scratch!) }
            let yp = y + r.lowerBound * n
            multiply(a + r.lowerBound * k, rows: r.count, b, columns: n, into: yp)
            Self.epilogue(yp, rows: r.count, columns: n, rowStride: n, bias: bias, activation: activation)
        }
    }

    /// `y[rows, columns] = A[rows, k] · B[columns, k]ᵀ` with `y`'s row stride `n` (sgemv when the
    /// layer is `.vector`: one row).
    private func multiply(_ a: UnsafePointer<Float>, rows: Int, _ b: UnsafePointer<Float>, columns: Int, into y: UnsafeMutablePointer<Float>) {
        if case .vector = shape {
            cblas_sgemv(CblasRowMajor, CblasNoTrans, blasInt(columns), blasInt(k), 1, b, blasInt(k), a, 1, 0, y, 1)
        } else {
            cblas_sgemm(
                CblasRowMajor, CblasNoTrans, CblasTrans, blasInt(rows), blasInt(columns), blasInt(k),
                1, a, blasInt(k), b, blasInt(k), 0, y, blasInt(n))
        }
    }

    @inline(__always)
    private func blasInt(_ v: Int) -> Int32 { Int32(truncatingIfNeeded: v) }

    /// im2col rows `rows` (output pixels, batch-major) into `columns` at row `rows.lowerBound`:
    /// each row is the receptive field in (ky, kx, c) order, zeros at padding taps. A kernel row
    /// that lies inside the image is one contiguous run of `KW·C` input floats (dilation 1).
    static func im2col(_ g: ConvGeometry, input: UnsafePointer<Float>, rows: Range<Int>, columns: UnsafeMutablePointer<Float>) {
        let H = g.inH, W = g.inW, C = g.inC, KH = g.kernelH, KW = g.kernelW
        let K = KH &* KW &* C, rowRun = KW &* C
        let pixels = g.outH &* g.outW
        var dst = columns + rows.lowerBound &* K
        for r in rows {
            let image = r / pixels, p = r % pixels
            let oy = p / g.outW, ox = p % g.outW
            let base = input + image &* H &* W &* C
            let iy0 = oy &* g.strideH &- g.padTop, ix0 = ox &* g.strideW &- g.padLeft
            let wholeRow = g.dilationW == 1 && ix0 >= 0 && ix0 &+ KW <= W
            for ky in 0..<KH {
                let iy = iy0 &+ ky &* g.dilationH
                if iy < 0 || iy >= H {
                    dst.update(repeating: 0, count: rowRun)
                } else if wholeRow {
                    copyFloats(dst, base + (iy &* W &+ ix0) &* C, rowRun)
                } else {
                    let row = base + iy &* W &* C
                    for kx in 0..<KW {
                        let ix = ix0 &+ kx &* g.dilationW
                        if ix < 0 || ix >= W {
                            (dst + kx &* C).update(repeating: 0, count: C)
                        } else {
                            copyFloats(dst + kx &* C, row + ix &* C, C)
                        }
                    }
                }
                dst += rowRun
            }
        }
    }

    /// Copies `n` floats; short runs (first layers have C = 3) without a `memcpy` call.
    @inline(__always)
    static func copyFloats(_ dst: UnsafeMutablePointer<Float>, _ src: UnsafePointer<Float>, _ n: Int) {
        if n >= 64 {
            dst.update(from: src, count: n)
            return
        }
        let d = UnsafeMutableRawPointer(dst), s = UnsafeRawPointer(src)
        var i = 0
        while i &+ 4 <= n {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self), toByteOffset: i &* 4, as: SIMD4<Float>.self)
            i &+= 4
        }
        while i < n {
            dst[i] = src[i]
            i &+= 1
        }
    }

    /// `y[r, o] = activation(y[r, o] + bias[o])` over a `rows × columns` block with row stride
    /// `rowStride` (same arithmetic as `GemmKernels.epilogue`).
    static func epilogue(
        _ y: UnsafeMutablePointer<Float>, rows: Int, columns: Int, rowStride: Int,
        bias: UnsafePointer<Float>?, activation: Activation
    ) {
        if activation == .none {
            apply(y, rows, columns, rowStride, bias) { $0 }
        } else {
            let (lo, hi) = activation.range
            apply(y, rows, columns, rowStride, bias) { Activation.clamp($0, lo, hi) }
        }
    }

    @inline(__always)
    private static func apply(
        _ y: UnsafeMutablePointer<Float>, _ rows: Int, _ columns: Int, _ rowStride: Int,
        _ bias: UnsafePointer<Float>?, _ f: (Float) -> Float
    ) {
        if let b = bias {
            for r in 0..<rows {
                let row = y + r &* rowStride
                for o in 0..<columns { row[o] = f(row[o] + b[o]) }
            }
        } else {
            for r in 0..<rows {
                let row = y + r &* rowStride
                for o in 0..<columns { row[o] = f(row[o]) }
            }
        }
    }
}
