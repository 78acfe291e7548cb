import BlazeKit
import BlazeImageIO

func handsTour(photo: String) throws {
    let image = try ImageFile.read(path: photo)
    var options = HandLandmarkerOptions()
    options.numHands = 2
    options.runningMode = .video                                // .image (default) | .video | .liveStream
    let landmarker = try HandLandmarker(options: options)
    let result = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 0)
    for (hand, handedness) in zip(result.landmarks, result.handedness) {
        print(handedness[0].categoryName ?? "", hand[8])        // index fingertip, normalized
    }
}

func liveStreamTour(photo: String) async throws {
    let cameraFrame = try ImageFile.read(path: photo)
    let t = 0
    var options = HandLandmarkerOptions()
    options.numHands = 2
    let (live, results) = try HandLandmarker.liveStream(options: options)
    let consumer = Task { for await frame in results { print(frame.timestampInMilliseconds, (try? frame.result.get())?.landmarks.count ?? 0) } }
    try live.detectAsync(image: cameraFrame, timestampInMilliseconds: t)   // per camera frame
    live.close()
    await consumer.value
}
