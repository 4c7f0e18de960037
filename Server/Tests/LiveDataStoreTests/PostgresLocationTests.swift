import LiveDataPostgres
import Testing

@Suite("PostgresLocation")
struct PostgresLocationTests {
    @Test func readsEveryPartOfTheURL() throws {
        let location = try PostgresLocation(url: "postgres://ada:secret@db.local:6543/chat", environment: [:])
        #expect(location == PostgresLocation(host: "db.local", port: 6543, username: "ada", password: "secret", database: "chat"))
    }

    @Test func takesThePasswordFromPGPASSWORDWhenTheURLHasNone() throws {
        let location = try PostgresLocation(url: "postgresql://ada@127.0.0.1/chat", environment: ["PGPASSWORD": "pw"])
        #expect(location.password == "pw")
        #expect(location.port == 5432)
    }

    @Test(arguments: ["http://ada@h/db", "postgres://h/db", "postgres://ada@h", "postgres://ada@h:0/db", "not a url"])
    func refusesAnIncompleteURL(url: String) {
        #expect(throws: PostgresStoreError.self) { try PostgresLocation(url: url, environment: [:]) }
    }
}
