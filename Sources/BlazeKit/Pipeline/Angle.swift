import Foundation

/// MediaPipe's `NormalizeRadians` (docs/pipelines.md §1.1): `a − 2π·floor((a + π)/(2π))`, in [−π, π).
///
/// Evaluated in Double and rounded to Float once, like the C++ original, whose `M_PI` promotes
/// the float argument. Used by every rotation in the pipelines (S6, S9).
@inlinable
func normalizeRadians(_ angle: Float) -> Float {
    let a = Double(angle)
    return Float(a - 2 * Double.pi * ((a + Double.pi) / (2 * Double.pi)).rounded(.down))
}
