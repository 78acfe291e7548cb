import BlazeEngine

/// The state a video / live-stream hand landmarker carries from frame to frame (docs/pipelines.md
/// §6.6).
typealias HandTracker = TrackingState

/// What one frame cost (for `HandLandmarkerStatistics`).
struct FrameWork: FrameWorkCounting {
    var palmDetectionRan = false
    var landmarkRuns = 0

    func count(into statistics: inout HandLandmarkerStatistics) {
        statistics.framesProcessed += 1
        statistics.landmarkRuns += landmarkRuns
        if palmDetectionRan { statistics.palmDetectionRuns += 1 }
    }
}

extension HandPipeline {
    /// One frame of the Tasks graph. `tracker == nil`: image mode (palm detection on every call,
    /// no association). Otherwise video / live stream: palm detection is skipped while at least
    /// `numHands` hands are tracked; new palms join the tracked hands through
    /// `HandAssociation(minTrackingConfidence)`; the kept hands' next-frame ROIs are remembered.
    /// Hands are de-duplicated in every mode (S11).
    func process(
        _ image: VisionImage, region: NormalizedRect?, timestamp: Int, tracker: inout HandTracker?,
        minTrackingConfidence: Float, smoothing: LandmarkSmoothingOptions?, sessions: HandSessions,
        work: inout FrameWork
    ) throws -> HandLandmarkerResult {
        let size = image.uprightSize
        var rects: [TrackedRect]
        if var state = tracker {
            if state.previous.count >= numHands {
                rects = state.previous
            } else {
                let detected = try detectHandROIs(in: image, region: region, session: sessions.palm)
                work.palmDetectionRan = true
                rects = state.ids.associateHands(tracked: state.previous, detected: detected, threshold: minTrackingConfidence)
            }
            tracker = state
        } else {
            rects = try detectHandROIs(in: image, region: region, session: sessions.palm).map { TrackedRect(rect: $0) }
            work.palmDetectionRan = true
        }
        rects = rects.prefix(numHands).filter { !$0.rect.isEmptySentinel }

        work.landmarkRuns += rects.count
        let hands = try landmarks(in: image, rois: rects.map(\.rect), sessions: sessions)
        var found: [FoundHand] = []
        for (r, hand) in zip(rects, hands) {
            if let hand { found.append(FoundHand(hand: hand, trackingID: r.trackingID)) }
        }
        let kept = deduplicatedHandIndices(found.map(\.hand.landmarks), imageSize: size)
        found = kept.map { found[$0] }

        var landmarks = found.map(\.hand.landmarks)
        var ids: [Int] = []
        if var state = tracker {
            ids = found.map { $0.trackingID ?? 0 }
            // Next-frame ROIs from the raw (unsmoothed) landmarks; with a region of interest, a
            // hand whose ROI centre has left the region is no longer tracked.
            state.previous = zip(found, ids).compactMap { hand, id in
                let next = handROI(fromLandmarks: hand.hand.landmarks, imageSize: size)
                if let region, !region.contains(x: next.xCenter, y: next.yCenter, imageSize: size) { return nil }
                return TrackedRect(rect: next, trackingID: id)
            }
            if let smoothing {
                smoothTracked(
                    &landmarks, ids: ids, smoothers: &state.smoothers, options: smoothing,
                    imageSize: size, timestamp: timestamp)
            }
            tracker = state
        }
        return HandLandmarkerResult(
            handedness: found.map { [category($0.hand)] }, landmarks: landmarks,
            worldLandmarks: found.map(\.hand.worldLandmarks),
            timestampInMilliseconds: timestamp, trackingIDs: ids)
    }
}
