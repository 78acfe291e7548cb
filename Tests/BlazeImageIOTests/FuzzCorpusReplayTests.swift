import BlazeImageIO
import BlazeKit
import BlazeTestSupport
import Foundation
import Testing

/// The image and Y4M fuzz corpora through the same calls as their harnesses (Fuzz/Sources).
@Suite("Fuzz corpora: images and Y4M")
struct ImageFuzzCorpusReplayTests {
    static let options = ImageDecodingOptions(maxPixelCount: 4_000_000)

    @Test func imageCorpus() throws {
        try FuzzCorpus.replay("fuzz-image") { bytes in
            let image = try ImageFile.decode(Data(bytes), options: Self.options)
            #expect(image.width > 0 && image.height > 0 && image.width * image.height <= 4_000_000)
        }
    }

    @Test func y4mCorpus() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path("input.y4m")
        try FuzzCorpus.replay("fuzz-y4m") { bytes in
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try Y4MReader(path: path, options: Self.options)
            var frames = 0
            while frames < 16, let frame = try reader.nextFrame() {
                #expect(frame.index == frames && frame.image.width > 0 && frame.image.height > 0)
                frames += 1
            }
        }
    }
}
