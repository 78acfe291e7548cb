// The vector abstraction every kernel is written against. Each level module compiles this file
// with its own `-target-cpu`; `BLAZE_FMA` (AVX2, AVX-512, NEON) turns `madd` into one FMA.
// Without FMA, `addingProduct` would become a `fmaf` call per lane, so it is not used there.

/// A float vector the generic kernels are specialised for (`SIMD16/8/4<Float>`, or `Float` for
/// scalar channel tails). Every operation is a requirement implemented on the concrete type, so
/// the specialised kernels use the concrete (vector-instruction) implementations: written once
/// in a protocol extension over `SIMD`, they ran the stdlib's generic per-lane code instead
/// (docs/tuning.md, "One KernelVector implementation for every width").
@usableFromInline
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

extension SIMD16: KernelVector where Scalar == Float {
    @inline(__always) @usableFromInline static var laneCount: Int { 16 }
    @inline(__always) @usableFromInline init(splat: Float) { self.init(repeating: splat) }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>) -> Self {
        UnsafeRawPointer(p).loadUnaligned(as: Self.self)
    }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>, count: Int) -> Self {
        var v = Self()
        for i in 0..<count { v[i] = p[i] }
        return v
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self)
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { p[i] = self[i] }
    }
    @inline(__always) @usableFromInline func zeroing(fromLane count: Int) -> Self {
        replacing(with: 0, where: SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) .>= SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func blended(over old: Self, lanes count: Int) -> Self {
        old.replacing(with: self, where: SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) .< SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_FMA
            return addingProduct(a, b)
        #else
            return self + a * b
        #endif
    }
    @inline(__always) @usableFromInline func add(_ b: Self) -> Self { self + b }
    @inline(__always) @usableFromInline func mul(_ b: Self) -> Self { self * b }
    @inline(__always) @usableFromInline func clampedBelow(_ lo: Self) -> Self { replacing(with: lo, where: self .< lo) }
    @inline(__always) @usableFromInline func clampedAbove(_ hi: Self) -> Self { replacing(with: hi, where: self .> hi) }
    @inline(__always) @usableFromInline func prelu(_ alpha: Self) -> Self { replacing(with: self * alpha, where: self .< 0) }
    @inline(__always) @usableFromInline func leakyRelu(_ alpha: Self) -> Self { (self * alpha).replacing(with: self, where: self .> 0) }
    @inline(__always) @usableFromInline func maxPool(_ v: Self) -> Self { replacing(with: v, where: v .> self) }
    @inline(__always) @usableFromInline func laneSum() -> Float { (lowHalf + highHalf).laneSum() }
}

extension SIMD8: KernelVector where Scalar == Float {
    @inline(__always) @usableFromInline static var laneCount: Int { 8 }
    @inline(__always) @usableFromInline init(splat: Float) { self.init(repeating: splat) }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>) -> Self {
        UnsafeRawPointer(p).loadUnaligned(as: Self.self)
    }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>, count: Int) -> Self {
        var v = Self()
        for i in 0..<count { v[i] = p[i] }
        return v
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self)
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { p[i] = self[i] }
    }
    @inline(__always) @usableFromInline func zeroing(fromLane count: Int) -> Self {
        replacing(with: 0, where: SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .>= SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func blended(over old: Self, lanes count: Int) -> Self {
        old.replacing(with: self, where: SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_FMA
            return addingProduct(a, b)
        #else
            return self + a * b
        #endif
    }
    @inline(__always) @usableFromInline func add(_ b: Self) -> Self { self + b }
    @inline(__always) @usableFromInline func mul(_ b: Self) -> Self { self * b }
    @inline(__always) @usableFromInline func clampedBelow(_ lo: Self) -> Self { replacing(with: lo, where: self .< lo) }
    @inline(__always) @usableFromInline func clampedAbove(_ hi: Self) -> Self { replacing(with: hi, where: self .> hi) }
    @inline(__always) @usableFromInline func prelu(_ alpha: Self) -> Self { replacing(with: self * alpha, where: self .< 0) }
    @inline(__always) @usableFromInline func leakyRelu(_ alpha: Self) -> Self { (self * alpha).replacing(with: self, where: self .> 0) }
    @inline(__always) @usableFromInline func maxPool(_ v: Self) -> Self { replacing(with: v, where: v .> self) }
    @inline(__always) @usableFromInline func laneSum() -> Float { (lowHalf + highHalf).laneSum() }
}

extension SIMD4: KernelVector where Scalar == Float {
    @inline(__always) @usableFromInline static var laneCount: Int { 4 }
    @inline(__always) @usableFromInline init(splat: Float) { self.init(repeating: splat) }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>) -> Self {
        UnsafeRawPointer(p).loadUnaligned(as: Self.self)
    }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>, count: Int) -> Self {
        var v = Self()
        for i in 0..<count { v[i] = p[i] }
        return v
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self)
    }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { p[i] = self[i] }
    }
    @inline(__always) @usableFromInline func zeroing(fromLane count: Int) -> Self {
        replacing(with: 0, where: SIMD4<Int32>(0, 1, 2, 3) .>= SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func blended(over old: Self, lanes count: Int) -> Self {
        old.replacing(with: self, where: SIMD4<Int32>(0, 1, 2, 3) .< SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: count)))
    }
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_FMA
            return addingProduct(a, b)
        #else
            return self + a * b
        #endif
    }
    @inline(__always) @usableFromInline func add(_ b: Self) -> Self { self + b }
    @inline(__always) @usableFromInline func mul(_ b: Self) -> Self { self * b }
    @inline(__always) @usableFromInline func clampedBelow(_ lo: Self) -> Self { replacing(with: lo, where: self .< lo) }
    @inline(__always) @usableFromInline func clampedAbove(_ hi: Self) -> Self { replacing(with: hi, where: self .> hi) }
    @inline(__always) @usableFromInline func prelu(_ alpha: Self) -> Self { replacing(with: self * alpha, where: self .< 0) }
    @inline(__always) @usableFromInline func leakyRelu(_ alpha: Self) -> Self { (self * alpha).replacing(with: self, where: self .> 0) }
    @inline(__always) @usableFromInline func maxPool(_ v: Self) -> Self { replacing(with: v, where: v .> self) }
    @inline(__always) @usableFromInline func laneSum() -> Float { let h = lowHalf + highHalf; return h[0] + h[1] }
}

extension Float: KernelVector {
    @inline(__always) @usableFromInline static var laneCount: Int { 1 }
    @inline(__always) @usableFromInline init(splat: Float) { self = splat }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>) -> Float { p.pointee }
    @inline(__always) @usableFromInline static func load(_ p: UnsafePointer<Float>, count: Int) -> Float { p.pointee }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>) { p.pointee = self }
    @inline(__always) @usableFromInline func store(_ p: UnsafeMutablePointer<Float>, count: Int) { p.pointee = self }
    @inline(__always) @usableFromInline func zeroing(fromLane count: Int) -> Float { count > 0 ? self : 0 }
    @inline(__always) @usableFromInline func blended(over old: Float, lanes count: Int) -> Float { count > 0 ? self : old }
    @inline(__always) @usableFromInline func madd(_ a: Float, _ b: Float) -> Float {
        #if BLAZE_FMA
            return addingProduct(a, b)
        #else
            return self + a * b
        #endif
    }
    @inline(__always) @usableFromInline func add(_ b: Float) -> Float { self + b }
    @inline(__always) @usableFromInline func mul(_ b: Float) -> Float { self * b }
    @inline(__always) @usableFromInline func clampedBelow(_ lo: Float) -> Float { self < lo ? lo : self }
    @inline(__always) @usableFromInline func clampedAbove(_ hi: Float) -> Float { self > hi ? hi : self }
    @inline(__always) @usableFromInline func prelu(_ alpha: Float) -> Float { self < 0 ? alpha * self : self }
    @inline(__always) @usableFromInline func leakyRelu(_ alpha: Float) -> Float { self > 0 ? self : self * alpha }
    @inline(__always) @usableFromInline func maxPool(_ v: Float) -> Float { v > self ? v : self }
    @inline(__always) @usableFromInline func laneSum() -> Float { self }
}
