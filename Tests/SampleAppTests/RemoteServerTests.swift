import Foundation
import SampleApp
import Testing

/// Where a network server's users keep their caches: a folder per server, never shared with
/// the embedded server's or another server's.
@Suite
struct RemoteServerTests {
    @Test func eachServerHasItsOwnFolderOfUsers() throws {
        let data = URL(fileURLWithPath: "/data", isDirectory: true)
        var alan = SampleConfiguration(dataFolder: data, userId: "alan")
        alan.remote = RemoteServer(url: try #require(URL(string: "http://127.0.0.1:8080")), password: "p")
        #expect(alan.userFolder.path == "/data/servers/127.0.0.1-8080/users/alan")
        #expect(alan.cacheURL.path == "/data/servers/127.0.0.1-8080/users/alan/cache.sqlite")
        #expect(alan.sessionURL.path == "/data/servers/127.0.0.1-8080/users/alan/session.lock")

        var elsewhere = alan
        elsewhere.remote = RemoteServer(url: try #require(URL(string: "https://chat.example.org")), password: "p")
        #expect(elsewhere.cacheURL.path == "/data/servers/chat.example.org/users/alan/cache.sqlite")
        #expect(elsewhere.cacheURL != alan.cacheURL)
        #expect(SampleConfiguration(dataFolder: data, userId: "alan").cacheURL.path == "/data/users/alan/cache.sqlite")
    }

    @Test func aFolderNameKeepsOnlySafeCharacters() throws {
        let ipv6 = RemoteServer(url: try #require(URL(string: "http://[::1]:9000/api")), password: "p")
        #expect(ipv6.folderName.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" })
        #expect(ipv6.folderName.hasSuffix("-9000"))
        #expect(!ipv6.folderName.contains("/"))
    }
}
