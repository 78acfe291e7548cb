import Foundation
import Testing
@testable import BlazeEngine

/// Broadcasting binary ops, unary ops, PRELU, LEAKY_RELU and SOFTMAX.
@Suite struct ReferenceElementwiseTests {
    typealias T = KernelTensor

    static func binary(_ kind: BinaryKind, _ a: T, _ b: T, activation: Activation = .none) -> (shape: [Int], values: [Float]) {
        let p = BinaryParams(kind, activation: activation)
        let shape = try! p.outputShape(a.shape, b.shape)
        let v = KernelTestKit.run([a, b], out: shape) { v, out in
            ReferenceKernels.binary(p, a: v[0], b: v[1], output: out)
        }
        return (shape, v)
    }

    static func unary(_ kind: UnaryKind, _ x: [Float]) -> [Float] {
        KernelTestKit.run([T([x.count], x)], out: [x.count]) { v, out in
            ReferenceKernels.unary(kind, input: v[0], output: out)
        }
    }

    static func softmax(_ beta: Float, _ x: T) -> [Float] {
        KernelTestKit.run([x], out: x.shape) { v, out in ReferenceKernels.softmax(SoftmaxParams(beta: beta), input: v[0], output: out) }
    }

    @Test func softmaxRows() {
        // exp(ln k) = k: a row [0, ln 2, ln 3] gives [1, 2, 3] / 6; β = 2 squares them: [1, 4, 9] / 14.
        KernelTestKit.expectClose(Self.softmax(1, T([1, 3], [0, log(2), log(3)])), [Float(1) / 6, Float(2) / 6, Float(3) / 6], tolerance: 1e-6)
        KernelTestKit.expectClose(Self.softmax(2, T([1, 3], [0, log(2), log(3)])), [Float(1) / 14, Float(4) / 14, Float(9) / 14], tolerance: 1e-6)
        // Rows near 1000 (exp would overflow without subtracting the maximum): the expectation is
        // computed in Double from the stored Floats, whose differences are exact.
        let shifted: [Float] = [1000, 1000 + log(2), 1000 + log(3), -7, -7.5, -9]
        var expected: [Float] = []
        for row in stride(from: 0, to: 6, by: 3) {
            let values = shifted[row..<(row + 3)].map(Double.init)
            let top = values.max()!
            let weights = values.map { Foundation.exp(2 * ($0 - top)) }
            expected += weights.map { Float($0 / weights.reduce(0, +)) }
        }
        KernelTestKit.expectClose(Self.softmax(2, T([2, 3], shifted)), expected, tolerance: 1e-6)
        // A single class is certain; equal inputs share evenly.
        KernelTestKit.expectClose(Self.softmax(1, T([2, 1], [-5, 7])), [1, 1], tolerance: 0)
        KernelTestKit.expectClose(Self.softmax(1, T([1, 4], [3, 3, 3, 3])), [0.25, 0.25, 0.25, 0.25], tolerance: 0)
        #expect(throws: BlazeError.self) { try SoftmaxParams(beta: .nan).outputShape([1, 3]) }
        #expect(throws: BlazeError.self) { try SoftmaxParams(beta: 1).outputShape([]) }
    }

    @Test func rank1AgainstRank4() {
        // [1,2,2,3] (0…11) + [3] → adds per channel.
        let r = Self.binary(.add, T.iota([1, 2, 2, 3]), T([3], [10, 20, 30]))
        #expect(r.shape == [1, 2, 2, 3])
        KernelTestKit.expectClose(r.values, [10, 21, 32, 13, 24, 35, 16, 27, 38, 19, 30, 41], tolerance: 0)
        // Swapped operands of a non-commutative op: [3] − [1,2,2,3].
        let s = Self.binary(.sub, T([3], [10, 20, 30]), T.iota([1, 2, 2, 3]))
        KernelTestKit.expectClose(s.values, [10, 19, 28, 7, 16, 25, 4, 13, 22, 1, 10, 19], tolerance: 0)
    }

    @Test func channelVectorAgainstNHWC() {
        // [1,1,1,3] · [2,2,1,3] with fused relu.
        let a = T([1, 1, 1, 3], [1, -2, 3])
        let b = T.iota([2, 2, 1, 3], from: 1)
        let r = Self.binary(.mul, a, b, activation: .relu)
        #expect(r.shape == [2, 2, 1, 3])
        KernelTestKit.expectClose(r.values, [1, 0, 9, 4, 0, 18, 7, 0, 27, 10, 0, 36], tolerance: 0)
        // [N,H,W,1] per-pixel scale against NHWC.
        let m = Self.binary(.mul, T.iota([1, 2, 1, 3], from: 1), T([1, 2, 1, 1], [10, -1]))
        KernelTestKit.expectClose(m.values, [10, 20, 30, -4, -5, -6], tolerance: 0)
    }

    @Test func squaredDifferenceAndDiv() {
        // [2,1] vs [3] → [2,3]: (a − b)².
        let sq = Self.binary(.squaredDifference, T([2, 1], [1, 2]), T([3], [0, 1, 3]))
        #expect(sq.shape == [2, 3])
        KernelTestKit.expectClose(sq.values, [1, 0, 4, 4, 1, 1], tolerance: 0)
        // [2,2] / [2]
        let d = Self.binary(.div, T([2, 2], [1, 2, 3, 4]), T([2], [2, 4]))
        KernelTestKit.expectClose(d.values, [0.5, 0.5, 1.5, 1], tolerance: 0)
        // Scalar (rank 0) divisor, fused relu6.
        let s = Self.binary(.div, T([2, 2], [-4, 4, 20, 2]), T([], [2]), activation: .relu6)
        #expect(s.shape == [2, 2])
        KernelTestKit.expectClose(s.values, [0, 2, 6, 1], tolerance: 0)
    }

    @Test func bothSidesBroadcastAndMinMax() {
        // [2,1,3] vs [1,4,1] → [2,4,3].
        let a = T([2, 1, 3], [0, 1, 2, 10, 11, 12])
        let b = T([1, 4, 1], [0, 100, 200, 300])
        let r = Self.binary(.add, a, b)
        #expect(r.shape == [2, 4, 3])
        var expected = [Float]()
        for i in 0..<2 { for j in 0..<4 { for k in 0..<3 { expected.append(Float(i * 10 + k + j * 100)) } } }
        KernelTestKit.expectClose(r.values, expected, tolerance: 0)

        let mx = Self.binary(.maximum, T([4], [1, 5, -3, 2]), T([1], [2]))
        KernelTestKit.expectClose(mx.values, [2, 5, 2, 2], tolerance: 0)
        let mn = Self.binary(.minimum, T([4], [1, 5, -3, 2]), T([1], [2]))
        KernelTestKit.expectClose(mn.values, [1, 2, -3, 2], tolerance: 0)
    }

    /// Random shapes of rank 0…5 against a per-element index computation (div/mod), which shares
    /// nothing with the kernel's coalesced strided loop.
    @Test func randomBroadcastMatchesNaiveIndexing() {
        var rng = KernelTestRNG(seed: 0xB10C)
        for _ in 0..<200 {
            let rank = Int.random(in: 0...5, using: &rng)
            let out = (0..<rank).map { _ in Int.random(in: 1...4, using: &rng) }
            func operand() -> [Int] {
                let r = Int.random(in: 0...rank, using: &rng)
                return out.suffix(r).map { Bool.random(using: &rng) ? 1 : $0 }
            }
            let sa = operand(), sb = operand()
            let a = T.random(sa, &rng), b = T.random(sb, &rng, in: 0.5...2)
            let kind = BinaryKind.allCases.randomElement(using: &rng)!
            let r = Self.binary(kind, a, b)
            let outShape = ShapeMath.broadcast(sa, sb)!
            let n = outShape.reduce(1, *)
            var expected = [Float]()
            for i in 0..<n {
                var rem = i, ia = 0, ib = 0, ma = 1, mb = 1
                for d in stride(from: outShape.count - 1, through: 0, by: -1) {
                    let idx = rem % outShape[d]; rem /= outShape[d]
                    let da = d - (outShape.count - sa.count), db = d - (outShape.count - sb.count)
                    if da >= 0 { if sa[da] != 1 { ia += idx * ma }; ma *= sa[da] }
                    if db >= 0 { if sb[db] != 1 { ib += idx * mb }; mb *= sb[db] }
                }
                let x = a.values[ia], y = b.values[ib]
                switch kind {
                case .add: expected.append(x + y)
                case .sub: expected.append(x - y)
                case .mul: expected.append(x * y)
                case .div: expected.append(x / y)
                case .squaredDifference: expected.append((x - y) * (x - y))
                case .maximum: expected.append(max(x, y))
                case .minimum: expected.append(min(x, y))
                }
            }
            KernelTestKit.expectClose(r.values, expected, tolerance: 0, "\(kind) \(sa) vs \(sb)")
        }
    }

    @Test func unaryValues() {
        let l = Self.unary(.logistic, [0, Float(log(3.0)), -Float(log(3.0)), 100, -100])
        KernelTestKit.expectClose(l, [0.5, 0.75, 0.25, 1, 0], tolerance: 1e-6)
        let rs = Self.unary(.rsqrt, [4, 0.25, 1, 16])
        KernelTestKit.expectClose(rs, [0.5, 2, 1, 0.25], tolerance: 0)
        #expect(Self.unary(.rsqrt, [0])[0] == .infinity)
        KernelTestKit.expectClose(Self.unary(.sqrt, [4, 0.25, 0]), [2, 0.5, 0], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.relu, [-1, 0, 3]), [0, 0, 3], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.relu6, [-1, 3, 7]), [0, 3, 6], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.reluMinus1To1, [-3, 0.5, 2]), [-1, 0.5, 1], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.neg, [-1, 2]), [1, -2], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.abs, [-1.5, 2]), [1.5, 2], tolerance: 0)
        KernelTestKit.expectClose(Self.unary(.exp, [0, 1, -1]), [1, 2.7182817, 0.36787945], tolerance: 1e-6)
        KernelTestKit.expectClose(Self.unary(.tanh, [0, 20, -20, 0.5]), [0, 1, -1, 0.46211716], tolerance: 1e-6)
    }

    @Test func preluPerChannel() {
        let x = T([1, 2, 2, 2], [-1, 2, -3, 4, 5, -6, -7, -8])
        let expected: [Float] = [-0.1, 2, -0.3, 4, 5, -3, -0.7, -4]
        for alpha in [T([2], [0.1, 0.5]), T([1, 1, 2], [0.1, 0.5]), T([1, 1, 1, 2], [0.1, 0.5])] {
            let r = KernelTestKit.run([x, alpha], out: x.shape) { v, out in
                ReferenceKernels.prelu(input: v[0], alpha: v[1], output: out)
            }
            KernelTestKit.expectClose(r, expected, "alpha \(alpha.shape)")
        }
        // Full-shape alpha (per element).
        let full = KernelTestKit.run([T([2, 2], [-1, -1, 1, -2]), T([2, 2], [1, 2, 3, 4])], out: [2, 2]) { v, out in
            ReferenceKernels.prelu(input: v[0], alpha: v[1], output: out)
        }
        KernelTestKit.expectClose(full, [-1, -2, 1, -8], tolerance: 0)
    }

    static func leakyRelu(_ alpha: Float, _ x: [Float]) -> [Float] {
        KernelTestKit.run([T([x.count], x)], out: [x.count]) { v, out in
            ReferenceKernels.leakyRelu(LeakyReluParams(alpha: alpha), input: v[0], output: out)
        }
    }

    /// LEAKY_RELU by hand, bit for bit: `x > 0 ? x : alpha·x` (tflite::reference_ops::LeakyRelu).
    /// The values where the strict `>` matters are the ones LiteRT's builtin kernel gives (measured,
    /// Tools/parity/make_op_fixtures.py): zeros take the product, so a negative alpha flips their
    /// sign; a quiet NaN keeps its bits, a signalling one comes out quiet; −inf·0 is NaN.
    @Test func leakyReluByHand() {
        let qNaN = Float(bitPattern: 0x7FC0_0000), negativeNaN = Float(bitPattern: 0xFFC0_0123)
        let sNaN = Float(bitPattern: 0x7FA0_0001), quietedSNaN = Float(bitPattern: 0x7FE0_0001)
        let x: [Float] = [2.5, -2.5, 0, -0.0, .infinity, -.infinity, qNaN, negativeNaN, sNaN, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        let cases: [(alpha: Float, expected: [Float])] = [
            (0.25, [2.5, -0.625, 0, -0.0, .infinity, -.infinity, qNaN, negativeNaN, quietedSNaN, .leastNonzeroMagnitude, -.greatestFiniteMagnitude / 4]),
            (-0.5, [2.5, 1.25, -0.0, 0, .infinity, .infinity, qNaN, negativeNaN, quietedSNaN, .leastNonzeroMagnitude, .greatestFiniteMagnitude / 2]),
            (1.5, [2.5, -3.75, 0, -0.0, .infinity, -.infinity, qNaN, negativeNaN, quietedSNaN, .leastNonzeroMagnitude, -.infinity]),
            // alpha 0 (what a LEAKY_RELU without options means) is not RELU: −0 stays −0, −inf·0 is NaN.
            (0, [2.5, -0.0, 0, -0.0, .infinity, .nan, qNaN, negativeNaN, quietedSNaN, .leastNonzeroMagnitude, -0.0])
        ]
        for (alpha, expected) in cases {
            let y = Self.leakyRelu(alpha, x)
            for i in x.indices {
                // −inf·0's NaN is the CPU's default NaN (its sign differs between x86 and arm64).
                let same = expected[i].isNaN && !x[i].isNaN ? y[i].isNaN : y[i].bitPattern == expected[i].bitPattern
                #expect(same, "alpha \(alpha), x \(x[i]) (0x\(String(x[i].bitPattern, radix: 16))): got \(y[i]) (0x\(String(y[i].bitPattern, radix: 16)))")
            }
        }
    }

    @Test func leakyReluRefusesANonFiniteAlpha() throws {
        for alpha in [Float.nan, .infinity, -.infinity] {
            #expect(throws: BlazeError.self) { try Op.leakyRelu(LeakyReluParams(alpha: alpha)).inferOutputShape([[3]]) }
        }
        #expect(try Op.leakyRelu(LeakyReluParams(alpha: -2)).inferOutputShape([[1, 5, 3]]) == [1, 5, 3])
    }
}
