import BlazeEngine

/// `.bkm` reader and graph validation, then planning a model of what was read.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let graph = try? ModelFile.read(bytes: UnsafeRawBufferPointer(start: data, count: size)) else { return 0 }
    _ = try? Model(graph: graph)
    return 0
}

@_cdecl("fuzz_bkm_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
