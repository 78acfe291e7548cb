import BlazeModels
import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// Every bundled net gives bitwise identical outputs at 1, 2 and 3 threads, and the same outputs
/// when run again on the same inputs.
@Suite struct ThreadDeterminismTests {
    static let fixtures = Result { try ParityFixtures() }

    @Test(arguments: BundledModel.allCases)
    func bitwiseEqualAcrossThreadCounts(model: BundledModel) throws {
        let fixtures = try Self.fixtures.get()
        let loaded = try model.load()
        let caseName = try #require(fixtures.nets[model.rawValue]?.cases.first { $0.name.hasPrefix("photo_") }?.name)
        let input = try fixtures.input(model.rawValue, caseName).values
        let one = try loaded.makeSession(threads: 1).run([input])
        for threads in [2, 3] {
            let session = loaded.makeSession(threads: threads)
            #expect(session.threads == threads)
            let outputs = try session.run([input])
            for (k, (a, b)) in zip(outputs, one).enumerated() {
                PlannedStepTestKit.expectBitwise(a, b, "\(model.rawValue) output \(k) at \(threads) threads vs 1")
            }
            session.runInPlace()
            for (k, (a, b)) in zip(session.outputBuffers.map(Array.init), one).enumerated() {
                PlannedStepTestKit.expectBitwise(a, b, "\(model.rawValue) output \(k), second run in place")
            }
        }
    }

    @Test func defaultThreadCountIsEveryCore() throws {
        let session = try BundledModel.faceBlendshapes.load().makeSession()
        #expect(session.threads == Session.defaultThreadCount)
        #expect(Session.defaultThreadCount >= 1)
        #expect(try BundledModel.faceBlendshapes.load().makeSession(threads: 0).threads == 1)
    }
}
