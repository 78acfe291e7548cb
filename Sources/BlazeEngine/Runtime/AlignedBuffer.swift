/// A 64-byte aligned float buffer with manual lifetime, owned by exactly one object.
final class AlignedFloatBuffer {
    let pointer: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
        pointer = raw.initializeMemory(as: Float.self, repeating: 0, count: max(count, 1))
    }

    deinit { pointer.deallocate() }
}
