import BlazeKit
import BlazeImageIO

func facesTour() throws {
    let image = try ImageFile.read(path: "three_people.jpg")     // VisionImage; EXIF orientation applied
    var options = FaceDetectorOptions()                          // a Sendable struct
    options.performanceMode = .accurate                          // .fast (default) | .accurate
    options.landmarkMode = .all
    options.contourMode = .all
    options.classificationMode = .all
    options.isTrackingEnabled = true
    let detector = try FaceDetector.faceDetector(options: options)
    for face in try detector.results(in: image) {                // also: try await detector.process(image)
        print(face.frame, face.headEulerAngleY, face.headEulerAngleZ)
        if let leftEye = face.landmark(ofType: .leftEye) { print(leftEye.position) }
        if let lips = face.contour(ofType: .upperLipTop) { print(lips.points.count) }
        if face.hasSmilingProbability { print(face.smilingProbability) }
        if face.hasTrackingID { print(face.trackingID) }
    }
}
