import Contenders
import BenchmarkSupport

/// The numbers of one run, and how they are printed.
struct Report {
    var deliveryNanosecondsPerSet: [Int: [Contender: Double]] = [:]
    var churnNanosecondsPerPair: [Int: [Contender: Double]] = [:]
    var heapBytesPerObserver: [Contender: Double] = [:]

    // MARK: The table

    func table(runs: Int) -> String {
        let columns = Contender.allCases
        var lines: [String] = []
        lines.append(
            "LiveDataVersus: median of up to \(runs) runs each, \(processorCount()) cores. "
                + "LiveData observers are bound to a resumed LifecycleOwner unless \"plain owner\"."
        )
        lines.append("")
        lines.append(
            "| case | " + columns.map(\.title).joined(separator: " | ")
                + " | LiveData ÷ floor | CurrentValueSubject ÷ LiveData |"
        )
        lines.append("|---|" + String(repeating: "---:|", count: columns.count + 2))

        func row(_ title: String, _ values: [Contender: Double], ratios: Bool = true) {
            var cells = [title]
            cells += columns.map { values[$0].map(formatted) ?? "n/a" }
            if ratios {
                cells.append(ratio(values[.liveData], over: values[.floor]))
                cells.append(ratio(values[.currentValueSubject], over: values[.liveData]))
            } else {
                cells += ["", ""]
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }

        for observers in deliveryObserverCounts {
            row(
                "set + deliver, \(count(observers, "observer")): ns per set",
                deliveryNanosecondsPerSet[observers] ?? [:]
            )
        }
        for observers in deliveryObserverCounts {
            row(
                "set + deliver, \(count(observers, "observer")): ns per observer call",
                (deliveryNanosecondsPerSet[observers] ?? [:]).mapValues { $0 / Double(observers) }
            )
        }
        for observers in churnObserverCounts {
            row(
                "register + remove, \(count(observers, "observer")): ns per pair",
                churnNanosecondsPerPair[observers] ?? [:]
            )
        }
        row(
            "register + remove: growth per pair, \(grouped(churnObserverCounts[0])) → "
                + "\(grouped(churnObserverCounts[1])) observers (×)",
            churnGrowth,
            ratios: false
        )
        row(
            "heap per registered observer, \(count(heapObserverCount, "observer")): bytes",
            heapBytesPerObserver
        )
        return lines.joined(separator: "\n")
    }

    /// For each contender, the per-pair churn cost at the largest count over the
    /// cost at the smallest: about 1 when register plus remove is O(1), about
    /// the ratio of the counts (100) when it is O(n).
    var churnGrowth: [Contender: Double] {
        guard let small = churnNanosecondsPerPair[churnObserverCounts[0]],
            let large = churnNanosecondsPerPair[churnObserverCounts[1]]
        else { return [:] }
        var growth: [Contender: Double] = [:]
        for contender in Contender.allCases {
            if let smallCost = small[contender], let largeCost = large[contender], smallCost > 0 {
                growth[contender] = largeCost / smallCost
            }
        }
        return growth
    }

    // MARK: The goals

    /// Most that register plus remove may grow per pair from 1,000 to 100,000
    /// observers and still count as O(1); an O(n) step grows about 100×.
    static let constantTimeGrowthLimit = 3.0

    func goals() -> String {
        var lines = ["", "Goals (LiveData; \"plain owner\" in brackets):"]

        func verdict(_ title: String, _ measure: (Contender) -> (value: Double, note: String, met: Bool)?) {
            var parts: [String] = []
            for contender in [Contender.liveData, .liveDataPlainOwner] {
                guard let result = measure(contender) else {
                    parts.append("not measured")
                    continue
                }
                let text = "\(result.note), \(result.met ? "met" : "NOT met")"
                parts.append(contender == .liveData ? text : "[\(text)]")
            }
            lines.append("- \(title): " + parts.joined(separator: " "))
        }

        /// The worst, over `counts`, of the contender's cost against `other`'s: `mine / theirs`
        /// held to at most `limit`, or with `faster`, `theirs / mine` held to at least `limit`.
        func comparison(
            _ costs: [Int: [Contender: Double]],
            counts: [Int],
            _ contender: Contender,
            against other: Contender,
            faster: Bool = false,
            limit: Double
        ) -> (value: Double, note: String, met: Bool)? {
            worstRatio(counts: counts, largest: !faster) { observers in
                guard let row = costs[observers], let mine = row[contender], let theirs = row[other]
                else { return nil }
                return faster ? theirs / mine : mine / theirs
            }
            .map {
                (
                    value: $0.ratio,
                    note: "worst \(formatted($0.ratio))× (\(count($0.observers, "observer")))",
                    met: faster ? $0.ratio >= limit : $0.ratio <= limit
                )
            }
        }

        verdict("delivery within 1.5× of the floor") {
            comparison(deliveryNanosecondsPerSet, counts: deliveryObserverCounts, $0, against: .floor, limit: 1.5)
        }
        verdict("delivery at least 4× faster than CurrentValueSubject") {
            comparison(
                deliveryNanosecondsPerSet, counts: deliveryObserverCounts, $0,
                against: .currentValueSubject, faster: true, limit: 4
            )
        }
        verdict("register + remove in O(1)") { contender in
            churnGrowth[contender].map {
                (
                    value: $0,
                    note: "\(formatted($0))× per pair from \(grouped(churnObserverCounts[0])) to \(grouped(churnObserverCounts[1])) observers (limit \(formatted(Self.constantTimeGrowthLimit))×)",
                    met: $0 <= Self.constantTimeGrowthLimit
                )
            }
        }
        verdict("register + remove within 2× of the floor") {
            comparison(churnNanosecondsPerPair, counts: churnObserverCounts, $0, against: .floor, limit: 2)
        }
        verdict("at most 150 bytes per registered observer") { contender in
            heapBytesPerObserver[contender].map {
                (value: $0, note: "\(formatted($0)) bytes", met: $0 <= 150)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The largest (or smallest) of `ratio` over the observer counts.
    private func worstRatio(
        counts: [Int] = deliveryObserverCounts,
        largest: Bool = true,
        _ ratio: (Int) -> Double?
    ) -> (ratio: Double, observers: Int)? {
        var worst: (ratio: Double, observers: Int)?
        for observers in counts {
            guard let value = ratio(observers) else { return nil }
            if let current = worst, largest ? value <= current.ratio : value >= current.ratio {
                continue
            }
            worst = (value, observers)
        }
        return worst
    }
}

// MARK: Formatting

func ratio(_ numerator: Double?, over denominator: Double?) -> String {
    guard let numerator, let denominator, denominator > 0 else { return "n/a" }
    return formatted(numerator / denominator) + "×"
}

func count(_ value: Int, _ noun: String) -> String {
    "\(grouped(value)) \(noun)\(value == 1 ? "" : "s")"
}
