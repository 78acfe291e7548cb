// `InlineArray`s whose initialiser specialisations are named per level module.

/// Never thrown. A type of each level's module: an `InlineArray` initialiser specialised with it
/// carries the module in its symbol name, where one specialised only over stdlib types
/// (`InlineArray<14, InlineArray<1, SIMD16<Float>>>`) does not. Test builds export such
/// specialisations, and some large strips (partial tail + residual clamp) called them out of line:
/// the ISA isolation check then saw AVX-512 code in a function it could not tell from baseline's.
struct LevelNoError: Error {}

/// `InlineArray { element($0) }`, specialised under a name of this level's module.
@inline(__always)
func levelInlineArray<let N: Int, Element>(_ element: (Int) -> Element) -> InlineArray<N, Element> {
    do {
        return try InlineArray<N, Element> { (i: Int) throws(LevelNoError) -> Element in element(i) }
    } catch {
        preconditionFailure("LevelNoError is never thrown")
    }
}
