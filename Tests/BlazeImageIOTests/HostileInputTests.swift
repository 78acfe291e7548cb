import BlazeTestSupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing

/// Truncated, corrupt and lying files are typed errors, never crashes; the pixel cap is checked
/// before allocating.
@Suite struct HostileInputTests {
    static let samples = [
        "jpeg/s420.jpg", "jpeg/progressive.jpg", "jpeg/gray.jpg", "png/rgb8.png", "png/rgba16_interlaced.png",
        "png/palette4.png", "pnm/gray8.pgm", "pnm/rgb16.ppm", "pnm/ascii.ppm"
    ]

    @Test(arguments: samples)
    func truncatedFilesThrow(_ name: String) throws {
        let data = try fixtureData(name)
        // Every cut point in the first 64 bytes, then a spread of cuts through the rest. A PNG cut
        // inside its final IEND chunk still holds the whole image (libpng accepts it, as OpenCV).
        // An ASCII PNM cut inside its last number still parses (as a smaller number).
        var end = name.hasSuffix(".png") ? data.count - 12 : data.count - 1
        if name.contains("ascii") {
            var bytes = [UInt8](data)
            while let last = bytes.last, last == 0x0A || last == 0x20 { bytes.removeLast() }
            end = (bytes.lastIndex { $0 == 0x0A || $0 == 0x20 } ?? 0) + 1
        }
        var cuts = Array(0..<min(64, end))
        cuts += stride(from: 64, to: end, by: max(1, data.count / 40))
        cuts.append(end - 1)
        for cut in cuts {
            let error = expectBlazeError("\(name) cut at \(cut)") { try ImageFile.decode(data.prefix(cut)) }
            if let error { #expect(error.kind == .invalidInput, "\(name) cut at \(cut): \(error)") }
        }
    }

    @Test(arguments: samples)
    func corruptedFilesNeverCrash(_ name: String) throws {
        let data = [UInt8](try fixtureData(name))
        var random = SeededRandom(seed: 99)
        var decoded = 0, rejected = 0
        for _ in 0..<200 {
            var bad = data
            for _ in 0..<(1 + Int(random.next() % 8)) {
                let i = Int(random.next() % UInt64(bad.count))
                bad[i] = UInt8(truncatingIfNeeded: random.next())
            }
            // Either a whole image, decoded the same way twice (no uninitialised memory read), or an
            // invalid-input BlazeError that says what is wrong; a trap fails the whole run.
            do {
                let image = try ImageFile.decode(Data(bad))
                #expect(image.width > 0 && image.height > 0 && image.width * image.height <= VisionImage.maxOwnedPixelCount)
                #expect(try storedRGB(image) == storedRGB(ImageFile.decode(Data(bad))), "\(name): a corrupt file decodes differently twice")
                decoded += 1
            } catch let error as BlazeError {
                #expect(error.kind == .invalidInput && !error.message.isEmpty, "\(name): \(error)")
                rejected += 1
            }
        }
        print("\(name): 200 corrupt copies, \(decoded) decoded, \(rejected) rejected")
    }

    @Test func garbageAndEmptyInput() {
        expectBlazeError("empty") { try ImageFile.decode(Data()) }
        expectBlazeError("text") { try ImageFile.decode(Data("hello world".utf8)) }
        expectBlazeError("JPEG magic only") { try ImageFile.decode(Data([0xFF, 0xD8, 0xFF])) }
        expectBlazeError("PNG signature only") { try ImageFile.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) }
        expectBlazeError("PPM header only") { try ImageFile.decode(Data("P6\n".utf8)) }
        expectBlazeError("PPM huge number") { try ImageFile.decode(Data("P6 99999999999999999999 1 255\n".utf8)) }
        expectBlazeError("PPM sample above maxval") { try ImageFile.decode(Data("P2 2 1 100 5 101\n".utf8)) }
        expectBlazeError("PPM maxval 0") { try ImageFile.decode(Data("P5 1 1 0\n\u{0}".utf8)) }
    }

    /// Headers claiming 100000×100000 (JPEG: 65000×65000, its maximum is 65535) with tiny bodies.
    @Test func lyingHeadersHitThePixelCap() throws {
        // PNG: rewrite IHDR's size and CRC.
        var png = [UInt8](try fixtureData("png/rgb8.png"))
        let big: [UInt8] = [0x00, 0x01, 0x86, 0xA0]  // 100000
        png.replaceSubrange(16..<20, with: big)
        png.replaceSubrange(20..<24, with: big)
        let crc = crc32(png[12..<29])
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let e1 = expectBlazeError("PNG 100000²") { try ImageFile.decode(Data(png)) }
        #expect(e1?.message.contains("exceeds the limit") == true, "\(String(describing: e1))")

        // JPEG: patch the SOF0 frame size.
        var jpeg = [UInt8](try fixtureData("jpeg/s420.jpg"))
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFD, 0xE8, 0xFD, 0xE8])  // 65000 × 65000
        let e2 = expectBlazeError("JPEG 65000²") { try ImageFile.decode(Data(jpeg)) }
        #expect(e2?.message.contains("exceeds the limit") == true, "\(String(describing: e2))")

        let e3 = expectBlazeError("PPM 100000²") { try ImageFile.decode(Data("P6 100000 100000 255\nabc".utf8)) }
        #expect(e3?.message.contains("exceeds the limit") == true, "\(String(describing: e3))")
    }

    @Test func pixelCapIsConfigurable() throws {
        let data = try fixtureData("jpeg/s420.jpg")  // 37 × 23 = 851 pixels
        let small = ImageDecodingOptions(maxPixelCount: 850)
        expectBlazeError("cap 850") { try ImageFile.decode(data, options: small) }
        #expect(try ImageFile.decode(data, options: ImageDecodingOptions(maxPixelCount: 851)).width == 37)
        let tiny = ImageDecodingOptions(maxPixelCount: 142)  // rgb8.png: 13 × 11 = 143 pixels
        expectBlazeError("PNG cap") { try ImageFile.decode(try fixtureData("png/rgb8.png"), options: tiny) }
        expectBlazeError("PPM cap") { try ImageFile.decode(try fixtureData("pnm/gray8.pgm"), options: tiny) }
        #expect(ImageDecodingOptions().maxPixelCount == 100_000_000)
    }

    @Test func missingFileIsAnIOError() {
        let e = expectBlazeError("missing") { try ImageFile.read(path: "/nonexistent/blazekit/x.png") }
        #expect(e?.kind == .io)
        #expect(e?.context == "/nonexistent/blazekit/x.png")
    }

    func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

/// libjpeg's harmless header warnings leave the image whole (OpenCV's reader accepts such files):
/// they must decode to exactly the pixels of the unmodified file.
@Suite struct JPEGWarningTests {
    /// The fixture with its JFIF version bytes set to 3.01 ("Warning: unknown JFIF revision
    /// number 3.01") or with 3 stray bytes before its SOF marker ("Corrupt JPEG data: 3
    /// extraneous bytes before marker 0xc0").
    static func variants(of bytes: [UInt8]) throws -> [(String, [UInt8])] {
        let jfif = try #require(bytes.firstRange(of: Array("JFIF\0".utf8)))
        var revision = bytes
        revision[jfif.upperBound] = 3
        revision[jfif.upperBound + 1] = 1
        let sof = try #require(bytes.firstRange(of: [0xFF, 0xC0]))
        let stray = Array(bytes[..<sof.lowerBound]) + [0x00, 0x11, 0x22] + Array(bytes[sof.lowerBound...])
        return [("JFIF 3.01", revision), ("extraneous bytes", stray)]
    }

    @Test func benignHeaderWarningsDecodeTheSamePixels() throws {
        let original = [UInt8](try fixtureData("jpeg/s420.jpg"))
        let reference = try storedRGB(try ImageFile.decode(Data(original)))
        for (what, bytes) in try Self.variants(of: original) {
            let image = try ImageFile.decode(Data(bytes))
            #expect(try storedRGB(image) == reference, "\(what)")
        }
    }
}
