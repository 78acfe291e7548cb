/// Tracking IDs across the calls of one tracking detector (docs/pipelines.md §5.4, BlazeKit's choice).
///
/// Detection runs on every frame. Each face's `EXPANDED_FACE_RECT` (the rect the Tasks
/// FaceLandmarker associates) is compared with the previous frame's as an unrotated box (S11
/// IoU); a face continues a previous one when their IoU is above 0.5 (Tasks
/// `min_tracking_confidence`) and inherits its ID. Unlike `AssociationNormRectCalculator`, the
/// matching is one-to-one (best IoU first), so no returned face is dropped and no ID is given to
/// two faces. A face that matches nothing gets the next integer; an ID whose face is not found
/// in a frame ends and is never given out again.
struct FaceTracker: Sendable {
    private var previous: [TrackedRect] = []
    private var allocator = TrackingIDAllocator(firstID: 1)
    let threshold: Float

    init(threshold: Float = FaceDetectorConfiguration.trackingIoUThreshold) {
        self.threshold = threshold
    }

    /// IDs for this frame's rects (same order); remembers them for the next frame.
    mutating func assignIDs(to rects: [NormalizedRect]) -> [Int] {
        var candidates: [(iou: Float, current: Int, previous: Int)] = []
        for (i, rect) in rects.enumerated() {
            for (j, old) in previous.enumerated() {
                let iou = rect.intersectionOverUnion(with: old.rect)
                if iou > threshold { candidates.append((iou, i, j)) }
            }
        }
        candidates.sort { a, b in
            a.iou != b.iou ? a.iou > b.iou : (a.current != b.current ? a.current < b.current : a.previous < b.previous)
        }
        var tracked = rects.map { TrackedRect(rect: $0) }
        var usedPrevious = Set<Int>()
        for c in candidates where tracked[c.current].trackingID == nil && !usedPrevious.contains(c.previous) {
            tracked[c.current].trackingID = previous[c.previous].trackingID
            usedPrevious.insert(c.previous)
        }
        tracked = allocator.assignMissingIDs(tracked)
        previous = tracked
        return tracked.map { $0.trackingID ?? 0 }
    }
}
