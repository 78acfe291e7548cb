import BlazeKit
import Testing

/// The YUV → RGB conversion (shared by the crop and `upright(as:)`) against OpenCV's integer
/// formulas written out here, for every (Y, U, V) of both ranges: 2²⁴ triples each. The crop
/// fixtures check the same conversion against OpenCV itself on random pixels.
@Suite struct YUVConversionTests {
    /// `COLOR_YUV2RGB_NV12` (BT.601 video range), `color_yuv.simd.hpp`.
    static func videoRange(_ y: Int, _ u: Int, _ v: Int) -> (Int, Int, Int) {
        let yy = max(0, y - 16) * 1_220_542 + (1 << 19), uu = u - 128, vv = v - 128
        return (
            clamp((yy + 1_673_527 * vv) >> 20), clamp((yy - 852_492 * vv - 409_993 * uu) >> 20),
            clamp((yy + 2_116_026 * uu) >> 20)
        )
    }

    /// `COLOR_YCrCb2RGB` (full range), `color_yuv.simd.hpp`.
    static func fullRange(_ y: Int, _ u: Int, _ v: Int) -> (Int, Int, Int) {
        let uu = u - 128, vv = v - 128
        return (
            clamp(y + ((22987 * vv + 8192) >> 14)), clamp(y + ((-5636 * uu - 11698 * vv + 8192) >> 14)),
            clamp(y + ((29049 * uu + 8192) >> 14))
        )
    }

    static func clamp(_ c: Int) -> Int { min(max(c, 0), 255) }

    /// 64 I420 images of 512×512: chroma sample (cx, cy) holds U = cx, V = cy, and its four luma
    /// pixels hold Y = 4·block + 0…3, so the 64 images cover every triple once.
    @Test(arguments: YUVRange.allCases)
    func everyTripleMatchesTheFormula(range: YUVRange) throws {
        let side = 512, chromaSide = side / 2
        var mismatches: [String] = []
        var checked = 0
        for block in 0..<64 {
            var bytes = [UInt8](repeating: 0, count: side * side + 2 * chromaSide * chromaSide)
            for row in 0..<side {
                for column in 0..<side {
                    bytes[row * side + column] = UInt8(4 * block + (row & 1) * 2 + (column & 1))
                }
            }
            for cy in 0..<chromaSide {
                for cx in 0..<chromaSide {
                    bytes[side * side + cy * chromaSide + cx] = UInt8(cx)
                    bytes[side * side + chromaSide * chromaSide + cy * chromaSide + cx] = UInt8(cy)
                }
            }
            let image = try VisionImage(copying: bytes, width: side, height: side, format: .i420(range))
            let rgb = try image.upright(as: .rgb8)
            rgb.withUnsafePlanes { planes in
                let plane = planes[0]
                for row in 0..<side {
                    for column in 0..<side {
                        let y = 4 * block + (row & 1) * 2 + (column & 1), u = column / 2, v = row / 2
                        let want = range == .video ? Self.videoRange(y, u, v) : Self.fullRange(y, u, v)
                        let p = row * plane.bytesPerRow + column * 3
                        let got = (Int(plane.bytes[p]), Int(plane.bytes[p + 1]), Int(plane.bytes[p + 2]))
                        checked += 1
                        if got != want, mismatches.count < 10 { mismatches.append("Y \(y) U \(u) V \(v): \(got) vs \(want)") }
                    }
                }
            }
        }
        #expect(checked == 1 << 24)
        #expect(mismatches.isEmpty, "\(range): \(mismatches.joined(separator: "; "))")
    }
}
