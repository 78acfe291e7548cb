import Testing
@testable import BlazeEngine

/// The conv kernels' lane width per CPU: the CPU signature that marks half-rate 16-lane FMAs
/// (AMD Zen 4), and the avx512 level's choice of 8- or 16-lane tiles from it.
@Suite struct ConvKernelLaneWidthTests {
    /// The cost model's lane width: where a 16-lane FMA costs two 8-lane ones (AMD Zen 4), a conv
    /// with 24 outputs takes 8-lane tiles (3 vectors, no idle lane instead of 2 × 16 with 8
    /// idle); 144 outputs (9 whole 16-lane vectors) keep 16 lanes. Elsewhere 16 lanes always.
    @Test(.enabled(if: ISALevel.supported.contains(.avx512), "this CPU lacks AVX-512: the avx512 level's lane choice is not run"))
    func convLaneWidthChoice() throws {
        let K = try KernelLevels.kernels(for: .avx512)
        func lanes(_ o: Int, c: Int) -> Int {
            let p = Conv2DParams(padding: .valid, activation: .relu6)
            let g = try! p.geometry(input: [1, 56, 56, c], filter: [o, 1, 1, c])
            let f = [Float](repeating: 0.5, count: o * c)
            return f.withUnsafeBufferPointer {
                K.conv(
                    params: p, geometry: g, filter: $0.baseAddress!, bias: nil, prelu: nil, residualActivation: .none,
                    residualChannels: nil, backend: .simd, tile: nil, channelMajorInput: false
                ).tileLanes
            }
        }
        #expect(lanes(24, c: 144) == (CPUInfo.halfRateWideVectors ? 8 : 16))
        #expect(lanes(144, c: 24) == 16)
        #expect(lanes(64, c: 64) == 16)
    }

    @Test func cpuSignature() {
        let s = CPUInfo.signature
        #if arch(x86_64)
            #expect(s.family >= 6, "CPUID family \(s.family)")
            #expect(!CPUInfo.halfRateWideVectors || (s.vendor == 1 && s.family == 0x19))
        #endif
    }
}
