@testable import SampleTerminal
import Testing

/// The order a list holds while the user types a row number.
@Suite
struct HeldOrderTests {
    private struct Row: Equatable {
        var id: String
        var text = ""
    }

    private func ids(_ rows: [Row]) -> [String] { rows.map(\.id) }

    private func rows(_ ids: String...) -> [Row] { ids.map { Row(id: $0) } }

    @Test func withNothingHeldTheRowsKeepTheListsOrder() {
        let order = HeldOrder()
        #expect(!order.isHeld)
        #expect(ids(order.arrange(rows("c", "a", "b"), id: \.id)) == ["c", "a", "b"])
    }

    @Test func heldRowsKeepTheirPlacesAndShowTheirNewContent() {
        var order = HeldOrder()
        order.hold(["a", "b", "c"])
        #expect(order.isHeld)
        let moved = [Row(id: "c", text: "new"), Row(id: "a"), Row(id: "b")]
        let arranged = order.arrange(moved, id: \.id)
        #expect(ids(arranged) == ["a", "b", "c"])
        #expect(arranged.last?.text == "new")
    }

    @Test func arrivalsComeAfterTheHeldRowsInTheListsOrderAndDeparturesLeave() {
        var order = HeldOrder()
        order.hold(["a", "b", "c"])
        #expect(ids(order.arrange(rows("e", "c", "d", "a"), id: \.id)) == ["a", "c", "e", "d"])
    }

    @Test func releasedTheRowsTakeTheListsOrderAgain() {
        var order = HeldOrder()
        order.hold(["a", "b"])
        order.release()
        #expect(!order.isHeld)
        #expect(ids(order.arrange(rows("b", "a"), id: \.id)) == ["b", "a"])
    }

    @Test func aRepeatedIdKeepsItsFirstPlace() {
        var order = HeldOrder()
        order.hold(["a", "b", "a"])
        #expect(ids(order.arrange(rows("b", "a"), id: \.id)) == ["a", "b"])
    }
}
