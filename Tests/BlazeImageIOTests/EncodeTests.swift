import BlazeTestSupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing

@Suite struct EncodeTests {
    func randomImage(_ w: Int, _ h: Int, _ format: PixelFormat, seed: UInt64 = 1) throws -> VisionImage {
        var r = SeededRandom(seed: seed)
        var image = try VisionImage(width: w, height: h, format: format)
        image.withUnsafeMutablePlanes { planes in
            for p in planes { for i in 0..<p.bytes.count { p.bytes[i] = UInt8(truncatingIfNeeded: r.next()) } }
        }
        return image
    }

    @Test(arguments: [PixelFormat.rgb8, .rgba8, .gray8])
    func pngRoundTripIsLossless(_ format: PixelFormat) throws {
        let image = try randomImage(31, 17, format)
        let decoded = try ImageFile.decode(ImageFile.pngData(image))
        #expect(decoded.format == format)
        #expect(try storedRGB(decoded) == storedRGB(image))
        if format == .rgba8 { #expect(storedAlpha(decoded) == storedAlpha(image)) }
    }

    @Test func pngEncodesTheUprightImage() throws {
        var image = try randomImage(7, 5, .bgra8)
        image.orientation = .left
        let decoded = try ImageFile.decode(ImageFile.pngData(image))
        #expect(decoded.width == 5 && decoded.height == 7 && decoded.orientation == .up)
        let expected = try image.upright(as: .rgba8)
        #expect(try storedRGB(decoded) == storedRGB(expected))
        #expect(storedAlpha(decoded) == storedAlpha(expected))
    }

    @Test func pngOfYUVImage() throws {
        let image = try randomImage(8, 6, .nv12(.video))
        let decoded = try ImageFile.decode(ImageFile.pngData(image))
        #expect(try storedRGB(decoded) == storedRGB(image))
    }

    /// A smooth image survives JPEG at quality 95 within a few levels; grayscale stays gray.
    @Test(arguments: [PixelFormat.rgb8, .bgra8, .gray8, .i420(.full)])
    func jpegRoundTripIsClose(_ format: PixelFormat) throws {
        var image = try VisionImage(width: 48, height: 32, format: format)
        image.withUnsafeMutablePlanes { planes in
            for (p, plane) in planes.enumerated() {
                let g = format.planeGeometry(p, width: 48, height: 32)
                for y in 0..<g.height { for x in 0..<g.minBytesPerRow { plane.bytes[y * plane.bytesPerRow + x] = UInt8(min(255, 60 + x / 4 + y + p * 30)) } }
            }
        }
        let data = try ImageFile.jpegData(image, quality: 95)
        let decoded = try ImageFile.decode(data)
        #expect(decoded.format == (format == .gray8 ? .gray8 : .rgb8))
        let a = try storedRGB(decoded), b = try storedRGB(image)
        let mean = Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.count)
        #expect(mean < 3, "mean abs error \(mean)")
    }

    @Test func jpegQualityIsValidated() throws {
        let image = try randomImage(4, 4, .rgb8)
        expectBlazeError("quality 0") { try ImageFile.jpegData(image, quality: 0) }
        expectBlazeError("quality 101") { try ImageFile.jpegData(image, quality: 101) }
    }

    @Test func writeChoosesTheFormatByExtension() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("blazeio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try randomImage(9, 9, .rgb8)
        try ImageFile.write(image, to: dir.appendingPathComponent("a.png"))
        try ImageFile.write(image, to: dir.appendingPathComponent("a.JPG"))
        #expect(ImageFileFormat.detect(try Data(contentsOf: dir.appendingPathComponent("a.png"))) == .png)
        #expect(ImageFileFormat.detect(try Data(contentsOf: dir.appendingPathComponent("a.JPG"))) == .jpeg)
        expectBlazeError("unknown extension") { try ImageFile.write(image, to: dir.appendingPathComponent("a.bmp")) }
        #expect(try VisionImage(contentsOfFile: dir.appendingPathComponent("a.png").path).width == 9)
    }
}

@Suite struct EXIFParsingTests {
    func app1(_ payload: [UInt8]) -> [UInt8] {
        [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    func exif(orientation: UInt16, bigEndian: Bool, type: UInt16 = 3, ifdOffset: UInt32 = 8) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        // In parts: Swift 6.2.3 cannot type-check the whole `+` chain in reasonable time.
        var ifd = u16(1) + u16(0x0112) + u16(type)
        ifd += u32(1) + u16(orientation)
        ifd += [0, 0] + u32(0)
        return Array("Exif".utf8) + [0, 0] + header + u32(ifdOffset) + ifd
    }

    /// The orientation the JPEG decoder would report, read through a real decode of a patched file.
    func orientation(of segments: [[UInt8]]) throws -> ImageOrientation {
        var jpeg = [UInt8](try fixtureData("jpeg/s420.jpg"))
        jpeg.insert(contentsOf: segments.flatMap { $0 }, at: 2)
        return try ImageFile.decode(Data(jpeg)).orientation
    }

    @Test(arguments: 1...8)
    func bothByteOrders(_ value: Int) throws {
        let expected = try #require(ImageOrientation(exifValue: value))
        #expect(try orientation(of: [app1(exif(orientation: UInt16(value), bigEndian: true))]) == expected)
        #expect(try orientation(of: [app1(exif(orientation: UInt16(value), bigEndian: false))]) == expected)
    }

    @Test func malformedEXIFMeansUp() throws {
        #expect(try orientation(of: [app1(exif(orientation: 9, bigEndian: true))]) == .up)  // out of range
        #expect(try orientation(of: [app1(exif(orientation: 6, bigEndian: false, type: 4))]) == .up)  // wrong type
        #expect(try orientation(of: [app1(exif(orientation: 6, bigEndian: true, ifdOffset: 5000))]) == .up)
        #expect(try orientation(of: [app1(Array("Exif".utf8) + [0, 0, 0x49, 0x49])]) == .up)  // cut TIFF header
        #expect(try orientation(of: [app1(Array("XMP\0".utf8))]) == .up)
        // An APP0 first, then the EXIF APP1: still found.
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00]
        #expect(try orientation(of: [app0, app1(exif(orientation: 8, bigEndian: true))]) == .left)
    }
}
