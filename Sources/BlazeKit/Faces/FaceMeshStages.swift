import BlazeEngine

/// The per-face stages after detection that `FaceDetector` and `FaceLandmarker` share: the mesh
/// v2 net on a face ROI and the blendshape net on its landmarks (docs/pipelines.md §4.1, §5.5, §7.1).
enum FaceMeshStages {
    /// The mesh v2 net on `roi`: the 478 landmarks normalized to the upright image, or nil when
    /// the ROI is unusable, the presence (sigmoid of the logit) is not above `presenceThreshold`,
    /// or an output is not finite.
    static func mesh(
        on image: VisionImage, roi: NormalizedRect, session: Session,
        presenceThreshold: Float
    ) throws -> [NormalizedLandmark]? {
        guard roi.xCenter.isFinite, roi.yCenter.isFinite, roi.rotation.isFinite, roi.width.isFinite, roi.height.isFinite,
            roi.width > 0, roi.height > 0
        else { return nil }
        let transform = try image.toTensor(
            roi: roi, options: FaceDetectorConfiguration.meshCrop, into: session.inputBuffers[0], workers: session.workers)
        session.runInPlace()
        let outputs = session.outputBuffers
        let presence = sigmoid(outputs[1][0])
        guard passesPresenceThreshold(presence, threshold: presenceThreshold) else { return nil }
        let decoded = try decodeLandmarks(
            UnsafeBufferPointer(rebasing: outputs[0][0..<(3 * meshPointCount)]),
            options: .faceMeshV2)
        let landmarks = projectLandmarks(decoded, matrix: transform.projection)
        guard landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        return landmarks
    }

    /// The blendshape net on the 146-point subset in upright-image pixels (§5.5): 52 scores in
    /// `faceBlendshapeNames` order, or nil if an output is not finite.
    static func blendshapes(_ landmarks: [NormalizedLandmark], imageSize: ImageSize, session: Session) -> [Float]? {
        let input = session.inputBuffers[0]
        let w = Float(imageSize.width), h = Float(imageSize.height)
        for (k, index) in blendshapeLandmarkIndices.enumerated() {
            input[2 * k] = landmarks[index].x * w
            input[2 * k + 1] = landmarks[index].y * h
        }
        session.runInPlace()
        let scores = Array(session.outputBuffers[0])
        return scores.allSatisfy(\.isFinite) ? scores : nil
    }
}
