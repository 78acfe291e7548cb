import Testing
@testable import BlazeEngine

/// `WorkRange.part`: the parts a kernel's work is split into for threads are consecutive and
/// cover it exactly.
@Suite struct KernelWorkPartitionTests {
    @Test func partitionsCoverTheWork() {
        for count in [0, 1, 7, 64, 1000] {
            for parts in 1...5 {
                var next = 0
                for i in 0..<parts {
                    let r = WorkRange.part(i, of: parts, count: count)
                    #expect(r.lowerBound == next)
                    next = r.upperBound
                }
                #expect(next == count)
            }
        }
    }
}
