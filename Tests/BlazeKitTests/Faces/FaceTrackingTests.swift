import BlazeEngine
import Foundation
import Testing
@testable import BlazeKit

/// Tracking IDs on a synthetic clip made in memory from two photo crops: face A (grace_hopper)
/// moves, face B (business_person) enters, A leaves and comes back.
@Suite struct FaceTrackingTests {
    /// Where face A and B are pasted in each frame (nil = absent).
    static let script: [(a: (Int, Int)?, b: (Int, Int)?)] = [
        (nil, nil),
        ((30, 60), nil),
        ((45, 65), nil),
        ((60, 70), nil),
        ((75, 70), (420, 50)),
        ((90, 70), (410, 50)),
        (nil, (400, 50)),
        (nil, (390, 50)),
        ((60, 70), (380, 50)),
        ((70, 70), (370, 50))
    ]

    static func frames() throws -> [VisionImage] {
        let a = try FaceTestData.image("grace_hopper.jpg").upright(as: .rgb8)
        let b = try FaceTestData.image("business_person.png").upright(as: .rgb8)
        let cropA = (x: 130, y: 100, width: 280, height: 290), cropB = (x: 320, y: 160, width: 360, height: 360)
        return try script.map { step in
            var frame = try VisionImage(width: 800, height: 450, format: .rgb8)
            frame.withUnsafeMutablePlanes { planes in
                let d = planes[0]
                for i in 0..<d.bytes.count { d.bytes[i] = 110 }
                func paste(_ source: VisionImage, _ crop: (x: Int, y: Int, width: Int, height: Int), at origin: (Int, Int)) {
                    source.withUnsafePlanes { src in
                        let s = src[0]
                        for row in 0..<crop.height {
                            for col in 0..<crop.width * 3 {
                                d.bytes[(origin.1 + row) * d.bytesPerRow + origin.0 * 3 + col] =
                                    s.bytes[(crop.y + row) * s.bytesPerRow + crop.x * 3 + col]
                            }
                        }
                    }
                }
                if let p = step.a { paste(a, cropA, at: p) }
                if let p = step.b { paste(b, cropB, at: p) }
            }
            return frame
        }
    }

    /// Per frame: the IDs of A and B (by position: A is left of x = 380).
    static func ids(_ faces: [Face]) -> (a: Int?, b: Int?) {
        let a = faces.first { $0.frame.midX < 380 }, b = faces.first { $0.frame.midX >= 380 }
        return (a.map(\.trackingID), b.map(\.trackingID))
    }

    static func checkIDs(_ results: [[Face]]) {
        #expect(results.count == script.count)
        for (i, (faces, step)) in zip(results, script).enumerated() {
            let expected = (step.a == nil ? 0 : 1) + (step.b == nil ? 0 : 1)
            #expect(faces.count == expected, "frame \(i): \(faces.count) faces, expected \(expected)")
            #expect(faces.allSatisfy { $0.hasTrackingID }, "frame \(i)")
            #expect(Set(faces.map(\.trackingID)).count == faces.count, "frame \(i): IDs are unique")
        }
        let ids = results.map(Self.ids)
        print("[FaceTracking] IDs per frame (A, B): \(ids.map { "(\($0.a.map(String.init) ?? "-"), \($0.b.map(String.init) ?? "-"))" }.joined(separator: " "))")
        guard let a = ids[1].a, let b = ids[4].b, let c = ids[8].a else {
            Issue.record("faces missing: \(ids)")
            return
        }
        for i in 1...5 { #expect(ids[i].a == a, "frame \(i): A keeps its ID") }
        for i in 4...9 { #expect(ids[i].b == b, "frame \(i): B keeps its ID") }
        #expect(b != a, "B gets a new ID")
        #expect(c != a && c != b, "A coming back is a new face with a new ID (IDs are never reused)")
        #expect(ids[9].a == c)
    }

    @Test func idsStayWithTheirFaces() throws {
        var options = FaceTestData.allOptions(.fast, tracking: true)
        options.landmarkMode = .none
        options.classificationMode = .none  // contours and tracking together
        let detector = try FaceDetector.faceDetector(options: options)
        let results = try Self.frames().map { try detector.results(in: $0) }
        Self.checkIDs(results)
        #expect(results.joined().allSatisfy { $0.contours.count == FaceContourType.allCases.count })
    }

    /// Calls made back to back with the completion handler are processed and delivered in call
    /// order, off the main queue; the IDs equal the synchronous run's.
    @Test func completionHandlersKeepCallOrder() async throws {
        var options = FaceDetectorOptions()
        options.minFaceSize = 0
        options.isTrackingEnabled = true
        let detector = try FaceDetector.faceDetector(options: options)
        let frames = try Self.frames()
        let delivered = Locked<[(Int, [Face])]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Locked(frames.count)
            for (i, frame) in frames.enumerated() {
                detector.process(frame) { faces, error in
                    #expect(error == nil)
                    delivered.withLock { $0.append((i, faces ?? [])) }
                    if remaining.withLock({
                        $0 -= 1; return $0
                    }) == 0 {
                        done.resume()
                    }
                }
            }
        }
        let results = delivered.withLock { $0 }
        #expect(results.map(\.0) == Array(frames.indices), "completions in call order")
        Self.checkIDs(results.map(\.1))

        // The async form continues the same detector's IDs: A and B are still there.
        let next = try await detector.process(frames[9])
        #expect(Self.ids(next).b == Self.ids(results[9].1).b)
    }
}
