/// RESIZE_BILINEAR's source coordinates (TFLite semantics), shared by the reference kernel and
/// every level's SIMD kernel so both sample exactly the same pixels.
package enum ResizeSampling {
    /// Input pixels per output pixel along one axis.
    @inline(__always)
    package static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }

    /// The two source pixels of output pixel `v` and its exact source coordinate `s`.
    @inline(__always)
    package static func source(_ v: Int, scale: Float, halfPixel: Bool, size: Int) -> (lo: Int, hi: Int, s: Float) {
        let s = halfPixel ? (Float(v) + 0.5) * scale - 0.5 : Float(v) * scale
        let lo = max(Int(s.rounded(.down)), 0)
        let hi = min(Int(s.rounded(.up)), size - 1)
        return (lo, hi, s)
    }
}
