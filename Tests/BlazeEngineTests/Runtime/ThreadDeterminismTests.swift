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

    /// A pipeline's nets on one pool (`makeSession(sharing:)`), run in turn: each gives its
    /// single-threaded outputs, and runs on the pool's threads.
    @Test func sessionsSharingOnePoolGiveTheirOwnOutputs() throws {
        let fixtures = try Self.fixtures.get()
        let models: [BundledModel] = [.palmDetectionLite, .handLandmarkLite, .faceBlendshapes]
        var expected: [[[Float]]] = []
        var inputs: [[Float]] = []
        for model in models {
            let caseName = try #require(fixtures.nets[model.rawValue]?.cases.first { $0.name.hasPrefix("photo_") }?.name)
            inputs.append(try fixtures.input(model.rawValue, caseName).values)
            expected.append(try model.load().makeSession(threads: 1).run([inputs.last!]))
        }
        let workers = WorkerPool(threadCount: 3)
        let sessions = try models.map { try $0.load().makeSession(sharing: workers) }
        for round in 0..<2 {
            for (k, session) in sessions.enumerated() {
                #expect(session.threads == 3 && session.workers === workers)
                for (o, (a, b)) in zip(try session.run([inputs[k]]), expected[k]).enumerated() {
                    PlannedStepTestKit.expectBitwise(a, b, "\(models[k].rawValue) output \(o), round \(round), shared pool")
                }
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
