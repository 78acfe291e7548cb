import BlazeEngine
import Foundation

// The crop's hot loop: OpenCV's warpPerspective(INTER_LINEAR) fixed-point bilinear (§S1 step 5)
// at OpenCV's own sample positions (`OpenCVWarpMap`), with the orientation folded into the
// integer map.

struct CropSampler: PixelSourceVisitor {
    typealias Result = Void
    let storedWidth: Int, storedHeight: Int
    let map: OrientationTransform  // upright → stored, scaled to 1/32 px
    let tw: Int, th: Int
    let warp: OpenCVWarpMap
    let replicate: Bool
    let scale: Float, lo: Float
    let output: UnsafeMutablePointer<Float>
    /// Threads to split the rows over (nil: the caller's only).
    let workers: WorkerPool?

    init(
        image: VisionImage, transform t: ImageToTensorTransform, options: ImageToTensorOptions,
        output: UnsafeMutablePointer<Float>, workers: WorkerPool?
    ) {
        storedWidth = image.width
        storedHeight = image.height
        var m = image.orientation.uprightToStored(width: image.width, height: image.height)
        m.tx = m.tx &* 32
        m.ty = m.ty &* 32
        map = m
        tw = options.width
        th = options.height
        warp = OpenCVWarpMap(
            centerX: t.centerX, centerY: t.centerY, width: t.width, height: t.height, rotation: t.rotation,
            tensorWidth: tw, tensorHeight: th)
        replicate = options.borderMode == .replicate
        lo = options.outputRange.lowerBound
        scale = (options.outputRange.upperBound - lo) / 255
        self.output = output
        self.workers = workers
    }

    func visit<S: PixelSource>(_ source: S) {
        let lut = (0..<256).map { Float($0) * scale + lo }
        guard let workers, workers.threadCount > 1, th > 1 else {
            sampleRows(source, 0..<th, lut: lut)
            return
        }
        // Each row depends only on its own sample positions, so any split gives the same tensor.
        // A few bands per thread let a thread that finishes early take another's.
        let bands = min(th, workers.threadCount * 4)
        let job = CropRowsJob { sampleRows(source, WorkerPool.part($0, of: bands, count: th), lut: lut) }
        workers.run(job, taskCount: bands)
    }

    func sampleRows<S: PixelSource>(_ source: S, _ rows: Range<Int>, lut: [Float]) {
        var xs = [Int](repeating: 0, count: tw), ys = [Int](repeating: 0, count: tw)
        lut.withUnsafeBufferPointer { lut in
            xs.withUnsafeMutableBufferPointer { xs in
                ys.withUnsafeMutableBufferPointer { ys in
                    for v in rows {
                        warp.row(v, xs: xs.baseAddress!, ys: ys.baseAddress!)
                        sampleRow(
                            source, xs: xs.baseAddress!, ys: ys.baseAddress!, lut: lut.baseAddress!,
                            out: output + v &* tw &* 3)
                    }
                }
            }
        }
    }

    /// Samples one tensor row from upright 1/32-pixel coordinates. Samples with a pixel outside
    /// the image go through `borderPixel`, out of line, which keeps this loop's registers free.
    @inline(__always)
    func sampleRow<S: PixelSource>(
        _ s: S, xs: UnsafePointer<Int>, ys: UnsafePointer<Int>,
        lut: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        let w1 = storedWidth &- 1, h1 = storedHeight &- 1
        let m = map
        for u in 0..<tw {
            let xu = xs[u], yu = ys[u]
            let X = m.a &* xu &+ m.b &* yu &+ m.tx
            let Y = m.c &* xu &+ m.d &* yu &+ m.ty
            let ix = X >> 5, iy = Y >> 5
            guard ix >= 0, iy >= 0, ix < w1, iy < h1 else {
                borderPixel(s, X: X, Y: Y, lut: lut, out: out + u &* 3)
                continue
            }
            store(
                s.rgb(ix, iy), s.rgb(ix &+ 1, iy), s.rgb(ix, iy &+ 1), s.rgb(ix &+ 1, iy &+ 1),
                fx: Int32(truncatingIfNeeded: X & 31), fy: Int32(truncatingIfNeeded: Y & 31), lut: lut, out: out + u &* 3)
        }
    }

    /// The sample at stored 1/32-pixel position (`X`, `Y`), one of whose pixels is outside the
    /// image: replicated edge or zeros.
    @inline(never)
    func borderPixel<S: PixelSource>(_ s: S, X: Int, Y: Int, lut: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>) {
        let w = storedWidth, h = storedHeight, w1 = w &- 1, h1 = h &- 1
        let ix = X >> 5, iy = Y >> 5
        let fx = Int32(truncatingIfNeeded: X & 31), fy = Int32(truncatingIfNeeded: Y & 31)
        if replicate {
            let x0 = min(max(ix, 0), w1), x1 = min(max(ix &+ 1, 0), w1)
            let y0 = min(max(iy, 0), h1), y1 = min(max(iy &+ 1, 0), h1)
            store(s.rgb(x0, y0), s.rgb(x1, y0), s.rgb(x0, y1), s.rgb(x1, y1), fx: fx, fy: fy, lut: lut, out: out)
        } else {
            let in0 = ix >= 0 && ix < w, in1 = ix >= -1 && ix < w1
            let jn0 = iy >= 0 && iy < h, jn1 = iy >= -1 && iy < h1
            store(
                in0 && jn0 ? s.rgb(ix, iy) : (0, 0, 0), in1 && jn0 ? s.rgb(ix &+ 1, iy) : (0, 0, 0),
                in0 && jn1 ? s.rgb(ix, iy &+ 1) : (0, 0, 0), in1 && jn1 ? s.rgb(ix &+ 1, iy &+ 1) : (0, 0, 0),
                fx: fx, fy: fy, lut: lut, out: out)
        }
    }

    /// OpenCV's fixed-point bilinear sum of four pixels with 1/32 fractions, through `lut`.
    @inline(__always)
    func store(_ p00: RGB, _ p01: RGB, _ p10: RGB, _ p11: RGB, fx: Int32, fy: Int32, lut: UnsafePointer<Float>, out o: UnsafeMutablePointer<Float>) {
        let w00 = (32 &- fx) &* (32 &- fy) &* 32, w01 = fx &* (32 &- fy) &* 32
        let w10 = (32 &- fx) &* fy &* 32, w11 = fx &* fy &* 32
        // Scalar per channel: SSE2 has no 32-bit vector multiply (LLVM emits a shuffle sequence).
        let r = p00.r &* w00 &+ p01.r &* w01 &+ p10.r &* w10 &+ p11.r &* w11
        let g = p00.g &* w00 &+ p01.g &* w01 &+ p10.g &* w10 &+ p11.g &* w11
        let b = p00.b &* w00 &+ p01.b &* w01 &+ p10.b &* w10 &+ p11.b &* w11
        o[0] = lut[Int((r &+ 16384) &>> 15)]
        o[1] = lut[Int((g &+ 16384) &>> 15)]
        o[2] = lut[Int((b &+ 16384) &>> 15)]
    }
}

/// The crop's bands of rows as a `WorkerPool` job. The closure is made where the pixel source's
/// type is known, so the sampling loop inside it is specialised for the format.
private final class CropRowsJob: ParallelJob {
    let band: (Int) -> Void
    init(_ band: @escaping (Int) -> Void) { self.band = band }
    func runTask(_ index: Int) { band(index) }
}
