import BlazeImageIO
import BlazeKit
import Foundation
import Testing

/// Decoded pixels against OpenCV's `imread(IMREAD_COLOR | IMREAD_IGNORE_ORIENTATION)` on the files
/// made by `Tools/fixtures/images/make_io_fixtures.py`. Tolerance: exact, except 16-bit PNGs with
/// partial alpha (libpng's simplified API premultiplies 16-bit linear output): ≤ 1 level where
/// 256 ≤ alpha < 65535, colour unspecified where alpha < 256 (8-bit alpha 0).
@Suite struct DecodeFixtureTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            let file: String, note: String, width: Int, height: Int, rgbOffset: Int
            let exif: Int?, orientedWidth: Int?, orientedHeight: Int?, orientedOffset: Int?
            let alphaOffset: Int?, alpha16Offset: Int?
        }
        struct Photo: Decodable { let file: String, width: Int, height: Int, fnv1a64: String }
        let files: [File]
        let photos: [Photo]
    }

    static let manifest: Manifest = try! JSONDecoder().decode(Manifest.self, from: fixtureData("manifest.json"))
    static let reference: [UInt8] = try! [UInt8](fixtureData("reference.bin"))

    static func files(_ note: String) -> [String] { manifest.files.filter { $0.note == note }.map(\.file) }

    func check(_ name: String) throws {
        let f = try #require(Self.manifest.files.first { $0.file == name })
        let image = try ImageFile.read(contentsOf: fixtureURL(f.file))
        #expect(image.width == f.width && image.height == f.height, "\(name): size")
        let rgb = try storedRGB(image)
        let want = Array(Self.reference[f.rgbOffset..<(f.rgbOffset + f.width * f.height * 3)])
        if let a16 = f.alpha16Offset {
            // 16-bit alpha: exact where opaque, ≤ 1 where partial, free where transparent.
            let alpha16 = Self.reference[a16..<(a16 + 2 * f.width * f.height)].withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            var partial = 0, maxDiff = 0
            for i in 0..<rgb.count {
                let a = alpha16[i / 3]
                let d = abs(Int(rgb[i]) - Int(want[i]))
                if a == 65535 {
                    #expect(d == 0, "\(name): value \(i) \(rgb[i]) vs \(want[i]) (opaque)")
                } else if a >= 256 {
                    #expect(d <= 1, "\(name): value \(i) \(rgb[i]) vs \(want[i]) (alpha \(a))")
                    if d > 0 { partial += 1 }
                    maxDiff = max(maxDiff, d)
                }
            }
            print("\(name): \(partial) of \(rgb.count) values differ by \(maxDiff) at partial 16-bit alpha")
        } else {
            let diffs = zip(rgb, want).filter { $0 != $1 }.count
            #expect(diffs == 0, "\(name): \(diffs) of \(rgb.count) values differ from OpenCV")
        }
        if let ao = f.alphaOffset {
            #expect(image.format == .rgba8, "\(name): has alpha")
            let alpha = storedAlpha(image)
            #expect(alpha == Array(Self.reference[ao..<(ao + f.width * f.height)]), "\(name): alpha")
        } else if name.contains("trns") {
            // A tRNS colour key on a gray/RGB file: OpenCV ignores it, libpng turns it into alpha.
            #expect(image.format == .rgba8)
        } else {
            #expect(!image.format.hasAlpha, "\(name): no alpha expected, got \(image.format)")
        }
        #expect(image.orientation.exifValue == f.exif ?? 1, "\(name): orientation \(image.orientation)")
        if let oo = f.orientedOffset, let ow = f.orientedWidth, let oh = f.orientedHeight {
            // OpenCV's imread (without IGNORE_ORIENTATION) applies the EXIF tag: our upright view must agree.
            #expect(image.uprightWidth == ow && image.uprightHeight == oh)
            let up = try image.upright(as: .rgb8)
            let got = up.withUnsafePlanes { Array($0[0].bytes) }
            #expect(got == Array(Self.reference[oo..<(oo + ow * oh * 3)]), "\(name): upright view differs from OpenCV's EXIF rotation")
        }
    }

    @Test(arguments: files("jpeg")) func jpeg(_ name: String) throws { try check(name) }
    @Test(arguments: files("exif")) func jpegEXIFOrientation(_ name: String) throws { try check(name) }
    @Test(arguments: files("png")) func png(_ name: String) throws { try check(name) }
    @Test(arguments: files("pnm")) func pnm(_ name: String) throws { try check(name) }

    /// Real photos: the decode equals OpenCV's byte for byte (measured JPEG tolerance: 0 with the
    /// system libjpeg-turbo 2.1.5 against OpenCV 4.14's bundled 3.1.2, on all 14 JPEGs of the test set).
    @Test(arguments: manifest.photos.map(\.file))
    func photosDecodeLikeOpenCV(_ name: String) throws {
        let p = try #require(Self.manifest.photos.first { $0.file == name })
        let image = try ImageFile.read(contentsOf: fixtureURL(p.file))
        #expect(image.width == p.width && image.height == p.height)
        #expect(image.orientation == .up)
        let hash = String(fnv1a64(try storedRGB(image)), radix: 16)
        #expect(hash.leftPadded(16) == p.fnv1a64, "\(name): pixels differ from OpenCV's decode")
    }

    @Test func ignoringEXIFOrientationLeavesUp() throws {
        let data = try fixtureData("jpeg/exif6_be.jpg")
        #expect(try ImageFile.decode(data).orientation == .right)
        #expect(try ImageFile.decode(data, options: ImageDecodingOptions(appliesEXIFOrientation: false)).orientation == .up)
    }

    @Test func naturalFormats() throws {
        #expect(try ImageFile.read(contentsOf: fixtureURL("jpeg/gray.jpg")).format == .gray8)
        #expect(try ImageFile.read(contentsOf: fixtureURL("png/gray16.png")).format == .gray8)
        #expect(try ImageFile.read(contentsOf: fixtureURL("png/palette8_trns.png")).format == .rgba8)
        #expect(try ImageFile.read(contentsOf: fixtureURL("png/palette4.png")).format == .rgb8)
        #expect(try ImageFile.read(contentsOf: fixtureURL("pnm/rgb16.ppm")).format == .rgb8)
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
