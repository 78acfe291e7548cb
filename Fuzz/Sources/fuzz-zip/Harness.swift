import BlazeConvert

/// `.task` (zip) reader: central directory, local headers, inflate and CRC of every entry, and
/// the `.task` bundles inside a bundle (a gesture bundle nests two) the same way.
func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    walk([UInt8](UnsafeBufferPointer(start: data, count: size)), depth: 0)
    return 0
}

private func walk(_ bytes: [UInt8], depth: Int) {
    guard let archive = try? ZipArchive(bytes: bytes) else { return }
    for entry in archive.entries.prefix(64) where entry.uncompressedSize <= 1 << 24 {
        guard let inner = try? archive.extract(entry) else { continue }
        if depth == 0 && entry.name.lowercased().hasSuffix(".task") { walk(inner, depth: 1) }
    }
}

@_cdecl("fuzz_zip_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 { runFuzzer(argc, argv) }
