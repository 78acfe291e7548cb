import Testing
@testable import BlazeEngine

/// ADD (with each activation, and with PReLU), in-place PReLU and LEAKY_RELU of every runnable
/// level: bit for bit the reference.
@Suite struct ElementwiseKernelTests: SIMDKernelSuite {
    @Test(arguments: KernelLevels.runnable) func elementwise(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 22)
        for c in [1, 3, 16, 19, 64] {
            let pixels = 13
            let n = pixels * c
            let a = SIMDTestBuffer.random(n, &rng), b = SIMDTestBuffer.random(n, &rng), alpha = SIMDTestBuffer.random(c, &rng)
            for act in Self.activations {
                let ref = SIMDTestBuffer(n)
                for i in 0..<n { ref.mutablePointer[i] = act.apply(a.pointer[i] + b.pointer[i]) }
                let y = SIMDTestBuffer(n, fill: .nan)
                K.add(a.pointer, b.pointer, output: y.mutablePointer, activation: act, range: 5..<n)
                K.add(a.pointer, b.pointer, output: y.mutablePointer, activation: act, range: 0..<5)
                SIMDTestBuffer.expectIdentical(y, ref, "add C=\(c) \(act)")

                let refP = SIMDTestBuffer(n)
                for i in 0..<n { let v = ref.pointer[i]; refP.mutablePointer[i] = v < 0 ? alpha.pointer[i % c] * v : v }
                let yp = SIMDTestBuffer(n, fill: .nan)
                K.addPrelu(
                    a.pointer, b.pointer, alpha: alpha.pointer, channels: c, output: yp.mutablePointer,
                    activation: act, pixels: 0..<pixels)
                SIMDTestBuffer.expectIdentical(yp, refP, "add+prelu C=\(c) \(act)")
            }
            let ref = SIMDTestBuffer(n)
            ReferenceKernels.prelu(
                input: TensorView(a.pointer, [1, 1, pixels, c]), alpha: TensorView(alpha.pointer, [1, 1, c]),
                output: MutableTensorView(ref.mutablePointer, [1, 1, pixels, c]))
            let y = a.copy()
            K.prelu(input: y.pointer, alpha: alpha.pointer, channels: c, output: y.mutablePointer, pixels: 0..<pixels)
            SIMDTestBuffer.expectIdentical(y, ref, "prelu in place C=\(c)")

        }
    }

    /// LEAKY_RELU with one scalar alpha: bitwise the reference kernel on every vector body and tail
    /// (sizes around each lane count), with ±0, ±inf, NaNs and denormals among the inputs, negative,
    /// zero and > 1 alphas, split at odd boundaries and in place.
    @Test(arguments: KernelLevels.runnable) func leakyRelu(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 24)
        let specials: [Float] = [
            0, -0.0, .infinity, -.infinity, .nan, Float(bitPattern: 0xFFC0_0123), Float(bitPattern: 0x7FA0_0001),
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, -.greatestFiniteMagnitude
        ]
        var sizes = [0, 1, 2, 3, 5, 7, 100, 1031]
        for lanes in [4, 8, 16] { sizes += [lanes - 1, lanes, lanes + 1, 2 * lanes + 3] }
        for n in sizes.sorted() {
            let x = SIMDTestBuffer.random(n, &rng)
            for i in 0..<n where Int.random(in: 0..<4, using: &rng) == 0 {
                x.mutablePointer[i] = specials[Int.random(in: 0..<specials.count, using: &rng)]
            }
            for alpha: Float in [0.2, -1.25, 0, 1.5, Float.random(in: -2...2, using: &rng)] {
                let ref = SIMDTestBuffer(n)
                ReferenceKernels.leakyRelu(
                    LeakyReluParams(alpha: alpha), input: TensorView(x.pointer, [n]), output: MutableTensorView(ref.mutablePointer, [n]))
                let whole = SIMDTestBuffer(n, fill: .nan)
                K.leakyRelu(input: x.pointer, alpha: alpha, output: whole.mutablePointer, range: 0..<n)
                SIMDTestBuffer.expectIdentical(whole, ref, "\(level) leaky relu n \(n) alpha \(alpha)")
                let a = n / 3, b = n - n / 5
                let split = SIMDTestBuffer(n, fill: .nan)
                for r in [b..<n, 0..<a, a..<b] { K.leakyRelu(input: x.pointer, alpha: alpha, output: split.mutablePointer, range: r) }
                SIMDTestBuffer.expectIdentical(split, ref, "\(level) leaky relu n \(n) alpha \(alpha), split at \(a), \(b)")
                let inPlace = x.copy()
                K.leakyRelu(input: inPlace.pointer, alpha: alpha, output: inPlace.mutablePointer, range: 0..<n)
                SIMDTestBuffer.expectIdentical(inPlace, ref, "\(level) leaky relu n \(n) alpha \(alpha), in place")
            }
        }
    }
}
