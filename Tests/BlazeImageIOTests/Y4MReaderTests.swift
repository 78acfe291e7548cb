import BlazeTestSupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct Y4MReaderTests {
    /// A Y4M stream with frames whose bytes encode (frame, plane, position).
    static func makeStream(width: Int, height: Int, frames: Int, header extra: String = "C420jpeg") -> Data {
        var data = Data("YUV4MPEG2 W\(width) H\(height) F25:1 Ip A1:1 \(extra)\n".utf8)
        for f in 0..<frames {
            data.append(contentsOf: Array(f % 2 == 0 ? "FRAME\n".utf8 : "FRAME Ixyz\n".utf8))
            data.append(contentsOf: frameBytes(width: width, height: height, frame: f))
        }
        return data
    }

    static func frameBytes(width: Int, height: Int, frame: Int) -> [UInt8] {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var bytes: [UInt8] = []
        for i in 0..<(width * height) { bytes.append(UInt8(truncatingIfNeeded: i &* 7 &+ frame)) }
        for i in 0..<(cw * ch) { bytes.append(UInt8(truncatingIfNeeded: 100 &+ i &+ frame)) }
        for i in 0..<(cw * ch) { bytes.append(UInt8(truncatingIfNeeded: 200 &- i &+ frame)) }
        return bytes
    }

    static func planeBytes(_ image: VisionImage) -> [UInt8] {
        image.withUnsafePlanes { planes in
            planes.enumerated().flatMap { p, plane -> [UInt8] in
                let g = image.format.planeGeometry(p, width: image.width, height: image.height)
                return (0..<g.height).flatMap { y in Array(plane.bytes[(y * plane.bytesPerRow)..<(y * plane.bytesPerRow + g.minBytesPerRow)]) }
            }
        }
    }

    func withTempFile<R>(_ data: Data, _ body: (String) throws -> R) throws -> R {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(UUID().uuidString).y4m")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    @Test(arguments: [(6, 4), (7, 5)])
    func readsFramesFromAFile(_ size: (Int, Int)) throws {
        let (w, h) = size
        try withTempFile(Self.makeStream(width: w, height: h, frames: 3)) { path in
            let reader = try Y4MReader(path: path)
            #expect(reader.header.width == w && reader.header.height == h)
            #expect(reader.header.frameRateNumerator == 25 && reader.header.colorRange == .video)
            var count = 0
            while let frame = try reader.nextFrame() {
                #expect(frame.index == count)
                #expect(frame.timestampInMilliseconds == count * 40)
                #expect(frame.image.format == .i420(.video))
                #expect(Self.planeBytes(frame.image) == Self.frameBytes(width: w, height: h, frame: count))
                count += 1
            }
            #expect(count == 3)
        }
    }

    @Test func framesAsAnAsyncSequence() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(UUID().uuidString).y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        // Three whole frames, then a fourth cut in the middle of its luma plane.
        var data = Self.makeStream(width: 6, height: 4, frames: 3)
        data.append(contentsOf: Array("FRAME\n".utf8) + [UInt8](repeating: 1, count: 10))
        try data.write(to: url)
        let reader = try Y4MReader(path: url.path)
        var indices: [Int] = [], timestamps: [Int] = []
        do {
            for try await frame in reader.frames {
                indices.append(frame.index)
                timestamps.append(frame.timestampInMilliseconds)
                #expect(Self.planeBytes(frame.image) == Self.frameBytes(width: 6, height: 4, frame: frame.index))
            }
            Issue.record("the truncated fourth frame did not throw")
        } catch let e as BlazeError {
            #expect(!e.message.isEmpty, "\(e)")
        }
        #expect(indices == [0, 1, 2] && timestamps == [0, 40, 80])
        // A whole stream ends the loop without an error.
        let whole = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(UUID().uuidString).y4m")
        defer { try? FileManager.default.removeItem(at: whole) }
        try Self.makeStream(width: 6, height: 4, frames: 2).write(to: whole)
        var count = 0
        for try await _ in try Y4MReader(path: whole.path).frames { count += 1 }
        #expect(count == 2)
    }

    @Test(arguments: [
        "C420", "C420jpeg", "C420paldv", "C420mpeg2", "C420jpeg XYSCSS=420JPEG XCOLORRANGE=FULL",
        "C420mpeg2 XCOLORRANGE=LIMITED", ""
    ])
    func chromaVariantsAndRange(_ tags: String) throws {
        try withTempFile(Self.makeStream(width: 4, height: 2, frames: 1, header: tags)) { path in
            let reader = try Y4MReader(path: path)
            let frame = try #require(try reader.nextFrame())
            #expect(frame.image.format == .i420(tags.contains("FULL") ? .full : .video))
            #expect(try reader.nextFrame() == nil)
        }
    }

    @Test func monoIsGray() throws {
        var data = Data("YUV4MPEG2 W3 H2 F30:1 Cmono\nFRAME\n".utf8)
        data.append(contentsOf: [1, 2, 3, 4, 5, 6])
        try withTempFile(data) { path in
            let frame = try #require(try Y4MReader(path: path).nextFrame())
            #expect(frame.image.format == .gray8)
            #expect(Self.planeBytes(frame.image) == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test func badStreamsAreTypedErrors() throws {
        let cases: [(String, Data)] = [
            ("empty", Data()),
            ("no signature", Data("YUV4MPEG W4 H2\n".utf8)),
            ("no size", Data("YUV4MPEG2 F25:1\n".utf8)),
            ("bad rate", Data("YUV4MPEG2 W4 H2 F25:0\n".utf8)),
            ("422", Data("YUV4MPEG2 W4 H2 C422\n".utf8)),
            ("10 bit", Data("YUV4MPEG2 W4 H2 C420p10\n".utf8)),
            ("huge", Data("YUV4MPEG2 W100000 H100000\n".utf8)),
            ("no newline", Data("YUV4MPEG2 W4 H2".utf8))
        ]
        for (name, data) in cases {
            try withTempFile(data) { path in
                let e = expectBlazeError(name) { try Y4MReader(path: path) }
                if name == "422" { #expect(e?.kind == .unsupported) }
            }
        }
        // A truncated frame and a bad frame header fail on the frame, after good frames.
        var truncated = Self.makeStream(width: 4, height: 2, frames: 2)
        truncated.removeLast(3)
        try withTempFile(truncated) { path in
            let reader = try Y4MReader(path: path)
            _ = try reader.nextFrame()
            expectBlazeError("truncated frame") { try reader.nextFrame() }
        }
        var badFrame = Self.makeStream(width: 4, height: 2, frames: 1)
        badFrame.append(contentsOf: Array("FRAMX\n".utf8))
        try withTempFile(badFrame) { path in
            let reader = try Y4MReader(path: path)
            _ = try reader.nextFrame()
            expectBlazeError("bad frame header") { try reader.nextFrame() }
        }
        expectBlazeError("missing file") { try Y4MReader(path: "/nonexistent/x.y4m") }
        // Failed opens leave no file descriptor behind: none of the process's descriptors is this
        // file afterwards (whatever other tests open meanwhile).
        try withTempFile(Data("YUV4MPEG2 W4 H2 C444\n".utf8)) { path in
            for _ in 0..<50 { expectBlazeError("C444") { try Y4MReader(path: path) } }
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
            }
            #expect(!open.isEmpty, "/proc/self/fd lists no descriptor")
            #expect(!open.contains(path), "a failed open left \(path) open")
        }
    }

    /// The first frame is returned while the writer still holds the pipe open.
    @Test func firstFrameBeforeTheInputEnds() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let stream = Self.makeStream(width: 8, height: 6, frames: 1)
        stream.withUnsafeBytes { _ = write(writeEnd, $0.baseAddress, $0.count) }
        let reader = try Y4MReader(fileDescriptor: readEnd, closesOnDeinit: true)
        let first = try #require(try reader.nextFrame())  // would block forever if it read ahead
        #expect(Self.planeBytes(first.image) == Self.frameBytes(width: 8, height: 6, frame: 0))
        let second = Data("FRAME\n".utf8) + Data(Self.frameBytes(width: 8, height: 6, frame: 1))
        second.withUnsafeBytes { _ = write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        let next = try #require(try reader.nextFrame())
        #expect(Self.planeBytes(next.image) == Self.frameBytes(width: 8, height: 6, frame: 1))
        #expect(try reader.nextFrame() == nil)
    }

    /// Frames the caller keeps are never overwritten; dropped frames' buffers are reused.
    @Test func buffersAreReusedOnlyWhenReleased() throws {
        try withTempFile(Self.makeStream(width: 6, height: 4, frames: 4)) { path in
            let reader = try Y4MReader(path: path)
            let kept = try #require(try reader.nextFrame())
            let second = try #require(try reader.nextFrame())
            #expect(Self.planeBytes(kept.image) == Self.frameBytes(width: 6, height: 4, frame: 0))
            let secondAddress = second.image.withUnsafePlanes { $0[0].bytes.baseAddress }
            _ = consume second
            let third = try #require(try reader.nextFrame())
            #expect(third.image.withUnsafePlanes { $0[0].bytes.baseAddress } == secondAddress, "released buffer reused")
            #expect(Self.planeBytes(kept.image) == Self.frameBytes(width: 6, height: 4, frame: 0))
            #expect(Self.planeBytes(third.image) == Self.frameBytes(width: 6, height: 4, frame: 2))
        }
    }

    /// A 1000-frame 720p stream through a pipe adds < 50 MB of resident memory. RSS is
    /// process-wide and other suites run in parallel, so the measurement runs in a child process
    /// of the test binary that runs only this test.
    @Test func memoryStaysFlatOver1000Frames720p() throws {
        guard try ResidentMemory.measuredAlone("memoryStaysFlatOver1000Frames720p", printing: "RSS growth") else { return }
        let (w, h, frames) = (1280, 720, 1000)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writeEnd = fds[1]
        let frame = Data("FRAME\n".utf8) + Data(Self.frameBytes(width: w, height: h, frame: 0))
        let header = Data("YUV4MPEG2 W\(w) H\(h) F30:1 C420jpeg\n".utf8)
        let writer = Thread {
            func put(_ d: Data) {
                d.withUnsafeBytes { raw in
                    var off = 0
                    while off < raw.count {
                        let n = write(writeEnd, raw.baseAddress! + off, raw.count - off)
                        if n <= 0 { return }
                        off += n
                    }
                }
            }
            put(header)
            for _ in 0..<frames { put(frame) }
            close(writeEnd)
        }
        writer.start()
        let reader = try Y4MReader(fileDescriptor: fds[0], closesOnDeinit: true)
        var count = 0, checksum = 0
        var baseline = 0
        while let f = try reader.nextFrame() {
            checksum &+= f.image.withUnsafePlanes { Int($0[0].bytes[count % 1000]) }
            count += 1
            if count == 10 { baseline = try ResidentMemory.bytes() }
        }
        let growth = try ResidentMemory.bytes() - baseline
        #expect(count == frames)
        #expect(checksum != 0)
        #expect(growth < 50 << 20, "RSS grew by \(growth >> 20) MB")
        print("Y4M 1000×720p: RSS growth \(growth / 1024) KB")
    }
}

@Suite struct ImageSequenceTests {
    @Test func naturalOrder() {
        let names = ["f10.png", "f2.png", "f1.png", "f02.png", "g.png", "f1a.png"]
        #expect(names.sorted(by: ImageSequence.naturalOrder) == ["f1.png", "f1a.png", "f2.png", "f02.png", "f10.png", "g.png"])
    }

    @Test func numberedFolderIsAFrameSequence() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in [1, 2, 10, 9] {
            var image = try VisionImage(width: 3, height: 2, format: .gray8)
            image.withUnsafeMutablePlanes { _ = $0[0].bytes.initializeMemory(as: UInt8.self, repeating: UInt8(i)) }
            try ImageFile.write(image, to: dir.appendingPathComponent("frame\(i).png"))
        }
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let sequence = try ImageSequence(directory: dir, framesPerSecond: 10)
        #expect(sequence.count == 4)
        let reader = sequence.makeReader()
        var values: [Int] = [], times: [Int] = []
        while let frame = try reader.nextFrame() {
            values.append(Int(frame.image.uprightPixel(x: 0, y: 0).r))
            times.append(frame.timestampInMilliseconds)
        }
        #expect(values == [1, 2, 9, 10])
        #expect(times == [0, 100, 200, 300])
        expectBlazeError("missing folder") { try ImageSequence(directory: dir.appendingPathComponent("nope")) }
    }
}
