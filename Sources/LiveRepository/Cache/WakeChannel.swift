import Dispatch
import Foundation
import LiveData
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wake-up channel of a shared file: a folder beside it (`<file>-wake`) holding one named
/// pipe (FIFO) per process that watches the file.
///
/// A process that watches the file makes its pipe and reads it on a thread of its own, blocked
/// in `poll(2)` on the pipe: the read costs nothing while nobody writes, and a wake-up reaches
/// the process's stores with no hand-off before theirs (through a dispatch source it went
/// through two threads first: libdispatch's event loop, then a worker for the source's queue). A process that committed to the
/// file writes one byte to every other process's pipe (``announce(folder:skipping:)``). The byte
/// carries nothing but "look now": the woken side reads what changed from the file itself (its
/// data version and the change log), so a byte lost or merged with others costs latency, never
/// a change.
///
/// A pipe is made under a temporary name, opened, and only then renamed to `<pid>-<random>.fifo`,
/// so a pipe with its final name always had a reader. A writer opens each pipe once, without
/// blocking, and keeps it open for its later commits (see ``PipeRoster``): a pipe whose reader
/// is gone (its process died without removing it) fails to open with `ENXIO`, or, kept open,
/// fails a write with `EPIPE` (whose `SIGPIPE` is kept from the process), and the writer deletes
/// it. A full pipe (`EAGAIN`) already holds a wake-up. A writer thus never blocks on, nor is
/// stopped by, a reader.
///
/// The reading thread also makes the process's slow check of the file: when the pipe stayed quiet
/// for ``lookInterval``, its `poll(2)` times out and the thread calls `look`. A process that only
/// waits thus has one thread to wake now and then, and no timer (through a dispatch timer, each
/// check woke libdispatch's event loop, then a worker: twice the CPU time, measured on Linux).
///
/// The pipe's descriptors are set in `init`, then used and closed only by the reading thread,
/// which ends once ``close()`` closed `controlWrite` (its other end then reads as closed).
final class WakeChannel: Sendable {
    /// The pipe this process reads.
    let path: String
    /// The write end of the pipe that controls the reading thread: a byte makes it read
    /// ``lookInterval`` again, closing it stops the thread. -1 once closed.
    private let controlWrite: LockedState<Int32>
    /// The quiet time after which the reading thread calls `look`, in milliseconds; -1: never.
    private let lookMilliseconds = LockedState<Int32>(-1)
    /// The reading thread, once it runs; signalled once it ended (its `finished` done).
    private let reader = LockedState<pthread_t?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Makes this process's pipe in the folder beside `file` and starts reading it on a thread
    /// of its own; `wake` runs there after each batch of wake-ups read, and `look` after the pipe
    /// stayed quiet for ``lookInterval``; neither may block for long. Returns nil when the channel
    /// cannot be made (a folder that cannot be written, a file system without named pipes).
    /// `finished` runs last on the thread, once the channel is closed.
    init?(
        file: URL, wake: @escaping @Sendable () -> Void, look: @escaping @Sendable () -> Void,
        finished: @escaping @Sendable () -> Void
    ) {
        let folder = Self.folder(of: file)
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { return nil }
        Self.removeStale(in: folder)
        let name = "\(getpid())-\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF)"
        let temporary = "\(folder)/\(name).new"
        path = "\(folder)/\(name).fifo"
        var stop: [Int32] = [-1, -1]
        guard mkfifo(temporary, 0o600) == 0 else { return nil }
        let readEnd = open(temporary, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        // The process's own write end keeps the pipe from reading as closed (end of file, which
        // would wake the reader at once, again and again) once every writer has closed it.
        let writeEnd = readEnd >= 0 ? open(temporary, O_WRONLY | O_NONBLOCK | O_CLOEXEC) : -1
        guard readEnd >= 0, writeEnd >= 0, pipe(&stop) == 0, rename(temporary, path) == 0 else {
            for descriptor in [readEnd, writeEnd] + stop where descriptor >= 0 { closeDescriptor(descriptor) }
            unlink(temporary)
            return nil
        }
        for descriptor in stop { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // Never blocks the subscriber that changes the interval: a full pipe holds a byte already.
        _ = fcntl(stop[1], F_SETFL, fcntl(stop[1], F_GETFL) | O_NONBLOCK)
        controlWrite = LockedState(stop[1])
        let controlRead = stop[0]
        let (lookMilliseconds, reader, ended) = (self.lookMilliseconds, self.reader, self.ended)
        let thread = Thread {
            reader.withLock { $0 = pthread_self() }
            Self.readLoop(readEnd, controlledBy: controlRead, wake: wake, look: look) {
                lookMilliseconds.withLock { $0 }
            }
            for descriptor in [readEnd, writeEnd, controlRead] { closeDescriptor(descriptor) }
            finished()
            ended.signal()
        }
        thread.name = "LiveRepository.WakeChannel"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// The quiet time after which the reading thread makes the slow check (at least a
    /// millisecond), or nil for none. A new value takes effect at once.
    var lookInterval: Duration? {
        get {
            let milliseconds = lookMilliseconds.withLock { $0 }
            return milliseconds < 0 ? nil : .milliseconds(milliseconds)
        }
        set {
            let milliseconds: Int32 = newValue.map { interval -> Int32 in
                let (seconds, attoseconds) = interval.components
                return Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
            } ?? -1
            let changed = lookMilliseconds.withLock { current in
                defer { current = milliseconds }
                return current != milliseconds
            }
            guard changed else { return }
            // Without SIGPIPE: a reading thread that stopped on an error closed the other end.
            controlWrite.withLock { descriptor in
                if descriptor >= 0 { Self.writeWithoutSignal(descriptor) }
            }
        }
    }

    /// On the reading thread: waits for bytes in the pipe `readEnd`, reads all there are, calls
    /// `wake`, and again; calls `look` whenever it waited `interval()` milliseconds for nothing;
    /// reads `interval()` again when `controlRead` has a byte, and stops when it reads as closed.
    private static func readLoop(
        _ readEnd: Int32, controlledBy controlRead: Int32, wake: @Sendable () -> Void, look: @Sendable () -> Void,
        interval: () -> Int32
    ) {
        var watched = [
            pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: controlRead, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let ready = poll(&watched, 2, interval())
            guard ready >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                look()
                continue
            }
            if watched[1].revents != 0 {
                // A byte: the interval changed. End of file (or an error): stop.
                guard buffer.withUnsafeMutableBytes({ readDescriptor(controlRead, $0.baseAddress, $0.count) }) > 0 else { return }
                if watched[0].revents == 0 { continue }
            }
            guard watched[0].revents & Int16(POLLIN) != 0 else {
                // Never expected (the process holds a write end): stop rather than spin.
                if watched[0].revents != 0 { return }
                continue
            }
            // Every byte waiting is one wake-up, or several merged: one look serves them all.
            while buffer.withUnsafeMutableBytes({ readDescriptor(readEnd, $0.baseAddress, $0.count) }) > 0 {}
            wake()
        }
    }

    /// Deletes the pipe (writers stop finding it at once) and stops reading it; `waiting`,
    /// returns once the reading thread ended (at once when called on that thread).
    func close(waiting: Bool = true) {
        unlink(path)
        let descriptor = controlWrite.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        let onReader = reader.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if waiting, !onReader { ended.wait() }
    }

    /// The folder of the pipes of `file`'s watchers.
    static func folder(of file: URL) -> String {
        folder(ofPath: file.path)
    }

    /// The folder of the pipes of the watchers of the file at `path`.
    static func folder(ofPath path: String) -> String {
        path + "-wake"
    }

    /// The pipes of the folders this process announced commits to, as last listed, open.
    private static let roster = LockedState(PipeRoster())

    /// Wakes every process whose pipe is in `folder`, but the pipe at `skipping` (this process's
    /// own: its stores and servers are woken directly). Deletes the pipes of dead readers. Never
    /// blocks.
    static func announce(folder: String, skipping: String?) {
        roster.withLock { roster in
            for pipe in roster.pipes(in: folder, list: fifoNames(in:), open: openPipe)
            where pipe.path != skipping && !writeWithoutSignal(pipe.descriptor) {
                // No reader left: the process that made it is gone.
                roster.drop(pipe, of: folder)
                unlink(pipe.path)
            }
        }
    }

    /// Opens the pipe at `path` for writing without blocking, or deletes it when no process
    /// reads it (`ENXIO`: the process that made it is gone) and returns nil.
    private static func openPipe(_ path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0, errno == ENXIO { unlink(path) }
        return descriptor >= 0 ? descriptor : nil
    }

    /// Deletes the pipes of `folder` that no process reads (left by processes that died): a pipe
    /// of the final name without a reader, and a pipe left half made (`.new`) by a process that
    /// is gone or made longer ago than ``abandonedAfter`` (a live process renames its own within
    /// microseconds; the age also covers a process of another PID namespace, a container sharing
    /// the folder, whose PID means nothing here). Deleting a pipe that another process is just
    /// making only makes that process poll instead (its rename fails), never loses a change.
    static func removeStale(in folder: String, now: time_t = time(nil)) {
        for name in fifoNames(in: folder) {
            let path = "\(folder)/\(name)"
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { closeDescriptor(descriptor) } else if errno == ENXIO { unlink(path) }
        }
        for name in entries(in: folder) where name.hasSuffix(".new") {
            let path = "\(folder)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else { continue }
            #if canImport(Darwin)
            let madeAt = status.st_mtimespec.tv_sec
            #else
            let madeAt = status.st_mtim.tv_sec
            #endif
            let owner = name.split(separator: "-").first.flatMap { pid_t($0) }
            let ownerIsGone = owner.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? true
            if ownerIsGone || now - madeAt > abandonedAfter { unlink(path) }
        }
    }

    /// Seconds after which a half-made pipe (`.new`) counts as abandoned whoever made it.
    static let abandonedAfter: time_t = 60

    /// The names of the pipes in `folder` (those of the final name; a pipe being made is not one).
    static func fifoNames(in folder: String) -> [String] {
        entries(in: folder).filter { $0.hasSuffix(".fifo") }
    }

    /// The names in `folder`.
    private static func entries(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes one byte to `descriptor`, a pipe opened without blocking, and returns false when
    /// the pipe has no reader left (`EPIPE`). `EAGAIN` (a full pipe, which holds a byte already)
    /// is fine; the `SIGPIPE` that comes with `EPIPE` is kept from the process, whose handling of
    /// it is the app's.
    @discardableResult
    private static func writeWithoutSignal(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 1
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
        return write(descriptor, &byte, 1) >= 0 || errno != EPIPE
        #else
        // Blocked on this thread for the write; a SIGPIPE it raised is taken back before unblocking.
        var pipeSignal = sigset_t()
        var previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let readerGone = write(descriptor, &byte, 1) < 0 && errno == EPIPE
        if readerGone {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var timeout = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &timeout)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return !readerGone
        #endif
    }
}

/// `read(2)`, named apart from ``WakeChannel``'s reading loop.
@inline(__always)
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #elseif canImport(Darwin)
    Darwin.read(descriptor, buffer, count)
    #endif
}

/// `close(2)`, named apart from ``WakeChannel/close()``.
@inline(__always)
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
    _ = Darwin.close(descriptor)
    #endif
}
