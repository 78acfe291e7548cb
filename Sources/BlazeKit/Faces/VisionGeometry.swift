/// A point in pixels of the upright image: origin top-left, x right, y down (ML Kit's
/// `VisionPoint`). Values may fall slightly outside the image.
public struct VisionPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// A 3-D point in pixels of the upright image; `z` is relative depth in the same scale as `x`
/// (negative = closer to the camera, the mesh's mean depth ≈ 0). ML Kit's `Vision3DPoint`.
public struct Vision3DPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public var description: String { "(\(x), \(y), \(z))" }
}

/// A width and height in pixels (`CGSize` of ML Kit's iOS API).
public struct VisionSize: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle in pixels of the upright image (the role of `CGRect` in ML Kit):
/// top-left corner `(x, y)` and size. Floating point, never rounded or clamped.
public struct VisionRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var origin: VisionPoint { VisionPoint(x: x, y: y) }
    public var center: VisionPoint { VisionPoint(x: midX, y: midY) }
    /// Width and height (what ML Kit code reads as `face.frame.size.width`).
    public var size: VisionSize { VisionSize(width: width, height: height) }

    /// Intersection over union with `other` (0 when they do not overlap).
    public func intersectionOverUnion(with other: VisionRect) -> Double {
        let w = min(maxX, other.maxX) - max(minX, other.minX)
        let h = min(maxY, other.maxY) - max(minY, other.minY)
        guard w > 0, h > 0 else { return 0 }
        let intersection = w * h
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }

    public var description: String { "(x: \(x), y: \(y), width: \(width), height: \(height))" }
}
