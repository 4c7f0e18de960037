import Foundation
import LiveRepository

/// The helper's commands over a `LiveStore` file (see `main.swift`).
enum StoreCommands {
    /// The command named `name`, or nil: it takes the arguments after its name and returns the
    /// exit status.
    static func command(named name: String) -> (@Sendable ([String]) async -> Int32)? {
        switch name {
        default: nil
        }
    }
}
