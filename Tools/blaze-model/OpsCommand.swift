import BlazeCLISupport
import BlazeConvert

/// `ops [--markdown]`: the TFLite ops `convert` accepts (code, name, what it becomes);
/// `--markdown` prints docs/ops.md, which is generated from the same table.
struct OpsCommand {
    let markdown: Bool

    init(arguments: [String]) throws {
        let a = try Arguments(arguments, valued: [], flags: ["--markdown"])
        guard a.positional.isEmpty else { throw UsageError("ops takes no file") }
        markdown = a.has("--markdown")
    }

    func run() throws {
        if markdown {
            try printLine(String(ModelConversion.supportedTFLiteOpsMarkdown.dropLast()))
            return
        }
        let ops = ModelConversion.supportedTFLiteOps
        let width = ops.map(\.name.count).max() ?? 0
        var lines = ["\(ops.count) TFLite ops (custom ops: none)"]
        for op in ops {
            let code = String(op.code)
            lines.append(
                String(repeating: " ", count: max(0, 4 - code.count)) + code + "  "
                    + op.name + String(repeating: " ", count: width - op.name.count) + "  " + op.handling)
        }
        try printLine(lines.joined(separator: "\n"))
    }
}
