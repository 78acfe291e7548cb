import BlazeEngineCore

/// RESIZE_BILINEAR (TFLite float semantics, incl. alignCorners / halfPixelCenters), vectorised
/// over channels, with the same arithmetic order as the reference (bit-identical). Source
/// columns are tabulated at init. Work units are output rows (`workCount = batch · height`).
/// Immutable after init (`@unchecked Sendable`); `run` allocates nothing.
final class ResizeBilinearKernel: RowKernel, @unchecked Sendable {
    package let params: ResizeBilinearParams
    package let inputShape: [Int]
    package var workCount: Int { batch * params.height }
    let batch: Int, H: Int, W: Int, C: Int
    let heightScale: Float
    /// Source columns of each output column (a level-local type: see Overview.swift).
    struct Tap { var lo: Int, hi: Int, frac: Float }
    let xs: [Tap]

    /// - Parameter inputShape: `[N, H, W, C]`.
    package init(params: ResizeBilinearParams, inputShape: [Int]) {
        precondition(inputShape.count == 4, "RESIZE_BILINEAR needs NHWC")
        self.params = params; self.inputShape = inputShape
        batch = inputShape[0]; H = inputShape[1]; W = inputShape[2]; C = inputShape[3]
        heightScale = ResizeSampling.scale(input: H, output: params.height, alignCorners: params.alignCorners)
        let ws = ResizeSampling.scale(input: W, output: params.width, alignCorners: params.alignCorners)
        xs = (0..<params.width).map { ox in
            let (lo, hi, s) = ResizeSampling.source(ox, scale: ws, halfPixel: params.halfPixelCenters, size: inputShape[2])
            return Tap(lo: lo, hi: hi, frac: s - Float(lo))
        }
    }

    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= workCount, "resize rows \(rows) outside 0..<\(workCount)")
        typealias V = ConvTiles.Vec
        let L = V.laneCount
        let OH = params.height, OW = params.width
        let C = self.C, W = self.W
        xs.withUnsafeBufferPointer { xs in
            for r in rows {
                let n = r / OH, oy = r - n * OH
                let image = input + n &* H &* W &* C
                let (y0, y1, inY) = ResizeSampling.source(oy, scale: heightScale, halfPixel: params.halfPixelCenters, size: H)
                let dy = inY - Float(y0)
                let out = output + r &* OW &* C
                for ox in 0..<OW {
                    let tap = xs[ox]
                    let x0 = tap.lo, x1 = tap.hi, dx = tap.frac
                    let p00 = image + (y0 &* W &+ x0) &* C, p10 = image + (y1 &* W &+ x0) &* C
                    let p01 = image + (y0 &* W &+ x1) &* C, p11 = image + (y1 &* W &+ x1) &* C
                    // Same association as the reference: v·(1−dy)·(1−dx) + … left to right.
                    let wa = 1 - dy, wb = dy, wx0 = 1 - dx, wx1 = dx
                    let o = out + ox &* C
                    var c = 0
                    while c &+ L <= C {
                        let a = V.load(p00 + c).mul(V(splat: wa)).mul(V(splat: wx0))
                        let b = V.load(p10 + c).mul(V(splat: wb)).mul(V(splat: wx0))
                        let d = V.load(p01 + c).mul(V(splat: wa)).mul(V(splat: wx1))
                        let e = V.load(p11 + c).mul(V(splat: wb)).mul(V(splat: wx1))
                        a.add(b).add(d).add(e).store(o + c)
                        c &+= L
                    }
                    while c < C {
                        o[c] = p00[c] * wa * wx0 + p10[c] * wb * wx0 + p01[c] * wa * wx1 + p11[c] * wb * wx1
                        c &+= 1
                    }
                }
            }
        }
    }
}
