import BlazeKit
import BlazeImageIO

func faceLandmarkerTour(photo: String) throws {
    let image = try ImageFile.read(path: photo)
    var options = FaceLandmarkerOptions()
    options.numFaces = 3
    options.outputFaceBlendshapes = true                        // 52 named scores per face
    options.outputFacialTransformationMatrixes = true           // 4×4, canonical face (cm) → camera
    let landmarker = try FaceLandmarker(options: options)
    let result = try landmarker.detect(image: image)
    for (points, shapes) in zip(result.faceLandmarks, result.faceBlendshapes) {
        let jawOpen = shapes.categories.first { $0.categoryName == "jawOpen" }?.score ?? 0
        print(points.count, points[1], jawOpen)                 // 478 points; 1 = nose tip, normalized
    }
}
