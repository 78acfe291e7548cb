import BlazeImageIO
import BlazeKit

func batchTour(paths: [String]) throws {
    var options = FaceDetectorOptions()
    options.threadCount = 1                      // one image per core beats one image over all cores
    let detector = try FaceDetector.faceDetector(options: options)
    try detector.forEachResult(in: paths, image: { try ImageFile.read(path: $0) }) { path, result in
        switch result {                          // called on this thread, in the order of `paths`
        case .success(let faces): print(path, faces.count)
        case .failure(let error): print(path, error.localizedDescription)
        }
    }
    // HandLandmarker (image mode) has the same forEachResult; ParallelBatch runs any closure this way.
}
