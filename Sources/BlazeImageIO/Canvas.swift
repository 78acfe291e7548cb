import BlazeEngine
import BlazeKit
import Foundation

/// An sRGB colour with straight (non-premultiplied) alpha.
public struct Color: Sendable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public func withAlpha(_ a: UInt8) -> Color { Color(r: r, g: g, b: b, a: a) }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let red = Color(r: 255, g: 0, b: 0)
    public static let green = Color(r: 0, g: 255, b: 0)
    public static let blue = Color(r: 0, g: 0, b: 255)
    public static let yellow = Color(r: 255, g: 255, b: 0)
    public static let cyan = Color(r: 0, g: 255, b: 255)
    public static let magenta = Color(r: 255, g: 0, b: 255)
    public static let orange = Color(r: 255, g: 165, b: 0)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
}

/// An RGBA8 drawing surface for annotated output: rectangles, points (filled circles), open and
/// closed polylines with line widths, short text labels in a built-in 5×7 bitmap font, saved as
/// PNG or JPEG.
///
/// Coordinates are floating-point pixels of the upright image with pixel centres at integers
/// (the detectors' convention); a pixel is painted when its centre lies inside the shape.
/// Colours are blended over the canvas with their alpha, once per drawing call.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major RGBA8 pixels, `width · 4` bytes per row.
    public private(set) var pixels: [UInt8]

    /// A canvas filled with `background`.
    public init(width: Int, height: Int, background: Color = .black) throws {
        guard width > 0, height > 0, width <= VisionImage.maxSide, height <= VisionImage.maxSide,
            !width.multipliedReportingOverflow(by: height * 4).overflow
        else {
            throw BlazeError(.invalidInput, "invalid canvas size \(width)×\(height)")
        }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            pixels[4 * i] = background.r
            pixels[4 * i + 1] = background.g
            pixels[4 * i + 2] = background.b
            pixels[4 * i + 3] = background.a
        }
    }

    /// A canvas holding `image` turned upright (any pixel format; opaque where it has no alpha).
    public init(image: VisionImage) throws {
        let rgba = try image.upright(as: .rgba8)
        let w = rgba.width, h = rgba.height
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        rgba.withUnsafePlanes { planes in
            pixels.withUnsafeMutableBytes { out in
                for y in 0..<h {
                    out.baseAddress!.advanced(by: y * w * 4)
                        .copyMemory(from: planes[0].bytes.baseAddress! + y * planes[0].bytesPerRow, byteCount: w * 4)
                }
            }
        }
        width = w
        height = h
        self.pixels = pixels
    }

    /// The canvas as an owned RGBA8 `VisionImage`.
    public func image() throws -> VisionImage {
        try VisionImage(copying: pixels, width: width, height: height, format: .rgba8)
    }

    /// The colour at pixel `(x, y)`.
    public func pixel(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 4
        return Color(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    public func pngData() throws -> Data { try ImageFile.pngData(image()) }
    public func jpegData(quality: Int = 90) throws -> Data { try ImageFile.jpegData(image(), quality: quality) }
    /// Saves as PNG or JPEG by the file extension.
    public func write(to url: URL, jpegQuality: Int = 90) throws { try ImageFile.write(image(), to: url, jpegQuality: jpegQuality) }

    // MARK: Shapes

    /// Fills the axis-aligned rectangle with corners `(x, y)` and `(x + width, y + height)`.
    public mutating func fillRect(x: Double, y: Double, width w: Double, height h: Double, color: Color) {
        paint(color, minX: x, minY: y, maxX: x + w, maxY: y + h) { px, py in
            px >= x && px <= x + w && py >= y && py <= y + h
        }
    }

    /// Outlines the rectangle; the stroke of `lineWidth` is centred on its edges (square corners).
    public mutating func strokeRect(x: Double, y: Double, width w: Double, height h: Double, color: Color, lineWidth: Double = 2) {
        let r = max(lineWidth, 0) / 2
        paint(color, minX: x - r, minY: y - r, maxX: x + w + r, maxY: y + h + r) { px, py in
            let outer = px >= x - r && px <= x + w + r && py >= y - r && py <= y + h + r
            let inner = px > x + r && px < x + w - r && py > y + r && py < y + h - r
            return outer && !inner
        }
    }

    /// A filled circle of `radius` around `(x, y)` (a landmark or keypoint).
    public mutating func drawPoint(x: Double, y: Double, radius: Double = 3, color: Color) {
        let rr = radius * radius
        paint(color, minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius) { px, py in
            (px - x) * (px - x) + (py - y) * (py - y) <= rr
        }
    }

    /// A straight line with round caps.
    public mutating func drawLine(from a: (x: Double, y: Double), to b: (x: Double, y: Double), color: Color, lineWidth: Double = 2) {
        drawPolyline([a, b], closed: false, color: color, lineWidth: lineWidth)
    }

    /// Segments through `points` (closed: back to the first point), round joins and caps.
    public mutating func drawPolyline(_ points: [(x: Double, y: Double)], closed: Bool = false, color: Color, lineWidth: Double = 2) {
        guard !points.isEmpty, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        let r = max(lineWidth, 1) / 2
        var segments: [((x: Double, y: Double), (x: Double, y: Double))] = []
        for i in 0..<(points.count - 1) { segments.append((points[i], points[i + 1])) }
        if closed, points.count > 2 { segments.append((points[points.count - 1], points[0])) }
        if segments.isEmpty { segments.append((points[0], points[0])) }
        let xs = points.map(\.x), ys = points.map(\.y)
        paint(color, minX: xs.min()! - r, minY: ys.min()! - r, maxX: xs.max()! + r, maxY: ys.max()! + r) { px, py in
            segments.contains { Canvas.distanceSquared(px, py, $0.0, $0.1) <= r * r }
        }
    }

    static func distanceSquared(_ px: Double, _ py: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = dx * dx + dy * dy
        let t = len > 0 ? min(1, max(0, ((px - a.x) * dx + (py - a.y) * dy) / len)) : 0
        let qx = a.x + t * dx - px, qy = a.y + t * dy - py
        return qx * qx + qy * qy
    }

    // MARK: Text

    /// Size in pixels of `text` drawn at `scale` (lines split at `\n`).
    public static func textSize(_ text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let columns = lines.map(\.count).max() ?? 0
        let s = max(1, scale)
        return (
            columns == 0 ? 0 : (columns * BitmapFont.advance - 1) * s,
            (lines.count * BitmapFont.lineHeight - (BitmapFont.lineHeight - BitmapFont.glyphHeight)) * s
        )
    }

    /// Draws `text` with its top-left corner at pixel `(x, y)` in the 5×7 font magnified `scale`
    /// times, optionally on a filled `background` box with a 2·scale margin. Printable ASCII only
    /// (other characters draw as `?`).
    public mutating func drawText(_ text: String, x: Int, y: Int, color: Color, scale: Int = 1, background: Color? = nil) {
        let s = max(1, scale)
        if let background {
            let size = Canvas.textSize(text, scale: s)
            fillRect(
                x: Double(x - 2 * s), y: Double(y - 2 * s), width: Double(size.width + 4 * s - 1),
                height: Double(size.height + 4 * s - 1), color: background)
        }
        var mask: Set<Int> = []
        var cx = x, cy = y
        for ch in text {
            if ch == "\n" {
                cx = x
                cy += BitmapFont.lineHeight * s
                continue
            }
            for (col, bits) in BitmapFont.columns(of: ch).enumerated() {
                for row in 0..<BitmapFont.glyphHeight where bits >> row & 1 == 1 {
                    for dy in 0..<s {
                        for dx in 0..<s {
                            let px = cx + col * s + dx, py = cy + row * s + dy
                            if px >= 0, py >= 0, px < width, py < height { mask.insert(py * width + px) }
                        }
                    }
                }
            }
            cx += BitmapFont.advance * s
        }
        for index in mask { blend(index, color) }
    }

    // MARK: Blending

    /// Blends `color` into every pixel of the box whose centre passes `inside` (once per pixel).
    private mutating func paint(
        _ color: Color, minX: Double, minY: Double, maxX: Double, maxY: Double,
        inside: (Double, Double) -> Bool
    ) {
        guard color.a > 0, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return }
        // Clamp in floating point first: far-away shapes must not overflow the Int conversion.
        func clamped(_ v: Double, _ limit: Int) -> Double { min(max(v, -1), Double(limit)) }
        let x0 = max(0, Int(clamped(minX, width).rounded(.up))), y0 = max(0, Int(clamped(minY, height).rounded(.up)))
        let x1 = min(width - 1, Int(clamped(maxX, width).rounded(.down)))
        let y1 = min(height - 1, Int(clamped(maxY, height).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return }
        for py in y0...y1 {
            for px in x0...x1 where inside(Double(px), Double(py)) {
                blend(py * width + px, color)
            }
        }
    }

    private mutating func blend(_ index: Int, _ c: Color) {
        let i = index * 4
        if c.a == 255 {
            pixels[i] = c.r
            pixels[i + 1] = c.g
            pixels[i + 2] = c.b
            pixels[i + 3] = 255
            return
        }
        let a = Int(c.a), na = 255 - a
        pixels[i] = UInt8((Int(c.r) * a + Int(pixels[i]) * na + 127) / 255)
        pixels[i + 1] = UInt8((Int(c.g) * a + Int(pixels[i + 1]) * na + 127) / 255)
        pixels[i + 2] = UInt8((Int(c.b) * a + Int(pixels[i + 2]) * na + 127) / 255)
        pixels[i + 3] = UInt8(a + (Int(pixels[i + 3]) * na + 127) / 255)
    }
}
