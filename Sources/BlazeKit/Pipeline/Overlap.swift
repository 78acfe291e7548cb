/// Intersection over union as MediaPipe's `OverlapSimilarity(INTERSECTION_OVER_UNION)` and
/// `CalculateIou` compute it (docs/pipelines.md S4, S11), on boxes given by min and max corners.
///
/// Boxes are closed intervals: boxes that do not touch, or either box being empty
/// (`min > max` on an axis), give 0; touching boxes give 0 through a zero intersection; a
/// non-positive denominator gives 0. Float32 throughout.
func overlapIoU(
    _ a: (xmin: Float, ymin: Float, xmax: Float, ymax: Float),
    _ b: (xmin: Float, ymin: Float, xmax: Float, ymax: Float)
) -> Float {
    if a.xmin > a.xmax || a.ymin > a.ymax || b.xmin > b.xmax || b.ymin > b.ymax { return 0 }
    if b.xmax < a.xmin || a.xmax < b.xmin || b.ymax < a.ymin || a.ymax < b.ymin { return 0 }
    let intersection = (min(a.xmax, b.xmax) - max(a.xmin, b.xmin)) * (min(a.ymax, b.ymax) - max(a.ymin, b.ymin))
    let areaA = (a.xmax - a.xmin) * (a.ymax - a.ymin)
    let areaB = (b.xmax - b.xmin) * (b.ymax - b.ymin)
    let denominator = areaA + areaB - intersection
    return denominator > 0 ? intersection / denominator : 0
}

extension Detection.BoundingBox {
    /// IoU with `other` (docs/pipelines.md S4); 0 for disjoint or touching boxes.
    func intersectionOverUnion(with other: Detection.BoundingBox) -> Float {
        overlapIoU((xmin, ymin, xmax, ymax), (other.xmin, other.ymin, other.xmax, other.ymax))
    }
}

extension NormalizedRect {
    /// The rect as the unrotated box `[xc − w/2, xc + w/2] × [yc − h/2, yc + h/2]` that
    /// association and de-duplication compare (S11: rotation is ignored).
    var axisAlignedBox: (xmin: Float, ymin: Float, xmax: Float, ymax: Float) {
        let xmin = xCenter - width / 2, ymin = yCenter - height / 2
        return (xmin, ymin, xmin + width, ymin + height)
    }

    /// IoU of the two rects' unrotated boxes (docs/pipelines.md S11); IoU is invariant to the
    /// W/H scaling, so normalized coordinates are used directly.
    func intersectionOverUnion(with other: NormalizedRect) -> Float {
        overlapIoU(axisAlignedBox, other.axisAlignedBox)
    }
}
