/// Minimal argument scanner: positional values plus `--flag value` / `-f value` options.
struct Arguments {
    var positional: [String] = []
    var options: [(name: String, value: String?)] = []

    /// `valued` lists the option names that take a value.
    init(_ args: [String], valued: Set<String>, flags: Set<String> = []) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("-") && a.count > 1 {
                if valued.contains(a) {
                    guard i + 1 < args.count else { throw UsageError(description: "option \(a) needs a value") }
                    options.append((a, args[i + 1]))
                    i += 2
                    continue
                }
                guard flags.contains(a) else { throw UsageError(description: "unknown option \(a)") }
                options.append((a, nil))
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    func values(_ names: String...) -> [String] { options.filter { names.contains($0.name) }.compactMap { $0.value } }
    func value(_ names: String...) -> String? { options.last { names.contains($0.name) }?.value }
    func has(_ name: String) -> Bool { options.contains { $0.name == name } }
}
