import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing

@Suite struct CanvasTests {
    @Test func rectanglesPointsAndLines() throws {
        var c = try Canvas(width: 40, height: 30, background: .black)
        c.fillRect(x: 2, y: 3, width: 4, height: 2, color: .red)
        #expect(c.pixel(x: 2, y: 3) == .red && c.pixel(x: 6, y: 5) == .red)
        #expect(c.pixel(x: 7, y: 5) == .black && c.pixel(x: 2, y: 6) == .black)

        c.strokeRect(x: 10, y: 10, width: 10, height: 8, color: .green, lineWidth: 2)
        #expect(c.pixel(x: 10, y: 14) == .green && c.pixel(x: 20, y: 14) == .green && c.pixel(x: 15, y: 18) == .green)
        #expect(c.pixel(x: 9, y: 14) == .green && c.pixel(x: 11, y: 14) == .green)  // width 2 around the edge
        #expect(c.pixel(x: 15, y: 14) == .black)  // inside stays

        c.drawPoint(x: 30, y: 5, radius: 2, color: .blue)
        #expect(c.pixel(x: 30, y: 5) == .blue && c.pixel(x: 32, y: 5) == .blue && c.pixel(x: 30, y: 3) == .blue)
        #expect(c.pixel(x: 32, y: 7) == .black)  // outside the circle

        c.drawLine(from: (0, 29), to: (39, 29), color: .white, lineWidth: 1)
        #expect((0..<40).allSatisfy { c.pixel(x: $0, y: 29) == .white })
        #expect(c.pixel(x: 5, y: 28) == .black)
    }

    @Test func polylinesOpenAndClosed() throws {
        var open = try Canvas(width: 20, height: 20)
        open.drawPolyline([(2, 2), (17, 2), (17, 17)], closed: false, color: .yellow, lineWidth: 1)
        #expect(open.pixel(x: 10, y: 2) == .yellow && open.pixel(x: 17, y: 10) == .yellow)
        #expect(open.pixel(x: 9, y: 9) == .black)  // no closing diagonal
        var closed = try Canvas(width: 20, height: 20)
        closed.drawPolyline([(2, 2), (17, 2), (17, 17)], closed: true, color: .yellow, lineWidth: 1)
        #expect(closed.pixel(x: 9, y: 9) == .yellow)  // closing diagonal
        var thick = try Canvas(width: 20, height: 20)
        thick.drawPolyline([(2, 10), (17, 10)], color: .cyan, lineWidth: 5)
        #expect((8...12).allSatisfy { thick.pixel(x: 10, y: $0) == .cyan })
        #expect(thick.pixel(x: 10, y: 7) == .black && thick.pixel(x: 10, y: 13) == .black)
        // Degenerate input draws nothing or a dot, never traps.
        thick.drawPolyline([], color: .red)
        thick.drawPolyline([(5, 5)], color: .red, lineWidth: 3)
        thick.drawPolyline([(.nan, 1), (2, 2)], color: .red)
        thick.drawPoint(x: -100, y: 1e300, radius: 5, color: .red)
        #expect(thick.pixel(x: 5, y: 5) == .red)
    }

    @Test func alphaBlendsOncePerCall() throws {
        var c = try Canvas(width: 10, height: 10, background: .white)
        // Overlapping segments of one polyline must not darken the joint twice.
        c.drawPolyline([(1, 5), (5, 5), (8, 5)], color: Color.black.withAlpha(128), lineWidth: 3)
        #expect(c.pixel(x: 5, y: 5) == c.pixel(x: 3, y: 5))
        #expect(c.pixel(x: 5, y: 5).r == 127)
    }

    @Test func textUsesTheBitmapFont() throws {
        var c = try Canvas(width: 40, height: 12)
        c.drawText("H1", x: 1, y: 2, color: .white)
        // 'H': full columns 0 and 4, bar on row 3.
        for row in 0..<7 {
            #expect(c.pixel(x: 1, y: 2 + row) == .white && c.pixel(x: 5, y: 2 + row) == .white)
        }
        #expect(c.pixel(x: 3, y: 5) == .white && c.pixel(x: 3, y: 4) == .black)
        // '1' starts one advance (6 px) later: its stem is column 2.
        #expect(c.pixel(x: 9, y: 2) == .white && c.pixel(x: 9, y: 8) == .white)
        #expect(Canvas.textSize("H1", scale: 1) == (11, 7))
        #expect(Canvas.textSize("ab\nc", scale: 2) == (22, 32))
        var big = try Canvas(width: 30, height: 30)
        big.drawText("I", x: 0, y: 0, color: .red, scale: 3, background: .blue)
        #expect(big.pixel(x: 7, y: 10) == .red)  // 'I' stem: column 2 × 3 + 1
        #expect(big.pixel(x: 0, y: 0) == .blue)  // background box
        big.drawText("é~\u{7F}", x: 100, y: -100, color: .red)  // off-canvas and non-ASCII: no trap
    }

    @Test func canvasFromImageAndSaving() throws {
        var image = try VisionImage(width: 4, height: 2, format: .bgr8, orientation: .right)
        image.withUnsafeMutablePlanes { p in
            for i in 0..<p[0].bytes.count { p[0].bytes[i] = UInt8(i * 10) }
        }
        let c = try Canvas(image: image)
        #expect(c.width == 2 && c.height == 4)
        let px = image.uprightPixel(x: 1, y: 3)
        #expect(c.pixel(x: 1, y: 3) == Color(r: px.r, g: px.g, b: px.b))
        let png = try ImageFile.decode(c.pngData())
        #expect(png.format == .rgba8 && png.width == 2)
        #expect(try storedRGB(png) == storedRGB(try c.image()))
        #expect(ImageFileFormat.detect(try c.jpegData()) == .jpeg)
    }

    @Test func invalidCanvasSize() {
        expectBlazeError("zero") { try Canvas(width: 0, height: 5) }
        expectBlazeError("huge") { try Canvas(width: 1 << 21, height: 5) }
    }

    /// Renders every glyph and a sample annotation; written to $BLAZE_CANVAS_PREVIEW when set.
    @Test func fontSheetRenders() throws {
        var c = try Canvas(width: 200, height: 80, background: Color(r: 30, g: 30, b: 30))
        let ascii = String((32...126).map { Character(Unicode.Scalar(UInt8($0))) })
        for (i, start) in stride(from: 0, to: ascii.count, by: 32).enumerated() {
            let line = String(ascii.dropFirst(start).prefix(32))
            c.drawText(line, x: 2, y: 2 + i * 10, color: .white)
        }
        c.drawText("score 0.93", x: 4, y: 50, color: .black, scale: 2, background: .yellow)
        c.strokeRect(x: 140, y: 45, width: 50, height: 30, color: .green, lineWidth: 2)
        c.drawPolyline([(150, 50), (170, 70), (185, 50)], closed: true, color: .red.withAlpha(200), lineWidth: 1.5)
        c.drawPoint(x: 165, y: 60, radius: 2.5, color: .cyan)
        if let path = ProcessInfo.processInfo.environment["BLAZE_CANVAS_PREVIEW"] {
            try c.write(to: URL(fileURLWithPath: path))
        }
        // Each glyph sits in its own 5×7 cell, 6 px apart: space is blank, every other printable
        // character draws something, and no two characters share a bitmap.
        var bitmaps: [Character: [Bool]] = [:]
        for (i, character) in ascii.enumerated() {
            let x0 = 2 + i % 32 * 6, y0 = 2 + i / 32 * 10
            bitmaps[character] = (0..<35).map { c.pixel(x: x0 + $0 % 5, y: y0 + $0 / 5) == .white }
        }
        #expect(bitmaps[" "]?.contains(true) == false)
        let inked = bitmaps.filter { $0.key != " " }
        #expect(inked.count == 94 && inked.values.allSatisfy { $0.contains(true) })
        #expect(Set(inked.values).count == inked.count, "two glyphs render the same bitmap")
        #expect(c.pixel(x: 4, y: 50) == .yellow)  // the label's background box
        #expect(c.pixel(x: 140, y: 60) == .green && c.pixel(x: 165, y: 60) == .cyan)
    }
}
