import BlazeKit
import BlazeVideo

func videoTour() throws {
    let reader = try VideoReader(path: "clip.mp4")        // or VideoReader(camera: "/dev/video0")
    print(reader.info.duration ?? 0, reader.info.orientation)
    let frames = FramePrefetcher(reader)                  // decode one thread ahead
    var handOptions = HandLandmarkerOptions()
    handOptions.runningMode = .video
    let landmarker = try HandLandmarker(options: handOptions)
    while let frame = try frames.nextFrame() {
        let result = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
        print(frame.index, result.landmarks.count)
    }
}
