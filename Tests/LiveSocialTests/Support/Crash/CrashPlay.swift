#if os(macOS) || os(Linux)
import Foundation
import TestSupport

/// One seed of the crash tests: the `client-loop` helper started on a fresh folder, killed with
/// `SIGKILL` after a seeded number of its output lines, started again on the same files, again and
/// again; then run once more to drain its outbox. The server file is checked after every run and
/// the cache after the drain.
struct CrashPlay {
    /// One run of the helper: how long it lives and how slow its server is.
    struct Run: CustomStringConvertible {
        var number: Int
        /// Killed after reading this many of its lines (it keeps going until the kill lands).
        var killAfterLines: Int
        var latencyMs: Int

        var description: String { "run \(number): killed after \(killAfterLines) lines, latency \(latencyMs) ms" }
    }

    /// What the seed played, and its failure if one.
    struct Outcome {
        var kills = 0
        var acceptedActions = 0
        var pendingAtKill = 0
        /// Sends the server stored whose answer a kill cut off.
        var answersCut = 0
        var pendingAtOpen = 0
        var resent = 0
        var acceptedEdits = 0
        var acceptedReactions = 0
        var acceptedRemovals = 0
        var failure: String?
    }

    static let userId = "ada"

    let seed: UInt64
    let runs: [Run]
    /// Actions each run plays unless killed first.
    let actions: Int
    /// How long a run may take before the test gives up on it (it is then killed and fails).
    let runLimit: Duration = .seconds(60)

    /// The seed's kill schedule: a handful of short runs in the quick mode, more and longer ones
    /// in the long mode.
    init(seed: UInt64, isLong: Bool) {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        let count = isLong ? 12 : 6
        let maxLines = isLong ? 300 : 80
        runs = (0..<count).map { number in
            Run(number: number, killAfterLines: 1 + random.below(maxLines), latencyMs: random.pick([0, 0, 1, 2, 5]))
        }
        actions = isLong ? 200 : 60
    }

    /// Plays the seed.
    func play() async throws -> Outcome {
        let folder = try TemporaryDirectory()
        let files = CrashFiles(folder: folder.url, userId: Self.userId)
        var ledger = CrashLedger()
        var outcome = Outcome()
        for run in runs {
            let lines = try await start(in: folder.url, run: run.number, latencyMs: run.latencyMs, drain: false, killAfter: run.killAfterLines)
            if lines.status == SIGKILL {
                outcome.kills += 1
                outcome.pendingAtKill += CrashLedger.pendingAtKill(in: lines.output).count
                outcome.answersCut += CrashLedger.answersCut(in: lines.output).count
            }
            for line in lines.output { ledger.read(line) }
            var problems = lines.problems
            if lines.status != SIGKILL && lines.status != 0 { problems.append("the helper exited with status \(lines.status)") }
            if let opening = ledger.openings.last, !opening.hasPrefix("opened recovery=none ") {
                problems.append("the cache did not open cleanly: \(opening)")
            }
            problems += CrashCheck.server(
                ledger, seed: seed, messages: try files.serverMessages(), reactions: try files.serverReactions())
            if !problems.isEmpty {
                outcome.failure = describe(problems, at: "\(run)", output: lines.output)
                return outcome
            }
        }
        let drain = try await start(in: folder.url, run: runs.count, latencyMs: 0, drain: true, killAfter: nil)
        for line in drain.output { ledger.read(line) }
        var problems = drain.problems
        if drain.status != 0 { problems.append("the drain exited with status \(drain.status)") }
        if let opening = ledger.openings.last, !opening.hasPrefix("opened recovery=none ") {
            problems.append("the cache did not open cleanly: \(opening)")
        }
        let server = try files.serverMessages()
        problems += CrashCheck.server(ledger, seed: seed, messages: server, reactions: try files.serverReactions())
        problems += CrashCheck.drained(
            ledger, server: server, cache: try files.cachedMessages(), unsynced: try files.cachedUnsyncedRecords(),
            serverReactions: try files.serverReactions(), cachedReactions: try files.cachedReactions(), drainLines: drain.output)
        outcome.acceptedActions = ledger.acceptedActions
        outcome.pendingAtOpen = ledger.pendingAtOpen
        outcome.resent = ledger.resent
        outcome.acceptedEdits = ledger.acceptedEdits
        outcome.acceptedReactions = ledger.acceptedReactions
        outcome.acceptedRemovals = ledger.acceptedRemovals
        if !problems.isEmpty { outcome.failure = describe(problems, at: "the drain (run \(runs.count))", output: drain.output) }
        return outcome
    }

    /// What a run printed, how it ended, and what went wrong with the process itself.
    private struct RunResult {
        var output: [String]
        var status: Int32
        var problems: [String]
    }

    /// Runs the helper on `folder`; kills it after `killAfter` lines, or waits for its end. A run
    /// that outlives ``runLimit`` is killed and fails.
    private func start(in folder: URL, run: Int, latencyMs: Int, drain: Bool, killAfter: Int?) async throws -> RunResult {
        var arguments = [
            "client-loop", folder.path, Self.userId, "\(seed)", "\(run)", "--actions", "\(actions)",
            "--latency-ms", "\(latencyMs)",
        ]
        if drain { arguments.append("--drain") }
        let process = try HelperProcess(arguments)
        let limit = runLimit
        let watchdog = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return false }
            process.kill()
            return true
        }
        if let killAfter {
            var read = 0
            while read < killAfter, await process.nextLine() != nil { read += 1 }
            process.kill()
        }
        let status = await process.exitStatus()
        watchdog.cancel()
        var problems: [String] = []
        if await watchdog.value { problems.append("the run did not end within \(limit)") }
        return RunResult(output: process.allLines, status: status, problems: problems)
    }

    private func describe(_ problems: [String], at step: String, output: [String]) -> String {
        """
        ClientCrashTests: seed \(seed) failed at \(step)
        \(problems.prefix(12).map { "- \($0)" }.joined(separator: "\n"))\(problems.count > 12 ? "\n- … and \(problems.count - 12) more" : "")
        kill schedule: \(runs.map(\.description).joined(separator: "; "))
        the run's last lines:
        \(output.suffix(15).map { "  \($0)" }.joined(separator: "\n"))
        """
    }
}
#endif
