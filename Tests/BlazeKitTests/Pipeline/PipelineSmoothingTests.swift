import Foundation
import Testing
@testable import BlazeKit

/// S12 One-Euro landmark smoothing on hand-computed cases.
@Suite struct PipelineSmoothingTests {
    static let second: Int64 = 1_000_000_000

    @Test func firstSamplePassesAndSecondIsBlended() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0, derivateCutoff: 1)
        #expect(f.apply(0, valueScale: 1, timestampNanoseconds: Self.second) == 0)
        // Δt = 0.1 s → 10 Hz; α(1 Hz) = 1/(1 + (1/2π)/0.1) = 0.385869…
        let y = f.apply(10, valueScale: 1, timestampNanoseconds: Self.second + Self.second / 10)
        let alpha = 1 / (1 + (1 / (2 * Double.pi)) / 0.1)
        #expect(abs(y - 10 * alpha) < 1e-5)
        #expect(abs(f.frequency - 10) < 1e-9)
    }

    @Test func betaRaisesTheCutoffWithSpeed() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0.1, derivateCutoff: 1)
        _ = f.apply(0, valueScale: 1, timestampNanoseconds: Self.second)
        let y = f.apply(10, valueScale: 0.5, timestampNanoseconds: Self.second + Self.second / 10)
        func alpha(_ cutoff: Double) -> Double { 1 / (1 + (1 / (2 * Double.pi * cutoff)) / 0.1) }
        // dx = (10 − 0)·0.5·10 = 50; edx = α(1)·50 (previous derivative 0); cutoff = 1 + 0.1·edx.
        let edx = alpha(1) * 50
        #expect(abs(y - 10 * alpha(1 + 0.1 * edx)) < 1e-4)
    }

    @Test func timestampQuirks() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0, derivateCutoff: 1)
        // A first sample at t = 0 starts the filter (MediaPipe's FaceLandmarker smooths the second
        // frame of a stream starting at 0 ms, see OneEuroFilter); with t = 0 the frequency stays
        // at its initial 30 Hz for the next sample.
        #expect(f.apply(0, valueScale: 1, timestampNanoseconds: 0) == 0)
        let first = f.apply(10, valueScale: 1, timestampNanoseconds: Self.second)
        #expect(abs(first - 10 * OneEuroFilter.alpha(cutoff: 1, frequency: 30)) < 1e-5)
        #expect(f.frequency == 30)
        #expect(f.apply(3, valueScale: 1, timestampNanoseconds: Self.second) == 3)  // equal timestamp: raw
        #expect(f.apply(3, valueScale: 1, timestampNanoseconds: Self.second / 2) == 3)  // going back: raw
        // The next valid sample blends with `first`, the last *filtered* value.
        let y = f.apply(10, valueScale: 1, timestampNanoseconds: 2 * Self.second)
        #expect(y > first && y < 10)
    }

    @Test func smootherOnLandmarks() {
        var s = LandmarkSmoother()
        let still = [NormalizedLandmark(x: 0.4, y: 0.4, z: 0.01), NormalizedLandmark(x: 0.6, y: 0.7, z: -0.02)]
        #expect(s.smooth(still, imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 33_000) == still)
        // A still object stays exactly where it is.
        let again = s.smooth(still, imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 66_000)
        #expect(maxAbsDiff(again.flatMap { [$0.x, $0.y, $0.z] }, still.flatMap { [$0.x, $0.y, $0.z] }) < 1e-6)
        // A jump is followed only partly at once.
        let moved = still.map { NormalizedLandmark(x: $0.x + 0.01, y: $0.y, z: $0.z) }
        let out = s.smooth(moved, imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 99_000)
        #expect(out[0].x > 0.4 && out[0].x < 0.41)
        #expect(abs(out[0].y - 0.4) < 1e-6)
        // Reset: the next frame passes through unchanged.
        s.reset()
        #expect(s.smooth(moved, imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 132_000) == moved)
        // An empty frame resets too.
        #expect(s.smooth([], imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 165_000).isEmpty)
        #expect(s.smooth(still, imageSize: ImageSize(width: 640, height: 480), timestampMicroseconds: 198_000) == still)
    }

    /// Reproduces the filter by hand for one coordinate: pixels, value_scale = 1/object_scale.
    @Test func smootherMatchesHandComputation() {
        var s = LandmarkSmoother()
        let w = 100, h = 100
        let f0 = [NormalizedLandmark(x: 0.2, y: 0.2), NormalizedLandmark(x: 0.6, y: 0.4)]  // object scale (40 + 20)/2 = 30 px
        let f1 = [NormalizedLandmark(x: 0.3, y: 0.2), NormalizedLandmark(x: 0.6, y: 0.4)]  // object scale (30 + 20)/2 = 25 px
        _ = s.smooth(f0, imageSize: ImageSize(width: w, height: h), timestampMicroseconds: 1_000_000)
        let out = s.smooth(f1, imageSize: ImageSize(width: w, height: h), timestampMicroseconds: 1_100_000)
        func alpha(_ cutoff: Double) -> Double { 1 / (1 + (1 / (2 * Double.pi * cutoff)) / 0.1) }
        let options = LandmarkSmoothingOptions.faceLandmarker
        let dx = (30.0 - 20.0) * (1.0 / 25.0) * 10  // pixels · value_scale · Hz
        let edx = alpha(Double(options.derivateCutoff)) * dx
        let cutoff = Double(options.minCutoff) + Double(options.beta) * edx
        let a = alpha(cutoff)
        let expected = (a * 30 + (1 - a) * 20) / 100
        #expect(abs(Double(out[0].x) - expected) < 1e-6)
        #expect(out[1] == f1[1])
    }

    @Test func tinyObjectsAreNotSmoothed() {
        var s = LandmarkSmoother()
        let dot = [NormalizedLandmark(x: 0.5, y: 0.5), NormalizedLandmark(x: 0.5, y: 0.5)]
        _ = s.smooth(dot, imageSize: ImageSize(width: 100, height: 100), timestampMicroseconds: 1000)
        let moved = dot.map { NormalizedLandmark(x: $0.x + 0.1, y: $0.y) }
        #expect(s.smooth(moved, imageSize: ImageSize(width: 100, height: 100), timestampMicroseconds: 2000) == moved)
    }
}
