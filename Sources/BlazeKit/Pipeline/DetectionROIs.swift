/// ROIs derived from detector outputs (docs/pipelines.md §3, §4.1, §6.2). All take detections in
/// normalized *image* coordinates (after S5).

/// Which MediaPipe flavour's face-mesh ROI to build (§4.1).
enum FaceMeshROIFlavor: Sendable, Hashable {
    /// Legacy face mesh: S6(keypoint 0 → 1) then S7(scale 1.5, square_long).
    case legacy
    /// Tasks FaceLandmarker: the detector's `EXPANDED_FACE_RECT`, S6 then S7(scale 1.5) without
    /// square_long (the BlazeFace box is already square in pixels).
    case tasks
}

/// The face rect of a BlazeFace detection: S6 with eye → eye rotation (`FACE_RECTS` in Tasks).
func faceRect(fromDetection detection: Detection, imageSize: ImageSize) -> NormalizedRect {
    NormalizedRect(detection: detection, imageSize: imageSize, rotation: .faceDetection)
}

/// The face mesh ROI for a BlazeFace detection (§4.1).
func faceMeshROI(
    fromDetection detection: Detection, imageSize: ImageSize,
    flavor: FaceMeshROIFlavor = .legacy
) -> NormalizedRect {
    let rect = faceRect(fromDetection: detection, imageSize: imageSize)
    let transformation: RectTransformation = flavor == .legacy ? .faceMesh : .expandedFace
    return transformation.apply(to: rect, imageSize: imageSize)
}

/// The hand ROI for a palm detection (§6.2): S6(wrist centre → middle MCP, target π/2, or
/// MediaPipe Tasks' 90 radians) then S7(scale 2.6, shift_y −0.5, square_long). With `.upright` an
/// upright hand gets rotation 0.
func handROI(fromPalm palm: Detection, imageSize: ImageSize, rotation: PalmRegionRotation) -> NormalizedRect {
    let rect = NormalizedRect(detection: palm, imageSize: imageSize, rotation: rotation == .upright ? .palm : .palmTasks)
    return RectTransformation.handFromPalm.apply(to: rect, imageSize: imageSize)
}
