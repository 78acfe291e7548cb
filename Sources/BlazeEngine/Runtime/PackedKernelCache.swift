import Foundation

/// The packed conv kernels of one `Model`, shared by all its sessions: weights are packed once per
/// model (on the first session that needs them), not once per session. A kernel object is
/// immutable after init (`ConvKernel`, `DepthwiseKernel`), so sessions on any threads
/// can run the same one.
///
/// A kernel is keyed by its node and everything the model's lowering folds into it (fusion, folded
/// padding); every session binds the same lowering, so each node is packed once.
final class PackedKernelCache: @unchecked Sendable {
    // @unchecked: the dictionary is only touched under `lock`.
    struct Key: Hashable {
        var node: Int
        var activation: UInt8
        var residualActivation: UInt8
        var residualChannels: Int
        /// Address of a fused PRELU's alpha (model weights: the same for every session), 0 if none.
        var prelu: UInt
        var padTop: Int, padLeft: Int
        var channelMajor: Bool
        /// A `ChannelMajorConvKernel` (of a `ChannelMajorConvChains` chain).
        var channelMajorOutput = false
    }

    private let lock = NSLock()
    private var kernels: [Key: Any] = [:]

    static func key(node: Int, fusion: ConvFusion?, fold: PadFolding.Fold?) -> Key {
        Key(
            node: node, activation: fusion?.activation?.rawValue ?? 255,
            residualActivation: fusion?.residualActivation.rawValue ?? 0,
            residualChannels: fusion?.residualChannels ?? -1,
            prelu: fusion?.prelu.map { UInt(bitPattern: $0) } ?? 0,
            padTop: fold?.top ?? -1, padLeft: fold?.left ?? -1, channelMajor: fold?.channelMajor ?? false)
    }

    /// The key of conv `node` run as a channel-major conv (its residual activation: the chain's ADD's).
    static func key(channelMajorConv node: Int, residualActivation: Activation) -> Key {
        Key(
            node: node, activation: 255, residualActivation: residualActivation.rawValue, residualChannels: -1, prelu: 0,
            padTop: -1, padLeft: -1, channelMajor: true, channelMajorOutput: true)
    }

    /// The kernel stored under `key`, made by `make` (under the lock) if there is none yet.
    func kernel<K>(_ key: Key, make: () -> K) -> K {
        lock.lock(); defer { lock.unlock() }
        if let k = kernels[key] as? K { return k }
        let k = make()
        kernels[key] = k
        return k
    }

    /// Kernels packed so far (for tests and diagnostics).
    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return kernels.count
    }
}
