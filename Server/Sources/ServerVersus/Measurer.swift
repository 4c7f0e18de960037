import Foundation

/// Runs the phases against a target, on plain threads: opens the idle streams (memory), sends
/// one at a time (latency), then keeps sends in flight from several senders (throughput).
enum Measurer {
    static func measure(_ target: any BenchTarget, _ settings: RunSettings) throws -> Measurement {
        let clients = settings.clients
        let tally = Tally(clients: clients, pacedSends: settings.pacedSends, capacity: settings.pacedSends + settings.loadCapacity)
        let readers = try StreamReaders(threads: 2, tally: tally)
        let connection = try HTTPConnection(port: target.senderPort(sender: 0))
        Thread.sleep(forTimeInterval: 0.5)

        // Memory: resident bytes before and after the idle streams are open and connected.
        let before = ProcessStats.residentBytes()
        for index in 0..<clients {
            try readers.open(index: index, port: target.streamPort(index: index), request: target.streamRequest(index: index))
        }
        guard tally.wait(seconds: 60, until: { connected, _ in connected >= clients }) else {
            throw BenchError("\(target.name): not every stream connected within 60 s")
        }
        Thread.sleep(forTimeInterval: 1)
        let after = ProcessStats.residentBytes()

        // Latency: one send at a time, each waited for at every client.
        for number in 0..<settings.pacedSends {
            tally.markSent(number)
            try target.send(number, sender: 0, over: connection)
            guard tally.wait(seconds: 20, until: { _, completed in completed > number }) else {
                throw BenchError("\(target.name): send \(number) reached \(tally.clientsReached(number)) of \(clients) streams in 20 s")
            }
        }

        // Throughput: `senders` threads, at most `window` sends in flight, for `loadSeconds`.
        let first = settings.pacedSends
        let next = NumberSource(first: first)
        let start = ProcessStats.nanoseconds()
        let cpuBefore = ProcessStats.cpuSeconds()
        let machineBefore = ProcessStats.machineTicks()
        let deadline = start + UInt64(settings.loadSeconds * 1e9)
        let done = DispatchGroup()
        for sender in 0..<settings.senders {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let connection = try HTTPConnection(port: target.senderPort(sender: sender))
                    while ProcessStats.nanoseconds() < deadline {
                        let number = next.take()
                        guard number < first + settings.loadCapacity else { return }
                        guard tally.wait(seconds: 30, until: { _, completed in completed > number - settings.window }) else {
                            throw BenchError("\(target.name): sends stopped reaching every stream under load")
                        }
                        tally.markSent(number)
                        try target.send(number, sender: sender, over: connection)
                    }
                } catch {
                    next.fail("\(error)")
                }
            }.start()
        }
        done.wait()
        if let failure = next.failure { throw BenchError(failure) }
        let issued = min(next.taken, first + settings.loadCapacity)
        guard tally.wait(seconds: 60, until: { _, completed in completed >= issued }) else {
            throw BenchError("\(target.name): the load phase's sends did not all reach every stream in 60 s")
        }
        let cpu = ProcessStats.cpuSeconds() - cpuBefore
        let machineAfter = ProcessStats.machineTicks()
        let progress = tally.progress
        let loadSends = issued - first
        let seconds = Double(progress.lastCompletion - start) / 1e9
        let latencies = tally.percentiles()
        // The machine's busy share over the same span as `cpu`, and its busy core time per send.
        var machineBusy: (share: Double, milliseconds: Double)?
        if let machineBefore, let machineAfter, machineAfter.total > machineBefore.total {
            let busy = Double(machineAfter.busy - machineBefore.busy)
            machineBusy = (busy / Double(machineAfter.total - machineBefore.total), busy * 1_000 / ProcessStats.ticksPerSecond)
        }
        return Measurement(
            target: target.name, clients: clients,
            pacedP50: latencies.paced.0, pacedP99: latencies.paced.1, pacedSamples: latencies.paced.2,
            loadP50: latencies.loaded.0, loadP99: latencies.loaded.1,
            sendsPerSecond: Double(loadSends) / seconds, loadSends: loadSends,
            cpuMillisecondsPerSend: cpu * 1_000 / Double(max(1, loadSends)),
            machineBusyPercent: machineBusy.map { $0.share * 100 },
            machineMillisecondsPerSend: machineBusy.map { $0.milliseconds / Double(max(1, loadSends)) },
            bytesPerIdleStream: Double(after - before) / Double(clients),
            note: progress.strays > 0 ? "\(progress.strays) arrivals matched no send" : "")
    }
}
