import Foundation
import LiveRepository

/// The helper's commands for the tests of the wake-up channel (see `main.swift`).
enum StoreWakeCommands {
    /// `store-watch <file>`: opens a `LiveStore` on `<file>` at the default setting (so it reads
    /// the file's wake-up channel), prints `ready`, then waits until it is killed or its standard
    /// input ends. The tests kill it with `SIGKILL`, as a crash would.
    static func watch(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 1 else { return StoreCommands.usage("store-watch <file>") }
        do {
            let store = try LiveStore(location: .file(URL(fileURLWithPath: arguments[0])), migrations: StoreNote.migrations)
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            while let line = readLine(), !line.isEmpty {}
            await store.close()
            return 0
        } catch {
            FileHandle.standardError.write(Data("store-watch: \(error)\n".utf8))
            return 1
        }
    }

    /// `store-commit-and-die <file> <rank>`: commits the note `p<rank>` with a raw SQLite
    /// connection (no change-log row, no wake-up), prints `committed`, and kills itself with
    /// `SIGKILL`: a writer that died between its commit and its wake-up, or one that does not
    /// announce its commits at all.
    static func commitAndDie(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let rank = Int(arguments[1]) else {
            return StoreCommands.usage("store-commit-and-die <file> <rank>")
        }
        do {
            let connection = try SQLiteConnection(location: .file(URL(fileURLWithPath: arguments[0])))
            let note = StoreNote(id: "p\(rank)", rank: rank, body: "committed, then killed")
            try connection.execute(
                "INSERT INTO notes (id, folder, rank, body, syncState) VALUES (?, ?, ?, ?, ?)", note.columnValues)
            FileHandle.standardOutput.write(Data("committed\n".utf8))
            kill(getpid(), SIGKILL)
            return 1
        } catch {
            FileHandle.standardError.write(Data("store-commit-and-die: \(error)\n".utf8))
            return 1
        }
    }

    /// `store-commit-silently-and-die <file> <rank>`: commits the note `p<rank>` through a
    /// `LiveStore` (so the change log has its row) with wake-ups turned off, prints `committed`,
    /// and kills itself with `SIGKILL`: a store killed between its commit and its wake-up.
    static func commitSilentlyAndDie(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let rank = Int(arguments[1]) else {
            return StoreCommands.usage("store-commit-silently-and-die <file> <rank>")
        }
        do {
            ExternalChangeMonitor.shared.announcesCommits = false
            let store = try LiveStore(
                location: .file(URL(fileURLWithPath: arguments[0])), migrations: StoreNote.migrations, externalChanges: .off)
            try await store.write { try $0.upsert(StoreNote(id: "p\(rank)", rank: rank, body: "committed, then killed")) }
            FileHandle.standardOutput.write(Data("committed\n".utf8))
            kill(getpid(), SIGKILL)
            return 1
        } catch {
            FileHandle.standardError.write(Data("store-commit-silently-and-die: \(error)\n".utf8))
            return 1
        }
    }
}
