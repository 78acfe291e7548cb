/// The gesture embedder's three inputs for one hand, prepared as MediaPipe's GestureRecognizer
/// prepares them (its `LandmarksToMatrixCalculator` and `HandednessToMatrixCalculator`; the
/// arithmetic, including where C++ computes in double, is reproduced so the inputs are the same
/// floats): the image landmarks scaled to a square frame by the image's aspect ratio, rotated by
/// the task's input rotation (always 0 here: results are upright already, which is what
/// MediaPipe's rotation undoes), then moved so the wrist is at the origin and divided by the
/// larger of the x and y extents (+ 1e-5); the world landmarks the same without the aspect step;
/// the handedness as the probability of a right hand.
struct GestureEmbedderInputs: Sendable, Equatable {
    /// `[1, 21, 3]`: x, y, z per landmark.
    var hand: [Float]
    /// `[1, 1]`: P(right hand).
    var handedness: [Float]
    /// `[1, 21, 3]` (the embedder does not read it; MediaPipe feeds it).
    var worldHand: [Float]

    init(landmarks: [NormalizedLandmark], worldLandmarks: [WorldLandmark], handedness: ResultCategory, imageWidth: Int, imageHeight: Int) {
        let longest = Float(max(imageWidth, imageHeight))
        let scaleX = Float(imageWidth) / longest, scaleY = Float(imageHeight) / longest
        let square = landmarks.map { l in
            (
                Float((Double(l.x) - 0.5) * Double(scaleX) + 0.5),
                Float((Double(l.y) - 0.5) * Double(scaleY) + 0.5),
                l.z
            )
        }
        hand = Self.objectNormalized(square.map(Self.unrotated))
        worldHand = Self.objectNormalized(worldLandmarks.map { Self.unrotated(($0.x, $0.y, $0.z)) })
        let right = handedness.categoryName == "Right" ? handedness.score : 1 - handedness.score
        self.handedness = [right]
    }

    /// The rotation step with rotation 0: `(x − 0.5)·cos − (y − 0.5)·sin + 0.5` with cos = 1 and
    /// sin = −0, the products in float and `+ 0.5` in double, as C++ does (not quite the identity).
    static func unrotated(_ p: (Float, Float, Float)) -> (Float, Float, Float) {
        let cos: Float = 1, sin: Float = -0.0
        let x = p.0 - 0.5, y = p.1 - 0.5
        let nx = Float(Double(x * cos - y * sin) + 0.5)
        let ny = Float(Double(y * cos + x * sin) + 0.5)
        return (nx, ny, p.2)
    }

    /// Wrist (landmark 0) at the origin, every coordinate divided by the larger x or y extent + 1e-5.
    static func objectNormalized(_ points: [(Float, Float, Float)]) -> [Float] {
        guard let origin = points.first else { return [] }
        let moved = points.map { ($0.0 - origin.0, $0.1 - origin.1, $0.2 - origin.2) }
        let xs = moved.map(\.0), ys = moved.map(\.1)
        let scale = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) + 1e-5
        return moved.flatMap { [$0.0 / scale, $0.1 / scale, $0.2 / scale] }
    }
}
