import Foundation

/// docs/pipelines.md S9: landmarks → the next frame's ROI.

/// `LandmarksToDetectionCalculator`: a detection whose box bounds *all* landmarks and whose
/// keypoints are the landmarks' `(x, y)`. Score 0 (MediaPipe leaves it unset).
///
/// Bit-exactness quirk kept on purpose: the running maxima start at `FLT_MIN`
/// (1.17549435e-38, the smallest *positive* normal float), not at −∞.
func landmarksToDetection(_ landmarks: [NormalizedLandmark]) -> Detection {
    var xmin = Float.greatestFiniteMagnitude, ymin = Float.greatestFiniteMagnitude
    var xmax = Float.leastNormalMagnitude, ymax = Float.leastNormalMagnitude
    var keypoints: [Detection.Keypoint] = []
    keypoints.reserveCapacity(landmarks.count)
    for lm in landmarks {
        xmin = min(xmin, lm.x)
        xmax = max(xmax, lm.x)
        ymin = min(ymin, lm.y)
        ymax = max(ymax, lm.y)
        keypoints.append(.init(x: lm.x, y: lm.y))
    }
    return Detection(
        score: 0, box: .init(xmin: xmin, ymin: ymin, width: xmax - xmin, height: ymax - ymin),
        keypoints: keypoints)
}

/// Face S9 without the final transformation: landmark bounding box, rotation from landmark
/// 33 to 263 (target 0). Apply `RectTransformation.faceMesh` for the ROI, or use
/// `faceMeshROI(fromLandmarks:imageSize:)`.
///
/// - Precondition: at least 264 landmarks (the 468/478-point meshes).
func faceRect(fromLandmarks landmarks: [NormalizedLandmark], imageSize: ImageSize) -> NormalizedRect {
    NormalizedRect(
        detection: landmarksToDetection(landmarks), imageSize: imageSize,
        rotation: .faceLandmarks)
}

/// The 12 hand landmarks the next-frame hand ROI is built from (wrist, thumb CMC/MCP/IP and the
/// MCP and PIP joints of the four fingers).
let handROILandmarkIndices = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18]

/// Hand S9 without the final transformation (`HandLandmarksToRectCalculator`): rotation from
/// the wrist to the mean of the index/ring MCPs averaged with the middle MCP (target π/2),
/// then the tightest box of the 12 palm-and-base landmarks in that rotated frame. Apply
/// `RectTransformation.handFromLandmarks`, or use `handROI(fromLandmarks:imageSize:)`.
///
/// Keeps MediaPipe's `FLT_MIN` start value of the running maxima (both passes).
///
/// - Precondition: 21 landmarks.
func handRect(fromLandmarks landmarks: [NormalizedLandmark], imageSize: ImageSize) -> NormalizedRect {
    precondition(landmarks.count >= 21, "hand landmarks: expected 21, got \(landmarks.count)")
    let points = handROILandmarkIndices.map { landmarks[$0] }
    let w = Float(imageSize.width), h = Float(imageSize.height)

    // ComputeRotation (indices 4, 6, 8 of the 12-point list are landmarks 5, 9, 13).
    let x0 = points[0].x * w, y0 = points[0].y * h
    var x1 = (points[4].x + points[8].x) / 2, y1 = (points[4].y + points[8].y) / 2
    x1 = (x1 + points[6].x) / 2 * w
    y1 = (y1 + points[6].y) / 2 * h
    let targetAngle = Float(Double.pi * 0.5)  // `M_PI * 0.5f` rounded to nearest (not Float.pi/2)
    let rotation = normalizeRadians(targetAngle - atan2(-(y1 - y0), x1 - x0))
    let reverseAngle = normalizeRadians(-rotation)

    var maxX = Float.leastNormalMagnitude, maxY = Float.leastNormalMagnitude
    var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
    for p in points {
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
        minX = min(minX, p.x)
        minY = min(minY, p.y)
    }
    let centerX = (maxX + minX) / 2, centerY = (maxY + minY) / 2

    let cr = cos(reverseAngle), sr = sin(reverseAngle)
    maxX = Float.leastNormalMagnitude
    maxY = Float.leastNormalMagnitude
    minX = Float.greatestFiniteMagnitude
    minY = Float.greatestFiniteMagnitude
    for p in points {
        let ox = (p.x - centerX) * w, oy = (p.y - centerY) * h
        let px = ox * cr - oy * sr, py = ox * sr + oy * cr
        maxX = max(maxX, px)
        maxY = max(maxY, py)
        minX = min(minX, px)
        minY = min(minY, py)
    }
    let projectedCenterX = (maxX + minX) / 2, projectedCenterY = (maxY + minY) / 2
    let c = cos(rotation), s = sin(rotation)
    let cx = projectedCenterX * c - projectedCenterY * s + w * centerX
    let cy = projectedCenterX * s + projectedCenterY * c + h * centerY
    return NormalizedRect(
        xCenter: cx / w, yCenter: cy / h, width: (maxX - minX) / w, height: (maxY - minY) / h,
        rotation: rotation)
}

/// The next frame's hand ROI (docs/pipelines.md S9 hand): `handRect` then scale 2, shift_y −0.1,
/// square_long.
func handROI(fromLandmarks landmarks: [NormalizedLandmark], imageSize: ImageSize) -> NormalizedRect {
    RectTransformation.handFromLandmarks.apply(
        to: handRect(fromLandmarks: landmarks, imageSize: imageSize),
        imageSize: imageSize)
}

/// The next frame's face mesh ROI (docs/pipelines.md S9 face, §4.1): bounding box of all
/// landmarks, rotation 33 → 263, scale 1.5, square_long.
func faceMeshROI(fromLandmarks landmarks: [NormalizedLandmark], imageSize: ImageSize) -> NormalizedRect {
    RectTransformation.faceMesh.apply(
        to: faceRect(fromLandmarks: landmarks, imageSize: imageSize),
        imageSize: imageSize)
}
