import BlazeTestSupport
import BlazeVideo
import Foundation
import Testing

/// The video fuzz corpus through the same calls as its harness (Fuzz/Sources/fuzz-video).
@Suite("Fuzz corpus: video")
struct VideoFuzzCorpusReplayTests {
    @Test func videoCorpus() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path("input")
        try FuzzCorpus.replay("fuzz-video") { bytes in
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try VideoReader(path: path)
            guard reader.info.width * reader.info.height <= 4_000_000 else { return }
            var frames = 0
            while frames < 8, let frame = try reader.nextFrame() {
                #expect(frame.image.width > 0 && frame.image.height > 0)
                frames += 1
            }
        }
    }
}
