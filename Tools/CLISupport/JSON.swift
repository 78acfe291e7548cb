/// A JSON value with ordered object keys, so JSON Lines output follows the documented field order.
/// Non-finite numbers cannot be represented: build fields with `JSON.finite(_:)` and leave out
/// the ones that return nil (docs/cli.md: never NaN or infinity).
public indirect enum JSON: Sendable {
    case int(Int)
    case float(Float)
    case double(Double)
    case string(String)
    case bool(Bool)
    case array([JSON])
    case object([(String, JSON)])
    case null

    /// `.float(v)` when `v` is finite, else nil.
    public static func finite(_ v: Float) -> JSON? { v.isFinite ? .float(v) : nil }
    public static func finite(_ v: Double) -> JSON? { v.isFinite ? .double(v) : nil }

    /// Compact single-line encoding.
    public var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .int(let v): out += String(v)
        case .float(let v): out += v.isFinite ? Self.number(v.description) : "null"
        case .double(let v): out += v.isFinite ? Self.number(v.description) : "null"
        case .string(let s): Self.writeString(s, to: &out)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += ", " }
                Self.writeString(key, to: &out)
                out += ": "
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Swift prints e.g. `1e-06` and `5.0`, both valid JSON numbers.
    private static func number(_ text: String) -> String { text }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value):
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
