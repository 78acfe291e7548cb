import Foundation

/// A 3×3 matrix, row-major, in Double (head-pose math only).
struct Matrix3: Sendable, Hashable {
    var m: [Double]  // 9 values, row-major

    init(_ m: [Double]) {
        precondition(m.count == 9)
        self.m = m
    }

    static let identity = Matrix3([1, 0, 0, 0, 1, 0, 0, 0, 1])

    subscript(row: Int, column: Int) -> Double {
        get { m[row * 3 + column] }
        set { m[row * 3 + column] = newValue }
    }

    var transposed: Matrix3 { Matrix3([m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]) }

    var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { r[i * 3 + j] = a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j] } }
        return Matrix3(r)
    }

    func column(_ j: Int) -> SIMD3<Double> { SIMD3(m[j], m[3 + j], m[6 + j]) }

    init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init([c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z])
    }

    func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z, m[6] * v.x + m[7] * v.y + m[8] * v.z)
    }

    /// Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: eigenvalues in
    /// descending order and the matching unit eigenvectors as the columns of `vectors`.
    func symmetricEigen() -> (values: SIMD3<Double>, vectors: Matrix3) {
        var a = self, v = Matrix3.identity
        for _ in 0..<50 {
            let off = a[0, 1] * a[0, 1] + a[0, 2] * a[0, 2] + a[1, 2] * a[1, 2]
            let diag = a[0, 0] * a[0, 0] + a[1, 1] * a[1, 1] + a[2, 2] * a[2, 2]
            if off <= 1e-30 * max(diag, Double.leastNormalMagnitude) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p, q] != 0 {
                let theta = (a[q, q] - a[p, p]) / (2 * a[p, q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                // a ← Jᵀ a J, v ← v J with J the rotation in the (p, q) plane.
                for k in 0..<3 {
                    let akp = a[k, p], akq = a[k, q]
                    a[k, p] = c * akp - s * akq
                    a[k, q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p, k], aqk = a[q, k]
                    a[p, k] = c * apk - s * aqk
                    a[q, k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k, p], vkq = v[k, q]
                    v[k, p] = c * vkp - s * vkq
                    v[k, q] = s * vkp + c * vkq
                }
            }
        }
        let order = [0, 1, 2].sorted { a[$0, $0] > a[$1, $1] }
        return (
            SIMD3(a[order[0], order[0]], a[order[1], order[1]], a[order[2], order[2]]),
            Matrix3(columns: v.column(order[0]), v.column(order[1]), v.column(order[2]))
        )
    }

    /// The proper rotation R maximizing `trace(Rᵀ·self)`: `U·diag(1, 1, ±1)·Vᵀ` from the SVD
    /// `self = U·Σ·Vᵀ` (singular values descending), the sign flipping the column of the
    /// smallest singular value when `det(U)·det(V) < 0` — MediaPipe's `ComputeOptimalRotation`.
    /// U's first two columns come from `self·vᵢ/σᵢ`; the third is their cross product, signed
    /// so that the result has determinant +1.
    func optimalRotation() -> Matrix3? {
        let (values, v) = (transposed * self).symmetricEigen()
        let s0 = values.x.squareRoot(), s1 = max(values.y, 0).squareRoot()
        guard s0 > 0, s1 > 1e-12 * s0 else { return nil }
        let u0 = apply(v.column(0)) / s0, u1 = apply(v.column(1)) / s1
        let cross = SIMD3(u0.y * u1.z - u0.z * u1.y, u0.z * u1.x - u0.x * u1.z, u0.x * u1.y - u0.y * u1.x)
        let u2 = cross * (v.determinant < 0 ? -1 : 1)
        return Matrix3(columns: u0, u1, u2) * v.transposed
    }
}

/// Weighted orthogonal Procrustes with scale (MediaPipe `procrustes_solver.cc`,
/// docs/pipelines.md §5.3 "WP"): finds `s·R` and `t` minimizing `Σ wᵢ |s·R·srcᵢ + t − dstᵢ|²`.
/// Returns nil where MediaPipe's solver fails (too small weights, design matrix or scale).
func weightedOrthogonalProcrustes(source: [SIMD3<Double>], target: [SIMD3<Double>], weights: [Double])
    -> (rotationAndScale: Matrix3, translation: SIMD3<Double>)?
{
    precondition(source.count == target.count && source.count == weights.count && !source.isEmpty)
    let eps = 1e-9
    let sw = weights.map { $0.squareRoot() }
    let totalWeight = sw.reduce(0) { $0 + $1 * $1 }
    guard totalWeight > eps else { return nil }
    let a = zip(source, sw).map { $0 * $1 }  // weighted sources
    let b = zip(target, sw).map { $0 * $1 }  // weighted targets
    var center = SIMD3<Double>.zero
    for (ai, w) in zip(a, sw) { center += ai * w }
    center /= totalWeight
    let ac = zip(a, sw).map { $0 - center * $1 }  // centred weighted sources
    // Design matrix B·Acᵀ.
    var design = [Double](repeating: 0, count: 9)
    for (bi, ci) in zip(b, ac) {
        for r in 0..<3 { for c in 0..<3 { design[r * 3 + c] += bi[r] * ci[c] } }
    }
    let designMatrix = Matrix3(design)
    guard designMatrix.m.reduce(0, { $0 + $1 * $1 }).squareRoot() > eps,
        let rotation = designMatrix.optimalRotation()
    else { return nil }
    var numerator = 0.0, denominator = 0.0
    for i in ac.indices {
        numerator += (rotation.apply(ac[i]) * b[i]).sum()
        denominator += (ac[i] * a[i]).sum()
    }
    guard denominator > eps, numerator / denominator > eps else { return nil }
    let scale = numerator / denominator
    let sr = Matrix3(rotation.m.map { $0 * scale })
    var translation = SIMD3<Double>.zero
    for i in a.indices { translation += (b[i] - sr.apply(a[i])) * sw[i] }
    translation /= totalWeight
    return (sr, translation)
}
