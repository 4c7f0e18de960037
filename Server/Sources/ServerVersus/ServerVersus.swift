import Foundation
import LiveDataPostgres
import ProcessLauncher

/// `ServerVersus quick|full`: the send-to-event latency, the sends a second and the memory per
/// idle stream of `livedata-server` with N event streams on loopback, beside the floor (a bare
/// Hummingbird Server-Sent Events broadcast of the same bytes to the same N streams).
///
/// Each (server, N) runs in a child process of its own (`ServerVersus worker live|floor N ...`),
/// so that one run's freed memory does not flatter the next one's resident memory. Numbers are
/// printed, never asserted.
@main
enum ServerVersus {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "worker": try await worker(Array(arguments.dropFirst()))
            case "quick", nil: try compare(clients: [1, 100], pacedSends: 100, loadSeconds: 2, mode: "quick")
            case "full": try compare(clients: [1, 100, 1_000], pacedSends: 400, loadSeconds: 6, mode: "full")
            case "instances" where arguments.count >= 2:
                let quick = arguments.dropFirst(2).first == "quick"
                try compareStores(postgres: arguments[1], pacedSends: quick ? 100 : 400, loadSeconds: quick ? 2 : 6)
            default:
                FileHandle.standardError.write(Data("usage: ServerVersus [quick|full] | ServerVersus instances postgres://… [quick]\n".utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("ServerVersus: \(error)\n".utf8))
            exit(1)
        }
    }

    static let senders = 4
    static let window = 32

    /// Runs every (server, N) in a child process and prints the table.
    static func compare(clients: [Int], pacedSends: Int, loadSeconds: Double, mode: String) throws {
        let limit = ProcessStats.raiseOpenFileLimit()
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("ServerVersus \(mode): send-to-event latency at N event streams on loopback (\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load), open files \(limit))")
        print("latency: one send at a time, \(pacedSends) sends, every stream's arrival a sample; sends/s: \(senders) senders, at most \(window) sends in flight, \(loadSeconds) s plus the drain")
        print("CPU per send: the process's user + system time over the load phase (server, senders and stream readers together) / sends")
        print(machineNote)
        print("memory: this process's VmRSS (server and the stream readers) after opening N idle streams minus before, / N")
        print("")
        var rows: [Measurement] = []
        for count in clients {
            for target in ["live", "floor"] {
                rows.append(try runWorker([target, "\(count)", "\(pacedSends)", "\(loadSeconds)"]))
            }
        }
        printTable(rows)
    }

    /// `instances URL`: at 100 streams, one instance on SQLite, one on PostgreSQL and two on
    /// one PostgreSQL database (streams and senders split between them), each on a new database.
    static func compareStores(postgres: String, pacedSends: Int, loadSeconds: Double) throws {
        _ = try PostgresLocation(url: postgres)
        let limit = ProcessStats.raiseOpenFileLimit()
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("ServerVersus instances: 100 event streams, one instance on SQLite, one on PostgreSQL, two on one PostgreSQL database (\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load), open files \(limit))")
        print("two instances: in one process, streams and senders dealt out in turn, so half the streams hear a send made on the other instance")
        print("latency: one send at a time to the first instance, \(pacedSends) sends; sends/s: \(senders) senders, at most \(window) in flight, \(loadSeconds) s plus the drain")
        print(machineNote)
        print("")
        var rows: [Measurement] = []
        for target in ["live", "postgres", "postgres2"] {
            rows.append(try runWorker([target, "100", "\(pacedSends)", "\(loadSeconds)", postgres]))
        }
        printTable(rows)
        printCeiling(one: rows[1], two: rows[2])
    }

    private static let machineNote =
        "machine: every core's busy share over the load phase and its drain (all processes, PostgreSQL too), and that busy core time / sends"

    /// The most sends a second the two instances could make on this machine: every core busy at
    /// the machine CPU per send they measured. Below 1.6 times one instance's sends, the goal of
    /// two instances cannot be reached here, however they share the work.
    private static func printCeiling(one: Measurement, two: Measurement) {
        guard let perSend = two.machineMillisecondsPerSend, perSend > 0, one.sendsPerSecond > 0 else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let ceiling = Double(cores) * 1_000 / perSend
        let measured = String(format: "%.2f", two.sendsPerSecond / one.sendsPerSecond)
        print("two instances: \(measured) × one instance's sends/s (goal: at least 1.6 ×)")
        print("ceiling on this machine: every one of its \(cores) cores busy at the \(String(format: "%.1f", perSend)) ms of machine CPU per send "
            + "of two instances: \(String(format: "%.0f", ceiling)) sends/s, \(String(format: "%.2f", ceiling / one.sendsPerSecond)) × one instance's")
    }

    private static func printTable(_ rows: [Measurement]) {
        print("| N | server | p50 ms | p99 ms | sends/s | p50 / p99 ms under load | CPU ms per send | machine: busy %, CPU ms per send | KiB per idle stream |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows {
            let memory = String(format: "%.1f", row.bytesPerIdleStream / 1_024)
            let busy = row.machineBusyPercent.map { String(format: "%.0f", $0) } ?? "-"
            let machine = "\(busy) %, " + (row.machineMillisecondsPerSend.map { String(format: "%.1f", $0) } ?? "-")
            print("| \(row.clients) | \(row.target) | \(ms(row.pacedP50)) | \(ms(row.pacedP99)) | \(String(format: "%.0f", row.sendsPerSecond)) | \(ms(row.loadP50)) / \(ms(row.loadP99)) | \(String(format: "%.3f", row.cpuMillisecondsPerSend)) | \(machine) | \(memory) |\(row.note.isEmpty ? "" : " " + row.note)")
        }
    }

    private static func ms(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "-"
    }

    /// Runs `ServerVersus worker ...` and reads its `RESULT <json>` line.
    private static func runWorker(_ arguments: [String]) throws -> Measurement {
        // Not Foundation's `Process`, whose `run()` sometimes crashes on Linux (ProcessLauncher says why).
        let process = try SpawnedProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, arguments: ["worker"] + arguments,
            standardOutput: .pipe)
        let data = process.output?.readDataToEndOfFile() ?? Data()
        let status = process.waitUntilExit().status
        let text = String(decoding: data, as: UTF8.self)
        guard status == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
        else { throw BenchError("the worker \(arguments.joined(separator: " ")) failed (status \(status)): \(text)") }
        let measurement = try JSONDecoder().decode(Measurement.self, from: Data(line.dropFirst(7).utf8))
        print("  \(measurement.target), N = \(measurement.clients): p50 \(ms(measurement.pacedP50)) ms, p99 \(ms(measurement.pacedP99)) ms, \(String(format: "%.0f", measurement.sendsPerSecond)) sends/s (\(measurement.loadSends) sends)")
        return measurement
    }

    /// `worker live|floor|postgres|postgres2 N pacedSends loadSeconds [URL]`: one run, printed as
    /// `RESULT <json>`; `postgres` and `postgres2` (two instances) on a new database of the cluster at URL.
    private static func worker(_ arguments: [String]) async throws {
        guard arguments.count == 4 || arguments.count == 5, let clients = Int(arguments[1]), let paced = Int(arguments[2]),
              let seconds = Double(arguments[3]), clients > 0
        else { throw BenchError("usage: ServerVersus worker live|floor|postgres|postgres2 N pacedSends loadSeconds [URL]") }
        ProcessStats.raiseOpenFileLimit()
        let settings = RunSettings(clients: clients, pacedSends: paced, loadSeconds: seconds, senders: senders, window: window)
        let target: any BenchTarget
        var database: PostgresLocation?
        switch arguments[0] {
        case "postgres", "postgres2":
            guard arguments.count == 5 else { throw BenchError("\(arguments[0]) needs a PostgreSQL URL") }
            database = try await BenchDatabase.make(arguments[4])
        default: break
        }
        switch arguments[0] {
        case "live":
            target = try await LiveTarget.start(readers: max(clients, senders), name: arguments.count == 5 ? "1 × SQLite" : "livedata-server")
        case "postgres":
            target = try await LiveTarget.start(readers: max(clients, senders), name: "1 × PostgreSQL", postgres: database)
        case "postgres2":
            target = try await LiveTarget.start(readers: max(clients, senders), name: "2 × PostgreSQL", postgres: database, instances: 2)
        case "floor": target = try await FloorTarget.start()
        default: throw BenchError("unknown server \(arguments[0]): live, floor, postgres or postgres2")
        }
        let measurement = try await onThread { try Measurer.measure(target, settings) }
        (target as? LiveTarget)?.removeFolder()
        if let database { await BenchDatabase.drop(database, cluster: arguments[4]) }
        let json = String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self)
        FileHandle.standardOutput.write(Data("RESULT \(json)\n".utf8))
        // The servers' tasks and the open streams end with the process.
        exit(0)
    }
}
