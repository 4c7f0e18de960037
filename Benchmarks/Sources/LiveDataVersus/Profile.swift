import Contenders

/// `LiveDataVersus profile churn|deliver OBSERVERS CONTENDER REPEATS`: runs one case of one
/// contender `REPEATS` times and nothing else, for a profiler (valgrind's callgrind counts
/// instructions the same on a busy machine as on an idle one). The difference between two
/// repeat counts, divided by the pairs or sets added, is the cost of one, free of the setup.
/// CONTENDER is a `Contender.tag`: Floor, LiveData, LiveDataPlainOwner, CurrentValueSubject.
@MainActor
func profile(_ arguments: [String]) {
    guard arguments.count == 4,
        let observers = Int(arguments[1]), observers > 0,
        let contender = Contender.allCases.first(where: { $0.tag == arguments[2] }),
        let repeats = Int(arguments[3]), repeats >= 0
    else {
        fatalError(
            "usage: LiveDataVersus profile churn|deliver OBSERVERS CONTENDER REPEATS "
                + "(CONTENDER: \(Contender.allCases.map(\.tag).joined(separator: ", ")))"
        )
    }
    switch arguments[0] {
    case "churn":
        let scenario = ChurnScenario(contender, observers: observers)
        for _ in 0 ..< repeats {
            scenario.prepare()
            scenario.run()
        }
        scenario.prepare()
        scenario.run()
        guard scenario.removedAll else { fatalError("an observer still received values after its removal") }
    case "deliver":
        let scenario = DeliveryScenario(contender, observers: observers)
        let sets = max(1, callsPerDeliveryRun / observers)
        for _ in 0 ..< repeats {
            scenario.run(sets: sets)
        }
        guard scenario.deliveredAll else { fatalError("a value did not reach every observer") }
    default:
        fatalError("profile: expected churn or deliver, got \(arguments[0])")
    }
    print("profiled \(arguments.joined(separator: " "))")
}
