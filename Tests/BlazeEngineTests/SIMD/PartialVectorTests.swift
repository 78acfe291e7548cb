import Testing
@testable import BlazeEngine

/// Partial vector loads and stores (channel tails of every SIMD kernel): exactly `count` lanes
/// are read or written, the other lanes load as zero, memory past `count` is untouched.
@Suite struct PartialVectorTests {
    static func check<V: KernelVector>(_: V.Type) {
        let L = V.laneCount
        for count in 0...L {
            // Load: only `count` floats exist before a sentinel that must not show up.
            let source = (0..<L).map { $0 < count ? Float($0 + 1) : -99 }
            let loaded: V = source.withUnsafeBufferPointer { V.load($0.baseAddress!, count: count) }
            var out = [Float](repeating: .nan, count: L)
            out.withUnsafeMutableBufferPointer { loaded.store($0.baseAddress!) }
            #expect(out == (0..<L).map { $0 < count ? Float($0 + 1) : 0 }, "\(V.self) load count \(count)")

            // Store: lanes past `count` keep their sentinel.
            let full: V = (1...L).map(Float.init).withUnsafeBufferPointer { V.load($0.baseAddress!) }
            var target = [Float](repeating: -7, count: L + 1)
            target.withUnsafeMutableBufferPointer { full.store($0.baseAddress!, count: count) }
            #expect(target == (0...L).map { $0 < count ? Float($0 + 1) : -7 }, "\(V.self) store count \(count)")
        }
    }

    @Test func partialAccessesTouchExactlyCountLanes() {
        Self.check(SIMD16<Float>.self)
        Self.check(SIMD8<Float>.self)
        Self.check(SIMD4<Float>.self)
    }
}
