// Kernels/SIMD: prepared (packed-at-load) CPU kernels in plain Swift SIMD, for both builds.
//
// KERNELS
// - `PackedConv2D`          CONV_2D (1×1 pointwise, any k×k / stride / dilation / padding, computed
//                           straight from NHWC without im2col) and FULLY_CONNECTED
//                           (`init(fullyConnected:…)`). Register tiles MR pixels × NV·16 channels,
//                           shape chosen per layer at init; O ≤ 2 heads use dot products.
// - `PackedDepthwiseConv2D` DEPTHWISE_CONV_2D; 3×3 / 5×5, stride 1 / 2 unrolled, any other shape
//                           through a general path; padding inside the kernel.
// - `Pool2DKernel`          MAX_POOL_2D / AVERAGE_POOL_2D (any window; 2×2 s2 in the nets).
// - `ResizeBilinearKernel`  RESIZE_BILINEAR (bit-identical to the reference).
// - `SIMDElementwise`       ADD (+ activation), ADD + PRELU, PRELU (per channel), channel PAD.
//
// LIFECYCLE AND MEMORY
// - Create each kernel once per model (at load): init copies and packs the weights into 64-byte
//   aligned storage owned by the object (the model's constant buffers may be freed afterwards).
// - `run` allocates nothing, takes no locks and only reads the object: objects are immutable after
//   init and `@unchecked Sendable`; one object serves all sessions and threads concurrently.
//
// THREADING
// - Every kernel exposes `workCount` independent work units and `run(…, work:/rows: range)`.
//   Units: output rows (`batch·outH`) for depthwise, pooling, resize and direct conv; blocks of
//   `pixelsPerUnit` pixels for pointwise conv — times `channelGroups` output-channel groups when
//   the spatial size is small (≥ 8 units whenever the layer allows).
// - Give each thread one contiguous range: `partition(t, of: threads)`. Any split yields
//   bit-identical output to one call (tests check this), so results do not depend on threads.
// - `flops` (2·MACs) helps decide when a layer is too small to split (≲ 0.2 MFLOP ≈ 1–2 µs).
//
// TENSORS AND ALIASING
// - Dense NHWC float32, batch included; pointers need no particular alignment.
// - `output` must not overlap `input`. `residual` is either exactly `output` (in-place ADD) or
//   disjoint from it. Elementwise ops accept `output` == an input (in place).
//
// FUSION (the epilogue, in the order of the TFLite ops it replaces)
//   y = act(acc + bias)                   conv's own fused activation (params.activation)
//   y = residualAct(y + residual)         a following ADD (only when `run` gets `residual`)
//   y = y < 0 ? alpha[c]·y : y            a following PRELU (`prelu:` alpha given at init)
// covering conv→PRELU, conv→ADD(act), conv→ADD→PRELU (BlazeBlocks), conv→ADD→RELU (fuse the
// RELU op as `residualActivation`). `PackedConv2D(residualChannels:)` adds a residual with fewer
// channels than the output — MAX_POOL → PAD(channels) → ADD without materialising the PAD.
//
// BUILDS
// - `BLAZE_TUNED` (with `-target-cpu native`): 16-lane AVX-512 vectors, FMA via `addingProduct`.
// - Default (baseline x86-64): 4-lane SSE vectors, plain `*`/`+`; pointwise conv goes through
//   OpenBLAS (`Backend.automatic`), which is 4–5× faster than SSE code there.
// - Results match the reference kernels within 1e-5·max(1, max|ref|) (summation order, FMA).

/// A float vector the generic kernels are specialised for (`SIMD16/8/4<Float>`, or `Float` for
/// scalar channel tails). Every operation is a requirement implemented on the concrete type, so
/// the specialised kernels use the concrete (vector-instruction) implementations.
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
    /// `self + a·b` (one FMA in the tuned build).
    func madd(_ a: Self, _ b: Self) -> Self
    func add(_ b: Self) -> Self
    func mul(_ b: Self) -> Self
    /// `max(self, lo)` via compare + blend (NaN stays NaN, like `Activation.apply`).
    func clampedBelow(_ lo: Self) -> Self
    /// `min(self, hi)` via compare + blend.
    func clampedAbove(_ hi: Self) -> Self
    /// `self < 0 ? alpha·self : self`.
    func prelu(_ alpha: Self) -> Self
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
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_TUNED
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
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_TUNED
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
    @inline(__always) @usableFromInline func madd(_ a: Self, _ b: Self) -> Self {
        #if BLAZE_TUNED
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
    @inline(__always) @usableFromInline func madd(_ a: Float, _ b: Float) -> Float {
        #if BLAZE_TUNED
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
    @inline(__always) @usableFromInline func maxPool(_ v: Float) -> Float { v > self ? v : self }
    @inline(__always) @usableFromInline func laneSum() -> Float { self }
}

/// Lane counts used by this build: the widest vector the kernels are specialised for.
enum SIMDBuild {
    #if BLAZE_TUNED
    /// AVX-512: 32 zmm registers of 16 floats.
    static let isTuned = true
    static let wideLanes = 16
    #else
    /// Baseline x86-64: 16 xmm registers of 4 floats.
    static let isTuned = false
    static let wideLanes = 4
    #endif
}

/// Clamp bounds of a fused activation; `nil` bounds are skipped (no compare/blend).
struct ActivationBounds {
    var lo: Float?, hi: Float?

    init(_ a: Activation) {
        switch a {
        case .none: lo = nil; hi = nil
        case .relu: lo = 0; hi = nil
        case .relu6: lo = 0; hi = 6
        case .reluMinus1To1: lo = -1; hi = 1
        }
    }

    @inline(__always)
    func apply<V: KernelVector>(_ v: V) -> V {
        var r = v
        if let lo { r = r.clampedBelow(V(splat: lo)) }
        if let hi { r = r.clampedAbove(V(splat: hi)) }
        return r
    }
}

/// The fused epilogue of a conv kernel, resolved at pack time. `bias` and `alpha` point into the
/// kernel's packed storage, indexed by the same packed channel index as the weights.
struct FusedEpilogue {
    var activation: ActivationBounds
    var residualActivation: ActivationBounds
    var hasPrelu: Bool

    init(activation: Activation, residualActivation: Activation, hasPrelu: Bool) {
        self.activation = ActivationBounds(activation)
        self.residualActivation = ActivationBounds(residualActivation)
        self.hasPrelu = hasPrelu
    }

    /// Fusion flags of the conv tiles: bit 0 activation, bit 1 residual, bit 2 PReLU.
    func tileMode(residual: Bool) -> Int {
        (activation.lo != nil || activation.hi != nil ? 1 : 0) | (residual ? 2 : 0) | (hasPrelu ? 4 : 0)
    }

    /// `y = act(acc + bias)`, then `y = residualAct(y + residual)` when `residual` is given,
    /// then PReLU when `hasPrelu`.
    @inline(__always)
    func apply<V: KernelVector>(_ acc: V, bias: V, residual: V?, alpha: V) -> V {
        var v = activation.apply(acc.add(bias))
        if let r = residual { v = residualActivation.apply(v.add(r)) }
        if hasPrelu { v = v.prelu(alpha) }
        return v
    }
}

/// Balanced contiguous split of `0..<count` into `parts` ranges (part `i`); empty when there
/// are more parts than units.
@inline(__always)
func simdPartition(_ count: Int, part: Int, of parts: Int) -> Range<Int> {
    precondition(parts >= 1 && part >= 0 && part < parts, "partition part \(part) of \(parts)")
    let lo = count * part / parts, hi = count * (part + 1) / parts
    return lo..<hi
}
