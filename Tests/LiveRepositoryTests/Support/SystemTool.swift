import Foundation
import TestSupport

/// Runs a system tool (`mount`, `chattr`…) for the corruption tests and returns its exit status
/// and its output, standard error included, trimmed.
enum SystemTool {
    static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(tool, arguments: arguments, standardOutput: .pipe, standardError: .standardOutput)
        } catch {
            return (-1, "\(error)")
        }
        let output = process.output?.readDataToEndOfFile() ?? Data()
        let status = process.waitUntilExit().status
        return (status, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
