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
    static var narrowLanes: Int { NarrowVec.laneCount }

    /// The largest NV of the `lanes`-wide tiles with `mr` rows (0: none).
    static func maxNV(mr: Int, lanes: Int) -> Int {
        let list = lanes == self.lanes ? shapes : (lanes == narrowLanes ? narrowShapes : [])
        return list.first { $0.mr == mr }?.maxNV ?? 0
    }

    /// One tile of `lanes`-wide vectors (`Vec`, else `NarrowVec`).
    @inline(__always)
    static func run(lanes: Int, mr: Int, nv: Int, _ j: ConvTileJob, strip: Int? = nil) {
        if lanes == self.lanes { run(Vec.self, mr: mr, nv: nv, j, strip: strip) } else { run(NarrowVec.self, mr: mr, nv: nv, j, strip: strip) }
    }

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
