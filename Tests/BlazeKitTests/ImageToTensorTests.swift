import BlazeTestSupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing

@Suite struct ImageToTensorTests {
    func randomImage(_ w: Int, _ h: Int, _ format: PixelFormat, seed: UInt64 = 3) throws -> VisionImage {
        var r = SeededRandom(seed: seed)
        var image = try VisionImage(width: w, height: h, format: format)
        image.withUnsafeMutablePlanes { planes in
            for p in planes { for i in 0..<p.bytes.count { p.bytes[i] = UInt8(truncatingIfNeeded: r.next()) } }
        }
        return image
    }

    @Test func valueRange() throws {
        let image = try randomImage(20, 15, .rgb8)
        let roi = NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.7, height: 0.5, rotation: 0.3)
        let raw = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 9, height: 7, outputRange: 0...255)).tensor
        for range in [Float(-1)...1, 0...1, -0.5...2.5] {
            let t = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 9, height: 7, outputRange: range)).tensor
            let s = (range.upperBound - range.lowerBound) / 255
            #expect(zip(t, raw).allSatisfy { $0 == $1 * s + range.lowerBound }, "range \(range)")
        }
    }

    /// The crop split over a session's threads gives the single-threaded tensor, for every
    /// format, border and orientation, with more and fewer rows than bands.
    @Test(arguments: [1, 2, 3, 8])
    func rowsSplitOverThreadsGiveTheSameTensor(threads: Int) throws {
        let workers = WorkerPool(threadCount: threads)
        let roi = NormalizedRect(xCenter: 0.55, yCenter: 0.45, width: 0.9, height: 0.7, rotation: 0.6)
        for format in PixelFormat.allFormats {
            for (border, orientation) in [(BorderMode.zero, ImageOrientation.up), (.replicate, .leftMirrored)] {
                var image = try randomImage(53, 41, format, seed: 5)
                image.orientation = orientation
                for (width, height) in [(37, 29), (6, 3)] {
                    let options = ImageToTensorOptions(width: width, height: height, keepAspectRatio: true, borderMode: border)
                    let single = try image.toTensor(roi: roi, options: options).tensor
                    var split = [Float](repeating: .nan, count: options.elementCount)
                    try split.withUnsafeMutableBufferPointer {
                        _ = try image.toTensor(roi: roi, options: options, into: $0, workers: workers)
                    }
                    #expect(split == single, "\(format) \(border) \(orientation) \(width)×\(height)")
                }
            }
        }
    }

    @Test func wholeImageEqualsFullROI() throws {
        for o in ImageOrientation.allCases {
            var image = try randomImage(23, 17, .nv12(.video))
            image.orientation = o
            let options = ImageToTensorOptions(width: 16, height: 12, keepAspectRatio: true, borderMode: .zero)
            let a = try image.toTensor(options: options)
            let b = try image.toTensor(roi: .fullImage, options: options)
            #expect(a.tensor == b.tensor && a.transform == b.transform)
        }
    }

    @Test func projectionAndPadding() throws {
        let image = try VisionImage(width: 200, height: 100, format: .gray8)
        // Letterbox: a 200×100 image into a square tensor pads top and bottom by 1/4.
        let (_, t) = try image.toTensor(options: ImageToTensorOptions(width: 32, height: 32, keepAspectRatio: true))
        #expect(t.padding == LetterboxPadding(left: 0, top: 0.25, right: 0, bottom: 0.25))
        #expect(t.width == 200 && t.height == 200)
        let centre = t.project(x: 0.5, y: 0.5)
        #expect(abs(centre.x - 0.5) < 1e-6 && abs(centre.y - 0.5) < 1e-6)
        let topLeft = t.project(x: 0, y: 0.25)  // tensor top of content = image top-left corner
        #expect(abs(topLeft.x) < 1e-6 && abs(topLeft.y) < 1e-6)
        let unpadded = t.padding.removing(x: 0.5, y: 0.25)
        #expect(unpadded.x == 0.5 && unpadded.y == 0)
        // Rotated ROI: the tensor's top-left corner maps to the rotated rect's corner.
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4, rotation: .pi / 2)
        let (_, r) = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 8, height: 8))
        let corner = r.project(x: 0, y: 0)
        // Local x axis points down (+90°): corner = centre − 0.5·w·(0, 1) − 0.5·h·(−1, 0) in pixels.
        #expect(abs(corner.x * 200 - (100 + 20)) < 1e-3 && abs(corner.y * 100 - (50 - 20)) < 1e-3)
    }

    @Test func invalidRequests() throws {
        let image = try randomImage(10, 10, .rgba8)
        let ok = ImageToTensorOptions(width: 4, height: 4)
        #expect(throws: BlazeError.self) { try image.toTensor(roi: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0), options: ok) }
        #expect(throws: BlazeError.self) { try image.toTensor(roi: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: -1, height: 1), options: ok) }
        #expect(throws: BlazeError.self) { try image.toTensor(roi: NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 1, height: 1), options: ok) }
        #expect(throws: BlazeError.self) { try image.toTensor(roi: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: .infinity), options: ok) }
        #expect(throws: BlazeError.self) { try image.toTensor(options: ImageToTensorOptions(width: 0, height: 4)) }
        #expect(throws: BlazeError.self) { try image.toTensor(options: ImageToTensorOptions(width: 4, height: 4, outputRange: -Float.infinity...0)) }
        var small = [Float](repeating: 0, count: 47)
        #expect(throws: BlazeError.self) { try small.withUnsafeMutableBufferPointer { try image.toTensor(options: ok, into: $0) } }
        #expect(NormalizedRect(xCenter: 0.3, yCenter: 0.3, width: 0, height: 0).isEmptySentinel)
    }

    /// Far-away and enormous ROIs are handled by the border rules, without traps.
    @Test func extremeROIs() throws {
        let image = try randomImage(5, 4, .bgra8)
        for roi in [
            NormalizedRect(xCenter: 1e6, yCenter: -1e6, width: 1, height: 1),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1e9, height: 1e9, rotation: 1),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1e-9, height: 1e-9)
        ] {
            let zero = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 3, height: 3, borderMode: .zero, outputRange: 0...255))
            let rep = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 3, height: 3, borderMode: .replicate, outputRange: 0...255))
            #expect(zero.tensor.allSatisfy { $0 >= 0 && $0 <= 255 } && rep.tensor.allSatisfy { $0 >= 0 && $0 <= 255 })
        }
        // 1×1 image: every sample replicates the single pixel.
        let one = try VisionImage(copying: [9, 8, 7], width: 1, height: 1, format: .rgb8)
        let t = try one.toTensor(
            roi: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 3, height: 3, rotation: 0.4),
            options: ImageToTensorOptions(width: 4, height: 4, outputRange: 0...255)
        ).tensor
        #expect(t == Array([[Float]](repeating: [9, 8, 7], count: 16).joined()))
    }

    /// Every format gives the crop of its RGB conversion (formats are interchangeable).
    @Test func formatsAgreeWithTheirRGBConversion() throws {
        let roi = NormalizedRect(xCenter: 0.45, yCenter: 0.55, width: 0.8, height: 0.6, rotation: -0.4)
        let options = ImageToTensorOptions(width: 12, height: 10, keepAspectRatio: true, borderMode: .zero, outputRange: 0...255)
        for format in PixelFormat.allFormats {
            for o in [ImageOrientation.up, .rightMirrored] {
                var image = try randomImage(13, 9, format, seed: 11)
                image.orientation = o
                var rgb = try image.upright(as: .rgb8)
                rgb.orientation = .up
                #expect(
                    try image.toTensor(roi: roi, options: options).tensor == rgb.toTensor(roi: roi, options: options).tensor,
                    "\(format) \(o)")
            }
        }
    }

    /// `derived_astronaut_rot90cw.png` (the astronaut turned 90° clockwise) tagged `.left` gives the
    /// crop of the upright astronaut — and no other tag does. Fixture: a 128×128 downscale and its
    /// exact rotation (the full-size pair was checked the same way, see the fixture script).
    @Test func rotatedAstronautTaggedLeftMatchesUpright() throws {
        let upright = try ImageFile.read(contentsOf: fixtureURL("astronaut/astronaut_128.png"))
        var rotated = try ImageFile.read(contentsOf: fixtureURL("astronaut/astronaut_128_rot90cw.png"))
        let rois = [
            nil, NormalizedRect(xCenter: 0.45, yCenter: 0.35, width: 0.5, height: 0.45, rotation: 0.52),
            NormalizedRect(xCenter: 0.6, yCenter: 0.4, width: 0.7, height: 0.3, rotation: -0.52)
        ]
        let options = ImageToTensorOptions(width: 64, height: 48, keepAspectRatio: true, borderMode: .zero)
        var matching: [ImageOrientation] = []
        for o in ImageOrientation.allCases {
            rotated.orientation = o
            let same = try rois.allSatisfy { roi in
                let a = try upright.toTensor(roi: roi, options: options), b = try rotated.toTensor(roi: roi, options: options)
                return a.tensor == b.tensor && a.transform == b.transform
            }
            if same { matching.append(o) }
        }
        #expect(matching == [.left])
    }
}
