import BlazeEngine
import BlazeTestSupport
import Testing
@testable import BlazeConvert

/// The FlexBuffer reader of custom options: buffers written by the `flatbuffers` Python package
/// (`flexbuffers.Dumps`) and by MediaPipe's model, then hostile bytes.
@Suite struct FlexBufferTests {
    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = [], chars = Array(s)
        while chars.count >= 2 { out.append(UInt8(String(chars[0..<2]), radix: 16)!); chars.removeFirst(2) }
        return out
    }

    /// `flexbuffers.Dumps({"i": -5, "big": 1 << 40, "f": 1.5, "d": 0.1, "s": "hi", "v": [1, 2, 300],
    /// "fv": [0.5, 2.0], "mixed": [1, "x", 2.5], "b": True, "m": {"k": 7}})` (flatbuffers 25.12.19).
    static let everyKind = hex(
        "6900626967006600640073000268690076000300010002002c01050505667600020000000000003f000000400e0e6d69786564000178000003000000010000000b0000000000204006140e62006d006b00010301010107040a0e585356405e1232575200000000000f0000000000000001000000000000000a00000000000000010000000000000000000000000100009a9999999999b93f000000000000f83f7c00000000000000fbffffffffffffff5a000000000000007c00000000000000b300000000000000b4000000000000006b070f0f2a07242a14295a2701"
    )

    /// The custom options of TransformTensorBilinear in MediaPipe's face_landmark_with_attention.tflite.
    static let transformTensorOptions = hex("6f75747075745f686569676874006f75747075745f776964746800021c0f02010210100404042401")

    @Test func everyKindOfValue() throws {
        let v = try FlexValue.parse(Self.everyKind[...])
        guard case .map(let m) = v else { Issue.record("not a map: \(v)"); return }
        #expect(m["i"] == .int(-5))
        #expect(m["big"]?.integer == 1 << 40)
        #expect(m["f"] == .float(1.5) && m["d"] == .float(0.1))
        #expect(m["s"] == .string("hi") && m["b"] == .bool(true))
        #expect(m["v"] == .vector([.int(1), .int(2), .int(300)]))
        #expect(m["fv"] == .vector([.float(0.5), .float(2)]))
        #expect(m["mixed"] == .vector([.int(1), .string("x"), .float(2.5)]))
        #expect(m["m"] == .map(["k": .int(7)]))
        #expect(m.count == 10)
    }

    @Test func mediaPipeOptions() throws {
        #expect(try FlexValue.parse(Self.transformTensorOptions[...]) == .map(["output_height": .int(16), "output_width": .int(16)]))
    }

    /// Every truncation and 3,000 seeded byte flips of both buffers: a value or a typed error, never a crash.
    @Test func hostileBytesGiveTypedErrors() {
        var rng = SeededRandom(seed: 0xF1E7)
        for base in [Self.everyKind, Self.transformTensorOptions] {
            var cases: [[UInt8]] = (0..<base.count).map { Array(base.prefix($0)) }
            for _ in 0..<1500 {
                var b = base
                for _ in 0..<Int(rng.next() % 3 + 1) { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
                cases.append(b)
            }
            for bytes in cases {
                do {
                    _ = try FlexValue.parse(bytes[...])
                } catch let e as BlazeError {
                    #expect(e.kind == .corruptModel && e.message.hasPrefix("flexbuffer: "), "\(e)")
                } catch {
                    Issue.record("untyped error \(error)")
                }
            }
        }
    }

    /// A vector whose one element points back at the vector itself stops at the depth cap.
    @Test func selfNestedVectorIsCapped() {
        // Byte 0: size 1; byte 1: the element, offset 0 (the vector at byte 1 again); byte 2: its
        // type, untyped vector of width 1 (0x28); byte 3: the root, offset 2 back to byte 1;
        // bytes 4, 5: root type 0x28 and root width 1.
        let selfNested: [UInt8] = [1, 0, 0x28, 2, 0x28, 1]
        do {
            _ = try FlexValue.parse(selfNested[...])
            Issue.record("parsed a self-nested vector")
        } catch let e as BlazeError {
            #expect(e.kind == .corruptModel && e.message.contains("nesting deeper than 16"), "\(e)")
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
