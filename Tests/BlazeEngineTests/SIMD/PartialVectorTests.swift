import Testing
@testable import BlazeEngine

/// Partial vector loads and stores (channel tails of every SIMD kernel) of each runnable level:
/// exactly `count` lanes are read or written, the other lanes load as zero, memory past `count`
/// is untouched. The check runs inside the level's module (`partialVectorFaults`), compiled with
/// that level's instructions.
@Suite struct PartialVectorTests {
    @Test(arguments: KernelLevels.runnable)
    func partialAccessesTouchExactlyCountLanes(level: ISALevel) throws {
        let faults = try KernelLevels.kernels(for: level).partialVectorFaults()
        #expect(faults == 0, "\(level): \(faults) lanes read or written out of bounds")
    }
}
