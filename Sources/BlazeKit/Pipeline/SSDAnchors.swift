/// One SSD anchor: a centre in normalized tensor coordinates. All detectors here use
/// `fixed_anchor_size`, so width and height are always 1 and only the centre matters.
struct SSDAnchor: Sendable, Hashable {
    var xCenter: Float
    var yCenter: Float
    var width: Float = 1
    var height: Float = 1
}

/// Options of MediaPipe's `SsdAnchorsCalculator` that matter with `fixed_anchor_size = true`
/// (docs/pipelines.md S2). The other options of the three models (min_scale 0.1484375, max_scale
/// 0.75, anchor offsets 0.5, aspect_ratios [1.0]) only influence anchor sizes, which are fixed.
struct SSDAnchorOptions: Sendable, Hashable {
    /// Network input size in pixels.
    var inputWidth: Int
    var inputHeight: Int
    /// One stride per SSD layer; consecutive layers with equal strides share one grid.
    var strides: [Int]
    /// Number of aspect ratios per layer (each gives one anchor per cell).
    var aspectRatioCount: Int = 1
    /// `interpolated_scale_aspect_ratio`; > 0 adds one more anchor per layer and cell.
    var interpolatedScaleAspectRatio: Float

    /// BlazeFace short range: 128², strides 8,16,16,16 → 16×16×2 + 8×8×6 = 896 anchors.
    static let faceShortRange = SSDAnchorOptions(
        inputWidth: 128, inputHeight: 128,
        strides: [8, 16, 16, 16], interpolatedScaleAspectRatio: 1)
    /// BlazeFace full range: 192², stride 4 → 48×48×1 = 2304 anchors.
    static let faceFullRange = SSDAnchorOptions(
        inputWidth: 192, inputHeight: 192,
        strides: [4], interpolatedScaleAspectRatio: 0)
    /// Palm detector (full and lite): 192², strides 8,16,16,16 → 24×24×2 + 12×12×6 = 2016 anchors.
    static let palm = SSDAnchorOptions(
        inputWidth: 192, inputHeight: 192,
        strides: [8, 16, 16, 16], interpolatedScaleAspectRatio: 1)

    /// The merged layer groups: grid size and anchors per cell, in output order.
    var groups: [(gridWidth: Int, gridHeight: Int, anchorsPerCell: Int)] {
        var result: [(Int, Int, Int)] = []
        var layer = 0
        while layer < strides.count {
            let stride = strides[layer]
            var perCell = 0
            while layer < strides.count && strides[layer] == stride {
                perCell += aspectRatioCount + (interpolatedScaleAspectRatio > 0 ? 1 : 0)
                layer += 1
            }
            // ceil(in / stride), as `std::ceil(1.0f * in / stride)`.
            let gw = (inputWidth + stride - 1) / stride, gh = (inputHeight + stride - 1) / stride
            result.append((gw, gh, perCell))
        }
        return result
    }

    /// Total anchor count (= rows of the model's box output).
    var anchorCount: Int { groups.reduce(0) { $0 + $1.gridWidth * $1.gridHeight * $1.anchorsPerCell } }

    /// The anchors in the model's output order: group by group, row-major cells, then the
    /// anchors of one cell. Centre = `((x + 0.5)/fw, (y + 0.5)/fh)` in Float32.
    func anchors() -> [SSDAnchor] {
        var result: [SSDAnchor] = []
        result.reserveCapacity(anchorCount)
        for group in groups {
            let fw = Float(group.gridWidth), fh = Float(group.gridHeight)
            for y in 0..<group.gridHeight {
                let yc = (Float(y) + 0.5) / fh
                for x in 0..<group.gridWidth {
                    let xc = (Float(x) + 0.5) / fw
                    for _ in 0..<group.anchorsPerCell { result.append(SSDAnchor(xCenter: xc, yCenter: yc)) }
                }
            }
        }
        return result
    }
}
