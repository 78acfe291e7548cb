import Testing
@testable import BlazeEngine

/// ADD (with each activation, and with PReLU) and in-place PReLU of every runnable level: bit for
/// bit the reference.
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
}
