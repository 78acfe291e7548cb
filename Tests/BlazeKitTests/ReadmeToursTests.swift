import BlazeTestSupport
import Foundation
import Testing

/// Every Swift block of README.md (but the app manifest excerpt) is, line for line, code of
/// Examples/Tours, which the package builds: so the README's tours compile. A block's `import`
/// lines must be among its file's imports; the other lines must appear there in one run, each
/// indented one level (inside the tour's function).
@Suite("README tours")
struct ReadmeToursTests {
    func swiftBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func everyREADMESwiftBlockIsCompiledInExamplesTours() throws {
        let readme = try String(contentsOf: RepoPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let folder = RepoPaths.root.appendingPathComponent("Examples/Tours")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        let sources = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).components(separatedBy: "\n") }
        let blocks = swiftBlocks(readme).filter { !($0.first?.contains("Package.swift") ?? false) }
        #expect(blocks.count >= 6)
        for block in blocks {
            let imports = block.filter { $0.hasPrefix("import ") }
            let body = Array(block.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty })
            let indented = body.map { $0.isEmpty ? "" : "    " + $0 }
            let home = sources.firstIndex { lines in
                imports.allSatisfy(lines.contains)
                    && (0...max(0, lines.count - indented.count)).contains { start in
                        Array(lines[start..<min(lines.count, start + indented.count)]) == indented
                    }
            }
            #expect(home != nil, "README block starting \(body.first ?? "") is not in Examples/Tours")
        }
    }
}
