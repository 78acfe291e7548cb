import BlazeKit
import Synchronization

func delegateTour() throws {
    // A live-stream delegate that passes Swift 6's checks: a final class whose only state is a
    // `Mutex` (so it is `Sendable` without `@unchecked`); called on the landmarker's own queue.
    final class HandCounter: HandLandmarkerLiveStreamDelegate {
        let lastCount = Mutex(0)

        func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                            timestampInMilliseconds: Int, error: (any Error)?) {
            lastCount.withLock { $0 = result?.landmarks.count ?? 0 }
        }
    }

    let counter = HandCounter()                                   // keep it: the options hold it weakly
    var options = HandLandmarkerOptions()
    options.runningMode = .liveStream
    options.handLandmarkerLiveStreamDelegate = counter
    let landmarker = try HandLandmarker(options: options)
    print(landmarker.options.runningMode, counter.lastCount.withLock { $0 })
}

func buffersTour() throws {
    let frameBytes = [UInt8](repeating: 128, count: 1280 * 720 * 3 / 2)
    let t = 0
    var options = HandLandmarkerOptions()
    options.runningMode = .video
    let landmarker = try HandLandmarker(options: options)
    let result = try frameBytes.withUnsafeBytes { raw in
        let image = try VisionImage(borrowing: raw, width: 1280, height: 720, bytesPerRow: 1280, format: .nv12(.video))
        return try landmarker.detect(videoFrame: image, timestampInMilliseconds: t)   // synchronous: done before `raw` goes
    }
    print(result.landmarks.count)
}
