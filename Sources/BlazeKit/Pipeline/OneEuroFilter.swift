/// MediaPipe's `LowPassFilter` (util/filtering/low_pass_filter.cc): Float32 state; the first
/// sample passes through unchanged.
struct LowPassFilter: Sendable, Hashable {
    private(set) var alpha: Float
    private(set) var initialized = false
    private(set) var lastRawValue: Float = 0
    private(set) var lastValue: Float = 0

    init(alpha: Float) {
        self.alpha = alpha
    }

    /// `α·x + (1 − α)·previous`, with MediaPipe's mixed float/double evaluation.
    mutating func apply(_ value: Float) -> Float {
        let result: Float
        if initialized {
            result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(lastValue))
        } else {
            result = value
            initialized = true
        }
        lastRawValue = value
        lastValue = result
        return result
    }

    /// Sets α (ignored unless in [0, 1], as MediaPipe logs and keeps the old one) and applies.
    mutating func apply(_ value: Float, alpha newAlpha: Float) -> Float {
        if newAlpha >= 0 && newAlpha <= 1 { alpha = newAlpha }
        return apply(value)
    }
}

/// The One-Euro filter of one scalar signal (docs/pipelines.md S12; util/filtering/one_euro_filter.cc),
/// in Double like MediaPipe, with Float32 low-pass state.
///
/// Timestamps are in nanoseconds. The first sample, at any timestamp (0 included), passes
/// through and starts the filter — what MediaPipe 0.10.21's Tasks FaceLandmarker does in VIDEO
/// mode: it smooths the second frame of a stream that starts at 0 ms (measured on the fixture
/// `three_people_video`). Quirks kept from MediaPipe after that: a timestamp ≤ the previous one
/// returns the raw value and changes nothing; the frequency is re-estimated from consecutive
/// timestamps only when neither is 0, so a stream starting at t = 0 uses the initial
/// `frequency` for its second sample.
struct OneEuroFilter: Sendable, Hashable {
    /// Current sampling frequency in Hz.
    private(set) var frequency: Double
    let minCutoff: Double
    let beta: Double
    let derivateCutoff: Double
    private var x: LowPassFilter
    private var dx: LowPassFilter
    private var lastTime: Int64 = 0

    init(frequency: Double = 30, minCutoff: Double, beta: Double, derivateCutoff: Double) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivateCutoff = derivateCutoff
        x = LowPassFilter(alpha: Float(Self.alpha(cutoff: minCutoff, frequency: frequency)))
        dx = LowPassFilter(alpha: Float(Self.alpha(cutoff: derivateCutoff, frequency: frequency)))
    }

    /// `1 / (1 + τ/Tₑ)` with `τ = 1/(2π·cutoff)`, `Tₑ = 1/frequency`.
    static func alpha(cutoff: Double, frequency: Double) -> Double {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return 1.0 / (1.0 + tau / te)
    }

    /// Filters `value` observed at `timestampNanoseconds`; `valueScale` scales the derivative
    /// (the inverse object size).
    mutating func apply(_ value: Double, valueScale: Double, timestampNanoseconds: Int64) -> Double {
        if x.initialized && lastTime >= timestampNanoseconds { return value }
        if lastTime != 0 && timestampNanoseconds != 0 {
            frequency = 1.0 / (Double(timestampNanoseconds - lastTime) * 1e-9)
        }
        lastTime = timestampNanoseconds
        let derivative = x.initialized ? (value - Double(x.lastRawValue)) * valueScale * frequency : 0
        let smoothedDerivative = Double(dx.apply(Float(derivative), alpha: Float(Self.alpha(cutoff: derivateCutoff, frequency: frequency))))
        let cutoff = minCutoff + beta * abs(smoothedDerivative)
        return Double(x.apply(Float(value), alpha: Float(Self.alpha(cutoff: cutoff, frequency: frequency))))
    }
}
