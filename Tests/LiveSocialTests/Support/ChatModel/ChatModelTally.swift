/// What the seeds of a chat model check played so far, kept on the main actor so that the
/// closure that plays each seed can add to it.
@MainActor
final class ChatModelTally {
    var coverage = ChatModelCoverage()
    var failed = false
}
