import BlazeEngine

/// The state a video / live-stream face landmarker carries from frame to frame
/// (docs/pipelines.md §4.2, Tasks).
typealias FaceLandmarkerTracker = TrackingState

/// What one frame cost (for `FaceLandmarkerStatistics`).
struct FaceFrameWork: FrameWorkCounting {
    var detectorRan = false
    var meshRuns = 0
    var blendshapeRuns = 0

    func count(into statistics: inout FaceLandmarkerStatistics) {
        statistics.framesProcessed += 1
        statistics.meshRuns += meshRuns
        statistics.blendshapeRuns += blendshapeRuns
        if detectorRan { statistics.faceDetectionRuns += 1 }
    }
}

/// MediaPipe Tasks' FaceLandmarker graph on BlazeKit's stages.
struct FaceLandmarkerPipeline: Sendable {
    let options: FaceLandmarkerOptions
    let configuration = FaceDetectorConfiguration(.fast)

    /// The detector's face ROIs (Tasks `EXPANDED_FACE_RECTS`): BlazeFace short range with score
    /// ≥ `minFaceDetectionConfidence`, weighted NMS at IoU 0.5 (the FaceLandmarker graph's value),
    /// the first `numFaces`.
    func detectFaceROIs(in image: VisionImage, session: Session) throws -> [NormalizedRect] {
        let size = image.uprightSize
        let (raw, transform) = try configuration.detect(in: image, session: session, minScore: options.minFaceDetectionConfidence)
        return nonMaxSuppression(raw, iouThreshold: FaceDetectorConfiguration.meshNMSThreshold)
            .map { $0.projected(by: transform.projection) }
            .filter(\.isFinite)
            .prefix(options.numFaces)
            .map { faceMeshROI(fromDetection: $0, imageSize: size, flavor: .tasks) }
    }

    /// One frame. `tracker == nil`: image mode (detector on every call). Otherwise video / live
    /// stream: the detector is skipped while `numFaces` faces are tracked; its rects otherwise
    /// join the tracked ones through the association with `minTrackingConfidence`, replacing the
    /// tracked rects they overlap; the kept faces' next-frame ROIs come from their landmarks.
    /// With `numFaces == 1` the landmarks are One-Euro smoothed (S12), as MediaPipe does; the
    /// next ROI uses the raw landmarks, the blendshapes and the matrix the returned ones (what
    /// MediaPipe's outputs match: its blendshapes follow the smoothed points).
    func process(
        _ image: VisionImage, timestamp: Int, tracker: inout FaceLandmarkerTracker?, sessions: FaceSessions,
        work: inout FaceFrameWork
    ) throws -> FaceLandmarkerResult {
        guard let meshSession = sessions.mesh else { preconditionFailure("a FaceLandmarker's sessions always have a mesh session") }
        let size = image.uprightSize
        var rects: [TrackedRect]
        if var state = tracker {
            if state.previous.count >= options.numFaces {
                rects = state.previous
            } else {
                let detected = try detectFaceROIs(in: image, session: sessions.detector)
                work.detectorRan = true
                rects = state.ids.associateFaces(tracked: state.previous, detected: detected, threshold: options.minTrackingConfidence)
            }
            tracker = state
        } else {
            rects = try detectFaceROIs(in: image, session: sessions.detector).map { TrackedRect(rect: $0) }
            work.detectorRan = true
        }
        rects = Array(rects.prefix(options.numFaces))

        var raw: [[NormalizedLandmark]] = [], ids: [Int] = []
        for r in rects {
            work.meshRuns += 1
            guard
                let landmarks = try FaceMeshStages.mesh(
                    on: image, roi: r.rect, session: meshSession,
                    presenceThreshold: options.minFacePresenceConfidence)
            else { continue }
            raw.append(landmarks)
            ids.append(r.trackingID ?? 0)
        }

        var landmarks = raw
        if var state = tracker {
            state.previous = zip(raw, ids).map { TrackedRect(rect: faceMeshROI(fromLandmarks: $0, imageSize: size), trackingID: $1) }
            if options.numFaces == 1 {
                smoothTracked(
                    &landmarks, ids: ids, smoothers: &state.smoothers, options: .faceLandmarker,
                    imageSize: size, timestamp: timestamp)
            }
            tracker = state
        } else {
            ids = []
        }

        var blendshapes: [Classifications] = []
        if let blendSession = sessions.blendshapes {
            for face in landmarks {
                work.blendshapeRuns += 1
                // A non-finite blendshape output gives zeros rather than dropping the face.
                let scores =
                    FaceMeshStages.blendshapes(face, imageSize: size, session: blendSession)
                    ?? [Float](repeating: 0, count: faceBlendshapeNames.count)
                blendshapes.append(
                    Classifications(
                        categories: scores.enumerated().map {
                            ResultCategory(index: $0.offset, score: $0.element, categoryName: faceBlendshapeNames[$0.offset], displayName: nil)
                        }))
            }
        }
        var matrices: [TransformMatrix] = []
        if options.outputFacialTransformationMatrixes {
            for face in landmarks {
                let matrix = facePose(landmarks: face, imageSize: size)?.matrix
                matrices.append(
                    TransformMatrix(
                        rows: 4, columns: 4,
                        data: matrix.flatMap { $0.count == 16 ? $0 : nil }
                            ?? [Float](repeating: .nan, count: 16)))
            }
        }
        return FaceLandmarkerResult(
            faceLandmarks: landmarks, faceBlendshapes: blendshapes, facialTransformationMatrixes: matrices,
            timestampInMilliseconds: timestamp, trackingIDs: ids)
    }
}
