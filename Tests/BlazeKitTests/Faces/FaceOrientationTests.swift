import BlazeEngine
import Foundation
import Testing
@testable import BlazeKit

/// The 8 orientations: a photo stored turned/mirrored with the orientation that makes it upright
/// again gives exactly the faces of the upright photo, in upright coordinates.
@Suite struct FaceOrientationTests {
    @Test(arguments: [("two_children.jpg", FaceDetectorPerformanceMode.fast), ("grace_hopper.jpg", .accurate)])
    func allOrientationsGiveTheUprightFaces(photo: String, mode: FaceDetectorPerformanceMode) throws {
        let upright = try FaceTestData.image(photo).upright(as: .rgb8)
        let detector = try FaceDetector.faceDetector(options: FaceTestData.allOptions(mode))
        let expected = try detector.results(in: upright)
        #expect(!expected.isEmpty)
        #expect(expected.allSatisfy { $0.mesh != nil })
        for orientation in ImageOrientation.allCases {
            let stored = try storedImage(upright: upright, orientation: orientation)
            #expect(stored.uprightWidth == upright.width && stored.uprightHeight == upright.height)
            let faces = try detector.results(in: stored)
            #expect(faces == expected, "\(photo) \(orientation): faces differ from the upright image's")
            if faces.count == expected.count {
                let frameError =
                    zip(faces, expected).map { a, b in
                        max(abs(a.frame.x - b.frame.x), abs(a.frame.y - b.frame.y), abs(a.frame.width - b.frame.width))
                    }.max() ?? 0
                #expect(frameError == 0, "\(photo) \(orientation): frame differs by \(frameError) px")
            }
        }
    }
}
