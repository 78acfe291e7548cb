import Foundation

/// Which kernels a session runs: the plain reference kernels (one thread, the specification), or
/// the optimised plan (the level's SIMD kernels and GEMM through OpenBLAS on a worker pool, fused
/// steps, in-place arena reuse; docs/engine.md). Results agree within parity tolerance.
public enum KernelSet: Sendable, Equatable {
    case reference
    case optimized
}

/// A validated, loaded model: the graph plus its weights widened to float32 in one aligned block.
///
/// Immutable after `init`, so one `Model` can be shared by any number of threads; each thread
/// runs it through its own `Session` (or the `run(_:)` convenience, which makes one per call).
public final class Model: @unchecked Sendable {
    // @unchecked: `weights` is written only in init and read-only afterwards.
    public let graph: Graph
    let weights: AlignedFloatBuffer
    /// Float offset of each constant in `weights`.
    let constantOffsets: [Int]
    /// Conv weights packed for the SIMD kernels, shared by every session of this model.
    let packedKernels = PackedKernelCache()
    /// The kernel ISA level optimised sessions run (fixed for the model's lifetime).
    public let isa: ISALevel
    /// That level's kernels.
    let levelKernels: any ISAKernelSet.Type
    /// The graph lowered for each kernel set, shared by every session.
    private let optimizedLowering: LoweredGraph
    private let referenceLowering: LoweredGraph

    /// Prepares `graph` for execution; validates it first.
    /// - Parameter isa: the kernel level to run; `nil` (the default) is `KernelLevels.active()`:
    ///   `BLAZE_ISA` if set, else the best level of this CPU. Throws `BlazeError(.unsupportedISA)`
    ///   for a level this CPU or build lacks.
    public init(graph: Graph, isa: ISALevel? = nil) throws {
        try graph.validate()
        let level = try isa ?? ISALevel.active()
        levelKernels = try KernelLevels.kernels(for: level)
        self.isa = level
        OpenBLAS.ensureConfigured()
        self.graph = graph
        var offsets: [Int] = []
        var total = 0
        for c in graph.constants {
            offsets.append(total)
            total += ArenaPlan.roundUp(c.values.count)
        }
        let buffer = AlignedFloatBuffer(count: total)
        for (c, offset) in zip(graph.constants, offsets) {
            c.values.withUnsafeBufferPointer { src in
                if let base = src.baseAddress { (buffer.pointer + offset).update(from: base, count: src.count) }
            }
        }
        weights = buffer
        constantOffsets = offsets
        optimizedLowering = LoweredGraph(graph: graph, kernels: .optimized, level: levelKernels, constantOffsets: offsets)
        referenceLowering = LoweredGraph(graph: graph, kernels: .reference, level: levelKernels, constantOffsets: offsets)
    }

    /// Loads a `.bkm` file (see `ModelFile`; its errors name the file's path).
    public convenience init(contentsOf url: URL, isa: ISALevel? = nil) throws {
        try self.init(graph: try ModelFile.read(contentsOf: url), isa: isa)
    }

    /// Graph input names and shapes, in order.
    public var inputs: [(name: String, shape: [Int])] { graph.inputs.map { (graph.tensors[$0].name, graph.tensors[$0].shape) } }
    /// Graph output names and shapes, in order.
    public var outputs: [(name: String, shape: [Int])] { graph.outputs.map { (graph.tensors[$0].name, graph.tensors[$0].shape) } }

    /// A new execution context with its own arena and worker threads. Not thread-safe; make one
    /// per thread.
    /// - Parameter threads: threads one inference uses, the calling thread included; `nil` (the
    ///   default) means every core (`Session.defaultThreadCount`). Results are bitwise identical
    ///   for every thread count.
    public func makeSession(kernels: KernelSet = .optimized, threads: Int? = nil) -> Session {
        Session(model: self, kernels: kernels, threads: threads)
    }

    /// A session that runs on `workers`, shared with other sessions that are never run at the
    /// same time (one pipeline's nets, run one after the other): idle pools' threads spinning
    /// beside a running one would take its cores.
    package func makeSession(sharing workers: WorkerPool) -> Session {
        Session(model: self, kernels: .optimized, workers: workers)
    }

    /// A pool for `makeSession(sharing:)`: `threads` threads as `makeSession(threads:)` counts
    /// them (nil: every core).
    package static func sharedWorkers(threads: Int?) -> WorkerPool {
        WorkerPool(threadCount: threads ?? Session.defaultThreadCount)
    }

    /// Runs the model once on `inputs` (one flat row-major array per graph input, in order) and
    /// returns one flat array per output. Thread-safe; makes a session (and its threads) per call,
    /// so prefer a `Session` for repeated runs.
    public func run(_ inputs: [[Float]], kernels: KernelSet = .optimized, threads: Int? = nil) throws -> [[Float]] {
        try makeSession(kernels: kernels, threads: threads).run(inputs)
    }

    func lowering(for kernels: KernelSet) -> LoweredGraph {
        kernels == .optimized ? optimizedLowering : referenceLowering
    }

    func constantPointer(_ index: Int) -> UnsafeMutablePointer<Float> {
        weights.pointer + constantOffsets[index]
    }
}

extension Model {
    /// Total parameter count (elements of all constants).
    public var parameterCount: Int { graph.constants.reduce(0) { $0 + $1.values.count } }

    /// FLOPs of one run: 2 × multiply-accumulates of conv, depthwise conv and fully connected ops.
    public var flops: Int {
        graph.nodes.reduce(0) { acc, node in
            acc + 2
                * node.op.multiplyAccumulates(
                    inputs: node.inputs.map { graph.tensors[$0].shape },
                    output: graph.tensors[node.outputs[0]].shape)
        }
    }

    /// Bytes of the activation arena an optimised session allocates.
    public var arenaBytes: Int { optimizedLowering.arena.byteCount }

    /// Op name → count, sorted by name.
    public var opHistogram: [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for n in graph.nodes { counts[n.op.name, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
