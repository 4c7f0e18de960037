/// A broken invariant of the chat model check: what was expected and what was found.
struct ChatModelFailure: Error {
    var what: String
    var expected: String
    var actual: String
}
