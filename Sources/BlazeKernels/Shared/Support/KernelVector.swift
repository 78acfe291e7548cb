// The vector abstraction every kernel is written against. Each level module compiles this file
// with its own `-target-cpu`; `BLAZE_FMA` (AVX2, AVX-512, NEON) turns `madd` into one FMA.
// Without FMA, `addingProduct` would become a `fmaf` call per lane, so it is not used there.

/// A float vector the generic kernels are specialised for (`SIMD16/8/4<Float>`, or `Float` for
/// scalar channel tails). The vector types share one implementation (`FloatLanes` below).
/// Nothing here is `@usableFromInline`: that would keep the generic extensions' unspecialised
/// bodies, whose stdlib calls (`loadUnaligned`, `scalarCount`) every level module would then
/// define as the same weak symbols (Tools/isa/check_isa_isolation.sh).
protocol KernelVector {
    static var laneCount: Int { get }
    static var zero: Self { get }
    init(splat: Float)
    static func load(_ p: UnsafePointer<Float>) -> Self
    /// Loads `count` (1...laneCount) floats; the other lanes are 0. Never reads past `count`.
    static func load(_ p: UnsafePointer<Float>, count: Int) -> Self
    func store(_ p: UnsafeMutablePointer<Float>)
    /// Stores the first `count` lanes only.
    func store(_ p: UnsafeMutablePointer<Float>, count: Int)
    /// Lanes `count...` set to 0 (a compare and a blend; `count` in 0...laneCount).
    func zeroing(fromLane count: Int) -> Self
    /// The first `count` lanes of `self`, the others of `old` (a compare and a blend).
    func blended(over old: Self, lanes count: Int) -> Self
    /// `self + a·b` (one FMA on levels with FMA).
    func madd(_ a: Self, _ b: Self) -> Self
    func add(_ b: Self) -> Self
    func mul(_ b: Self) -> Self
    /// `max(self, lo)` via compare + blend (NaN stays NaN, like `Activation.apply`).
    func clampedBelow(_ lo: Self) -> Self
    /// `min(self, hi)` via compare + blend.
    func clampedAbove(_ hi: Self) -> Self
    /// `self < 0 ? alpha·self : self`.
    func prelu(_ alpha: Self) -> Self
    /// `self > 0 ? self : alpha·self` (TFLite's LEAKY_RELU: unlike `prelu`, ±0 and NaN lanes take
    /// the product, so a negative alpha flips the sign of a zero).
    func leakyRelu(_ alpha: Self) -> Self
    /// `max(self, other)` with `Activation`/reference semantics: `self > other ? self : other`
    /// is not needed; max pooling uses `v > acc ? v : acc`.
    func maxPool(_ v: Self) -> Self
    /// Sum of the lanes (pairwise tree).
    func laneSum() -> Float
}

/// The arithmetic `KernelVector` is built on, as requirements: a conformance picks the type's
/// concrete operators (`SIMD16<Float>`'s `+` is one vector instruction), and code generic over
/// this protocol calls those. Code generic over `SIMD` alone resolves `+` to the stdlib's
/// per-lane overloads, which LLVM leaves as lane loops (docs/tuning.md, "One KernelVector
/// implementation for every width").
protocol LaneArithmetic {
    static func + (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    #if BLAZE_FMA
        // Only where FMA exists: elsewhere its witness alone would import libm's `fmaf`.
        func addingProduct(_ a: Self, _ b: Self) -> Self
    #endif
}

extension KernelVector where Self: LaneArithmetic {
    @inline(__always) func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_FMA
            return addingProduct(a, b)
        #else
            return self + a * b
        #endif
    }
    @inline(__always) func add(_ b: Self) -> Self { self + b }
    @inline(__always) func mul(_ b: Self) -> Self { self * b }
}

/// The vector operations the `SIMD16/8/4<Float>` implementation uses beyond `LaneArithmetic`,
/// as requirements for the same reason.
protocol FloatLanes: SIMD, LaneArithmetic where Scalar == Float, MaskStorage: LaneIndices {
    init(repeating value: Float)
    static func .< (a: Self, b: Self) -> SIMDMask<MaskStorage>
    static func .> (a: Self, b: Self) -> SIMDMask<MaskStorage>
    func replacing(with other: Self, where mask: SIMDMask<MaskStorage>) -> Self
}

/// The lane masks' storage (`SIMD16/8/4<Int32>`): the integer operations the tail masks use, as
/// requirements for the same reason as `FloatLanes`.
protocol LaneIndices: SIMD where Scalar == Int32, MaskStorage == Self {
    init(repeating value: Int32)
    static func .< (a: Self, b: Self) -> SIMDMask<Self>
    static func .>= (a: Self, b: Self) -> SIMDMask<Self>
}

extension LaneIndices {
    /// 0, 1, 2, … (a constant once specialised).
    @inline(__always) static var ascending: Self {
        var v = Self()
        for i in 0..<Self.scalarCount { v[i] = Int32(i) }
        return v
    }
}

extension KernelVector where Self: FloatLanes {
    @inline(__always) static var laneCount: Int { Self.scalarCount }
    @inline(__always) init(splat: Float) { self.init(repeating: splat) }
    @inline(__always) static func load(_ p: UnsafePointer<Float>) -> Self {
        UnsafeRawPointer(p).loadUnaligned(as: Self.self)
    }
    @inline(__always) static func load(_ p: UnsafePointer<Float>, count: Int) -> Self {
        var v = Self()
        for i in 0..<count { v[i] = p[i] }
        return v
    }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self)
    }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { p[i] = self[i] }
    }
    @inline(__always) func zeroing(fromLane count: Int) -> Self {
        replacing(with: Self(), where: MaskStorage.ascending .>= MaskStorage(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) func blended(over old: Self, lanes count: Int) -> Self {
        old.replacing(with: self, where: MaskStorage.ascending .< MaskStorage(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) func clampedBelow(_ lo: Self) -> Self { replacing(with: lo, where: self .< lo) }
    @inline(__always) func clampedAbove(_ hi: Self) -> Self { replacing(with: hi, where: self .> hi) }
    @inline(__always) func prelu(_ alpha: Self) -> Self { replacing(with: mul(alpha), where: self .< Self()) }
    @inline(__always) func leakyRelu(_ alpha: Self) -> Self { mul(alpha).replacing(with: self, where: self .> Self()) }
    @inline(__always) func maxPool(_ v: Self) -> Self { replacing(with: v, where: v .> self) }
}

// `laneSum` adds the halves pairwise, so it needs the concrete half type.
extension SIMD16: KernelVector, LaneArithmetic, FloatLanes where Scalar == Float {
    @inline(__always) func laneSum() -> Float { (lowHalf + highHalf).laneSum() }
}
extension SIMD8: KernelVector, LaneArithmetic, FloatLanes where Scalar == Float {
    @inline(__always) func laneSum() -> Float { (lowHalf + highHalf).laneSum() }
}
extension SIMD4: KernelVector, LaneArithmetic, FloatLanes where Scalar == Float {
    @inline(__always) func laneSum() -> Float { let h = lowHalf + highHalf; return h[0] + h[1] }
}
extension SIMD16: LaneIndices where Scalar == Int32 {}
extension SIMD8: LaneIndices where Scalar == Int32 {}
extension SIMD4: LaneIndices where Scalar == Int32 {}

extension Float: KernelVector, LaneArithmetic {
    @inline(__always) static var laneCount: Int { 1 }
    @inline(__always) init(splat: Float) { self = splat }
    @inline(__always) static func load(_ p: UnsafePointer<Float>) -> Float { p.pointee }
    @inline(__always) static func load(_ p: UnsafePointer<Float>, count: Int) -> Float { p.pointee }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>) { p.pointee = self }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>, count: Int) { p.pointee = self }
    @inline(__always) func zeroing(fromLane count: Int) -> Float { count > 0 ? self : 0 }
    @inline(__always) func blended(over old: Float, lanes count: Int) -> Float { count > 0 ? self : old }
    @inline(__always) func clampedBelow(_ lo: Float) -> Float { self < lo ? lo : self }
    @inline(__always) func clampedAbove(_ hi: Float) -> Float { self > hi ? hi : self }
    @inline(__always) func prelu(_ alpha: Float) -> Float { self < 0 ? alpha * self : self }
    @inline(__always) func leakyRelu(_ alpha: Float) -> Float { self > 0 ? self : self * alpha }
    @inline(__always) func maxPool(_ v: Float) -> Float { v > self ? v : self }
    @inline(__always) func laneSum() -> Float { self }
}
