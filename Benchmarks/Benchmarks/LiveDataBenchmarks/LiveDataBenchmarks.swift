import Benchmark
import Contenders

// The scenarios of LiveDataVersus under ordo-one/benchmark (`swift package benchmark`).
//
// The benchmark runner calls these closures off the main thread, and LiveData
// lives on the main actor: each iteration hops to the main actor once, and the
// measurement starts and stops inside, so the hop is not measured.
let benchmarks: @Sendable () -> Void = {
    let delivery = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo, // 1,000 sets per iteration: results are per set
        maxDuration: .seconds(1)
    )
    for observers in [1, 10, 1_000] {
        for contender in Contender.allCases {
            let scenario = OnMainActor { DeliveryScenario(contender, observers: observers) }
            Benchmark("Set+deliver \(observers) observers \(contender.tag)", configuration: delivery) { benchmark in
                let measured = Measured(benchmark)
                await MainActor.run {
                    let deliveries = scenario.value
                    let sets = measured.benchmark.scaledIterations.count
                    measured.benchmark.startMeasurement()
                    deliveries.run(sets: sets)
                    measured.benchmark.stopMeasurement()
                }
            }
        }
    }

    let churnOfThousand = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo, // 1,000 observers per iteration: results are per pair
        maxDuration: .seconds(1)
    )
    let churnOfHundredThousand = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .one, // results are per 100,000 pairs
        maxDuration: .seconds(2),
        maxIterations: 50
    )
    for (observers, configuration) in [(1_000, churnOfThousand), (100_000, churnOfHundredThousand)] {
        for contender in Contender.allCases {
            let scenario = OnMainActor { ChurnScenario(contender, observers: observers) }
            Benchmark("Register+remove \(observers) observers \(contender.tag)", configuration: configuration) { benchmark in
                let measured = Measured(benchmark)
                await MainActor.run {
                    let churn = scenario.value
                    churn.prepare()
                    measured.benchmark.startMeasurement()
                    churn.run()
                    measured.benchmark.stopMeasurement()
                }
            }
        }
    }
}

/// A scenario built on the main actor the first time an iteration needs it,
/// then kept for the following iterations.
@MainActor
final class OnMainActor<Value> {
    private let make: @MainActor () -> Value
    private var made: Value?

    nonisolated init(_ make: @escaping @MainActor () -> Value) {
        self.make = make
    }

    var value: Value {
        if let made {
            return made
        }
        let value = make()
        made = value
        return value
    }
}

/// Carries the runner's `Benchmark` into the main actor. The runner thread
/// waits for the iteration to finish, so only one thread uses it at a time.
struct Measured: @unchecked Sendable {
    let benchmark: Benchmark

    init(_ benchmark: Benchmark) {
        self.benchmark = benchmark
    }
}
