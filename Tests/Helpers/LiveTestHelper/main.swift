import Foundation

// A helper process for the tests that need a second process on one file: the cross-process
// tests of the cache and the server (and, later, the crash tests). Not part of the sample.
//
// Usage: LiveTestHelper <command> [arguments...]; each command documents its own arguments.
// It prints what it did on standard output, one line per event, and exits 0 when done.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data("usage: LiveTestHelper <command> [arguments...]\n".utf8))
    exit(64)
}
let rest = Array(arguments.dropFirst())
let status: Int32
if let store = StoreCommands.command(named: command) {
    status = await store(rest)
} else if let server = ServerCommands.command(named: command) {
    status = await server(rest)
} else if command == "client-loop" {
    status = await ClientLoopCommand.run(rest)
} else if command == "client-send-offline" {
    status = await ClientSendOfflineCommand.run(rest)
} else {
    FileHandle.standardError.write(Data("LiveTestHelper: unknown command \(command)\n".utf8))
    status = 64
}
exit(status)
