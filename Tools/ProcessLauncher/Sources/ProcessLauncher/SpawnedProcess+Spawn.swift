import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Darwin)
private typealias FileActions = posix_spawn_file_actions_t?
private typealias SpawnAttributes = posix_spawnattr_t?
#else
private typealias FileActions = posix_spawn_file_actions_t
private typealias SpawnAttributes = posix_spawnattr_t
#endif

extension SpawnedProcess {
    /// A started child: its pid, and the parent's ends of its pipes (standard input, output, error).
    struct Started {
        var pid: pid_t
        var parentEnds: [FileHandle?]
    }

    /// Starts the child: its streams set up, every other descriptor closed, its signal mask empty
    /// and every signal's action the default (an ignored `SIGPIPE` in the tests is not the child's).
    static func spawn(
        _ executable: String, arguments: [String], environment: [String: String]?, workingDirectory: String?,
        streams: [Stream]
    ) throws -> Started {
        guard streams[0] != .standardOutput, streams[1] != .standardOutput else {
            throw SpawnedProcessError(description: "only standard error can go where standard output goes")
        }
        #if canImport(Darwin)
        var actions: FileActions = nil
        var attributes: SpawnAttributes = nil
        #else
        var actions = FileActions()
        var attributes = SpawnAttributes()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // The child's ends are closed here once it has started; the parent's, on failure.
        var childEnds: [Int32] = []
        var parentEnds: [FileHandle?] = [nil, nil, nil]
        defer { for fd in childEnds { close(fd) } }
        for (target, stream) in streams.enumerated() {
            let fd = Int32(target)
            let childReads = target == 0
            switch stream {
            case .inherit:
                #if canImport(Darwin)
                posix_spawn_file_actions_addinherit_np(&actions, fd)
                #endif
            case .nullDevice:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", childReads ? O_RDONLY : O_WRONLY, 0)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, fd)
            case .pipe:
                let (readEnd, writeEnd) = try makePipe()
                childEnds.append(childReads ? readEnd : writeEnd)
                posix_spawn_file_actions_adddup2(&actions, childReads ? readEnd : writeEnd, fd)
                parentEnds[target] = FileHandle(fileDescriptor: childReads ? writeEnd : readEnd, closeOnDealloc: true)
            }
        }
        #if canImport(Darwin)
        let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        // glibc 2.34: closes every descriptor from 3 on, whatever the highest open one is.
        try glibcAddCloseFrom(&actions, 3)
        #endif
        if let workingDirectory {
            try addChangeDirectory(&actions, workingDirectory)
        }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables: [UnsafeMutablePointer<CChar>?]? = environment.map { environment in
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in variables ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let result = variables.map { posix_spawn(&pid, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            for end in parentEnds { try? end?.close() }
            throw SpawnedProcessError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return Started(pid: pid, parentEnds: parentEnds)
    }

    /// A pipe whose two ends close on `exec`: no other child started meanwhile inherits them.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        #if canImport(Darwin)
        guard pipe(&fds) == 0 else { throw SpawnedProcessError(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #else
        // `pipe2` is declared for `_GNU_SOURCE` only, which Swift's Glibc module does not define.
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        guard try glibcFunction("pipe2", as: Pipe2.self)(&fds, O_CLOEXEC) == 0 else {
            throw SpawnedProcessError(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        #endif
        return (fds[0], fds[1])
    }

    private static func addChangeDirectory(_ actions: inout FileActions, _ path: String) throws {
        #if canImport(Darwin)
        let result = posix_spawn_file_actions_addchdir_np(&actions, path)
        #else
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
        let result = try glibcFunction("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)(&actions, path)
        #endif
        guard result == 0 else {
            throw SpawnedProcessError(description: "cannot set the working directory \(path): \(String(cString: strerror(result)))")
        }
    }

    #if !canImport(Darwin)
    private static func glibcAddCloseFrom(_ actions: inout FileActions, _ lowest: Int32) throws {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        let result = try glibcFunction("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)(&actions, lowest)
        guard result == 0 else {
            throw SpawnedProcessError(description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(result)))")
        }
    }

    /// A glibc function that Swift's Glibc module does not declare (glibc declares the `_np`
    /// ones, and `pipe2`, only for `_GNU_SOURCE`), looked up by name. `dlsym(nil, …)` is
    /// `RTLD_DEFAULT` on glibc: the global scope, libc included.
    private static func glibcFunction<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let symbol = dlsym(nil, name) else {
            throw SpawnedProcessError(description: "this C library has no \(name) (it needs glibc 2.34 or later)")
        }
        return unsafeBitCast(symbol, to: type)
    }
    #endif
}
