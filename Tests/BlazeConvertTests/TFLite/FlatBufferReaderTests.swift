import BlazeEngine
import Testing
@testable import BlazeConvert

@Suite struct FlatBufferReaderTests {
    /// A table with every kind of field the reader supports.
    private func sample() -> [UInt8] {
        let child: FBNode = .table([(0, .i32(-7))])
        return TinyFlatBufferBuilder.build(
            root: .table([
                (0, .u32(0xDEAD_BEEF)),
                (1, .i8(-3)),
                (2, .bool(true)),
                (3, .offset(.string("héllo"))),
                (4, .offset(.ints32([1, -2, 3]))),
                (5, .offset(.tables([child, .table([])]))),
                (6, .u8(1)),  // union type
                (7, .offset(child)),  // union value
                (8, .u64(0x0102_0304_0506_0708)),
                (9, .f32(1.5)),
                (11, .offset(.ints16u([65535, 2])))
            ]), fileIdentifier: "TEST")
    }

    @Test func readsScalarsStringsVectorsTablesAndUnions() throws {
        let fb = FlatBuffer(sample())
        let root = try fb.rootTable(fileIdentifier: "TEST")
        #expect(try root.scalar(0, default: UInt32(0)) == 0xDEAD_BEEF)
        #expect(try root.scalar(1, default: Int8(0)) == -3)
        #expect(try root.bool(2, default: false))
        #expect(try root.string(3) == "héllo")
        #expect(try root.ints(4, as: Int32.self) == [1, -2, 3])
        let tables = try #require(try root.vector(5, elementSize: 4))
        #expect(tables.count == 2)
        #expect(try tables.table(at: 0).scalar(0, default: Int32(0)) == -7)
        #expect(try tables.table(at: 1).scalar(0, default: Int32(42)) == 42)
        let u = try root.union(typeID: 6)
        #expect(u.type == 1)
        #expect(try u.table?.scalar(0, default: Int32(0)) == -7)
        #expect(try root.scalar(8, default: UInt64(0)) == 0x0102_0304_0506_0708)
        #expect(try root.float32(9, default: 0) == 1.5)
        #expect(try root.ints(11, as: UInt16.self) == [65535, 2])
    }

    @Test func absentFieldsGiveDefaults() throws {
        let root = try FlatBuffer(sample()).rootTable()
        #expect(try root.scalar(10, default: Int32(9)) == 9)  // hole in the vtable
        #expect(try root.scalar(40, default: Int16(-1)) == -1)  // beyond the vtable
        #expect(try root.string(10) == nil)
        #expect(try root.table(40) == nil)
        #expect(try root.ints(10, as: Int32.self) == [])
        #expect(try root.bool(10, default: true))
        let none = try FlatBuffer(TinyFlatBufferBuilder.build(root: .table([]))).rootTable().union(typeID: 0)
        #expect(none.type == 0 && none.table == nil)
    }

    @Test func vectorIndexOutOfRangeThrows() throws {
        let root = try FlatBuffer(sample()).rootTable()
        let v = try #require(try root.vector(5, elementSize: 4))
        #expect(throws: BlazeError.self) { try v.table(at: 2) }
        #expect(throws: BlazeError.self) { try v.scalar(at: -1, as: UInt32.self) }
    }

    private func expectCorrupt(_ bytes: [UInt8], _ read: (FlatBuffer) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try read(FlatBuffer(bytes))
            Issue.record("expected a corruptModel error", sourceLocation: sourceLocation)
        } catch let e as BlazeError {
            #expect(e.kind == .corruptModel, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func hostileOffsetsAndSizesThrowCorruptModel() throws {
        let good = sample()
        // Too small, wrong identifier, root offset past the end.
        expectCorrupt([1, 2, 3]) { _ = try $0.rootTable() }
        expectCorrupt(good) { _ = try $0.rootTable(fileIdentifier: "TFL3") }
        expectCorrupt([0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0]) { _ = try $0.rootTable() }
        // vtable offset pointing before the buffer / past it.
        var bad = good
        let root = Int(bad[0]) | Int(bad[1]) << 8
        for (i, b) in fbLE(Int32.max).enumerated() { bad[root + i] = b }
        expectCorrupt(bad) { _ = try $0.rootTable() }
        bad = good
        for (i, b) in fbLE(Int32.min).enumerated() { bad[root + i] = b }
        expectCorrupt(bad) { _ = try $0.rootTable() }
        // Every truncation of the buffer either reads fine up to the cut or throws.
        for n in 0..<good.count {
            let prefix = Array(good[0..<n])
            do {
                let r = try FlatBuffer(prefix).rootTable()
                _ = try r.string(3); _ = try r.ints(4, as: Int32.self); _ = try r.vector(5, elementSize: 4)?.table(at: 1)
                _ = try r.union(typeID: 6); _ = try r.ints(11, as: UInt16.self)
            } catch let e as BlazeError {
                #expect(e.kind == .corruptModel)
            }
        }
    }

    @Test func hugeVectorLengthIsRejected() throws {
        // Root table with one offset field to a vector claiming 2^32-1 elements.
        var bytes = TinyFlatBufferBuilder.build(root: .table([(0, .offset(.ints32([1, 2])))]))
        let root = try FlatBuffer(bytes).rootTable()
        let vectorPosition = try #require(try root.target(0))
        for (i, b) in fbLE(UInt32.max).enumerated() { bytes[vectorPosition + i] = b }
        expectCorrupt(bytes) { _ = try $0.rootTable().ints(0, as: Int32.self) }
        expectCorrupt(bytes) { _ = try $0.rootTable().string(0) }
    }

    @Test func everySingleByteCorruptionIsHandled() throws {
        let good = sample()
        for i in 0..<good.count {
            for v: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
                var b = good
                b[i] = v
                do {
                    let r = try FlatBuffer(b).rootTable()
                    _ = try r.scalar(0, default: UInt32(0)); _ = try r.string(3); _ = try r.ints(4, as: Int32.self)
                    if let v = try r.vector(5, elementSize: 4) { for k in 0..<v.count { _ = try v.table(at: k).scalar(0, default: Int32(0)) } }
                    _ = try r.union(typeID: 6).table?.scalar(0, default: Int32(0))
                    _ = try r.scalar(8, default: UInt64(0)); _ = try r.ints(11, as: UInt16.self)
                } catch let e as BlazeError {
                    #expect(e.kind == .corruptModel)
                }
            }
        }
    }
}
