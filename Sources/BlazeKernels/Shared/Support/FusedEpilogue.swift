import BlazeEngineCore

/// Clamp bounds of a fused activation; `nil` bounds are skipped (no compare/blend).
struct ActivationBounds {
    var lo: Float?, hi: Float?

    init(_ a: Activation) {
        let r = a.range
        lo = r.lo.isFinite ? r.lo : nil
        hi = r.hi.isFinite ? r.hi : nil
    }

    /// Whether `apply` changes anything (some bound is finite).
    var clamps: Bool { lo != nil || hi != nil }

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

    /// Fusion flags of the conv tiles: bit 0 activation, bit 1 residual, bit 2 PReLU, bit 3 the
    /// residual activation (only with bit 1).
    func tileMode(residual: Bool) -> Int {
        (activation.clamps ? 1 : 0) | (residual ? 2 : 0) | (hasPrelu ? 4 : 0) | (residual && residualActivation.clamps ? 8 : 0)
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

    /// `apply` with the residual read from `residualAt` (when not nil). For vector kernels: an
    /// optional *vector* argument compiled to scalar loads and lane inserts (depthwise tiles).
    @inline(__always)
    func apply<V: KernelVector>(_ acc: V, bias: V, residualAt: UnsafePointer<Float>?, alpha: V) -> V {
        var v = activation.apply(acc.add(bias))
        if let residualAt { v = residualActivation.apply(v.add(V.load(residualAt))) }
        if hasPrelu { v = v.prelu(alpha) }
        return v
    }
}
