/// docs/pipelines.md S5: detections from normalized tensor coordinates back to the image.
extension Detection {
    /// `DetectionProjectionCalculator`: projects every keypoint and the four box corners with
    /// the 4×4 row-major S1 projection matrix (`matrix.count == 16`) and takes the
    /// axis-aligned bounding box of the projected corners.
    func projected(by matrix: [Float]) -> Detection {
        precondition(matrix.count == 16, "a projection matrix has 16 elements, got \(matrix.count)")
        let m0 = matrix[0], m1 = matrix[1], m3 = matrix[3], m4 = matrix[4], m5 = matrix[5], m7 = matrix[7]
        func project(_ x: Float, _ y: Float) -> (Float, Float) { (x * m0 + y * m1 + m3, x * m4 + y * m5 + m7) }
        let (xmin, ymin, w, h) = (box.xmin, box.ymin, box.width, box.height)
        let corners = [project(xmin, ymin), project(xmin + w, ymin), project(xmin + w, ymin + h), project(xmin, ymin + h)]
        var left = Float.greatestFiniteMagnitude, top = Float.greatestFiniteMagnitude
        var right = -Float.greatestFiniteMagnitude, bottom = -Float.greatestFiniteMagnitude
        for (x, y) in corners {
            left = min(left, x)
            top = min(top, y)
            right = max(right, x)
            bottom = max(bottom, y)
        }
        var out = self
        out.box = BoundingBox(xmin: left, ymin: top, width: right - left, height: bottom - top)
        out.keypoints = keypoints.map { kp in
            let (x, y) = project(kp.x, kp.y)
            return Keypoint(x: x, y: y)
        }
        return out
    }

    /// `DetectionLetterboxRemovalCalculator` (legacy palm graph): removes letterbox padding
    /// given as fractions of the tensor size. Identical to `projected(by:)` for an unrotated
    /// whole-image ROI.
    func removingLetterbox(left: Float, top: Float, right: Float, bottom: Float) -> Detection {
        let sx = 1 - (left + right), sy = 1 - (top + bottom)
        var out = self
        out.box = BoundingBox(
            xmin: (box.xmin - left) / sx, ymin: (box.ymin - top) / sy,
            width: box.width / sx, height: box.height / sy)
        out.keypoints = keypoints.map { Keypoint(x: ($0.x - left) / sx, y: ($0.y - top) / sy) }
        return out
    }

    /// The Tasks FaceDetector's integer pixel box: each of `xmin·W`, `ymin·H`, `width·W`,
    /// `height·H` truncated toward zero, then clamped to `0…W` or `0…H`. The right edge
    /// `x + width` may therefore exceed W.
    func pixelBoundingBox(imageSize: ImageSize) -> (x: Int, y: Int, width: Int, height: Int) {
        func convert(_ v: Float, _ size: Int) -> Int {
            let scaled = v * Float(size)
            guard scaled.isFinite else { return scaled > 0 ? size : 0 }
            let truncated = scaled.rounded(.towardZero)
            if truncated <= 0 { return 0 }
            if truncated >= Float(size) { return size }
            return Int(truncated)
        }
        return (
            convert(box.xmin, imageSize.width), convert(box.ymin, imageSize.height),
            convert(box.width, imageSize.width), convert(box.height, imageSize.height)
        )
    }
}
