import Foundation
import LiveSocial
import LiveSocialServer

/// The helper's commands over an `EmbeddedServer` file (see `main.swift`).
enum ServerCommands {
    /// The command named `name`, or nil: it takes the arguments after its name and returns the
    /// exit status.
    static func command(named name: String) -> (@Sendable ([String]) async -> Int32)? {
        switch name {
        case "server-send": ServerSendCommand.run
        case "server-seed": ServerSeedCommand.run
        case "server-idle": ServerIdleCommand.run
        case "server-latency": ServerLatencyCommand.run
        default: nil
        }
    }
}
