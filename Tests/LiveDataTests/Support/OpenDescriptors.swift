import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Descriptors on /dev/null opened by a test and closed when the object is released; opened
/// without close-on-exec, so that only a launcher that closes them itself keeps them out of its
/// children. Many open descriptors are what made Foundation's `Process.run()` crash on Linux.
final class OpenDescriptors {
    let descriptors: [Int32]

    /// Opens `count` descriptors; throws when this process cannot have that many.
    init(count: Int) throws {
        var descriptors: [Int32] = []
        for _ in 0..<count {
            let fd = open("/dev/null", O_RDONLY)
            guard fd >= 0 else {
                for fd in descriptors { close(fd) }
                throw OpenDescriptorsError(description: "open /dev/null after \(descriptors.count): errno \(errno)")
            }
            descriptors.append(fd)
        }
        self.descriptors = descriptors
    }

    deinit {
        for fd in descriptors { close(fd) }
    }
}

/// Why ``OpenDescriptors`` could not open its descriptors.
struct OpenDescriptorsError: Error, CustomStringConvertible {
    let description: String
}
