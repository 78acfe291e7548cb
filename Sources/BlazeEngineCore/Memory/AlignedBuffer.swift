/// A 64-byte aligned, zero-filled float buffer with manual lifetime, owned by exactly one object
/// (a session's arena, a kernel's packed weights). Holds at least 16 floats, one whole vector.
package final class AlignedFloatBuffer {
    package let pointer: UnsafeMutablePointer<Float>
    package let count: Int

    package init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 16) * MemoryLayout<Float>.stride, alignment: 64)
        pointer = raw.initializeMemory(as: Float.self, repeating: 0, count: max(count, 16))
    }

    deinit { pointer.deallocate() }
}
