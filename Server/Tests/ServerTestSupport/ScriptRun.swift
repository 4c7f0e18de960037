import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end (`posix_spawn`, `waitpid`) on a thread of its own and returns what
/// it printed. Not `Process`: its `waitUntilExit()` never saw `postgres-cluster.sh` exit (the
/// script stayed a zombie), whichever thread waited.
public enum ScriptRun {
    /// Runs `executable` with `arguments` to its end and returns its standard output, trimmed;
    /// standard error goes to /dev/null.
    ///
    /// - Throws: ``ScriptRunError`` when it cannot start, or ends with a status other than 0 or by a signal.
    public static func output(_ executable: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try run(executable, arguments) }) }.start()
        }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ScriptRunError("pipe: errno \(errno)") }
        // Not inherited by whatever else this process starts meanwhile.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw ScriptRunError("cannot run \(executable): error \(spawned)")
        }
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 {
                printed += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status >> 8) & 0xff
        guard status & 0x7f == 0, exitStatus == 0 else {
            throw ScriptRunError("\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.first ?? "") failed (status \(status))")
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a program could not be run to a clean end.
public struct ScriptRunError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
