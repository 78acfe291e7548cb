/// A model as data: named tensors, constant weights, ops in execution order, graph inputs/outputs.
///
/// The converter builds one from a `.tflite` file, `ModelFile` reads and writes it as `.bkm`, and
/// `Model` prepares it for execution. `validate()` is the single place that checks a graph is
/// runnable (indices, topological order, shapes), so every producer goes through the same gate.
public struct Graph: Sendable, Equatable {
    public var tensors: [TensorDescriptor]
    public var constants: [Constant]
    public var nodes: [Node]
    /// Tensor indices fed by the caller, in order.
    public var inputs: [Int]
    /// Tensor indices returned to the caller, in order.
    public var outputs: [Int]
    /// Free-form key/value metadata (source file, its sha256, converter version…), sorted by key when written.
    public var metadata: [String: String]

    public init(
        tensors: [TensorDescriptor], constants: [Constant], nodes: [Node], inputs: [Int], outputs: [Int],
        metadata: [String: String] = [:]
    ) {
        self.tensors = tensors; self.constants = constants; self.nodes = nodes
        self.inputs = inputs; self.outputs = outputs; self.metadata = metadata
    }
}

/// A named tensor with a static shape; `constant` points into `Graph.constants` for weights.
public struct TensorDescriptor: Sendable, Equatable {
    public var name: String
    public var shape: [Int]
    public var constant: Int?

    public init(name: String, shape: [Int], constant: Int? = nil) {
        self.name = name; self.shape = shape; self.constant = constant
    }
}

/// Constant float data. `storage` is how it is (or will be) stored in the file; values are always
/// held widened to Float32 in memory (fp16 values round-trip exactly).
public struct Constant: Sendable, Equatable {
    public enum Storage: UInt8, Sendable, Equatable { case float32 = 0, float16 = 1 }
    public var shape: [Int]
    public var values: [Float]
    public var storage: Storage

    public init(shape: [Int], values: [Float], storage: Storage = .float32) {
        self.shape = shape; self.values = values; self.storage = storage
    }
}

/// One op application: input tensor indices (in the order `Op` documents) and one output.
public struct Node: Sendable, Equatable {
    public var op: Op
    public var inputs: [Int]
    public var outputs: [Int]

    public init(op: Op, inputs: [Int], outputs: [Int]) {
        self.op = op; self.inputs = inputs; self.outputs = outputs
    }
}

extension Graph {
    /// How many node inputs read each tensor, by tensor index (a node reading a tensor twice
    /// counts twice). The planners' test for a tensor only the next node reads.
    var consumerCounts: [Int] {
        var counts = [Int](repeating: 0, count: tensors.count)
        for node in nodes { for t in node.inputs { counts[t] += 1 } }
        return counts
    }
}
