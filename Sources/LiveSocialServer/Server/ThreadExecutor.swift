import Foundation

/// A serial executor with a thread of its own, for work that blocks: a ``ServerStore``'s
/// ``ServerStore/executor``. The embedded server's SQLite file waits there for its locks and its
/// disk, and the PostgreSQL store for the database's answers, so that no thread of Swift's
/// cooperative pool or of an event loop ever blocks.
///
/// Jobs and blocks run one at a time, in the order enqueued, until ``stop()``.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: `items` and `stopped` are read and written under `condition`'s lock only.
    private enum Item {
        case job(UnownedJob)
        case block(@Sendable () -> Void)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    private var stopped = false
    private var thread: Thread?

    /// Starts the thread.
    ///
    /// - Parameter name: the thread's name, as debuggers and `top -H` show it.
    public init(name: String) {
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Whether the calling code runs on this executor's thread.
    public var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return Thread.current == thread
    }

    /// Runs `job` on the thread, after what was enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        add(.job(UnownedJob(job)))
    }

    /// Runs `block` on the thread, after what was enqueued before it.
    public func run(_ block: @escaping @Sendable () -> Void) {
        add(.block(block))
    }

    /// Runs `body` on the thread and returns its result to the awaiting task.
    public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            run { continuation.resume(with: Result(catching: body)) }
        }
    }

    /// Lets the thread end once what is enqueued has run; later work is never run.
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func add(_ item: Item) {
        condition.lock()
        items.append(item)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while head == items.count && !stopped { condition.wait() }
            if head == items.count {
                condition.unlock()
                return
            }
            let item = items[head]
            head += 1
            if head > 1024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            condition.unlock()
            switch item {
            case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
            case .block(let block): block()
            }
        }
    }
}
