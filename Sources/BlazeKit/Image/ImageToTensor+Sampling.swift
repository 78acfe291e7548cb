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

    /// Samples one tensor row from upright 1/32-pixel coordinates.
    @inline(__always)
    func sampleRow<S: PixelSource>(
        _ s: S, xs: UnsafePointer<Int>, ys: UnsafePointer<Int>,
        lut: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        let w = storedWidth, h = storedHeight, w1 = w &- 1, h1 = h &- 1
        let m = map
        var o = out
        for u in 0..<tw {
            let xu = xs[u], yu = ys[u]
            let X = m.a &* xu &+ m.b &* yu &+ m.tx
            let Y = m.c &* xu &+ m.d &* yu &+ m.ty
            let ix = X >> 5, iy = Y >> 5
            let fx = Int32(truncatingIfNeeded: X & 31), fy = Int32(truncatingIfNeeded: Y & 31)
            let w00 = (32 &- fx) &* (32 &- fy) &* 32, w01 = fx &* (32 &- fy) &* 32
            let w10 = (32 &- fx) &* fy &* 32, w11 = fx &* fy &* 32
            let p00: RGB, p01: RGB, p10: RGB, p11: RGB
            if ix >= 0, iy >= 0, ix < w1, iy < h1 {
                p00 = s.rgb(ix, iy)
                p01 = s.rgb(ix &+ 1, iy)
                p10 = s.rgb(ix, iy &+ 1)
                p11 = s.rgb(ix &+ 1, iy &+ 1)
            } else if replicate {
                let x0 = min(max(ix, 0), w1), x1 = min(max(ix &+ 1, 0), w1)
                let y0 = min(max(iy, 0), h1), y1 = min(max(iy &+ 1, 0), h1)
                p00 = s.rgb(x0, y0)
                p01 = s.rgb(x1, y0)
                p10 = s.rgb(x0, y1)
                p11 = s.rgb(x1, y1)
            } else {
                let in0 = ix >= 0 && ix < w, in1 = ix >= -1 && ix < w1
                let jn0 = iy >= 0 && iy < h, jn1 = iy >= -1 && iy < h1
                p00 = in0 && jn0 ? s.rgb(ix, iy) : (0, 0, 0)
                p01 = in1 && jn0 ? s.rgb(ix &+ 1, iy) : (0, 0, 0)
                p10 = in0 && jn1 ? s.rgb(ix, iy &+ 1) : (0, 0, 0)
                p11 = in1 && jn1 ? s.rgb(ix &+ 1, iy &+ 1) : (0, 0, 0)
            }
            // Scalar per channel: SSE2 has no 32-bit vector multiply (LLVM emits a shuffle sequence).
            let r = p00.r &* w00 &+ p01.r &* w01 &+ p10.r &* w10 &+ p11.r &* w11
            let g = p00.g &* w00 &+ p01.g &* w01 &+ p10.g &* w10 &+ p11.g &* w11
            let b = p00.b &* w00 &+ p01.b &* w01 &+ p10.b &* w10 &+ p11.b &* w11
            o[0] = lut[Int((r &+ 16384) &>> 15)]
            o[1] = lut[Int((g &+ 16384) &>> 15)]
            o[2] = lut[Int((b &+ 16384) &>> 15)]
            o += 3
        }
    }
}

/// The crop's bands of rows as a `WorkerPool` job. The closure is made where the pixel source's
/// type is known, so the sampling loop inside it is specialised for the format.
private final class CropRowsJob: ParallelJob {
    let band: (Int) -> Void
    init(_ band: @escaping (Int) -> Void) { self.band = band }
    func runTask(_ index: Int) { band(index) }
}
