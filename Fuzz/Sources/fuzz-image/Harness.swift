import BlazeImageIO
import Foundation

/// JPEG, PNG and PGM/PPM decoding with EXIF orientation. The pixel cap is lowered to 4 Mpx so
/// that header-driven allocations stay small; the cap itself is what is exercised.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let options = ImageDecodingOptions(maxPixelCount: 4_000_000)
    _ = try? ImageFile.decode(Data(bytes: data, count: size), options: options)
    return 0
}

@_cdecl("fuzz_image_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
