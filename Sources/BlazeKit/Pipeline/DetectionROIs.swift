/// ROIs derived from detector outputs (docs/pipelines.md §3, §4.1, §6.2). All take detections in
/// normalized *image* coordinates (after S5).

/// Which MediaPipe flavour's face-mesh ROI to build (§4.1).
public enum FaceMeshROIFlavor: Sendable, Hashable {
    /// Legacy face mesh: S6(keypoint 0 → 1) then S7(scale 1.5, square_long).
    case legacy
    /// Tasks FaceLandmarker: the detector's `EXPANDED_FACE_RECT`, S6 then S7(scale 1.5) without
    /// square_long (the BlazeFace box is already square in pixels).
    case tasks
}

/// The face rect of a BlazeFace detection: S6 with eye → eye rotation (`FACE_RECTS` in Tasks).
func faceRect(fromDetection detection: Detection, imageWidth: Int, imageHeight: Int) -> NormalizedRect {
    NormalizedRect(detection: detection, imageWidth: imageWidth, imageHeight: imageHeight, rotation: .faceDetection)
}

/// The face mesh ROI for a BlazeFace detection (§4.1).
func faceMeshROI(
    fromDetection detection: Detection, imageWidth: Int, imageHeight: Int,
    flavor: FaceMeshROIFlavor = .legacy
) -> NormalizedRect {
    let rect = faceRect(fromDetection: detection, imageWidth: imageWidth, imageHeight: imageHeight)
    let transformation: RectTransformation = flavor == .legacy ? .faceMesh : .expandedFace
    return transformation.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}

/// The hand ROI for a palm detection (§6.2): S6(wrist centre → middle MCP, target π/2) then
/// S7(scale 2.6, shift_y −0.5, square_long). An upright hand gets rotation 0.
func handROI(fromPalm palm: Detection, imageWidth: Int, imageHeight: Int) -> NormalizedRect {
    let rect = NormalizedRect(detection: palm, imageWidth: imageWidth, imageHeight: imageHeight, rotation: .palm)
    return RectTransformation.handFromPalm.apply(to: rect, imageWidth: imageWidth, imageHeight: imageHeight)
}
