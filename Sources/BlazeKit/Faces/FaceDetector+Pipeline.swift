import BlazeEngine
import Foundation

/// What one call computes before tracking IDs are attached.
struct FaceFrameResult: Sendable {
    var faces: [Face]
    /// The Tasks `EXPANDED_FACE_RECT` of every face (same order): what tracking associates.
    var trackingRects: [NormalizedRect]
}

extension FaceDetector {
    /// One image through the whole chain, on one set of sessions.
    ///
    /// 1. BlazeFace on the letterboxed upright image (S1–S3), weighted NMS with IoU 0.3 (S4),
    ///    projection to the image (S5), `minFaceSize` filter → the returned faces.
    /// 2. If a mesh is needed: the same raw detections, weighted NMS with the FaceLandmarker's
    ///    IoU 0.5, each matched one-to-one to the returned face whose box it overlaps most;
    ///    for each match its `EXPANDED_FACE_RECT` (S6, S7 ×1.5) is cropped at 256² and the mesh v2
    ///    net run; presence > 0.5 keeps the 478 points (S8 matrix path).
    /// 3. From a kept mesh: landmarks and contours (§5.2), Euler angles (§5.3), and with
    ///    classification the blendshape net (§5.5).
    func detectFaces(in image: VisionImage, sessions: FaceSessions) throws -> FaceFrameResult {
        let size = image.uprightSize
        let session = sessions.detector
        let (raw, transform) = try configuration.detect(in: image, session: session)

        let minFaceSize = options.minFaceSize
        let detections = nonMaxSuppression(raw, iouThreshold: FaceDetectorConfiguration.resultNMSThreshold)
            .map { $0.projected(by: transform.projection) }
            .filter { $0.isFinite && Double($0.box.width) >= minFaceSize }

        var faces = detections.map { makeFace(from: $0, imageSize: size) }
        let rects = detections.map { faceMeshROI(fromDetection: $0, imageSize: size, flavor: .tasks) }

        if let meshSession = sessions.mesh, !detections.isEmpty {
            for i in faces.indices { faces[i].meshStatus = .unmatched }
            let meshDetections = nonMaxSuppression(raw, iouThreshold: FaceDetectorConfiguration.meshNMSThreshold)
                .map { $0.projected(by: transform.projection) }
                .filter(\.isFinite)
            for (meshIndex, faceIndex) in Self.matchMeshDetections(meshDetections, to: detections) {
                let roi = faceMeshROI(
                    fromDetection: meshDetections[meshIndex], imageSize: size,
                    flavor: .tasks)
                guard let landmarks = try runMesh(on: image, roi: roi, session: meshSession) else {
                    faces[faceIndex].meshStatus = .rejected
                    continue
                }
                var blendshapes: [Float]?
                if let blendSession = sessions.blendshapes {
                    blendshapes = runBlendshapes(landmarks, imageSize: size, session: blendSession)
                }
                attachMesh(landmarks, blendshapes: blendshapes, to: &faces[faceIndex], imageSize: size)
            }
        }
        return FaceFrameResult(faces: faces, trackingRects: rects)
    }

    /// Pairs of (mesh detection, returned face) by descending box IoU, each used at most once;
    /// pairs that do not overlap are never made.
    static func matchMeshDetections(_ meshDetections: [Detection], to faces: [Detection]) -> [(mesh: Int, face: Int)] {
        var candidates: [(iou: Float, mesh: Int, face: Int)] = []
        for (i, m) in meshDetections.enumerated() {
            for (j, f) in faces.enumerated() {
                let iou = m.box.intersectionOverUnion(with: f.box)
                if iou > 0 { candidates.append((iou, i, j)) }
            }
        }
        // Descending IoU; ties by mesh then face index, so the result is deterministic.
        candidates.sort { a, b in
            a.iou != b.iou ? a.iou > b.iou : (a.mesh != b.mesh ? a.mesh < b.mesh : a.face < b.face)
        }
        var usedMesh = Set<Int>(), usedFace = Set<Int>()
        var pairs: [(mesh: Int, face: Int)] = []
        for c in candidates where !usedMesh.contains(c.mesh) && !usedFace.contains(c.face) {
            usedMesh.insert(c.mesh)
            usedFace.insert(c.face)
            pairs.append((c.mesh, c.face))
        }
        return pairs.sorted { $0.face < $1.face }
    }

    /// The detector fields of a face: frame, score, keypoints, and the keypoint-based Euler
    /// estimate (replaced when a mesh is attached).
    func makeFace(from detection: Detection, imageSize: ImageSize) -> Face {
        let w = Double(imageSize.width), h = Double(imageSize.height)
        let box = detection.box
        let frame = VisionRect(
            x: Double(box.xmin) * w, y: Double(box.ymin) * h,
            width: Double(box.width) * w, height: Double(box.height) * h)
        let keypoints = zip(FaceKeypoint.allCases, detection.keypoints).map { type, kp in
            FaceKeypointPosition(type: type, position: VisionPoint(x: Double(kp.x) * w, y: Double(kp.y) * h))
        }
        var face = Face(frame: frame, score: detection.score, keypoints: keypoints)
        if let angles = Self.keypointEulerAngles(keypoints.map(\.position)) {
            face.eulerY = angles.y
            face.eulerZ = angles.z
            face.isHeadEulerAngleYEstimated = true
        }
        return face
    }

    /// The mesh v2 net on `roi` with the FaceLandmarker's presence threshold (`FaceMeshStages.mesh`).
    func runMesh(on image: VisionImage, roi: NormalizedRect, session: Session) throws -> [NormalizedLandmark]? {
        try FaceMeshStages.mesh(on: image, roi: roi, session: session, presenceThreshold: FaceDetectorConfiguration.meshPresenceThreshold)
    }

    /// The blendshape net (`FaceMeshStages.blendshapes`).
    func runBlendshapes(_ landmarks: [NormalizedLandmark], imageSize: ImageSize, session: Session) -> [Float]? {
        FaceMeshStages.blendshapes(landmarks, imageSize: imageSize, session: session)
    }

    /// Fills the mesh-based fields of `face`.
    func attachMesh(
        _ landmarks: [NormalizedLandmark], blendshapes: [Float]?, to face: inout Face,
        imageSize: ImageSize
    ) {
        let w = Double(imageSize.width), h = Double(imageSize.height)
        let points = landmarks.map { Vision3DPoint(x: Double($0.x) * w, y: Double($0.y) * h, z: Double($0.z) * w) }
        face.mesh = points
        face.meshStatus = .computed
        func point(_ i: Int) -> VisionPoint { VisionPoint(x: points[i].x, y: points[i].y) }

        if let pose = facePose(landmarks: landmarks, imageSize: imageSize),
            pose.matrix.allSatisfy(\.isFinite)
        {
            let e = pose.eulerAngles
            if e.x.isFinite, e.y.isFinite, e.z.isFinite {
                face.eulerX = Double(e.x)
                face.eulerY = Double(e.y)
                face.eulerZ = Double(e.z)
                face.isHeadEulerAngleYEstimated = false
                face.facialTransformationMatrix = pose.matrix
            }
        }
        if options.landmarkMode == .all {
            face.landmarks = FaceLandmarkType.allCases.map { type in
                let indices = type.meshIndices
                var x = 0.0, y = 0.0
                for i in indices {
                    x += points[i].x
                    y += points[i].y
                }
                let n = Double(indices.count)
                return FaceLandmark(type: type, position: VisionPoint(x: x / n, y: y / n))
            }
        }
        if options.contourMode == .all {
            face.contours = FaceContourType.allCases.map { FaceContour(type: $0, points: $0.meshIndices.map(point)) }
        }
        if let blendshapes, let classification = FaceClassification(blendshapes: blendshapes) {
            face.smiling = classification.smiling
            face.leftEyeOpen = classification.leftEyeOpen
            face.rightEyeOpen = classification.rightEyeOpen
            face.blendshapes = blendshapes.enumerated().map {
                ClassificationCategory(index: $0.offset, score: $0.element, categoryName: faceBlendshapeNames[$0.offset])
            }
        }
    }
}

extension Detection {
    /// True when score, box and keypoints are all finite.
    var isFinite: Bool {
        score.isFinite && box.xmin.isFinite && box.ymin.isFinite && box.width.isFinite && box.height.isFinite
            && keypoints.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }
}
