import BlazeEngine
import BlazeKit
import Foundation

/// One frame of a video or image sequence.
public struct VideoFrame: Sendable {
    public var image: VisionImage
    /// 0-based position in the stream.
    public var index: Int
    /// Presentation time in milliseconds: from the frame rate (`index · 1000 / fps`, rounded
    /// down) for Y4M and image sequences, from the container's presentation time for
    /// `BlazeVideo.VideoReader`. Pass it on as `detect(videoFrame:timestampInMilliseconds:)`.
    public var timestampInMilliseconds: Int

    public init(image: VisionImage, index: Int, timestampInMilliseconds: Int) {
        self.image = image
        self.index = index
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    @available(*, deprecated, renamed: "init(image:index:timestampInMilliseconds:)")
    public init(image: VisionImage, index: Int, timestampMilliseconds: Int) {
        self.init(image: image, index: index, timestampInMilliseconds: timestampMilliseconds)
    }

    @available(*, deprecated, renamed: "timestampInMilliseconds")
    public var timestampMilliseconds: Int { timestampInMilliseconds }
}

/// Something that yields frames one by one (`Y4MReader`, `ImageSequence.Reader`,
/// `BlazeVideo.VideoReader`, `BlazeVideo.CameraReader`).
///
///     for try await frame in reader.frames { … }
public protocol FrameSource: AnyObject {
    /// The next frame, or nil at the end of the input.
    func nextFrame() throws -> VideoFrame?
}

extension FrameSource {
    /// The remaining frames as an asynchronous sequence: `for try await frame in source.frames`.
    /// Iteration ends at the end of the input and rethrows the first read error. Each step calls
    /// `nextFrame()` on the caller's task, so use the sequence from one task at a time.
    public var frames: FrameSequence<Self> { FrameSequence(source: self) }
}

/// The frames of a `FrameSource` (see `FrameSource.frames`).
public struct FrameSequence<Source: FrameSource>: AsyncSequence {
    public typealias Element = VideoFrame
    let source: Source

    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: Source
        var finished = false

        public mutating func next() async throws -> VideoFrame? {
            if finished { return nil }
            do {
                if let frame = try source.nextFrame() { return frame }
                finished = true
                return nil
            } catch {
                finished = true
                throw error
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }
}

/// The stream header of a YUV4MPEG2 file.
public struct Y4MHeader: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Frames per second as a fraction (`F30000:1001`); 30:1 when the header has none.
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// The `C` tag as written (`420jpeg` when absent).
    public var chroma: String
    /// From `XCOLORRANGE=FULL|LIMITED` (limited = video range when absent).
    public var colorRange: YUVRange
}

/// Streams frames from a YUV4MPEG2 (`.y4m`) file, pipe or stdin, so that
/// `ffmpeg -i clip.mp4 -f yuv4mpegpipe - | blaze hands --video -` works.
///
/// Supported chroma: `C420`, `C420jpeg`, `C420paldv`, `C420mpeg2` (all 4:2:0; the siting differs
/// but chroma is sampled nearest-neighbour) → `.i420` frames, and `Cmono` → `.gray8`. Other
/// layouts (4:2:2, 4:4:4, high bit depth) are `.unsupported` errors.
///
/// Memory stays flat: a frame's pixel buffer is reused for the next frame when the caller no
/// longer holds the previous `VideoFrame` (checked with `isKnownUniquelyReferenced`); frames the
/// caller keeps are never overwritten. The reader only reads the bytes of the frame it returns,
/// so the first frame is available before the input ends. Not thread-safe: use one reader from
/// one thread.
public final class Y4MReader: FrameSource {
    public let header: Y4MHeader
    /// Index of the next frame to be returned.
    public private(set) var frameIndex = 0
    private let stream: ByteStream
    private let format: PixelFormat
    private var spare: VisionImage?

    /// Reads from an open file descriptor (e.g. 0 for stdin). The descriptor is closed with the
    /// reader only when `closesOnDeinit` is true.
    public init(fileDescriptor: Int32, closesOnDeinit: Bool = false, options: ImageDecodingOptions = ImageDecodingOptions()) throws {
        stream = ByteStream(fileDescriptor: fileDescriptor, closesOnDeinit: closesOnDeinit)
        let line: [UInt8]
        do {
            guard let first = try stream.readLine(maxLength: 4096) else { throw BlazeError(.invalidInput, "empty YUV4MPEG2 input") }
            line = Y4MReader.droppingCarriageReturn(first)
        } catch is LineTooLong {
            throw BlazeError(.invalidInput, "not a YUV4MPEG2 stream: no line break in its first 4096 bytes (a Y4M file starts with a 'YUV4MPEG2 W… H…' line)")
        }
        header = try Y4MReader.parseHeader(line, options: options)
        format = header.chroma == "mono" ? .gray8 : .i420(header.colorRange)
    }

    /// Reads from a `FileHandle` (which must stay open while the reader is used).
    public convenience init(fileHandle: FileHandle, options: ImageDecodingOptions = ImageDecodingOptions()) throws {
        try self.init(fileDescriptor: fileHandle.fileDescriptor, options: options)
    }

    /// Opens `path`; `-` means standard input.
    public convenience init(path: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws {
        if path == "-" {
            try self.init(fileDescriptor: 0, options: options)
            return
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw BlazeError(.io, "cannot open: \(String(cString: strerror(errno)))", context: path) }
        do {
            // On failure the half-built reader's stream closes `fd` (closesOnDeinit).
            try self.init(fileDescriptor: fd, closesOnDeinit: true, options: options)
        } catch let error as BlazeError {
            throw error.within(path)
        }
    }

    /// Header lines written with Windows line endings (CR LF) are read as if they had LF only.
    static func droppingCarriageReturn(_ line: [UInt8]) -> [UInt8] {
        line.last == 0x0D ? Array(line.dropLast()) : line
    }

    /// The next frame, or nil at the end of the stream. A frame cut short is an error.
    public func nextFrame() throws -> VideoFrame? {
        let line: [UInt8]
        do {
            guard let next = try stream.readLine(maxLength: 4096) else { return nil }
            line = Y4MReader.droppingCarriageReturn(next)
        } catch is LineTooLong {
            throw BlazeError(
                .invalidInput,
                "frame \(frameIndex): expected a FRAME line, found 4096 bytes without a line break (the previous frame held more bytes than \(header.width)×\(header.height) \(header.chroma) needs, or the FRAME marker is missing)"
            )
        }
        guard line.count >= 5, Array(line.prefix(5)) == Array("FRAME".utf8), line.count == 5 || line[5] == 0x20 else {
            throw BlazeError(.invalidInput, "frame \(frameIndex): expected a FRAME header, found '\(String(decoding: line.prefix(20), as: UTF8.self))'")
        }
        var image: VisionImage
        if let reusable = spare {
            image = reusable
            spare = nil
        } else {
            image = try VisionImage(width: header.width, height: header.height, format: format)
        }
        let index = frameIndex
        try image.withUnsafeMutablePlanes(discardingContents: true) { planes in
            for (p, plane) in planes.enumerated() {
                let g = format.planeGeometry(p, width: header.width, height: header.height)
                let count = g.minBytesPerRow * g.height  // owned planes are tightly packed
                let got = try stream.read(into: plane.bytes.baseAddress!, count: count)
                guard got == count else {
                    throw BlazeError(.invalidInput, "frame \(index) is truncated (plane \(p): \(got) of \(count) bytes)")
                }
            }
        }
        spare = image
        frameIndex += 1
        return VideoFrame(image: image, index: index, timestampInMilliseconds: timestamp(ofFrame: index))
    }

    /// `index · 1000 · den / num` milliseconds, rounded down.
    public func timestamp(ofFrame index: Int) -> Int {
        let (product, overflow) = (index * 1000).multipliedReportingOverflow(by: header.frameRateDenominator)
        if !overflow { return product / header.frameRateNumerator }
        return Int((Double(index) * 1000 * Double(header.frameRateDenominator) / Double(header.frameRateNumerator)).rounded(.down))
    }

    static func parseHeader(_ line: [UInt8], options: ImageDecodingOptions) throws -> Y4MHeader {
        let text = String(decoding: line, as: UTF8.self)
        var tokens = text.split(separator: " ", omittingEmptySubsequences: true)
        guard tokens.first == "YUV4MPEG2" else { throw BlazeError(.invalidInput, "not a YUV4MPEG2 stream (no 'YUV4MPEG2' signature)") }
        tokens.removeFirst()
        var width = 0, height = 0, num = 30, den = 1
        var chroma = "420jpeg", range = YUVRange.video
        for token in tokens {
            let value = token.dropFirst()
            switch token.first {
            case "W": width = Int(value) ?? -1
            case "H": height = Int(value) ?? -1
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n > 0, d > 0, n < 1 << 30, d < 1 << 30 else {
                    throw BlazeError(.invalidInput, "invalid YUV4MPEG2 frame rate '\(token)'")
                }
                (num, den) = (n, d)
            case "C": chroma = String(value)
            case "X":
                if value.uppercased() == "COLORRANGE=FULL" { range = .full }
                if value.uppercased() == "COLORRANGE=LIMITED" { range = .video }
            default: break  // I (interlacing), A (aspect), other X tags: not needed
            }
        }
        guard width > 0, height > 0 else { throw BlazeError(.invalidInput, "YUV4MPEG2 header has no valid W/H (\(width)×\(height))") }
        try options.checkSize(width: width, height: height, format: "YUV4MPEG2")
        guard ["420", "420jpeg", "420paldv", "420mpeg2", "mono"].contains(chroma) else {
            throw BlazeError(.unsupported, "YUV4MPEG2 chroma 'C\(chroma)' is not supported (use 4:2:0 8-bit, e.g. ffmpeg -pix_fmt yuv420p)")
        }
        return Y4MHeader(
            width: width, height: height, frameRateNumerator: num, frameRateDenominator: den,
            chroma: chroma, colorRange: range)
    }
}
