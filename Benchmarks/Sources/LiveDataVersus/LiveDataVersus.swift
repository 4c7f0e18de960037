import BenchmarkSupport
import Contenders

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times LiveData against the hand-written floor and OpenCombine's
/// `CurrentValueSubject`, and prints one table with the three side by side.
///
///     swift run -c release LiveDataVersus
///     swift run -c release LiveDataVersus profile churn 1000 LiveData 100   # one case alone, for a profiler
@main
struct LiveDataVersus {
    @MainActor
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "profile" {
            profile(Array(arguments.dropFirst()))
            return
        }
        let runs = arguments.first.flatMap { Int($0) }.map { max(3, $0) } ?? 11
        var report = Report()

        for observers in deliveryObserverCounts {
            report.deliveryNanosecondsPerSet[observers] = measureDelivery(observers: observers, runs: runs)
        }
        for observers in churnObserverCounts {
            report.churnNanosecondsPerPair[observers] = measureChurn(observers: observers, runs: runs)
        }
        if HeapMeasurement.isAvailable {
            for contender in Contender.allCases {
                report.heapBytesPerObserver[contender] =
                    HeapMeasurement.bytesPerObserver(contender, observers: heapObserverCount)
            }
        }

        print(report.table(runs: runs))
        print(report.goals())
    }
}

let deliveryObserverCounts = [1, 10, 1_000]
let churnObserverCounts = [1_000, 100_000]
let heapObserverCount = 100_000
/// Observer calls per timed run of a delivery case.
let callsPerDeliveryRun = 1_000_000
/// A case stops adding rounds once it has three and has taken this long.
let timeBudgetPerCase = Duration.seconds(12)

@MainActor
func measureDelivery(observers: Int, runs: Int) -> [Contender: Double] {
    let scenarios = Dictionary(uniqueKeysWithValues: Contender.allCases.map {
        ($0, DeliveryScenario($0, observers: observers))
    })
    let sets = max(1, callsPerDeliveryRun / observers)
    let nanoseconds = medianNanoseconds(runs: runs) { contender in
        scenarios[contender]!.run(sets: sets)
    }
    for (contender, scenario) in scenarios where !scenario.deliveredAll {
        fatalError("\(contender.title): a value did not reach all \(observers) observers")
    }
    return nanoseconds.mapValues { $0 / Double(sets) }
}

@MainActor
func measureChurn(observers: Int, runs: Int) -> [Contender: Double] {
    let scenarios = Dictionary(uniqueKeysWithValues: Contender.allCases.map {
        ($0, ChurnScenario($0, observers: observers))
    })
    let nanoseconds = medianNanoseconds(runs: runs, prepare: { scenarios[$0]!.prepare() }) { contender in
        scenarios[contender]!.run()
    }
    for (contender, scenario) in scenarios where !scenario.removedAll {
        fatalError("\(contender.title): an observer still received values after its removal")
    }
    return nanoseconds.mapValues { $0 / Double(observers) }
}

/// Times `body` for every contender, in rounds: one round runs each contender
/// once, so that a disturbance of the machine hits them alike. A first round
/// warms up and is not counted; then up to `runs` rounds (at least three,
/// fewer once the case has taken `timeBudgetPerCase`). `prepare` runs before
/// each run, untimed. Returns each contender's median run, in nanoseconds.
@MainActor
func medianNanoseconds(
    runs: Int,
    prepare: (Contender) -> Void = { _ in },
    _ body: (Contender) -> Void
) -> [Contender: Double] {
    let clock = ContinuousClock()
    for contender in Contender.allCases {
        prepare(contender)
        body(contender)
    }
    var samples: [Contender: [Double]] = [:]
    var spent = Duration.zero
    for round in 1 ... runs {
        for contender in Contender.allCases {
            prepare(contender)
            let start = clock.now
            body(contender)
            let elapsed = start.duration(to: clock.now)
            samples[contender, default: []].append(nanoseconds(elapsed))
            spent += elapsed
        }
        if round >= 3, spent > timeBudgetPerCase {
            break
        }
    }
    return samples.mapValues(Statistics.median)
}

func processorCount() -> Int {
    #if canImport(Glibc) || canImport(Darwin)
    return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
    return 0
    #endif
}
