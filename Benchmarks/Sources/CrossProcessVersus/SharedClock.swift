import Foundation

/// The clock both processes read: `CLOCK_MONOTONIC`, which counts from one point for the whole
/// system on Linux and Darwin, so a time read in the writer process and one read in the observing
/// process can be subtracted.
enum SharedClock {
    /// Now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The CPU time this process has used so far, user and system, in nanoseconds
    /// (`getrusage(RUSAGE_SELF)`; microsecond resolution).
    static func processCPU() -> UInt64 {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }
}
