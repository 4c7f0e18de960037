import Foundation

extension PostgresInstances {
    /// ada and alan, signed in, each through a failing-over ``FaultProxy`` of their own (ada's
    /// tries the first instance first, alan's the second) that holds mutation answers 30 ms, so
    /// that kills land while sends are under way; `onMutation` hears each proxied mutation
    /// request, with the index of its user. Stop the proxies when done.
    func chatters(
        onMutation: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> (ada: NetworkChatter, alan: NetworkChatter, proxies: [FaultProxy]) {
        let passwords = try passwords()
        let proxies = try [ports, ports.reversed()].enumerated().map { index, ports in
            let proxy = try FaultProxy(upstreamPorts: ports)
            proxy.setRule { trigger in
                guard case .request(let line, _) = trigger, line.hasPrefix("POST /v1/mutations") else { return nil }
                onMutation(index)
                return FaultScript(toClient: [.delay(milliseconds: 30)])
            }
            return proxy
        }
        do {
            let clients = folder.appendingPathComponent("clients")
            // Sign-ins hash passwords at the real cost in a debug build: 3 s is too short on a busy machine.
            let configuration = NetworkChatter.configuration(requestTimeout: 10)
            let ada = try await NetworkChatter(
                "ada", password: passwords["ada"] ?? "", server: proxies[0].url, folder: clients, configuration: configuration)
            let alan = try await NetworkChatter(
                "alan", password: passwords["alan"] ?? "", server: proxies[1].url, folder: clients, configuration: configuration)
            return (ada, alan, proxies)
        } catch {
            for proxy in proxies { proxy.stop() }
            throw error
        }
    }
}
