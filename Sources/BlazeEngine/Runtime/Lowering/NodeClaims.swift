/// The graph nodes lowering passes have taken, one set shared by every pass so that no node is
/// rewritten by two of them.
///
/// A pass claims the nodes whose work it moves elsewhere (a PAD folded into its conv, the nodes
/// a fused conv or layer norm step does) and the node its own step runs at (a fused conv, a
/// chain's last node). A folded conv's input side is rewritten but the conv is not claimed: its
/// output side stays open to conv fusion.
struct NodeClaims {
    private var claimed: [Bool]

    init(nodeCount: Int) {
        claimed = [Bool](repeating: false, count: nodeCount)
    }

    func isClaimed(_ node: Int) -> Bool { claimed[node] }

    /// Whether any of `nodes` is claimed.
    func anyClaimed(_ nodes: some Sequence<Int>) -> Bool { nodes.contains { claimed[$0] } }

    /// Takes `nodes`; a node claimed twice is a lowering bug.
    mutating func claim(_ nodes: some Sequence<Int>) {
        for n in nodes {
            precondition(!claimed[n], "lowering: node \(n) claimed by two passes")
            claimed[n] = true
        }
    }
}
