import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// One reference hand reduced to what the comparisons need.
struct HandReferenceHand {
    var label: String
    var score: Float
    var index: Int
    var landmarks: [NormalizedLandmark]
    var world: [Landmark]
}

enum HandTestData {
    /// Every photo of the shared test set, by file name.
    static func photoNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: RepoPaths.testImages.path)
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
    }

    static func stem(_ name: String) -> String { (name as NSString).deletingPathExtension }

    /// Decoded like the reference JSON: EXIF orientation ignored.
    static func photo(_ name: String) throws -> VisionImage {
        try ImageFile.read(
            contentsOf: RepoPaths.testImages.appendingPathComponent(name),
            options: ImageDecodingOptions(appliesEXIFOrientation: false))
    }

    static func reference(_ stem: String, complexity: Int) throws -> (width: Int, height: Int, hands: [HandReferenceHand]) {
        let url = RepoPaths.referenceOutputs.appendingPathComponent("\(stem).hands_model_complexity_\(complexity).json")
        let file = try JSONDecoder().decode(ReferenceHands.self, from: Data(contentsOf: url))
        let hands = file.hands.map { h in
            HandReferenceHand(
                label: h.handedness.label, score: h.handedness.score, index: h.handedness.index,
                landmarks: h.landmarks.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) },
                world: h.world_landmarks_m.map { Landmark(x: $0.x, y: $0.y, z: $0.z) })
        }
        return (file.width, file.height, hands)
    }

    /// A fixture of this folder's `Fixtures/hands`.
    static func fixture(_ name: String) throws -> URL {
        try fixtureURL("hands/" + name)
    }

    /// Shared landmarkers (model loading is the slow part of making one). They rotate hand regions
    /// as legacy Hands does (`.upright`), whose JSON is the reference of most hand tests.
    static func landmarker(
        _ variant: HandModelVariant = .full, numHands: Int = 2,
        configure: (inout HandLandmarkerOptions) -> Void = { _ in }
    ) throws -> HandLandmarker {
        var options = HandLandmarkerOptions()
        options.modelVariant = variant
        options.numHands = numHands
        options.palmRegionRotation = .upright
        configure(&options)
        return try HandLandmarker(options: options)
    }
}

/// Mean landmark distance in pixels of the upright image, divided by its width.
func handMeanLandmarkError(_ a: [NormalizedLandmark], _ b: [NormalizedLandmark], width: Int, height: Int) -> Float {
    precondition(a.count == b.count)
    let w = Float(width), h = Float(height)
    let total = zip(a, b).reduce(Float(0)) { sum, p in
        let dx = (p.0.x - p.1.x) * w, dy = (p.0.y - p.1.y) * h
        return sum + (dx * dx + dy * dy).squareRoot()
    }
    return total / Float(a.count) / w
}

/// Largest 3-D distance between corresponding world landmarks, metres.
func handMaxWorldError(_ a: [Landmark], _ b: [Landmark]) -> Float {
    zip(a, b).reduce(Float(0)) { m, p in
        let dx = p.0.x - p.1.x, dy = p.0.y - p.1.y, dz = p.0.z - p.1.z
        return worse(m, (dx * dx + dy * dy + dz * dz).squareRoot())
    }
}

/// Pairs each found hand with a reference hand (the assignment with the least total mean
/// error; at most a few hands, so all permutations are tried). Returns indices into `reference`.
func handMatch(_ found: [[NormalizedLandmark]], _ reference: [[NormalizedLandmark]], width: Int, height: Int) -> [Int] {
    precondition(found.count == reference.count)
    func permutations(_ items: [Int]) -> [[Int]] {
        if items.count <= 1 { return [items] }
        return items.indices.flatMap { i -> [[Int]] in
            var rest = items
            let head = rest.remove(at: i)
            return permutations(rest).map { [head] + $0 }
        }
    }
    var best: [Int] = Array(reference.indices), bestCost = Float.infinity
    for p in permutations(Array(reference.indices)) {
        let cost = zip(found, p).reduce(Float(0)) { $0 + handMeanLandmarkError($1.0, reference[$1.1], width: width, height: height) }
        if cost < bestCost { (best, bestCost) = (p, cost) }
    }
    return best
}

/// The legacy label's Tasks counterpart.
func handSwappedLabel(_ label: String) -> String { label == "Left" ? "Right" : "Left" }

extension VisionImage {
    /// Packed RGB8 copy of the upright pixels.
    func handTestUprightRGB() throws -> (pixels: [UInt8], width: Int, height: Int) {
        let rgb = try upright(as: .rgb8)
        let pixels: [UInt8] = rgb.withUnsafePlanes { planes in
            var out: [UInt8] = []
            out.reserveCapacity(rgb.width * rgb.height * 3)
            for y in 0..<rgb.height {
                let row = UnsafeRawBufferPointer(rebasing: planes[0].bytes[(y * planes[0].bytesPerRow)..<(y * planes[0].bytesPerRow + rgb.width * 3)])
                out.append(contentsOf: row)
            }
            return out
        }
        return (pixels, rgb.width, rgb.height)
    }

    /// An image whose stored pixels are `self`'s upright pixels turned so that `orientation`
    /// turns them back: its upright image equals this image's.
    func handTestStored(as orientation: ImageOrientation) throws -> VisionImage {
        let (src, w, h) = try handTestUprightRGB()
        let sw = orientation.swapsWidthAndHeight ? h : w, sh = orientation.swapsWidthAndHeight ? w : h
        var stored = [UInt8](repeating: 0, count: sw * sh * 3)
        let map = orientation.uprightToStored(width: sw, height: sh)
        for y in 0..<h {
            for x in 0..<w {
                let p = map.apply(x, y)
                let d = (p.y * sw + p.x) * 3, s = (y * w + x) * 3
                stored[d] = src[s]
                stored[d + 1] = src[s + 1]
                stored[d + 2] = src[s + 2]
            }
        }
        return try VisionImage(copying: stored, width: sw, height: sh, format: .rgb8, orientation: orientation)
    }
}

/// Landmarks of a result, flattened (x, y, z per landmark, hand after hand).
extension HandLandmarkerResult {
    var handTestFlatLandmarks: [Float] { landmarks.flatMap { $0.flatMap { [$0.x, $0.y, $0.z] } } }
}
