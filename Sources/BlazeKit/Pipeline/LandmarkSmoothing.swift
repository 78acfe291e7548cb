/// The One-Euro filter settings of landmark smoothing (MediaPipe's `OneEuroFilter` options of
/// `LandmarksSmoothingCalculator`), as `HandLandmarkerOptions.smoothingParameters` takes them.
public struct LandmarkSmoothingOptions: Sendable, Hashable {
    /// Proto float fields, widened to Double like MediaPipe does.
    public var minCutoff: Float
    public var beta: Float
    public var derivateCutoff: Float
    /// Initial frequency in Hz (only used before two timestamps were seen).
    public var frequency: Float
    /// Smoothing is skipped (landmarks returned unchanged) when object_scale is below this.
    public var minAllowedObjectScale: Float

    public init(
        minCutoff: Float, beta: Float, derivateCutoff: Float, frequency: Float = 30,
        minAllowedObjectScale: Float = 1e-6
    ) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivateCutoff = derivateCutoff
        self.frequency = frequency
        self.minAllowedObjectScale = minAllowedObjectScale
    }

    /// Tasks FaceLandmarker: min_cutoff 0.05, beta 80, derivate_cutoff 1.
    public static let faceLandmarker = LandmarkSmoothingOptions(minCutoff: 0.05, beta: 80, derivateCutoff: 1)
}

/// docs/pipelines.md S12: the Tasks FaceLandmarker's landmark smoothing (`LandmarksSmoothingCalculator`
/// with a One-Euro filter), used only for one face in VIDEO / LIVE_STREAM mode.
///
/// Every axis of every landmark has its own `OneEuroFilter`, run on pixel coordinates
/// (`x·W`, `y·H`, `z·W`); the derivative is scaled by `1/object_scale`, where object_scale is
/// the mean of the landmarks' pixel bounding-box width and height. A value type: copy it to
/// fork the state; call `reset()` when a frame has no face.
struct LandmarkSmoother: Sendable, Hashable {
    typealias Options = LandmarkSmoothingOptions

    let options: Options
    private var filters: [OneEuroFilter] = []  // x, y, z per landmark

    init(options: Options = .faceLandmarker) {
        self.options = options
    }

    /// Forgets all state (MediaPipe resets when a frame has no landmarks).
    mutating func reset() { filters = [] }

    /// Smooths one frame's landmarks (normalized to a W×H image) observed at
    /// `timestampMicroseconds` (MediaPipe stream timestamps: Tasks `timestamp_ms·1000`).
    /// A change in the landmark count restarts the filters.
    mutating func smooth(
        _ landmarks: [NormalizedLandmark], imageSize: ImageSize,
        timestampMicroseconds: Int64
    ) -> [NormalizedLandmark] {
        if landmarks.isEmpty {
            reset()
            return landmarks
        }
        if filters.count != 3 * landmarks.count {
            let filter = OneEuroFilter(
                frequency: Double(options.frequency), minCutoff: Double(options.minCutoff),
                beta: Double(options.beta), derivateCutoff: Double(options.derivateCutoff))
            filters = Array(repeating: filter, count: 3 * landmarks.count)
        }
        let w = Float(imageSize.width), h = Float(imageSize.height)
        let pixels = landmarks.map { NormalizedLandmark(x: $0.x * w, y: $0.y * h, z: $0.z * w) }
        var minX = pixels[0].x, maxX = pixels[0].x, minY = pixels[0].y, maxY = pixels[0].y
        for p in pixels {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let objectScale = ((maxX - minX) + (maxY - minY)) / 2
        if objectScale < options.minAllowedObjectScale { return landmarks }
        let valueScale = Double(1 / objectScale)
        let t = timestampMicroseconds &* 1000
        var result: [NormalizedLandmark] = []
        result.reserveCapacity(pixels.count)
        for (i, p) in pixels.enumerated() {
            let x = Float(filters[3 * i].apply(Double(p.x), valueScale: valueScale, timestampNanoseconds: t))
            let y = Float(filters[3 * i + 1].apply(Double(p.y), valueScale: valueScale, timestampNanoseconds: t))
            let z = Float(filters[3 * i + 2].apply(Double(p.z), valueScale: valueScale, timestampNanoseconds: t))
            result.append(NormalizedLandmark(x: x / w, y: y / h, z: z / w))
        }
        return result
    }
}

/// One frame of per-object smoothing in video / live stream: object `i` (tracking ID `ids[i]`)
/// is smoothed by its own `LandmarkSmoother`, kept in `smoothers` by ID; objects that are gone
/// lose their filters (a frame without the object resets it). An object's first frame passes
/// the filters unchanged and is returned bit for bit (the filters work in pixels, and x·W/W may
/// differ in the last bit).
func smoothTracked(
    _ landmarks: inout [[NormalizedLandmark]], ids: [Int], smoothers: inout [Int: LandmarkSmoother],
    options: LandmarkSmoothingOptions, imageSize: ImageSize, timestamp: Int
) {
    var kept: [Int: LandmarkSmoother] = [:]
    for (i, id) in ids.enumerated() {
        let known = smoothers[id]
        var smoother = known ?? LandmarkSmoother(options: options)
        let smoothed = smoother.smooth(
            landmarks[i], imageSize: imageSize,
            timestampMicroseconds: Int64(timestamp) &* 1000)
        if known != nil { landmarks[i] = smoothed }
        kept[id] = smoother
    }
    smoothers = kept
}
