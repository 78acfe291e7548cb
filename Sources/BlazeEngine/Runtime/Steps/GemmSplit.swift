/// How one `C[m,n] = A[m,k] × B[n,k]ᵀ` is cut into independent `cblas_sgemm` calls.
///
/// OpenBLAS's result for an element depends on the shape of the call that computes it (kernel
/// edges, its small-matrix path, K blocking), so the cut is a function of `(m, n, k)` only — never
/// of the thread count. Every thread count then makes the very same calls and the results are
/// bitwise identical; threads only change who makes which call.
///
/// The cut runs along the larger of `m` (output rows/pixels) and `n` (output channels): each call
/// re-packs the operand that is not cut, so cutting the long side re-packs the small one. Piece
/// boundaries are multiples of 16 (OpenBLAS's AVX-512 tile) and the piece count is one of 1, 2, 4,
/// 6, 12, which balances 1, 2, 3, 4 and 6 threads.
struct GemmSplit: Equatable {
    /// True: pieces are column ranges of `n`; false: row ranges of `m`.
    let alongColumns: Bool
    let pieces: Int
    /// Length of the dimension that is cut.
    let length: Int

    /// Each extra piece re-packs the operand that is not cut: about `length₀ / length` of the whole
    /// call's time, with `length₀ ≈ 28` measured for OpenBLAS's AVX-512 sgemm (packing a float costs
    /// ≈ 28 multiply-accumulates). Pieces are limited so that this stays ≤ 15 % of the call
    /// (`pieces − 1 ≤ length / overheadLength`): the price a single thread pays for results that do
    /// not depend on the thread count.
    static let overheadLength = 187
    /// Smallest piece in multiply-accumulates (≈ 5 µs): below it, a dispatch and moving the output
    /// between cores cost more than a second core gains.
    static let minPieceMACs = 1 << 20
    static let allowedPieces = [12, 6, 4, 2, 1]

    init(m: Int, n: Int, k: Int) {
        alongColumns = n > m
        length = alongColumns ? n : m
        let macs = m &* n &* k
        let limit = min(1 + length / Self.overheadLength, macs / Self.minPieceMACs, length / 16)
        pieces = Self.allowedPieces.first { $0 <= max(limit, 1) } ?? 1
    }

    /// Piece `index`'s range of the cut dimension (boundaries rounded to multiples of 16).
    func range(_ index: Int) -> Range<Int> {
        func bound(_ i: Int) -> Int {
            if i >= pieces { return length }
            return min(length, (i * length / pieces + 8) / 16 * 16)
        }
        return bound(index)..<bound(index + 1)
    }
}
