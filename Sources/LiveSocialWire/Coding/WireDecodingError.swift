/// A JSON body that does not have the wire form expected: what is wrong and where, written for a
/// person (a server sends ``message`` back in a 400 answer).
public struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, such as `at "query.kind": unknown value "feeds"`.
    public var message: String

    /// Creates an error with its message.
    public init(message: String) {
        self.message = message
    }

    /// Describes a decoding error with the path of the value at fault.
    public init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            message = Self.located(context, "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            message = Self.located(context, "expected \(Self.name(of: type)), found null")
        case .keyNotFound(let key, let context):
            message = Self.located(context, "missing field \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                message = "the body is not valid JSON"
            } else {
                message = Self.located(context, context.debugDescription)
            }
        @unknown default:
            message = "the body could not be read: \(error)"
        }
    }

    /// The message.
    public var description: String { message }

    private static func located(_ context: DecodingError.Context, _ what: String) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let trimmed = path.hasPrefix(".") ? String(path.dropFirst()) : path
        return trimmed.isEmpty ? what : "at \"\(trimmed)\": \(what)"
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "a value of type \(type)"
        }
    }
}
