import BlazeConvert

/// TFLite flatbuffer reader and converter (every op translator), then the `.bkm` writer.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let graph = try? ModelConversion.convertTFLite(bytes: bytes, modelName: "fuzz.tflite") else { return 0 }
    _ = try? ModelFileWriter.encode(graph)
    return 0
}

@_cdecl("fuzz_tflite_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
