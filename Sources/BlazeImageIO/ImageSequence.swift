import BlazeEngine
import BlazeKit
import Foundation

/// A folder of numbered image files used as a frame sequence (`frame1.png`, `frame2.png`, …,
/// `frame10.png`): files with a JPEG/PNG/PGM/PPM extension, in natural order (digit runs compare
/// as numbers, so `frame10` follows `frame9`). Timestamps come from `framesPerSecond`.
public struct ImageSequence: Sendable {
    public let urls: [URL]
    public let framesPerSecond: Double
    public let options: ImageDecodingOptions

    public init(directory: URL, framesPerSecond: Double = 30, options: ImageDecodingOptions = ImageDecodingOptions()) throws {
        guard framesPerSecond > 0, framesPerSecond.isFinite else {
            throw BlazeError(.invalidInput, "frames per second must be positive, got \(framesPerSecond)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw BlazeError(.io, "cannot list folder: \(error.localizedDescription)", context: directory.path)
        }
        let images = names.filter { !$0.hasPrefix(".") && ImageFileFormat(fileExtension: ($0 as NSString).pathExtension) != nil }
        urls = images.sorted(by: ImageSequence.naturalOrder).map { directory.appendingPathComponent($0) }
        self.framesPerSecond = framesPerSecond
        self.options = options
    }

    public var count: Int { urls.count }

    /// Decodes frame `index`.
    public func frame(at index: Int) throws -> VideoFrame {
        VideoFrame(
            image: try ImageFile.read(contentsOf: urls[index], options: options), index: index,
            timestampInMilliseconds: Int((Double(index) * 1000 / framesPerSecond).rounded(.down)))
    }

    /// A reader yielding the frames in order.
    public func makeReader() -> Reader { Reader(sequence: self) }

    public final class Reader: FrameSource {
        let sequence: ImageSequence
        private var next = 0
        init(sequence: ImageSequence) { self.sequence = sequence }

        public func nextFrame() throws -> VideoFrame? {
            guard next < sequence.count else { return nil }
            defer { next += 1 }
            return try sequence.frame(at: next)
        }
    }

    /// `a < b` comparing runs of digits by value, other characters by Unicode scalar.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                var i2 = i, j2 = j
                while i2 < x.count, isDigit(x[i2]) { i2 += 1 }
                while j2 < y.count, isDigit(y[j2]) { j2 += 1 }
                let dx = String(String.UnicodeScalarView(x[i..<i2])).drop { $0 == "0" }
                let dy = String(String.UnicodeScalarView(y[j..<j2])).drop { $0 == "0" }
                if dx.count != dy.count { return dx.count < dy.count }
                if dx != dy { return dx < dy }
                if i2 - i != j2 - j { return i2 - i < j2 - j }  // fewer leading zeros first
                i = i2
                j = j2
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value }
                i += 1
                j += 1
            }
        }
        return x.count - i < y.count - j
    }
}
