import BlazeEngine
import BlazeImageIO
import BlazeKit
import Dispatch
import Foundation

/// `bench --soak [--frames N] [--threads N] [--json]`: N frames (default 10,000) through each of
/// three long-running modes in one process, watching what a leak or a slow creep would show:
/// - `faces_video_tracked`: `FaceDetector` with tracking, landmarks, contours and classification;
/// - `hands_video_tracked`: `HandLandmarker` in video mode, 2 hands, tracking and smoothing;
/// - `hands_live_stream`: the same in live-stream mode, frames offered every 0.6 × the video
///   median, so a share of them is dropped while the landmarker is busy.
///
/// The frames are a slow pan over the two committed photos (a 48-frame loop of 94 % crops), so
/// faces and hands move and stay tracked. After a warm-up (the first 10 %, at least 50 frames) it
/// records per phase: resident memory (at the end of the warm-up, its maximum and at the end),
/// threads and session sets of the process / detector, and the latency median and 99th percentile.
enum Soak {
    struct Phase {
        var name: String
        var frames = 0
        var accepted = 0
        var dropped = 0
        var medianMs = 0.0
        var p99Ms = 0.0
        var rssWarmMB = 0.0
        var rssMaxMB = 0.0
        var rssEndMB = 0.0
        var threadsWarm = 0
        var threadsEnd = 0
        var sessionsWarm = 0
        var sessionsEnd = 0
        /// Distinct tracking IDs seen after the warm-up (faces or hands).
        var trackingIDs = 0
        /// Names of the threads that appeared after the warm-up (`/proc/self/task/*/comm`).
        var newThreads: [String] = []
        var threadIDsWarm: Set<String> = []

        var rssGrowthMB: Double { rssEndMB - rssWarmMB }
        var p99OverMedian: Double { medianMs > 0 ? p99Ms / medianMs : 0 }

        var json: [String: Any] {
            [
                "name": name, "frames": frames, "accepted": accepted, "dropped": dropped,
                "median_ms": rounded(medianMs), "p99_ms": rounded(p99Ms), "p99_over_median": rounded(p99OverMedian),
                "rss_warm_mb": rounded(rssWarmMB), "rss_max_mb": rounded(rssMaxMB), "rss_end_mb": rounded(rssEndMB),
                "rss_growth_mb": rounded(rssGrowthMB), "threads_warm": threadsWarm, "threads_end": threadsEnd,
                "sessions_warm": sessionsWarm, "sessions_end": sessionsEnd, "tracking_ids": trackingIDs,
                "new_threads": newThreads
            ]
        }
    }

    static func run(frames: Int, threads: Int) throws -> [Phase] {
        let faceFrames = try panFrames("three_people_640.png")
        let handFrames = try panFrames("woman_sitting_street_640.png")
        var phases: [Phase] = []

        var faceOptions = FaceDetectorOptions()
        faceOptions.isTrackingEnabled = true
        faceOptions.landmarkMode = .all
        faceOptions.contourMode = .all
        faceOptions.classificationMode = .all
        faceOptions.minFaceSize = 0
        faceOptions.threadCount = threads
        let faces = try FaceDetector.faceDetector(options: faceOptions)
        stderrLine("bench: soak faces_video_tracked, \(frames) frames…")
        phases.append(
            try measure("faces_video_tracked", frames: frames, sessions: { faces.sessionSetsCreated }) { k in
                try faces.results(in: faceFrames[k % faceFrames.count]).map(\.trackingID)
            })

        var handOptions = HandLandmarkerOptions()
        handOptions.numHands = 2
        handOptions.numThreads = threads
        handOptions.smoothLandmarks = true
        handOptions.runningMode = .video
        let hands = try HandLandmarker(options: handOptions)
        stderrLine("bench: soak hands_video_tracked, \(frames) frames…")
        let video = try measure("hands_video_tracked", frames: frames, sessions: { hands.sessionSetsCreated }) { k in
            try hands.detect(videoFrame: handFrames[k % handFrames.count], timestampInMilliseconds: 33 * (k + 1)).trackingIDs
        }
        phases.append(video)

        stderrLine("bench: soak hands_live_stream, \(frames) frames…")
        phases.append(
            try liveStream(
                frames: frames, images: handFrames, options: handOptions,
                interval: 0.6 * video.medianMs))
        return phases
    }

    /// Runs `frame(k)` for k in 0..<frames, each returning the frame's tracking IDs.
    private static func measure(
        _ name: String, frames: Int, sessions: () -> Int,
        _ frame: (Int) throws -> [Int]
    ) throws -> Phase {
        var phase = Phase(name: name)
        let warm = warmUp(frames)
        var samples: [Double] = []
        samples.reserveCapacity(frames)
        var ids = Set<Int>()
        for k in 0..<frames {
            if k == warm { phase.begin(sessions: sessions()) }
            let start = DispatchTime.now().uptimeNanoseconds
            let frameIDs = try frame(k)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            if k >= warm {
                samples.append(ms)
                ids.formUnion(frameIDs)
                if (k - warm) % 25 == 0 { phase.rssMaxMB = max(phase.rssMaxMB, ProcessStats.residentMB) }
            }
        }
        phase.end(samples: samples, sessions: sessions())
        phase.frames = samples.count
        phase.accepted = samples.count
        phase.trackingIDs = ids.count
        return phase
    }

    /// Live stream: frame k is offered at `k · interval` ms from the start; latency runs from the
    /// offer to the delegate's callback.
    private static func liveStream(
        frames: Int, images: [VisionImage], options: HandLandmarkerOptions,
        interval: Double
    ) throws -> Phase {
        let collector = LiveCollector()
        var options = options
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = collector
        let landmarker = try HandLandmarker(options: options)
        var phase = Phase(name: "hands_live_stream")
        let warm = warmUp(frames)
        let start = DispatchTime.now().uptimeNanoseconds
        for k in 0..<frames {
            if k == warm {
                collector.waitForAll(accepted: phase.accepted)
                collector.reset()
                phase.accepted = 0
                phase.dropped = 0
                phase.begin(sessions: landmarker.sessionSetsCreated)
            }
            let due = start + UInt64(Double(k) * interval * 1e6)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32(min((due - now) / 1000, 1_000_000))) }
            let t = 33 * (k + 1)
            collector.offered(t)
            if try landmarker.detectAsync(image: images[k % images.count], timestampInMilliseconds: t) {
                phase.accepted += 1
            } else {
                collector.forget(t)
                phase.dropped += 1
            }
            if k >= warm && (k - warm) % 25 == 0 { phase.rssMaxMB = max(phase.rssMaxMB, ProcessStats.residentMB) }
        }
        collector.waitForAll(accepted: phase.accepted)
        let (latencies, ids, failures) = collector.snapshot
        if let failure = failures.first { throw BlazeError(.invalidInput, "soak: live-stream frame failed: \(failure)") }
        phase.frames = frames - warm
        phase.end(samples: latencies, sessions: landmarker.sessionSetsCreated)
        phase.trackingIDs = ids.count
        return phase
    }

    private static func warmUp(_ frames: Int) -> Int { min(frames / 2, max(50, frames / 10)) }

    /// A 48-frame loop panning a 94 % window over the photo (Lissajous path, no jumps). The
    /// window is wide enough that the three faces of three_people_640.png (x 69…590, y 45…337 of
    /// 640×525) stay in view in every frame, so every frame costs the same work: with the 80 %
    /// window of before, faces came and went, and a three-face frame cost three times a one-face
    /// frame, which is what p99/median then measured.
    private static func panFrames(_ file: String) throws -> [VisionImage] {
        let photo = try ImageFile.read(contentsOf: PipelineBench.resources.appendingPathComponent(file))
        let w = photo.width * 94 / 100, h = photo.height * 94 / 100
        let bpp = photo.format.bytesPerPixel
        return try photo.withUnsafePlanes { planes in
            let plane = planes[0]
            return try (0..<48).map { k in
                let phase = 2 * Double.pi * Double(k) / 48
                let x = Int(Double(photo.width - w) * (0.5 + 0.5 * sin(phase)))
                let y = Int(Double(photo.height - h) * (0.5 + 0.5 * sin(2 * phase)))
                let offset = y * plane.bytesPerRow + x * bpp
                let window = UnsafeRawBufferPointer(rebasing: plane.bytes[offset...])
                return try VisionImage(copying: window, width: w, height: h, bytesPerRow: plane.bytesPerRow, format: photo.format)
            }
        }
    }

    static func printTable(_ phases: [Phase], frames: Int) {
        print("soak: \(frames) frames per phase after warm-up excluded; \(SystemInfo.cpuName)")
        print("| phase | frames | dropped | median ms | p99 ms | p99/median | RSS warm → end MB (max) | growth MB | threads | session sets | tracking IDs |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p in phases {
            let rss = String(format: "%.1f → %.1f (%.1f)", p.rssWarmMB, p.rssEndMB, p.rssMaxMB)
            print(
                "| \(p.name) | \(p.frames) | \(p.dropped) | " + String(format: "%.2f | %.2f | %.2f", p.medianMs, p.p99Ms, p.p99OverMedian)
                    + " | \(rss) | " + String(format: "%+.1f", p.rssGrowthMB)
                    + " | \(p.threadsWarm) → \(p.threadsEnd) | \(p.sessionsWarm) → \(p.sessionsEnd) | \(p.trackingIDs) |")
        }
    }
}

private extension Soak.Phase {
    mutating func begin(sessions: Int) {
        rssWarmMB = ProcessStats.residentMB
        rssMaxMB = rssWarmMB
        threadsWarm = ProcessStats.threads
        threadIDsWarm = Set(ProcessStats.threadNames.keys)
        sessionsWarm = sessions
    }

    mutating func end(samples: [Double], sessions: Int) {
        let sorted = samples.sorted()
        if !sorted.isEmpty {
            medianMs = sorted[sorted.count / 2]
            p99Ms = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        }
        rssEndMB = ProcessStats.residentMB
        rssMaxMB = max(rssMaxMB, rssEndMB)
        // Idle Dispatch workers retire after a few seconds; only threads that stay count as growth.
        threadsEnd = ProcessStats.threads
        for _ in 0..<10 where threadsEnd > threadsWarm {
            sleep(1)
            threadsEnd = ProcessStats.threads
        }
        newThreads = ProcessStats.threadNames.filter { !threadIDsWarm.contains($0.key) }.values.sorted()
        sessionsEnd = sessions
    }
}

/// Offer times and delivered results of the live-stream phase.
private final class LiveCollector: HandLandmarkerLiveStreamDelegate {
    private struct State {
        var offeredAt: [Int: UInt64] = [:]
        var latencies: [Double] = []
        var ids = Set<Int>()
        var failures: [String] = []
        var delivered = 0
    }
    private let state = Locked(State())

    func offered(_ t: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.offeredAt[t] = now }
    }

    func forget(_ t: Int) { _ = state.withLock { $0.offeredAt.removeValue(forKey: t) } }

    func reset() { state.withLock { $0 = State() } }

    var snapshot: ([Double], Set<Int>, [String]) { state.withLock { ($0.latencies, $0.ids, $0.failures) } }

    /// Waits (up to 60 s) until `accepted` results have arrived since the last `reset`.
    func waitForAll(accepted: Int) {
        let deadline = DispatchTime.now().uptimeNanoseconds + 60_000_000_000
        while state.withLock({ $0.delivered }) < accepted && DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(1000)
        }
    }

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { s in
            s.delivered += 1
            if let start = s.offeredAt.removeValue(forKey: timestampInMilliseconds) {
                s.latencies.append(Double(now - start) / 1e6)
            }
            if let result { s.ids.formUnion(result.trackingIDs) }
            if let error { s.failures.append("\(timestampInMilliseconds) ms: \(error)") }
        }
    }
}

/// Resident memory and threads of this process, from /proc.
enum ProcessStats {
    static var residentMB: Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Thread id → name, from /proc/self/task.
    static var threadNames: [String: String] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var names: [String: String] = [:]
        for id in ids {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? "?"
            names[id] = comm.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return names
    }

    static var threads: Int { Int(SystemInfo.processStatus("Threads") ?? 0) }
}
