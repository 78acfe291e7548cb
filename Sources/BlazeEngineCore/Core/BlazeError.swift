import Foundation

/// The one error type thrown by the engine, the model-file reader and the converter.
///
/// `kind` says what class of problem it is (so callers can react), `message` says what exactly is
/// wrong in words a user can act on, and `context` names where (file, op index, tensor name…).
public struct BlazeError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable {
        /// A model file is truncated, corrupt or violates the format's limits.
        case corruptModel
        /// A model uses an op or parameter the engine does not implement.
        case unsupported
        /// Shapes do not agree (graph construction or caller-supplied tensors).
        case shapeMismatch
        /// A caller-supplied value (input tensor, option, file) is invalid.
        case invalidInput
        /// Reading or writing a file failed.
        case io
        /// `BLAZE_ISA` names a kernel level that does not exist or that this CPU cannot run.
        case unsupportedISA
    }

    public var kind: Kind
    public var message: String
    public var context: String?

    public init(_ kind: Kind, _ message: String, context: String? = nil) {
        self.kind = kind
        self.message = message
        self.context = context
    }

    public var description: String {
        if let context { return "\(context): \(message)" }
        return message
    }

    /// The message with its context (what `localizedDescription` shows).
    public var errorDescription: String? { description }

    /// Returns a copy whose context is prefixed with `outer` (e.g. the file name).
    public func within(_ outer: String) -> BlazeError {
        var copy = self
        copy.context = context.map { "\(outer): \($0)" } ?? outer
        return copy
    }
}
