import BlazeModels
import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// The optimised path (packed SIMD kernels, conv → ADD / PRELU / RELU fusion) agrees with the
/// reference kernels on every bundled net, at 1 and 2 threads.
@Suite struct SIMDIntegrationTests {
    static let fixtures = Result { try ParityFixtures() }

    @Test(arguments: BundledModel.allCases)
    func optimizedMatchesReference(model: BundledModel) throws {
        let fixtures = try Self.fixtures.get()
        let loaded = try model.load()
        let caseName = try #require(fixtures.nets[model.rawValue]?.cases.first { $0.name.hasPrefix("photo_") }?.name)
        let input = try fixtures.input(model.rawValue, caseName).values
        let reference = try loaded.makeSession(kernels: .reference).run([input])
        for threads in [1, 2] {
            let optimized = try loaded.makeSession(kernels: .optimized, threads: threads).run([input])
            #expect(optimized.count == reference.count)
            for (k, (a, r)) in zip(optimized, reference).enumerated() {
                let error = parityError(a, r)
                #expect(error <= 1e-4, "\(model.rawValue) output \(k) at \(threads) threads: max |Δ| / max(1, max|ref|) \(error)")
            }
        }
    }

    @Test func fusionFoldsNodesInBundledNets() throws {
        // palm_detection_full is made of BlazeBlocks (conv → ADD → RELU/PRELU): some fuse.
        let session = try BundledModel.allCases.first { $0.rawValue == "palm_detection_full" }.map { try $0.load() }?
            .makeSession(kernels: .optimized, threads: 1)
        let steps = try #require(session).plannedSteps
        let fused = steps.filter { if case .packedConv = $0 { return true } else { return false } }.count
        #expect(fused > 0)
    }

    /// Packed weights belong to the model: a second session (any thread count) reuses every
    /// kernel object the first one packed.
    @Test func sessionsSharePackedWeights() throws {
        let model = try BundledModel.palmDetectionFull.load()
        func kernels(_ s: Session) -> [AnyObject] {
            s.plannedSteps.compactMap { step -> AnyObject? in
                guard case .packedConv(let p) = step else { return nil }
                switch p.kernel {
                case .conv(let k): return k
                case .depthwise(let k): return k
                }
            }
        }
        let first = kernels(model.makeSession(kernels: .optimized, threads: 1))
        let packed = model.packedKernels.count
        #expect(!first.isEmpty && packed == first.count)
        let second = kernels(model.makeSession(kernels: .optimized, threads: 2))
        #expect(model.packedKernels.count == packed, "a second session packed again")
        #expect(second.count == first.count && zip(first, second).allSatisfy { $0 === $1 })
    }
}
