/// IEEE binary16 bits to Float, bit for bit as `Float(Float16(bitPattern:))`, in integer and
/// select operations the loop vectorizer keeps in lanes. Without F16C (which the baseline level
/// may not assume) Swift's conversion is a library call per value, a tenth of a hand pipeline's
/// whole-process time in `blaze hands` on one image.
enum HalfWidening {
    @inline(__always)
    static func float(_ bits: UInt16) -> Float {
        let h = UInt32(bits)
        let sign = (h & 0x8000) &<< 16
        let magnitude = h & 0x7FFF
        // Normal: the exponent rebiased by 127 − 15 = 112. Infinity and NaN (exponent 31) land on
        // exponent 143 and need another 112 to reach 255; the payload keeps its bits.
        let normal = (magnitude &<< 13) &+ (112 &<< 23)
        let infinityOrNaN = normal &+ (112 &<< 23)
        // Zero and subnormals: mantissa · 2⁻²⁴, exact in Float (and never a Float subnormal).
        let subnormal = (Float(Int32(bitPattern: magnitude)) * 0x1p-24).bitPattern
        let value = magnitude < 0x0400 ? subnormal : (magnitude >= 0x7C00 ? infinityOrNaN : normal)
        return Float(bitPattern: value | sign)
    }
}
