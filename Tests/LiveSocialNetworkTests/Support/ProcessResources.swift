#if canImport(Glibc)
import Foundation
import Glibc

/// What this process holds, read from `/proc`: the sockets a test opened to its own server,
/// and the threads of a name.
enum ProcessResources {
    /// How many descriptors of this process are TCP sockets connected to `port` on the remote
    /// side (the client ends of connections to a test's own server), asked of each socket with
    /// `getpeername(2)`.
    static func socketsConnected(toPort port: Int) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { fd in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?.hasPrefix("socket:") == true else {
                return false
            }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let found = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
            }
            guard found else { return false }
            switch Int32(address.ss_family) {
            case AF_INET:
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) == port }
                }
            case AF_INET6:
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) == port }
                }
            default:
                return false
            }
        }.count
    }

    /// How many threads of this process are named `name`.
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .newlines) == name
        }.count
    }

    /// Waits until `condition` holds, looking every 10 ms, for at most `limit`.
    static func waitUntil(_ limit: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
#endif
