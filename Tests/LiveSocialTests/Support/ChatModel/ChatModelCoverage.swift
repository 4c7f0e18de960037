/// How often the chat model check reached each kind of step and outcome, to prove the
/// generator reaches all of them.
struct ChatModelCoverage {
    var sequences = 0
    var steps = 0
    var sends = 0
    var refused = 0
    var held = 0
    var lostAnswers = 0
    var otherMessages = 0
    var ownEdits = 0
    var ownDeletes = 0
    var otherEdits = 0
    var otherDeletes = 0
    var offline = 0
    var shortGaps = 0
    var hugeGaps = 0
    var pagesPrevious = 0
    var pagesNext = 0
    var offlinePages = 0
    var sendsDuringLoads = 0
    var startsInThePast = 0
    var restarts = 0
    var pendingAcrossRestarts = 0
    var disposes = 0
    var checks = 0
    var delegateCalls = 0

    mutating func add(_ other: ChatModelCoverage) {
        sequences += other.sequences
        steps += other.steps
        sends += other.sends
        refused += other.refused
        held += other.held
        lostAnswers += other.lostAnswers
        otherMessages += other.otherMessages
        ownEdits += other.ownEdits
        ownDeletes += other.ownDeletes
        otherEdits += other.otherEdits
        otherDeletes += other.otherDeletes
        offline += other.offline
        shortGaps += other.shortGaps
        hugeGaps += other.hugeGaps
        pagesPrevious += other.pagesPrevious
        pagesNext += other.pagesNext
        offlinePages += other.offlinePages
        sendsDuringLoads += other.sendsDuringLoads
        startsInThePast += other.startsInThePast
        restarts += other.restarts
        pendingAcrossRestarts += other.pendingAcrossRestarts
        disposes += other.disposes
        checks += other.checks
        delegateCalls += other.delegateCalls
    }

    /// The counts for `RandomRuns.summary(_:)`.
    var summary: KeyValuePairs<String, Int> {
        [
            "sequences": sequences, "steps": steps, "sends": sends, "refused": refused, "held answers": held,
            "lost answers": lostAnswers, "others' messages": otherMessages, "own edits": ownEdits,
            "own deletes": ownDeletes, "others' edits": otherEdits, "others' deletes": otherDeletes,
            "offline periods": offline, "short gaps": shortGaps, "huge gaps": hugeGaps,
            "loadPrevious": pagesPrevious, "loadNext": pagesNext, "offline pages": offlinePages,
            "sends during loads": sendsDuringLoads, "starts in the past": startsInThePast, "restarts": restarts,
            "pending across restarts": pendingAcrossRestarts, "disposes": disposes, "checks": checks,
            "delegate calls": delegateCalls,
        ]
    }
}
