import Foundation
import SampleApp
import Testing

/// Where each file lives: the server's database at the top of the data folder, the rest in the user's folder.
@Suite
struct SampleConfigurationTests {
    @Test func theServerIsSharedAndEverythingElseIsTheUsers() {
        let data = URL(fileURLWithPath: "/data", isDirectory: true)
        let alan = SampleConfiguration(dataFolder: data, userId: "alan")
        #expect(alan.serverURL.path == "/data/server.sqlite")
        #expect(alan.userFolder.path == "/data/users/alan")
        #expect(alan.cacheURL.path == "/data/users/alan/cache.sqlite")
        #expect(alan.readMarkersURL.path == "/data/users/alan/read-markers.json")
        #expect(alan.sessionURL.path == "/data/users/alan/session.lock")
        #expect(SampleConfiguration.userFolder(of: "ada", in: data).path == "/data/users/ada")
        let ada = SampleConfiguration(dataFolder: data)
        #expect(ada.userId == "ada")
        #expect(ada.serverURL == alan.serverURL)
        #expect(ada.cacheURL != alan.cacheURL)
    }
}
