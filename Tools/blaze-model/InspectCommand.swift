import BlazeCLISupport
import BlazeEngine
import Foundation

/// `inspect M.bkm [--json]`: inputs/outputs, op histogram, parameters, FLOPs, arena bytes.
struct InspectCommand {
    let path: String
    let json: Bool

    init(arguments: [String]) throws {
        let a = try Arguments(arguments, valued: [], flags: ["--json"])
        guard a.positional.count == 1 else { throw UsageError("inspect takes one model file") }
        path = a.positional[0]
        json = a.has("--json")
    }

    func run() throws {
        let start = Date()
        let model = try loadBKM(path)
        let loadMs = Date().timeIntervalSince(start) * 1000
        if json {
            let object: [String: Any] = [
                "model": URL(fileURLWithPath: path).lastPathComponent,
                "inputs": model.inputs.map { ["name": $0.name, "shape": $0.shape] as [String: Any] },
                "outputs": model.outputs.map { ["name": $0.name, "shape": $0.shape] as [String: Any] },
                "ops": Dictionary(uniqueKeysWithValues: model.opHistogram.map { ($0.name, $0.count) }),
                "op_count": model.graph.nodes.count,
                "parameters": model.parameterCount,
                "flops": model.flops,
                "arena_bytes": model.arenaBytes,
                "metadata": model.graph.metadata
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try printLine(String(decoding: data, as: UTF8.self))
            return
        }
        var lines = ["model       \(path)"]
        for (name, shape) in model.inputs { lines.append("input       \(name) \(shape)") }
        for (name, shape) in model.outputs { lines.append("output      \(name) \(shape)") }
        lines.append("ops         \(model.graph.nodes.count): " + model.opHistogram.map { "\($0.name)×\($0.count)" }.joined(separator: " "))
        lines.append("parameters  \(model.parameterCount)")
        lines.append(String(format: "flops       %d (%.1f M)", model.flops, Double(model.flops) / 1e6))
        lines.append("arena       \(model.arenaBytes) bytes")
        lines.append(String(format: "load        %.2f ms", loadMs))
        try printLine(lines.joined(separator: "\n"))
    }
}
