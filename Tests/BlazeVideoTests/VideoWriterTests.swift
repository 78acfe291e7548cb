import BlazeEngine
import BlazeImageIO
import BlazeKit
import BlazeTestSupport
import BlazeVideo
import Foundation
import Testing

/// `VideoWriter`: what it writes decodes back (through `VideoReader`, whose decode is checked
/// against the ffmpeg program's) with the frame count, size and rate it was given, and colours
/// close to the drawn ones; failures leave no file.
@Suite("VideoWriter")
struct VideoWriterTests {
    /// A picture whose left half is red and right half blue, with a white square at `frame`.
    func canvas(width: Int, height: Int, frame: Int) throws -> Canvas {
        var c = try Canvas(width: width, height: height, background: .blue)
        c.fillRect(x: 0, y: 0, width: Double(width / 2), height: Double(height), color: .red)
        c.fillRect(x: Double(frame * 2), y: 2, width: 6, height: 6, color: .white)
        return c
    }

    @Test(arguments: [("mp4", 64, 48), ("mkv", 64, 48), ("webm", 64, 48), ("mp4", 63, 47)])
    func writtenVideosDecodeBackWithTheirFramesAndSize(ext: String, width: Int, height: Int) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path("out.\(ext)")
        let writer = try VideoWriter(path: path, width: width, height: height, framesPerSecondNumerator: 25)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the final path before finish()")
        for i in 0..<12 { try writer.append(try canvas(width: width, height: height, frame: i)) }
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["out.\(ext)"], "no temporary file left")
        let reader = try VideoReader(path: path)
        #expect(reader.info.width == width && reader.info.height == height)
        #expect(reader.info.framesPerSecond == 25)
        var count = 0
        while let frame = try reader.nextFrame() {
            // Back to RGB through BlazeKit's own conversion: the red half stays red, the blue half blue.
            let left = frame.image.uprightPixel(x: 4, y: height / 2), right = frame.image.uprightPixel(x: width - 4, y: height / 2)
            #expect(left.r > 180 && left.g < 70 && left.b < 70, "\(ext) frame \(count): left \(left)")
            #expect(right.b > 180 && right.r < 70 && right.g < 70, "\(ext) frame \(count): right \(right)")
            #expect(frame.timestampInMilliseconds == count * 40)
            count += 1
        }
        #expect(count == 12)
    }

    @Test func badSettingsAndUnwritablePlacesAreErrors() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        #expect(throws: BlazeError.self) { try VideoWriter(path: scratch.path("out.notavideo"), width: 64, height: 48) }
        #expect(throws: BlazeError.self) { try VideoWriter(path: scratch.path("out.mp4"), width: 1, height: 48) }
        #expect(throws: BlazeError.self) { try VideoWriter(path: scratch.path("out.mp4"), width: 64, height: 48, framesPerSecondNumerator: 0) }
        let unwritable = #expect(throws: BlazeError.self) { try VideoWriter(path: scratch.path("no/such/folder/out.mp4"), width: 64, height: 48) }
        #expect(unwritable?.kind == .io)
        let writer = try VideoWriter(path: scratch.path("out.mp4"), width: 64, height: 48)
        #expect(throws: BlazeError.self) { try writer.append(try canvas(width: 32, height: 48, frame: 0)) }
        try writer.append(try canvas(width: 64, height: 48, frame: 0))
        // Abandoned without finish(): nothing is left behind.
        _ = consume writer
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
