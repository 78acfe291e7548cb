// The conv tile cost model shared by every level; each level's Level.swift declares `ConvTiles`
// itself (vector type, the shapes that fit its register file, the instantiations, OpenBLAS policy).

/// A conv tile shape of this level: `mr` pixels × up to `maxNV` vectors (a level-local type, so
/// the arrays of shapes specialise no code shared with another level).
struct TileShape {
    let mr: Int
    let maxNV: Int
}

extension ConvTiles {
    static var lanes: Int { Vec.laneCount }

    static func maxNV(mr: Int) -> Int { shapes.first { $0.mr == mr }?.maxNV ?? 0 }

    /// Estimated cycles of one K step of an MR×NV tile: FMA-bound (MR·NV / 2 per cycle) or
    /// load-bound ((MR + NV) loads at 2 per cycle), plus loop overhead. Two vector FMA (or
    /// add + mul) pipes with 4-cycle latency: a step needs ≥ 8 independent accumulators.
    static func stepCost(mr: Int, nv: Int) -> Double {
        max(Double(mr * nv) / 2, 4, Double(mr + nv) / 2) + 0.6
    }

    /// Per-tile cost outside the K loop (epilogue, stores, setup).
    static func tileOverhead(mr: Int, nv: Int) -> Double {
        Double(mr * nv) + 12
    }
}
