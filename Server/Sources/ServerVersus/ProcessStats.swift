import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process-level facts the benchmark reads: the monotonic clock, resident memory and the
/// open-file limit.
enum ProcessStats {
    /// Nanoseconds on the monotonic clock (CLOCK_MONOTONIC): the time base of every latency.
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// CPU time this process has used (user and system, every thread), in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The whole machine's CPU time since boot, in clock ticks: how much of it every core spent
    /// busy (any process: this one, PostgreSQL, anything else) and in all, from the `cpu` line of
    /// /proc/stat (idle and iowait are not busy); nil where /proc/stat cannot be read.
    static func machineTicks() -> (busy: UInt64, total: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is counted in user already)
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard ticks.count == 8 else { return nil }
        let total = ticks.reduce(0, +)
        return (total - ticks[3] - ticks[4], total)
    }

    /// The clock ticks of /proc/stat in a second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
    static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// This process's resident memory in bytes (`VmRSS` of /proc/self/status).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kibibytes = Int(fields[1]) { return kibibytes * 1_024 }
        }
        return 0
    }

    /// Raises the soft limit of open files to the hard limit; returns the soft limit now in force.
    /// Each stream costs two descriptors here (the client's and the server's end).
    @discardableResult
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
