/// A size in whole pixels: an image's width and height travel together as one value.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width·height`.
    public var pixelCount: Int { width * height }

    /// "640×480".
    public var description: String { "\(width)×\(height)" }
}
