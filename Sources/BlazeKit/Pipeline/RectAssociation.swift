/// docs/pipelines.md S11: associating ROIs across the detector and the tracker. Rects are compared as
/// unrotated boxes (`NormalizedRect.intersectionOverUnion(with:)`), "overlapping" = `IoU > threshold`.

/// A rect with an optional tracking ID (docs/pipelines.md §5.4, BlazeKit's choice). MediaPipe's association
/// calculators carry IDs the same way for detections (`AssociationDetectionCalculator`).
struct TrackedRect: Sendable, Hashable {
    var rect: NormalizedRect
    var trackingID: Int?
}

/// `AssociationNormRectCalculator` (legacy hands and face mesh, Tasks FaceLandmarker): lists in
/// increasing priority. Each rect, in order, removes every rect already in the result that it
/// overlaps and is appended.
///
/// IDs follow MediaPipe's `AssociationCalculator`: a rect without an ID inherits the ID of the
/// *last* removed rect that has one; a rect with an ID keeps its own.
func associateRects(_ lists: [[TrackedRect]], threshold: Float) -> [TrackedRect] {
    var result: [TrackedRect] = []
    for list in lists {
        for var element in list {
            var inherited: Int?
            result.removeAll { existing in
                guard element.rect.intersectionOverUnion(with: existing.rect) > threshold else { return false }
                if let id = existing.trackingID { inherited = id }
                return true
            }
            if element.trackingID == nil { element.trackingID = inherited }
            result.append(element)
        }
    }
    return result
}

/// `associateRects` for plain rects.
func associateRects(_ lists: [[NormalizedRect]], threshold: Float) -> [NormalizedRect] {
    associateRects(lists.map { $0.map { TrackedRect(rect: $0) } }, threshold: threshold).map(\.rect)
}

/// `HandAssociationCalculator` (Tasks HandLandmarker): all `base` (tracked) rects are kept, in
/// order; each `new` (detector) rect is appended iff its IoU with every rect already in the
/// result is `≤ threshold`. Tasks uses `threshold = min_tracking_confidence` ∈ (0, 1].
/// IDs pass through unchanged (appended detector rects keep theirs, usually none).
func associateHandRects(base: [TrackedRect], new: [TrackedRect], threshold: Float) -> [TrackedRect] {
    var result = base
    for element in new where !result.contains(where: { element.rect.intersectionOverUnion(with: $0.rect) > threshold }) {
        result.append(element)
    }
    return result
}

/// `associateHandRects` for plain rects.
func associateHandRects(base: [NormalizedRect], new: [NormalizedRect], threshold: Float) -> [NormalizedRect] {
    associateHandRects(
        base: base.map { TrackedRect(rect: $0) }, new: new.map { TrackedRect(rect: $0) },
        threshold: threshold
    ).map(\.rect)
}
