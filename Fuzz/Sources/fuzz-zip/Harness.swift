import BlazeConvert

/// `.task` (zip) reader: central directory, local headers, inflate and CRC of every entry.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let archive = try? ZipArchive(bytes: bytes) else { return 0 }
    for entry in archive.entries.prefix(64) where entry.uncompressedSize <= 1 << 24 {
        _ = try? archive.extract(entry)
    }
    return 0
}

@_cdecl("fuzz_zip_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
