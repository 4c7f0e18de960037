import Foundation
import LiveDataServer
import LiveSocialServer
import Testing

/// The first start makes the demo users with random passwords, in a file only its owner reads.
@Suite("Demo credentials")
struct DemoCredentialsTests {
    @Test func theFileHasMode0600AndOnePairALineForEachDemoUser() async throws {
        try await withServer { server in
            let path = server.folder.appendingPathComponent(DemoCredentials.fileName).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let identity = try FileManager.default.attributesOfItem(
                atPath: server.folder.appendingPathComponent(LiveDataServer.identityFileName).path)
            #expect((identity[.posixPermissions] as? NSNumber)?.intValue == 0o600, "password hashes are the owner's only")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let lines = text.split(separator: "\n")
            #expect(lines.map { String($0.split(separator: " ")[0]) } == EmbeddedServer.demoUserIds)
            for line in lines {
                let parts = line.split(separator: " ")
                #expect(parts.count == 2)
                #expect(parts[1].count == 16)
            }
            #expect(Set(server.passwords.values).count == EmbeddedServer.demoUserIds.count, "every password differs")
        }
    }

    @Test func everyDemoPasswordSignsItsUserIn() async throws {
        try await withServer { server in
            for userId in EmbeddedServer.demoUserIds {
                _ = try await server.signIn(userId)
            }
        }
    }

    @Test func twoServersGetDifferentPasswords() async throws {
        try await withServer { first in
            try await withServer { second in
                #expect(first.passwords["alan"] != second.passwords["alan"])
            }
        }
    }

    @Test func theFirstStartPrintsEachPasswordOnceAndTheNextPrintsNone() async throws {
        let printed = PrintedLines()
        let server = try await TestServer.start { $0.print = { printed.append($0) } }
        await server.stop(removingFolder: false)
        for (user, password) in server.passwords {
            #expect(printed.lines.filter { $0.contains(password) }.count == 1, "\(user)'s password printed once")
        }
        let before = printed.lines.count
        try await withServer(folder: server.folder, configure: { $0.print = { printed.append($0) } }) { _ in }
        let later = printed.lines.dropFirst(before)
        #expect(!later.contains { line in server.passwords.values.contains { line.contains($0) } })
        #expect(later.contains { $0.hasPrefix("listening on http://127.0.0.1:") })
    }
}
