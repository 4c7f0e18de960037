import Foundation
import ServerTestSupport

/// Two `livedata-server` processes (``LaunchedServer``) on one PostgreSQL database and one data
/// folder, on a throwaway cluster of their own (`Scripts/postgres-cluster.sh`), which a test may
/// restart without disturbing the suites running beside it. Instances are killed with `SIGKILL`
/// and started again on their port; the database is checked with `psql`.
@MainActor
final class PostgresInstances {
    let folder: URL
    let data: URL
    let url: String
    /// Each instance's port (fixed at the first start: a restarted instance takes it again).
    private(set) var ports: [Int] = []
    /// The running processes; nil for an instance that is down.
    private(set) var running: [LaunchedServer?] = []

    private init(folder: URL, url: String) {
        self.folder = folder
        self.data = folder.appendingPathComponent("server")
        self.url = url
    }

    /// Starts the cluster, then `count` instances, the first one alone (it makes the tables,
    /// the demo data and the demo users' passwords).
    static func start(count: Int = 2) async throws -> PostgresInstances {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livedata-instances-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The cluster's files belong to the `postgres` user when the tests run as root.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let url = try await cluster("start", folder.appendingPathComponent("pg").path)
        let instances = PostgresInstances(folder: folder, url: url)
        for _ in 0..<count {
            let server = try await LaunchedServer.start(port: 0, folder: instances.data, arguments: ["--postgres", url])
            instances.ports.append(server.port)
            instances.running.append(server)
        }
        return instances
    }

    /// Runs `body` on new instances (``start(count:)``) and stops them after it, whatever happened.
    static func with<T>(count: Int = 2, _ body: (PostgresInstances) async throws -> T) async throws -> T {
        let instances = try await start(count: count)
        do {
            let result = try await body(instances)
            await instances.stop()
            return result
        } catch {
            await instances.stop()
            throw error
        }
    }

    /// The demo users' passwords.
    func passwords() throws -> [String: String] { try LaunchedServer.passwords(in: data) }

    /// Kills instance `index` with `SIGKILL` (no-op when it is down).
    func kill(_ index: Int) async {
        guard let server = running[index] else { return }
        running[index] = nil
        await server.kill()
    }

    /// Starts instance `index` again on its port (no-op when it runs).
    func restart(_ index: Int) async throws {
        guard running[index] == nil else { return }
        running[index] = try await LaunchedServer.start(port: ports[index], folder: data, arguments: ["--postgres", url])
    }

    /// Restarts PostgreSQL (`pg_ctl restart -m fast`: open transactions are rolled back,
    /// every connection is closed).
    func restartDatabase() async throws {
        _ = try await Self.cluster("restart", folder.appendingPathComponent("pg").path)
    }

    /// Stops the instances and the cluster and deletes their files.
    func stop() async {
        for index in running.indices { await kill(index) }
        _ = try? await Self.cluster("stop", folder.appendingPathComponent("pg").path)
        try? FileManager.default.removeItem(at: folder)
    }

    /// What is wrong with the database, if anything: the change log must be gapless (1 … n, n
    /// the counter's value), and every message must have its creation in the log and every
    /// logged message creation its row (no write half done).
    func databaseProblems() async throws -> [String] {
        var problems: [String] = []
        let log = try await psql("SELECT count(*) || ' ' || coalesce(max(sequence), 0) FROM server_changelog")
        let counter = try await psql("SELECT value FROM server_counters WHERE name = '$changelog'")
        let parts = log.split(separator: " ")
        if parts.count != 2 || parts[0] != parts[1] || String(parts[1]) != counter {
            problems.append("the change log is not gapless: count and last \(log), counter \(counter)")
        }
        let unlogged = try await psql(
            "SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM server_changelog c "
                + "WHERE c.kind = 'message' AND c.recordId = m.id AND c.isCreation = 1)")
        if unlogged != "0" { problems.append("\(unlogged) messages without their creation in the change log") }
        let rowless = try await psql(
            "SELECT count(*) FROM server_changelog c WHERE c.kind = 'message' AND c.isCreation = 1 "
                + "AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = c.recordId)")
        if rowless != "0" { problems.append("\(rowless) logged message creations without their row") }
        return problems
    }

    /// One value from the database, as `psql` prints it unaligned.
    func psql(_ sql: String) async throws -> String {
        try await ScriptRun.output("/usr/bin/psql", ["-X", "-A", "-t", "-q", "-d", url, "-c", sql])
    }

    /// Runs `postgres-cluster.sh COMMAND FOLDER`; what it printed (the URL, for `start`).
    static func cluster(_ command: String, _ folder: String) async throws -> String {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/postgres-cluster.sh")
        return try await ScriptRun.output(script.path, [command, folder])
    }
}
