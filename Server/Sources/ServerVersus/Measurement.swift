import Foundation

/// What one run against one server with N streams measured.
struct Measurement: Codable, Sendable {
    var target: String
    var clients: Int
    /// Send-to-event latency at every client, one send at a time, in milliseconds.
    var pacedP50: Double?
    var pacedP99: Double?
    var pacedSamples: Int
    /// The same under the load phase (senders kept `window` sends in flight).
    var loadP50: Double?
    var loadP99: Double?
    /// Sends a second whose event reached every client, over the load phase and its drain.
    var sendsPerSecond: Double
    var loadSends: Int
    /// CPU time the whole process (server, senders and stream readers) used per load-phase send,
    /// in milliseconds: what a send costs, whatever else the machine is running.
    var cpuMillisecondsPerSend: Double
    /// How busy the machine's cores were over the load phase and its drain, in percent of all of
    /// them: every process (PostgreSQL too), not only this one; nil without /proc/stat.
    var machineBusyPercent: Double?
    /// The busy core time of the whole machine over the load phase and its drain, per send, in
    /// milliseconds: a send's cost to the machine, the database's work included.
    var machineMillisecondsPerSend: Double?
    /// Resident memory added by opening the idle streams, divided by their number, in bytes.
    var bytesPerIdleStream: Double
    /// Anything odd seen (arrivals that matched no send), or empty.
    var note: String
}
