/// Tracking IDs for ML Kit's `trackingId` (docs/pipelines.md §5.4, BlazeKit's choice — MediaPipe exposes none).
///
/// Rules: every tracked rect carries an ID; a rect rebuilt from landmarks for the next frame
/// keeps its face's or hand's ID (the caller copies it into the new `TrackedRect`); a detector
/// rect that replaces overlapping tracked rects (`IoU > threshold`) inherits an ID from them
/// (the last one removed, as MediaPipe's `AssociationCalculator` does for detection IDs);
/// every other rect gets the next integer. IDs of faces or hands whose presence test fails
/// simply disappear with their rects and are never reused.
struct TrackingIDAllocator: Sendable, Hashable {
    /// The ID the next new rect gets.
    private(set) var nextID: Int

    init(firstID: Int = 1) {
        nextID = firstID
    }

    /// Gives every rect without an ID the next free ID, in list order.
    mutating func assignMissingIDs(_ rects: [TrackedRect]) -> [TrackedRect] {
        rects.map { rect in
            guard rect.trackingID == nil else { return rect }
            var copy = rect
            copy.trackingID = nextID
            nextID += 1
            return copy
        }
    }

    /// Face association with IDs. `detectorPriority` true = Tasks FaceLandmarker
    /// (`[tracked, detected]`: detector rects replace overlapping tracked ones and inherit their
    /// IDs); false = legacy face mesh (`[detected, tracked]`: tracked rects win and keep theirs).
    /// New rects get fresh IDs.
    mutating func associateFaces(
        tracked: [TrackedRect], detected: [NormalizedRect], threshold: Float,
        detectorPriority: Bool = true
    ) -> [TrackedRect] {
        let detectedRects = detected.map { TrackedRect(rect: $0) }
        let lists = detectorPriority ? [tracked, detectedRects] : [detectedRects, tracked]
        return assignMissingIDs(associateRects(lists, threshold: threshold))
    }

    /// Tasks hand association with IDs: tracked rects keep theirs, detector rects that overlap
    /// none of the result are appended with fresh IDs.
    mutating func associateHands(tracked: [TrackedRect], detected: [NormalizedRect], threshold: Float) -> [TrackedRect] {
        assignMissingIDs(associateHandRects(base: tracked, new: detected.map { TrackedRect(rect: $0) }, threshold: threshold))
    }
}

/// What a video / live-stream task carries from frame to frame: the next-frame ROIs of the faces or
/// hands it kept, their tracking IDs, and a One-Euro landmark smoother per ID (S12).
struct TrackingState {
    var previous: [TrackedRect] = []
    var ids = TrackingIDAllocator()
    var smoothers: [Int: LandmarkSmoother] = [:]
}
