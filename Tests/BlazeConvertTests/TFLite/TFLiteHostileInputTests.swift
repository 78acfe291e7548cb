import BlazeTestSupport
import BlazeEngine
import Testing
@testable import BlazeConvert

/// Corrupted and truncated real models: the converter must throw a `BlazeError` or return a graph
/// that passes `validate()`; it must never trap (a trap would abort the test process).
@Suite struct TFLiteHostileInputTests {
    /// Positions outside every buffer's data (the flatbuffer's tables, vtables, vectors and strings),
    /// where a flip changes structure rather than a weight value.
    private func structuralPositions(_ bytes: [UInt8]) throws -> [Int] {
        let model = try TFLiteModel(bytes: bytes)
        var isData = [Bool](repeating: false, count: bytes.count)
        for r in model.buffers { for i in r { isData[i] = true } }
        return (0..<bytes.count).filter { !isData[$0] }
    }

    private struct Outcome { var converted = 0, rejected = 0 }

    private func attempt(_ bytes: [UInt8], _ outcome: inout Outcome, _ what: @autoclosure () -> String) {
        do {
            let g = try TFLiteConverter.convert(tfliteBytes: bytes, modelName: "hostile.tflite")
            do {
                try g.validate()
            } catch {
                Issue.record("\(what()): converted graph fails validate(): \(error)")
            }
            #expect(g.metadata["source.name"] == "hostile.tflite")
            outcome.converted += 1
        } catch let e as BlazeError {
            #expect(e.message.contains("hostile.tflite"), "\(what()): \(e)")
            outcome.rejected += 1
        } catch {
            Issue.record("\(what()): non-BlazeError \(error)")
        }
    }

    /// Flips 1–4 random bytes per trial; half the trials only touch structural bytes.
    private func flipTrials(_ stem: String, trials: Int, seed: UInt64) throws -> Outcome {
        let original = try TFLiteTestSupport.model(stem)
        let structure = try structuralPositions(original)
        #expect(structure.count > 1000)
        var rng = SeededRandom(seed: seed)
        var outcome = Outcome()
        for trial in 0..<trials {
            var bytes = original
            let flips = Int.random(in: 1...4, using: &rng)
            var touched: [Int] = []
            for _ in 0..<flips {
                let p = trial % 2 == 0 ? structure.randomElement(using: &rng)! : Int.random(in: 0..<bytes.count, using: &rng)
                bytes[p] ^= UInt8.random(in: 1...255, using: &rng)
                touched.append(p)
            }
            attempt(bytes, &outcome, "\(stem) trial \(trial) flips at \(touched)")
        }
        return outcome
    }

    @Test func randomByteFlipsOfShortRange() throws {
        let outcome = try flipTrials(TFLiteRealModelTests.shortRange, trials: 2400, seed: 0x7F11_7E5E)
        print("[hostile] short range flips: \(outcome.converted) converted, \(outcome.rejected) rejected")
        #expect(outcome.rejected > 100)
        #expect(outcome.converted + outcome.rejected == 2400)
    }

    @Test func randomByteFlipsOfSparseFullRange() throws {
        let outcome = try flipTrials(TFLiteRealModelTests.fullRange, trials: 600, seed: 0xDE75_1F7)
        print("[hostile] full range flips: \(outcome.converted) converted, \(outcome.rejected) rejected")
        #expect(outcome.rejected > 30)
    }

    @Test func truncationsOfShortRange() throws {
        let original = try TFLiteTestSupport.model(TFLiteRealModelTests.shortRange)
        var outcome = Outcome()
        for n in stride(from: 0, to: original.count, by: 64) {
            attempt(Array(original[0..<n]), &outcome, "prefix of \(n) bytes")
        }
        print("[hostile] short range truncations: \(outcome.converted) converted, \(outcome.rejected) rejected")
        #expect(outcome.converted + outcome.rejected == (original.count + 63) / 64)
        #expect(outcome.rejected > 0)
    }

    @Test func everyStructuralByteOfATinyModelSetToExtremes() throws {
        var m = TinyTFLite()
        let x = m.input("x", [1, 4, 4, 2])
        let dims = [
            TinyTFLite.denseDim(2), TinyTFLite.denseDim(1), TinyTFLite.denseDim(1),
            TinyTFLite.csrDim(segments: [0, 1, 2], indices: [1, 0])
        ]
        let sparse = m.tensor(
            "w_sparse", [2, 1, 1, 2], type: TinyTFLite.float16, data: [1, 2].flatMap { TinyTFLite.half($0) },
            sparsity: TinyTFLite.sparsity(rank: 4, dims: dims))
        let d16 = m.tensor("w16", [2, 1, 1, 2], type: TinyTFLite.float16)
        m.op(TinyTFLite.densify, [sparse], [d16])
        let w = m.tensor("w", [2, 1, 1, 2])
        m.op(TinyTFLite.dequantize, [d16], [w])
        let c = m.tensor("c", [1, 4, 4, 2])
        m.op(TinyTFLite.conv2D, [x, w, -1], [c], optionsType: 1, options: [(1, .i32(1)), (2, .i32(1))])
        let r = m.tensor("r", [1, 32])
        m.op(TinyTFLite.reshape, [c, m.int32Constant("shape", [1, -1])], [r])
        m.outputs = [r]
        let original = m.bytes()
        _ = try TFLiteConverter.convert(tfliteBytes: original, modelName: "hostile.tflite")
        var outcome = Outcome()
        for i in 0..<original.count {
            for v: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] where v != original[i] {
                var b = original
                b[i] = v
                attempt(b, &outcome, "byte \(i) = \(v)")
            }
        }
        #expect(outcome.rejected > 0 && outcome.converted > 0)
    }

    @Test func sharedBufferAmplificationIsBounded() throws {
        // 2000 DEQUANTIZE ops all widen the same 100 000-element fp16 tensor: 200 M values from a
        // ~0.5 MB file. The converter must stop with corruptModel instead of allocating them.
        var m = TinyTFLite()
        let x = m.input("x", [1, 4])
        let source = m.tensor("w16", [100_000], type: TinyTFLite.float16, data: [UInt8](repeating: 0x3C, count: 200_000))
        for i in 0..<2000 {
            m.op(TinyTFLite.dequantize, [source], [m.tensor("w\(i)", [100_000])])
        }
        let y = m.tensor("y", [1, 4])
        m.op(TinyTFLite.relu, [x], [y])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "amplify.tflite"))
        #expect(e.kind == .corruptModel && e.message.contains("amplify.tflite") && e.message.contains("DEQUANTIZE"))
    }
}
