/// The things compared, side by side.
public enum Contender: CaseIterable, Sendable {
    /// The hand-written floor: a final class holding the value and an array of closures.
    case floor
    /// LiveData, observers registered with `observe(owner:)` on a resumed `LifecycleOwner`.
    case liveData
    /// LiveData, observers registered with `observe(owner:)` on a plain object.
    case liveDataPlainOwner
    /// OpenCombine's `CurrentValueSubject`, observers registered with `sink`.
    case currentValueSubject

    public var title: String {
        switch self {
        case .floor: "floor"
        case .liveData: "LiveData"
        case .liveDataPlainOwner: "LiveData, plain owner"
        case .currentValueSubject: "CurrentValueSubject"
        }
    }

    /// A short name without spaces, for benchmark names.
    public var tag: String {
        switch self {
        case .floor: "Floor"
        case .liveData: "LiveData"
        case .liveDataPlainOwner: "LiveDataPlainOwner"
        case .currentValueSubject: "CurrentValueSubject"
        }
    }
}
