import BlazeEngine

/// `.npy` reader (header dict, dtype, order, shape against the data size).
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let array = try? NPYArray(bytes: bytes) { _ = array.encoded() }
    return 0
}

@_cdecl("fuzz_npy_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
