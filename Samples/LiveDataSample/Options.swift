import Foundation
import SampleApp

/// The command line of the sample.
struct Options {
    /// A command line that cannot be read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    var dataFolder: String?
    var userId = "ada"
    var demo = false
    var plain = false
    var latency: Duration?
    /// `--activity`: seconds between the other users' actions, 0 for none; nil when not given.
    var activitySeconds: Int?
    var reset = false
    var showsHelp = false
    /// `--server`: a `livedata-server` to sign in to instead of the embedded server.
    var server: URL?
    /// `--password`: the password for `--server`; else `LIVEDATA_PASSWORD`, else a prompt.
    var password: String?

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(of flag: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw Problem(description: "\(flag) needs a value")
            }
            return value
        }
        func number(of flag: String) throws -> Int {
            let text = try value(of: flag)
            guard let number = Int(text), number >= 0 else {
                throw Problem(description: "\(flag) needs a whole number of 0 or more, not \(text)")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--data": dataFolder = try value(of: argument)
            case "--user": userId = try value(of: argument)
            case "--demo": demo = true
            case "--plain": plain = true
            case "--latency": latency = .milliseconds(try number(of: argument))
            case "--activity": activitySeconds = try number(of: argument)
            case "--reset": reset = true
            case "--server":
                let text = try value(of: argument)
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                    throw Problem(description: "--server needs an http:// or https:// address such as http://127.0.0.1:8080, not \(text)")
                }
                server = url
            case "--password": password = try value(of: argument)
            case "--help", "-h": showsHelp = true
            default: throw Problem(description: "unknown option \(argument)")
            }
        }
        if server != nil && demo { throw Problem(description: "--demo plays on the embedded server: leave out --server") }
        if server == nil && password != nil { throw Problem(description: "--password goes with --server") }
    }

    /// The configuration: the interactive defaults, or the demo's (a temporary folder, a quick
    /// server and no background activity, so that the session plays the same every time).
    ///
    /// With `--server`, `password` is the one to sign in with (see ``LiveDataSample``).
    func configuration(password: String? = nil) -> SampleConfiguration {
        let folder: URL
        if demo && dataFolder == nil {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("livedata-demo-\(UUID().uuidString)")
        } else {
            folder = SampleDataFolder.resolve(flag: dataFolder)
        }
        var configuration = SampleConfiguration(dataFolder: folder, userId: userId)
        if demo {
            configuration.latency = .milliseconds(100)
            configuration.activityInterval = nil
        }
        if let latency { configuration.latency = latency }
        if let activitySeconds { configuration.activityInterval = activitySeconds == 0 ? nil : .seconds(activitySeconds) }
        if let server { configuration.remote = RemoteServer(url: server, password: password ?? self.password ?? "") }
        return configuration
    }
}
