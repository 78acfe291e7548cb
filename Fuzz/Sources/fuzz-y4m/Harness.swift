import BlazeImageIO
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// YUV4MPEG2 reader: header, FRAME lines and frame data, read from a temporary file.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let file = tmpfile() else { return 0 }
    defer { fclose(file) }
    _ = fwrite(data, 1, size, file)
    fflush(file)
    let fd = fileno(file)
    lseek(fd, 0, SEEK_SET)
    let options = ImageDecodingOptions(maxPixelCount: 4_000_000)
    if let reader = try? Y4MReader(fileDescriptor: fd, closesOnDeinit: false, options: options) {
        var frames = 0
        while frames < 16, (try? reader.nextFrame()) != nil { frames += 1 }
    }
    return 0
}

@_cdecl("fuzz_y4m_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
