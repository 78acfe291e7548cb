import BlazeVideo
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// `VideoReader` (FFmpeg demuxing and decoding, then BlazeVideo's frame conversion) on a file of
/// fuzzed bytes. FFmpeg itself is not instrumented; what is checked is that nothing it hands back
/// (odd sizes, pixel formats, timestamps, errors mid-stream) crashes or leaks in our code.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-video-\(getpid())").path
    guard let file = fopen(path, "wb") else { return 0 }
    _ = fwrite(data, 1, size, file)
    fclose(file)
    defer { unlink(path) }
    guard let reader = try? VideoReader(path: path), reader.info.width * reader.info.height <= 4_000_000 else { return 0 }
    var frames = 0
    while frames < 8, (try? reader.nextFrame()) != nil { frames += 1 }
    return 0
}

@_cdecl("fuzz_video_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
