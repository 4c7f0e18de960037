import TestSupport
@testable import LiveRepository
import Testing

/// The change log's binary form gives back exactly the change it was made from, and refuses
/// anything else.
@Suite struct StoreChangeCodingTests {
    static func equal(_ a: StoreChange, _ b: StoreChange) -> Bool {
        a.keys == b.keys && a.allSatisfy { table, change in
            let other = b[table]!
            return change.rowids == other.rowids && change.ids == other.ids
                && change.isWholeTable == other.isWholeTable && change.isRebuilt == other.isRebuilt
        }
    }

    @Test func aChangeComesBackAsItWas() throws {
        let change: StoreChange = [
            "notes": TableChange(rowids: [1, 2, 900, Int64.max, Int64.min, -5, 0], ids: ["a", "", "é日本😀", "n900"]),
            "folders": TableChange(isWholeTable: true),
            "rebuilt": TableChange(isWholeTable: true, isRebuilt: true),
            "": TableChange(rowids: [7], ids: ["x"]),
        ]
        let decoded = try #require(StoreChangeCoding.decode(StoreChangeCoding.encode(change)))
        #expect(Self.equal(decoded, change))
        #expect(StoreChangeCoding.decode(StoreChangeCoding.encode([:])).map(\.isEmpty) == true)
    }

    @Test func randomChangesComeBackAsTheyWere() throws {
        var random = SeededRandom(seed: 41)
        for _ in 0..<50 {
            var change: StoreChange = [:]
            for table in 0..<random.below(4) {
                var tableChange = TableChange(isWholeTable: random.chance(20), isRebuilt: random.chance(10))
                for _ in 0..<random.below(300) {
                    tableChange.rowids.insert(Int64(random.below(1_000_000)) - 1_000)
                    tableChange.ids.insert("id-\(random.below(100_000))")
                }
                change["t\(table)"] = tableChange
            }
            #expect(Self.equal(try #require(StoreChangeCoding.decode(StoreChangeCoding.encode(change))), change))
        }
    }

    @Test func bytesThatAreNotAChangeAreRefused() {
        let bytes = StoreChangeCoding.encode(["notes": TableChange(rowids: [1, 2, 3], ids: ["a", "b", "c"])])
        #expect(StoreChangeCoding.decode([]) == nil)
        #expect(StoreChangeCoding.decode([2] + bytes.dropFirst()) == nil)  // another format
        for length in 1..<bytes.count {
            #expect(StoreChangeCoding.decode(Array(bytes.prefix(length))) == nil, "cut at \(length)")
        }
        #expect(StoreChangeCoding.decode(bytes + [0]) == nil)
        #expect(StoreChangeCoding.decode([1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]) == nil)
        #expect(StoreChangeCoding.decode(Array("{\"notes\":[]}".utf8)) == nil)
    }
}
