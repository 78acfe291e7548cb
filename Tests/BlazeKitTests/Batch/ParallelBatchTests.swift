import BlazeEngine
import BlazeImageIO
import BlazeKit
import BlazeTestSupport
import Foundation
import Testing

/// `ParallelBatch`: results in input order whatever order the workers finish in, per-input
/// errors, a bounded window, and a stop when delivery throws. Expected values are computed by
/// hand from the inputs (a pure function of each input), not by an earlier run.
@Suite("ParallelBatch")
struct ParallelBatchTests {
    struct Odd: Error, Equatable { let value: Int }

    /// In-flight count shared with the workers (inputs handed to `transform` and not delivered yet).
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 0, peak = 0
        func enter() { lock.lock(); current += 1; peak = max(peak, current); lock.unlock() }
        func leave() { lock.lock(); current -= 1; lock.unlock() }
        var maximum: Int { lock.lock(); defer { lock.unlock() }; return peak }
    }

    /// Never more workers than inputs; a stream (unknown count) gets what was asked.
    @Test func jobsForAKnownNumberOfInputs() {
        #expect(ParallelBatch.jobs(forInputs: 1, requested: 8) == 1)
        #expect(ParallelBatch.jobs(forInputs: 3, requested: 8) == 3)
        #expect(ParallelBatch.jobs(forInputs: 20, requested: 8) == 8)
        #expect(ParallelBatch.jobs(forInputs: nil, requested: 8) == 8)
        #expect(ParallelBatch.jobs(forInputs: 0, requested: 8) == 1)
        #expect(ParallelBatch.jobs(forInputs: 5, requested: 0) == 1)
        #expect(ParallelBatch.jobs(forInputs: 1) == 1)
        #expect(ParallelBatch.jobs(forInputs: nil) == ParallelBatch.defaultJobs)
    }

    @Test(arguments: [(1, nil), (2, nil), (3, 3), (4, 17), (8, 9)] as [(Int, Int?)])
    func resultsComeInInputOrderWithTheirErrors(jobs: Int, window: Int?) throws {
        let batch = try ParallelBatch(jobs: jobs, window: window)
        let inputs = Array(0..<301)
        var delivered: [Int] = []
        var values: [Int] = []
        var errors: [Int] = []
        try batch.forEach(
            inputs,
            transform: { x in
                // Later inputs often finish first: the delay shrinks along the list.
                usleep(UInt32((301 - x) % 7 * 150))
                if x % 5 == 3 { throw Odd(value: x) }
                return x * x + 1
            },
            deliver: { x, result in
                delivered.append(x)
                switch result {
                case .success(let v): values.append(v)
                case .failure(let e): errors.append(try #require(e as? Odd).value)
                }
            })
        #expect(delivered == inputs)
        #expect(errors == inputs.filter { $0 % 5 == 3 })
        #expect(values == inputs.filter { $0 % 5 != 3 }.map { $0 * $0 + 1 })
    }

    @Test func inFlightInputsNeverExceedTheWindow() throws {
        let gauge = Gauge()
        let batch = try ParallelBatch(jobs: 4, window: 6)
        var count = 0
        // Inputs 0 and 1 wait for each other: they pass only if two workers hold them at once.
        let pair = Rendezvous(parties: 2)
        try batch.forEach(
            0..<200,
            transform: { x in
                gauge.enter()
                if x < 2 { pair.arriveAndWait() }
                usleep(UInt32(x % 3 * 200))
                return x
            },
            deliver: { x, _ in
                gauge.leave()
                count += 1
            })
        #expect(count == 200)
        #expect(gauge.maximum <= 6)
        #expect(pair.allMet, "inputs 0 and 1 never ran on two workers at once")
    }

    @Test func aStreamIsPulledLazily() throws {
        // An endless sequence: only what the window allows is ever taken from it.
        var taken = 0
        let endless = AnySequence {
            AnyIterator<Int> {
                defer { taken += 1 }; return taken
            }
        }
        struct Enough: Error {}
        #expect(throws: Enough.self) {
            try ParallelBatch(jobs: 2, window: 5).forEach(
                endless, transform: { $0 },
                deliver: { x, _ in
                    if x == 50 { throw Enough() }
                })
        }
        #expect(taken <= 51 + 5, "the window bounds what is read ahead of delivery")
    }

    @Test func aThrowingDeliveryStopsTheBatch() throws {
        let started = Gauge()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try ParallelBatch(jobs: 2, window: 4).forEach(
                0..<10_000,
                transform: { x in
                    started.enter()
                    return x
                },
                deliver: { x, _ in
                    if x == 10 { throw Stop() }
                })
        }
        // 11 delivered, at most a window's worth started beyond them.
        #expect(started.maximum <= 11 + 4)
    }

    @Test func badSettingsAreErrors() {
        #expect(throws: BlazeError.self) { try ParallelBatch(jobs: 0) }
        #expect(throws: BlazeError.self) { try ParallelBatch(jobs: 4, window: 3) }
        #expect(ParallelBatch.defaultJobs >= 1)
    }
}

/// The detectors' batch helpers give, in input order, exactly what one call per image gives
/// (the same results at every thread count); errors stay with their input.
@Suite("Detector batches")
struct DetectorBatchTests {
    let names = ["three_people.jpg", "missing.jpg", "sergey_portrait.png", "two_hands_open_palms.jpg", "grace_hopper.jpg"]

    func paths() -> [String] { names.map { RepoPaths.testImages.appendingPathComponent($0).path } }

    @Test func facesOnAllCoresEqualOneByOne() throws {
        var options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.classificationMode = .all
        options.threadCount = 1
        let detector = try FaceDetector.faceDetector(options: options)
        var batched: [String: [Face]] = [:]
        var failures: [String] = []
        try detector.forEachResult(
            in: paths(), batch: try ParallelBatch(jobs: 3, window: 3),
            image: { try ImageFile.read(path: $0) }
        ) { path, result in
            switch result {
            case .success(let faces): batched[path] = faces
            case .failure: failures.append(path)
            }
        }
        #expect(failures == [paths()[1]])
        for path in paths() where path != paths()[1] {
            let serial = try detector.results(in: try ImageFile.read(path: path))
            #expect(batched[path] == serial, "\(path)")
        }
        #expect(batched[paths()[0]]?.count == 3)
    }

    @Test func handsOnAllCoresEqualOneByOne() throws {
        var options = HandLandmarkerOptions()
        options.numHands = 2
        options.numThreads = 1
        let landmarker = try HandLandmarker(options: options)
        var order: [String] = []
        var batched: [String: Result<HandLandmarkerResult, any Error>] = [:]
        try landmarker.forEachResult(
            in: paths(), batch: try ParallelBatch(jobs: 2),
            image: { try ImageFile.read(path: $0) }
        ) { path, result in
            order.append(path)
            batched[path] = result
        }
        #expect(order == paths())
        #expect(throws: (any Error).self) { try batched[paths()[1]]?.get() }
        for path in paths() where path != paths()[1] {
            let serial = try landmarker.detect(image: try ImageFile.read(path: path))
            #expect(try batched[path]?.get() == serial, "\(path)")
        }
    }
}
