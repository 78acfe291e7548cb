/// Read-only view of a dense row-major float32 tensor owned by someone else (arena, constant, caller).
public struct TensorView {
    public let data: UnsafePointer<Float>
    public let shape: [Int]
    public init(_ data: UnsafePointer<Float>, _ shape: [Int]) { self.data = data; self.shape = shape }
    public var count: Int { shape.reduce(1, *) }
}

/// Writable view of a dense row-major float32 tensor.
public struct MutableTensorView {
    public let data: UnsafeMutablePointer<Float>
    public let shape: [Int]
    public init(_ data: UnsafeMutablePointer<Float>, _ shape: [Int]) { self.data = data; self.shape = shape }
    public var count: Int { shape.reduce(1, *) }
    public var readOnly: TensorView { TensorView(UnsafePointer(data), shape) }
}

/// Plain, obviously-correct kernels, one per op, following TFLite semantics. They are the
/// specification every optimised kernel is tested against, and a whole model can run on them
/// (`KernelSet.reference`). Shapes are validated at plan time; kernels assume consistent views.
public enum ReferenceKernels {}
