import BlazeImageIO
import BlazeKit
import Foundation
import Testing

@Test func adHocSharedPhotos() throws {
    let dir = "/work/shared/testdata/images"
    for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where !name.hasSuffix(".md") {
        let image = try ImageFile.read(path: dir + "/" + name)
        let rgb = try image.upright(as: .rgb8)
        let ref = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/tmp/exp/ref/\(name).rgb")))
        var maxDiff = 0, diffs = 0
        rgb.withUnsafePlanes { p in
            for i in 0..<ref.count { let d = abs(Int(p[0].bytes[i]) - Int(ref[i])); if d > 0 { diffs += 1; maxDiff = max(maxDiff, d) } }
        }
        print("ADHOC \(name) \(image.width)x\(image.height) \(image.format) \(image.orientation) bytes \(ref.count) diffs \(diffs) max \(maxDiff)")
    }
}
