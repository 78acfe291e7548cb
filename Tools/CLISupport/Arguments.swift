/// A command-line usage problem (unknown option, missing value…); printed as one line, exit 1.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Minimal argument scanner: positional values plus `--flag value` / `-f value` options.
/// A lone `-` is a positional value (stdin); after `--` every argument is positional (a file
/// named `--json`). An option's value may not itself look like an option (`--annotate --json`
/// is an error, not an annotation file called `--json`).
public struct Arguments: Sendable {
    public var positional: [String] = []
    public var options: [(name: String, value: String?)] = []

    /// `valued` lists the option names that take a value.
    public init(_ args: [String], valued: Set<String>, flags: Set<String> = []) throws {
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let a = args[i]
            if a == "--" && !optionsEnded {
                optionsEnded = true
            } else if !optionsEnded && a.hasPrefix("-") && a.count > 1 {
                if valued.contains(a) {
                    guard i + 1 < args.count else { throw UsageError("option \(a) needs a value") }
                    guard !args[i + 1].hasPrefix("--") else {
                        throw UsageError("option \(a) needs a value, got the option \(args[i + 1]) (after -- every argument is a file)")
                    }
                    options.append((a, args[i + 1]))
                    i += 2
                    continue
                }
                guard flags.contains(a) else { throw UsageError("unknown option \(a)") }
                options.append((a, nil))
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    public func values(_ names: String...) -> [String] { options.filter { names.contains($0.name) }.compactMap { $0.value } }
    public func value(_ names: String...) -> String? { options.last { names.contains($0.name) }?.value }
    public func has(_ name: String) -> Bool { options.contains { $0.name == name } }
}
