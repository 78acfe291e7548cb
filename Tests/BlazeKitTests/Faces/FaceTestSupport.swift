import BlazeEngine
import BlazeImageIO
import BlazeTestSupport
import Foundation
@testable import BlazeKit

/// Shared helpers of the Face* suites: the test photos and MediaPipe 0.10.21 reference outputs
/// in Tests/Fixtures/testdata (provenance in its SOURCES.md).
enum FaceTestData {
    /// Every test photo's file name, sorted.
    static let photoNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RepoPaths.testImages.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    static func stem(_ photo: String) -> String { (photo as NSString).deletingPathExtension }

    /// A photo decoded like the reference (no EXIF rotation; OpenCV `IMREAD_IGNORE_ORIENTATION`).
    static func image(_ photo: String) throws -> VisionImage {
        try ImageFile.read(
            contentsOf: RepoPaths.testImages.appendingPathComponent(photo),
            options: ImageDecodingOptions(appliesEXIFOrientation: false))
    }

    static func reference<T: Decodable>(_ type: T.Type, _ stem: String, _ pipeline: String) throws -> T {
        let url = RepoPaths.referenceOutputs.appendingPathComponent("\(stem).\(pipeline).json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    static func detector(_ configure: (inout FaceDetectorOptions) -> Void = { _ in }) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.minFaceSize = 0
        configure(&options)
        return try FaceDetector.faceDetector(options: options)
    }

    /// Every option on (the CLI's `--all`), no size filter.
    static func allOptions(_ mode: FaceDetectorPerformanceMode = .fast, tracking: Bool = false) -> FaceDetectorOptions {
        var options = FaceDetectorOptions()
        options.performanceMode = mode
        options.landmarkMode = .all
        options.contourMode = .all
        options.classificationMode = .all
        options.minFaceSize = 0
        options.isTrackingEnabled = tracking
        return options
    }
}

/// `*.face_detection_{short,full}_range.json`.
struct FaceReferenceDetections: Decodable {
    struct Box: Decodable { let xmin: Double; let ymin: Double; let width: Double; let height: Double }
    struct Point: Decodable { let x: Double; let y: Double }
    struct Item: Decodable { let score: Double; let bbox: Box; let keypoints: [Point] }
    let width: Int
    let height: Int
    let detections: [Item]
}

/// `*.face_landmarker.json` (Tasks FaceLandmarker, IMAGE mode, num_faces 5).
struct FaceReferenceLandmarker: Decodable {
    struct Face: Decodable {
        let landmarks_xyz: [[Double]]
        let blendshapes: [String: Double]
        let transformation_matrix: [[Float]]
    }
    let width: Int
    let height: Int
    let faces: [Face]
}

extension FaceReferenceDetections.Item {
    func frame(width: Int, height: Int) -> VisionRect {
        VisionRect(
            x: bbox.xmin * Double(width), y: bbox.ymin * Double(height),
            width: bbox.width * Double(width), height: bbox.height * Double(height))
    }
}

extension FaceReferenceLandmarker.Face {
    /// Mesh point `i` in pixels.
    func point(_ i: Int, width: Int, height: Int) -> VisionPoint {
        VisionPoint(x: landmarks_xyz[i][0] * Double(width), y: landmarks_xyz[i][1] * Double(height))
    }

    /// docs/pipelines.md §5.5 applied to the reference blendshapes.
    var smiling: Double { (blendshapes["mouthSmileLeft"]! + blendshapes["mouthSmileRight"]!) / 2 }
    var leftEyeOpen: Double { 1 - blendshapes["eyeBlinkLeft"]! }
    var rightEyeOpen: Double { 1 - blendshapes["eyeBlinkRight"]! }

    /// docs/pipelines.md §5.3 applied to the reference transformation matrix.
    var eulerAngles: HeadEulerAngles { HeadEulerAngles(poseMatrix: transformation_matrix.flatMap { $0 }) }
}

func distance(_ a: VisionPoint, _ b: VisionPoint) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

/// Mean 2-D distance (pixels) between a face's mesh and a reference mesh.
func meanMeshDistance(_ mesh: [Vision3DPoint], _ reference: FaceReferenceLandmarker.Face, width: Int, height: Int) -> Double {
    var total = 0.0
    for (i, p) in mesh.enumerated() {
        total += distance(VisionPoint(x: p.x, y: p.y), reference.point(i, width: width, height: height))
    }
    return total / Double(mesh.count)
}

/// Pairs `a[i]`–`b[j]` by descending score, each index used once, only scores above `minimum`.
func greedyMatch(_ countA: Int, _ countB: Int, minimum: Double, score: (Int, Int) -> Double) -> [(Int, Int)] {
    var candidates: [(Double, Int, Int)] = []
    for i in 0..<countA {
        for j in 0..<countB {
            let s = score(i, j)
            if s > minimum { candidates.append((s, i, j)) }
        }
    }
    candidates.sort { $0.0 > $1.0 }
    var usedA = Set<Int>(), usedB = Set<Int>(), pairs: [(Int, Int)] = []
    for (_, i, j) in candidates where !usedA.contains(i) && !usedB.contains(j) {
        usedA.insert(i)
        usedB.insert(j)
        pairs.append((i, j))
    }
    return pairs
}

/// A copy of `upright` stored so that `orientation` turns it back into `upright` (RGB8).
func storedImage(upright: VisionImage, orientation: ImageOrientation) throws -> VisionImage {
    let source = try upright.upright(as: .rgb8)
    let w = source.width, h = source.height
    let sw = orientation.swapsWidthAndHeight ? h : w, sh = orientation.swapsWidthAndHeight ? w : h
    var stored = try VisionImage(width: sw, height: sh, format: .rgb8, orientation: orientation)
    let map = orientation.uprightToStored(width: sw, height: sh)
    source.withUnsafePlanes { src in
        stored.withUnsafeMutablePlanes { dst in
            let s = src[0], d = dst[0]
            for y in 0..<h {
                for x in 0..<w {
                    let p = map.apply(x, y)
                    for c in 0..<3 {
                        d.bytes[p.y * d.bytesPerRow + p.x * 3 + c] = s.bytes[y * s.bytesPerRow + x * 3 + c]
                    }
                }
            }
        }
    }
    return stored
}
