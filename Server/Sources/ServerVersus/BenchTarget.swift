/// A server under measure: the real one (``LiveTarget``) or the floor (``FloorTarget``).
///
/// Its methods are called from plain threads; each sender thread keeps its own connection.
protocol BenchTarget: Sendable {
    /// The name in the table.
    var name: String { get }
    /// The loopback port it listens on (the first instance's, with several).
    var port: Int { get }
    /// The port event stream number `index` connects to (instances share the streams).
    func streamPort(index: Int) -> Int
    /// The port sender number `sender` connects to (instances share the senders).
    func senderPort(sender: Int) -> Int
    /// The HTTP request head that opens event stream number `index`.
    func streamRequest(index: Int) -> [UInt8]
    /// Makes send number `number` through `connection`, as sender number `sender`, and checks
    /// its answer.
    func send(_ number: Int, sender: Int, over connection: HTTPConnection) throws
}

extension BenchTarget {
    func streamPort(index: Int) -> Int { port }
    func senderPort(sender: Int) -> Int { port }
}
