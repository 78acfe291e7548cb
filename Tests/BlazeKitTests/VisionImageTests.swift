import BlazeEngine
import BlazeKit
import Foundation
import Testing

@Suite struct VisionImageTests {
    func expectInvalid(_ what: String, _ body: () throws -> Any) {
        do {
            _ = try body()
            Issue.record("\(what): expected an error")
        } catch let error as BlazeError {
            #expect(error.kind == .invalidInput, "\(what): \(error)")
        } catch {
            Issue.record("\(what): \(error)")
        }
    }

    /// An odd-width NV12 frame packed tightly in one buffer (Y rows of W bytes, then CbCr rows of
    /// W + 1 bytes, as FFmpeg packs it) reads the same pixels as the same planes given one by one;
    /// one byte less is a typed error.
    @Test func tightOddWidthNV12InOneBuffer() throws {
        let w = 5, h = 3
        let y = (0..<(w * h)).map { UInt8(40 + 13 * $0) }
        let uv = (0..<((w + 1) * 2)).map { UInt8(90 + 11 * $0) }
        let packed = y + uv
        for format in [PixelFormat.nv12(.video), .nv21(.full)] {
            let single = try packed.withUnsafeBytes { try VisionImage(borrowing: $0, width: w, height: h, bytesPerRow: w, format: format).ownedCopy() }
            #expect(single.bytesPerRow(plane: 1) == w + 1)
            let planes = try y.withUnsafeBytes { yb in
                try uv.withUnsafeBytes { cb in
                    try VisionImage(
                        borrowingPlanes: [ImagePlane(bytes: yb, bytesPerRow: w), ImagePlane(bytes: cb, bytesPerRow: w + 1)],
                        width: w, height: h, format: format
                    ).ownedCopy()
                }
            }
            for row in 0..<h {
                for column in 0..<w { #expect(single.uprightPixel(x: column, y: row) == planes.uprightPixel(x: column, y: row)) }
            }
            packed.dropLast().withUnsafeBytes { raw in
                expectInvalid("one byte short") { try VisionImage(borrowing: raw, width: w, height: h, bytesPerRow: w, format: format) }
            }
        }
    }

    @Test func invalidGeometryAndShortBuffers() {
        let bytes = [UInt8](repeating: 0, count: 100)
        bytes.withUnsafeBytes { raw in
            expectInvalid("zero width") { try VisionImage(borrowing: raw, width: 0, height: 2, bytesPerRow: 4, format: .rgba8) }
            expectInvalid("negative height") { try VisionImage(borrowing: raw, width: 1, height: -2, bytesPerRow: 4, format: .rgba8) }
            expectInvalid("row too short") { try VisionImage(borrowing: raw, width: 5, height: 2, bytesPerRow: 19, format: .rgba8) }
            expectInvalid("buffer too short") { try VisionImage(borrowing: raw, width: 5, height: 6, bytesPerRow: 20, format: .rgba8) }
            expectInvalid("NV12 chroma missing") { try VisionImage(borrowing: raw, width: 10, height: 10, bytesPerRow: 10, format: .nv12(.video)) }
            expectInvalid("I420 chroma missing") { try VisionImage(borrowing: raw, width: 8, height: 10, bytesPerRow: 8, format: .i420(.video)) }
            expectInvalid("huge") { try VisionImage(borrowing: raw, width: 1 << 40, height: 1, bytesPerRow: 1 << 42, format: .rgba8) }
            expectInvalid("plane count") {
                try VisionImage(borrowingPlanes: [ImagePlane(bytes: raw, bytesPerRow: 4)], width: 4, height: 4, format: .nv12(.full))
            }
            // Exactly enough: the last row may end right after its pixels.
            #expect(throws: Never.self) { try VisionImage(borrowing: raw, width: 5, height: 5, bytesPerRow: 20, format: .rgba8) }
            #expect(throws: Never.self) { try VisionImage(borrowing: raw, width: 8, height: 8, bytesPerRow: 8, format: .i420(.video)) }
            #expect(throws: Never.self) { try VisionImage(borrowing: raw, width: 7, height: 7, bytesPerRow: 8, format: .nv21(.video)) }
        }
        expectInvalid("copying short") { try VisionImage(copying: [UInt8](repeating: 0, count: 11), width: 2, height: 2, format: .rgb8) }
        expectInvalid("zero-size owned") { try VisionImage(width: 3, height: 0, format: .gray8) }
        expectInvalid("too many pixels to own") { try VisionImage(width: 1 << 20, height: 1 << 20, format: .gray8) }
    }

    @Test func borrowingDoesNotCopy() throws {
        var bytes = [UInt8](repeating: 7, count: 4 * 3 * 2)
        try bytes.withUnsafeMutableBytes { raw in
            let image = try VisionImage(borrowing: UnsafeRawBufferPointer(raw), width: 3, height: 2, bytesPerRow: 12, format: .bgra8)
            #expect(image.isBorrowed)
            #expect(image.withUnsafePlanes { $0[0].bytes.baseAddress } == UnsafeRawPointer(raw.baseAddress))
            raw[0] = 42  // B of pixel (0, 0): visible, no copy
            #expect(image.uprightPixel(x: 0, y: 0).b == 42)
            let owned = image.ownedCopy()
            #expect(!owned.isBorrowed)
            raw[0] = 1
            #expect(owned.uprightPixel(x: 0, y: 0).b == 42 && image.uprightPixel(x: 0, y: 0).b == 1)
        }
    }

    @Test func separatePlanesAndPadding() throws {
        // NV21 5×3 with padded rows in two separate buffers.
        let luma = (0..<(8 * 3)).map { UInt8($0) }
        let chroma: [UInt8] = [100, 150, 101, 151, 102, 152, 0, 0, 103, 153, 104, 154, 105, 155, 0, 0]
        try luma.withUnsafeBytes { y in
            try chroma.withUnsafeBytes { c in
                let image = try VisionImage(
                    borrowingPlanes: [ImagePlane(bytes: y, bytesPerRow: 8), ImagePlane(bytes: c, bytesPerRow: 8)],
                    width: 5, height: 3, format: .nv21(.full))
                #expect(image.bytesPerRow == 8 && image.bytesPerRow(plane: 1) == 8)
                let copy = image.ownedCopy()
                #expect(copy.bytesPerRow == 5 && copy.bytesPerRow(plane: 1) == 6)
                for y in 0..<3 { for x in 0..<5 { #expect(copy.uprightPixel(x: x, y: y) == image.uprightPixel(x: x, y: y)) } }
                // Pixel (4, 2): Y = 2·8 + 4 = 20, chroma pair (1, 2) of NV21 = V 105, U 155 at row 1.
                let full = FullRangeReference.rgb(y: 20, u: 155, v: 105)
                #expect(image.uprightPixel(x: 4, y: 2) == (full.0, full.1, full.2, 255))
            }
        }
    }

    @Test func copyOnWrite() throws {
        var a = try VisionImage(copying: [UInt8](repeating: 5, count: 12), width: 2, height: 2, format: .rgb8)
        let b = a
        a.withUnsafeMutablePlanes { $0[0].bytes[0] = 99 }
        #expect(a.uprightPixel(x: 0, y: 0).r == 99 && b.uprightPixel(x: 0, y: 0).r == 5)
        let before = a.withUnsafePlanes { $0[0].bytes.baseAddress }
        a.withUnsafeMutablePlanes { $0[0].bytes[1] = 98 }  // unique now: in place
        #expect(a.withUnsafePlanes { $0[0].bytes.baseAddress } == before)
    }

    @Test func orientationEXIFMappingAndUprightSize() throws {
        let expected: [(ImageOrientation, Int)] = [
            (.up, 1), (.upMirrored, 2), (.down, 3), (.downMirrored, 4),
            (.leftMirrored, 5), (.right, 6), (.rightMirrored, 7), (.left, 8)
        ]
        for (o, exif) in expected {
            #expect(o.exifValue == exif)
            #expect(ImageOrientation(exifValue: exif) == o)
        }
        #expect(ImageOrientation(exifValue: 0) == nil && ImageOrientation(exifValue: 9) == nil)
        // UIImage.Orientation raw values.
        #expect(ImageOrientation.up.rawValue == 0 && ImageOrientation.right.rawValue == 3 && ImageOrientation.rightMirrored.rawValue == 7)
        var image = try VisionImage(width: 3, height: 2, format: .gray8, orientation: .right)
        #expect(image.uprightWidth == 2 && image.uprightHeight == 3)
        #expect(image.uprightSize == ImageSize(width: 2, height: 3) && image.size == ImageSize(width: 3, height: 2))
        #expect("\(image.uprightSize)" == "2×3" && image.uprightSize.pixelCount == 6)
        image.orientation = .downMirrored
        #expect(image.uprightWidth == 3 && image.uprightHeight == 2)
        #expect(image.uprightSize == image.size)
        let _: MPImage = image
    }

    /// Stored 3×2 image `a b c / d e f` turned upright, derived by hand from the EXIF definitions.
    @Test(arguments: ImageOrientation.allCases)
    func uprightConversion(_ o: ImageOrientation) throws {
        let stored: [UInt8] = [1, 2, 3, 4, 5, 6]  // a…f
        let want: [ImageOrientation: [[UInt8]]] = [
            .up: [[1, 2, 3], [4, 5, 6]], .upMirrored: [[3, 2, 1], [6, 5, 4]],
            .down: [[6, 5, 4], [3, 2, 1]], .downMirrored: [[4, 5, 6], [1, 2, 3]],
            .leftMirrored: [[1, 4], [2, 5], [3, 6]], .right: [[4, 1], [5, 2], [6, 3]],
            .rightMirrored: [[6, 3], [5, 2], [4, 1]], .left: [[3, 6], [2, 5], [1, 4]]
        ]
        let image = try VisionImage(copying: stored, width: 3, height: 2, format: .gray8, orientation: o)
        let up = try image.upright(as: .gray8)
        let rows = (0..<up.height).map { y in up.withUnsafePlanes { p in Array(p[0].bytes[(y * p[0].bytesPerRow)..<(y * p[0].bytesPerRow + up.width)]) } }
        #expect(rows == want[o]!)
    }

    @Test func conversionBetweenPackedFormats() throws {
        let rgba: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let image = try VisionImage(copying: rgba, width: 2, height: 1, format: .rgba8)
        func bytes(_ f: PixelFormat) throws -> [UInt8] { try image.upright(as: f).withUnsafePlanes { Array($0[0].bytes) } }
        #expect(try bytes(.bgra8) == [30, 20, 10, 40, 70, 60, 50, 80])
        #expect(try bytes(.argb8) == [40, 10, 20, 30, 80, 50, 60, 70])
        #expect(try bytes(.rgb8) == [10, 20, 30, 50, 60, 70])
        #expect(try bytes(.bgr8) == [30, 20, 10, 70, 60, 50])
        // OpenCV RGB2GRAY: (4899 R + 9617 G + 1868 B + 8192) >> 14.
        func gray(_ r: Int, _ g: Int, _ b: Int) -> UInt8 { UInt8((4899 * r + 9617 * g + 1868 * b + 8192) >> 14) }
        let expectedGray: [UInt8] = [gray(10, 20, 30), gray(50, 60, 70)]
        #expect(try bytes(.gray8) == expectedGray)
        let argb = try VisionImage(copying: [1, 2, 3, 4], width: 1, height: 1, format: .argb8)
        #expect(argb.uprightPixel(x: 0, y: 0) == (2, 3, 4, 1))
        #expect(throws: BlazeError.self) { try image.upright(as: .nv12(.video)) }
    }

    /// Each packed format reads its own bytes as R, G, B, A (255 where it has none), in the crop
    /// as in `uprightPixel`.
    @Test func packedFormatsReadTheirChannelOrder() throws {
        let cases: [(PixelFormat, [UInt8], (UInt8, UInt8, UInt8, UInt8))] = [
            (.rgba8, [1, 2, 3, 4], (1, 2, 3, 4)), (.bgra8, [1, 2, 3, 4], (3, 2, 1, 4)),
            (.argb8, [1, 2, 3, 4], (2, 3, 4, 1)), (.rgb8, [1, 2, 3], (1, 2, 3, 255)),
            (.bgr8, [1, 2, 3], (3, 2, 1, 255))
        ]
        for (format, pixel, want) in cases {
            let image = try VisionImage(copying: pixel + pixel, width: 2, height: 1, format: format)
            #expect(image.uprightPixel(x: 1, y: 0) == want, "\(format)")
            let crop = try image.toTensor(options: ImageToTensorOptions(width: 2, height: 1, outputRange: 0...255)).tensor
            #expect(crop == [Float](repeating: 0, count: 2).flatMap { _ in [Float(want.0), Float(want.1), Float(want.2)] }, "\(format)")
        }
    }

    @Test func yuvFormulas() throws {
        func pixel(_ y: UInt8, _ u: UInt8, _ v: UInt8, _ range: YUVRange) throws -> (UInt8, UInt8, UInt8, UInt8) {
            try VisionImage(copying: [y, u, v], width: 1, height: 1, format: .i420(range)).uprightPixel(x: 0, y: 0)
        }
        #expect(try pixel(16, 128, 128, .video) == (0, 0, 0, 255))
        #expect(try pixel(0, 128, 128, .video) == (0, 0, 0, 255))  // max(0, Y − 16)
        #expect(try pixel(235, 128, 128, .video) == (255, 255, 255, 255))
        #expect(try pixel(0, 128, 128, .full) == (0, 0, 0, 255))
        #expect(try pixel(255, 128, 128, .full) == (255, 255, 255, 255))
        #expect(try pixel(81, 90, 240, .video) == VideoRangeReference.rgb(y: 81, u: 90, v: 240))
        for (y, u, v) in [(81, 90, 240), (145, 54, 34), (41, 240, 110), (200, 0, 255)] as [(UInt8, UInt8, UInt8)] {
            let f = FullRangeReference.rgb(y: y, u: u, v: v)
            #expect(try pixel(y, u, v, .full) == (f.0, f.1, f.2, 255))
        }
    }
}

/// OpenCV's integer formulas written out independently (Int64, no SIMD).
enum VideoRangeReference {
    static func rgb(y: UInt8, u: UInt8, v: UInt8) -> (UInt8, UInt8, UInt8, UInt8) {
        let yy = Int64(max(0, Int(y) - 16)) * 1_220_542, uu = Int64(u) - 128, vv = Int64(v) - 128
        func c(_ x: Int64) -> UInt8 { UInt8(clamping: (x + (1 << 19)) >> 20) }
        return (c(yy + 1_673_527 * vv), c(yy - 852_492 * vv - 409_993 * uu), c(yy + 2_116_026 * uu), 255)
    }
}

enum FullRangeReference {
    static func rgb(y: UInt8, u: UInt8, v: UInt8) -> (UInt8, UInt8, UInt8) {
        let yy = Int(y), uu = Int(u) - 128, vv = Int(v) - 128
        func d(_ x: Int) -> Int { (x + 8192) >> 14 }
        return (UInt8(clamping: yy + d(22987 * vv)), UInt8(clamping: yy + d(-5636 * uu - 11698 * vv)), UInt8(clamping: yy + d(29049 * uu)))
    }
}
