/// LLVM's prefetch intrinsic (`prefetcht0` on x86-64, `prfm` on aarch64): a hint that never
/// faults, whatever the address. Declared by its LLVM name, so it compiles to the one instruction.
@_silgen_name("llvm.prefetch.p0")
func llvmPrefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ dataCache: Int32)

/// Asks for the cache line at `address` to be brought into L1 for reading.
@inline(__always)
func prefetchForRead(_ address: UnsafeRawPointer) {
    llvmPrefetch(address, 0, 3, 1)
}
