import BlazeCLISupport
import BlazeEngine
import Foundation

/// `run M.bkm --input FILE.npy [--input NAME=FILE.npy …] [--output-dir DIR]`.
/// Writes `DIR/<sanitized output name>.npy` per output; on any error every existing file is left as it was.
struct RunCommand {
    let modelPath: String
    let inputSpecs: [String]
    let outputDir: URL

    init(arguments: [String]) throws {
        let a = try Arguments(arguments, valued: ["--input", "--output-dir"])
        guard a.positional.count == 1 else { throw UsageError("run takes one model file") }
        modelPath = a.positional[0]
        inputSpecs = a.values("--input")
        guard !inputSpecs.isEmpty else { throw UsageError("run needs at least one --input FILE.npy") }
        outputDir = URL(fileURLWithPath: a.value("--output-dir") ?? FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    func run() throws {
        let model = try loadBKM(modelPath)
        let inputs = try bindInputs(model)
        let results = try model.run(inputs)
        try writeOutputs(model: model, results: results)
    }

    /// Maps `--input` values onto graph inputs: `NAME=FILE` by name, bare `FILE` to the inputs in order.
    private func bindInputs(_ model: Model) throws -> [[Float]] {
        var bound = [[Float]?](repeating: nil, count: model.inputs.count)
        var nextPositional = 0
        let names = model.inputs.map(\.name)
        for spec in inputSpecs {
            var file = spec
            var index: Int
            let eq = spec.firstIndex(of: "=")
            if let eq, let i = names.firstIndex(of: String(spec[..<eq])) {
                index = i
                file = String(spec[spec.index(after: eq)...])
                guard bound[i] == nil else { throw BlazeError(.invalidInput, "expected one value for input '\(names[i])', got a second (\(spec))") }
            } else {
                // A file name may hold '=': only a missing file makes this a misspelt input name.
                if let eq, !FileManager.default.fileExists(atPath: spec) {
                    throw BlazeError(.invalidInput, "expected --input NAME=FILE.npy with NAME one of \(names), got '\(spec[..<eq])'")
                }
                while nextPositional < bound.count, bound[nextPositional] != nil { nextPositional += 1 }
                guard nextPositional < bound.count else {
                    throw BlazeError(.invalidInput, "expected \(model.inputs.count) input(s) \(names), got more (\(spec))")
                }
                index = nextPositional
            }
            let (name, shape) = model.inputs[index]
            let array = try NPYArray(contentsOf: URL(fileURLWithPath: file))
            guard array.shape == shape else {
                throw BlazeError(.invalidInput, "expected input '\(name)' of shape \(shape), got \(array.shape) in \(file)")
            }
            bound[index] = array.values
        }
        return try bound.enumerated().map { i, values in
            guard let values else { throw BlazeError(.invalidInput, "expected a value for input '\(model.inputs[i].name)', got none") }
            return values
        }
    }

    private func writeOutputs(model: Model, results: [[Float]]) throws {
        do {
            try FileManager.default.createDirectory(at: outputDir, withIntermediateDirectories: true)
        } catch {
            throw BlazeError(.io, "cannot create \(outputDir.path): \(error.localizedDescription)")
        }
        // One transaction (OutputFiles): all outputs or none; existing files stay as they were on
        // any error; two outputs that sanitize to one file name are an error, not an overwrite.
        let items = zip(model.outputs, results).map { output, values in
            OutputFiles.Item(
                url: outputDir.appendingPathComponent(sanitize(output.name) + ".npy"),
                bytes: NPYArray(shape: output.shape, values: values).encoded(),
                origin: "output '\(output.name)'")
        }
        try OutputFiles.write(items)
    }
}

/// Output file stem: every character outside `[A-Za-z0-9_.-]` becomes `_`.
func sanitize(_ name: String) -> String {
    String(
        name.unicodeScalars.map { s -> Character in
            switch s {
            case "A"..."Z", "a"..."z", "0"..."9", "_", ".", "-": return Character(s)
            default: return "_"
            }
        })
}
