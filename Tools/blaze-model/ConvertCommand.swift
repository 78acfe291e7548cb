import BlazeCLISupport
import BlazeConvert
import BlazeEngine
import Foundation

/// `convert IN.tflite -o OUT.bkm` or `convert IN.task --output-dir DIR`.
struct ConvertCommand {
    let input: URL
    let output: URL?
    let outputDir: URL?

    init(arguments: [String]) throws {
        let a = try Arguments(arguments, valued: ["-o", "--output", "--output-dir"])
        guard a.positional.count == 1 else { throw UsageError("convert takes one input file") }
        input = URL(fileURLWithPath: a.positional[0])
        output = a.value("-o", "--output").map { URL(fileURLWithPath: $0) }
        outputDir = a.value("--output-dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    func run() throws {
        let bytes = [UInt8](try FileDescriptorIO.readFile(path: input.path, kind: "a .tflite or .task file"))
        guard !bytes.starts(with: ModelFile.Layout.magic) else {
            throw BlazeError(.invalidInput, "is a .bkm model already (inspect or run it); convert takes a .tflite model or a .task bundle", context: input.path)
        }
        switch ModelConversion.sourceKind(bytes: bytes, fileName: input.lastPathComponent) {
        case .taskBundle:
            guard let dir = outputDir else { throw UsageError("a .task bundle needs --output-dir DIR") }
            try ModelConversion.convertTaskBundle(bytes: bytes, bundleName: input.lastPathComponent, outputDirectory: dir)
        case .tflite:
            guard let out = output else { throw UsageError("convert IN.tflite needs -o OUT.bkm") }
            let graph = try ModelConversion.convertTFLite(bytes: bytes, modelName: input.lastPathComponent)
            try ModelFileWriter.write(graph, to: out)
        }
    }
}
