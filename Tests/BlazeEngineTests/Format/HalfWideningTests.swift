import Testing

@testable import BlazeEngine

/// The fp16 weights' widening against the standard library's conversion (compiler-rt's
/// `__extendhfsf2` on x86-64, the FCVT instruction on arm64), over every bit pattern.
@Suite struct HalfWideningTests {
    @Test func everyBitPatternMatchesTheStandardLibrary() {
        var mismatches: [UInt16] = []
        for bits in UInt16.min...UInt16.max {
            let ours = HalfWidening.float(bits), reference = Float(Float16(bitPattern: bits))
            if reference.isNaN {
                // FCVT quiets a signalling NaN and compiler-rt keeps it; the sign and payload agree.
                let agree =
                    ours.isNaN && ours.sign == reference.sign
                    && ours.bitPattern & 0x003F_E000 == reference.bitPattern & 0x003F_E000
                if !agree { mismatches.append(bits) }
            } else if ours.bitPattern != reference.bitPattern {
                mismatches.append(bits)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) patterns differ, first \(mismatches.prefix(8).map { String($0, radix: 16) })")
    }

    /// The model reader's fp16 loop (vectorised by LLVM), at a blob offset, against `float`.
    @Test func modelReaderWidensEveryPattern() {
        let offset = 64
        var bytes = [UInt8](repeating: 0xEE, count: offset)
        for v in UInt16.min...UInt16.max { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let count = 65536 - 3  // a tail the vector loop leaves
        let widened = bytes.withUnsafeBytes { ModelFile.loadFloats($0, at: offset, count: count, storage: .float16) }
        let wrong = (0..<count).filter { widened[$0].bitPattern != HalfWidening.float(UInt16($0)).bitPattern }
        #expect(widened.count == count && wrong.isEmpty, "\(wrong.count) differ, first \(wrong.prefix(4))")
    }

    @Test func handPickedValues() {
        #expect(HalfWidening.float(0x3C00) == 1)
        #expect(HalfWidening.float(0xC000) == -2)
        #expect(HalfWidening.float(0x7BFF) == 65504)
        #expect(HalfWidening.float(0x0001) == 0x1p-24)  // smallest subnormal
        #expect(HalfWidening.float(0x03FF) == 1023 * 0x1p-24)  // largest subnormal
        #expect(HalfWidening.float(0x0400) == 0x1p-14)  // smallest normal
        #expect(HalfWidening.float(0x8000).bitPattern == (-0.0 as Float).bitPattern)
        #expect(HalfWidening.float(0x7C00) == .infinity)
        #expect(HalfWidening.float(0xFC00) == -.infinity)
        #expect(HalfWidening.float(0x7E00).isNaN)
    }
}
