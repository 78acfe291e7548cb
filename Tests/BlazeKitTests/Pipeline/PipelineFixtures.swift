import BlazeTestSupport
import BlazeEngine
import BlazeModels
import Foundation
@testable import BlazeKit

/// Fixtures of the Pipeline tests (`Fixtures/pipeline`, made by
/// `Tools/fixtures/pipeline/make_detector_inputs.py`; provenance in its README.md).
enum PipelineFixtures {
    /// One network input tensor of `manifest.json`.
    struct TensorEntry: Decodable {
        let file: String
        let image: String
        let width: Int
        let height: Int
        let model: String
        let shape: [Int]
        /// Normalized ROI `[xc, yc, w, h, rotation]` the crop was cut from (nil: whole image).
        let roi: [Float]?
        /// Letterbox `[left, top, right, bottom]`.
        let padding: [Float]
        /// S1 projection matrix, 16 values row-major.
        let projection: [Float]
        /// Palm detector only: the numpy + LiteRT pipeline's palms and hand ROIs.
        let palms: [Palm]?
        let hand_rois: [[Float]]?

        struct Palm: Decodable {
            let score: Float
            let box: [Float]
            let keypoints: [[Float]]
        }

        var stem: String { String(file.dropFirst("tensors/".count).prefix { $0 != "." }) }
    }

    struct Manifest: Decodable {
        let tensors: [TensorEntry]
    }

    static func url(_ path: String) throws -> URL {
        let name = (path as NSString).deletingPathExtension, ext = (path as NSString).pathExtension
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/pipeline") else {
            throw BlazeError(.io, "missing fixture Fixtures/pipeline/\(path)")
        }
        return url
    }

    static func manifest() throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url("manifest.json")))
    }

    static func tensor(_ stem: String, model: String) throws -> (entry: TensorEntry, values: NPYArray) {
        guard let entry = try manifest().tensors.first(where: { $0.stem == stem && $0.model == model }) else {
            throw BlazeError(.io, "no tensor for \(stem) / \(model) in manifest.json")
        }
        let npy = try NPYArray(contentsOf: url(entry.file))
        return (entry, npy)
    }

    static func reference<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: url("reference/\(name).json")))
    }
}

/// MediaPipe reference JSON: face detection.
struct ReferenceDetections: Decodable {
    struct Box: Decodable { let xmin: Float; let ymin: Float; let width: Float; let height: Float }
    struct Point: Decodable { let x: Float; let y: Float }
    struct Item: Decodable { let score: Float; let bbox: Box; let keypoints: [Point] }
    let width: Int
    let height: Int
    let detections: [Item]
}

/// MediaPipe reference JSON: legacy hands.
struct ReferenceHands: Decodable {
    struct Point: Decodable { let x: Float; let y: Float; let z: Float }
    struct Handedness: Decodable { let label: String; let score: Float; let index: Int }
    struct Hand: Decodable {
        let handedness: Handedness
        let landmarks: [Point]
        let world_landmarks_m: [Point]
    }
    let width: Int
    let height: Int
    let hands: [Hand]
}

/// MediaPipe reference JSON: legacy face mesh and Tasks FaceLandmarker.
struct ReferenceFaces: Decodable {
    struct Face: Decodable {
        let landmarks_xyz: [[Float]]
        let transformation_matrix: [[Float]]?
    }
    let width: Int
    let height: Int
    let faces: [Face]
}

extension ReferenceFaces.Face {
    var landmarks: [NormalizedLandmark] { landmarks_xyz.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) } }
}

/// Runs a bundled model on one input (a fresh session per call; tests are few).
func runBundled(_ model: BundledModel, input: [Float]) throws -> [[Float]] {
    try model.load().makeSession().run([input])
}

/// Largest absolute difference of two sequences (+∞ on a NaN, an infinity or a size mismatch).
func maxAbsDiff(_ a: [Float], _ b: [Float]) -> Float { maxAbsDifference(a, b) }

extension Detection {
    /// score, xmin, ymin, width, height, then keypoint x/y pairs — for comparisons.
    var flattened: [Float] {
        [score, box.xmin, box.ymin, box.width, box.height] + keypoints.flatMap { [$0.x, $0.y] }
    }
}

extension ReferenceDetections.Item {
    var flattened: [Float] {
        [score, bbox.xmin, bbox.ymin, bbox.width, bbox.height] + keypoints.flatMap { [$0.x, $0.y] }
    }
}

extension NormalizedRect {
    var values: [Float] { [xCenter, yCenter, width, height, rotation] }
}
