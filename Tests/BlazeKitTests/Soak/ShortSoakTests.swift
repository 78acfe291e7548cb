import BlazeTestSupport
import Foundation
import Testing

/// The short soak: `bench --soak --frames 1000` (Benchmarks/bench/Soak.swift) in a child process,
/// so its resident memory and threads are its own and not the test runner's. 1,000 frames through
/// faces with tracking, hands in video mode with tracking and smoothing, and hands in live stream
/// with drops. After the warm-up nothing may grow: resident memory by at most 5 MB, no new threads,
/// no new session sets; every accepted live-stream frame is delivered. Latency is reported by the
/// long soak (Benchmarks/soak.sh) and not checked here (tests never depend on machine speed).
@Suite("Short soak") struct ShortSoakTests {
    @Test func thousandFramesGrowNothing() throws {
        let bench = try #require(ProcessRunner.executable("bench"), "bench is built next to the test binary")
        // Under a sanitizer (make sanitize and sanitize-threads set BLAZE_SANITIZER) the child runs
        // 5–50× slower and its resident memory is the sanitizer's (freed memory waits in
        // quarantine), so it runs 12 frames there (6 after the warm-up) to check memory safety and
        // races in every phase; the 1,000-frame soak is the normal run's.
        let sanitized = ProcessInfo.processInfo.environment["BLAZE_SANITIZER"] != nil
        // Under an emulator (BLAZE_TEST_RUNNER starts the child, as `make test-aarch64` does) a
        // frame takes seconds: 120 frames (70 after the 50-frame warm-up) still show growth per frame.
        let emulated = ProcessRunner.testRunner != nil
        let frames = sanitized ? 12 : emulated ? 120 : 1000
        let counted = frames - min(frames / 2, max(50, frames / 10))  // after bench's warm-up
        let run = try ProcessRunner.run(bench, ["--soak", "--frames", String(frames), "--threads", "1", "--json"])
        #expect(!run.crashed)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let phases = try #require(object["phases"] as? [[String: Any]])
        #expect(phases.map { $0["name"] as? String } == ["faces_video_tracked", "hands_video_tracked", "hands_live_stream"])
        let checkMemory = !sanitized
        for phase in phases {
            let name = phase["name"] as? String ?? "?"
            let int = { (key: String) throws -> Int in try #require(phase[key] as? Int, "\(name): no integer \(key) in bench's JSON") }
            if checkMemory {
                let growth = try #require(phase["rss_growth_mb"] as? Double, "\(name): no rss_growth_mb")
                #expect(growth <= 5, "\(name): resident memory grew by \(growth) MB after the warm-up")
            }
            // Read first: Swift 6.2.3 rejects `try` to the right of an operator.
            let threadsWarm = try int("threads_warm"), threadsEnd = try int("threads_end")
            let sessionsWarm = try int("sessions_warm"), sessionsEnd = try int("sessions_end")
            let accepted = try int("accepted"), dropped = try int("dropped"), delivered = try int("frames")
            #expect(threadsEnd <= threadsWarm, "\(name): threads \(threadsWarm) → \(threadsEnd), new: \(phase["new_threads"] ?? "?")")
            #expect(sessionsEnd == sessionsWarm, "\(name): session sets \(sessionsWarm) → \(sessionsEnd)")
            #expect(sessionsEnd == 1, "\(name): one caller needs one session set")
            // Faces (three people) and hands (two) are found and tracked.
            #expect(try int("tracking_ids") >= 1, "\(name): no tracked face or hand")
            if name == "hands_live_stream" {
                #expect(accepted + dropped == counted, "\(name): every offered frame is accepted or dropped")
                #expect(accepted >= 1)
            } else {
                #expect(delivered == counted && accepted == counted, "\(name): \(counted) frames after the warm-up")
            }
        }
    }
}
