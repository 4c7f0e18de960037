import LiveData
import SampleTerminal

/// A screen over one `MutableLiveData<String>` and one event of notices: records what its
/// observer receives and whether it was closed.
@MainActor
final class TestScreenView: ScreenView {
    let name: String
    let data: MutableLiveData<String>
    let notices = MutableLiveEvent<String>(whenUnobserved: .keep)
    private(set) var received: [String?] = []
    private(set) var closeCount = 0

    init(_ name: String, data: MutableLiveData<String> = MutableLiveData(data: "first")) {
        self.name = name
        self.data = data
        super.init()
        bind(data) { [unowned self] in received.append($0) }
        bindNotices(notices)
    }

    override var title: String { name }
    override func body(width: Int, height: Int) -> [String] { [data.data ?? ""] }
    override func close() { closeCount += 1 }
}

/// An output that keeps every frame and logged line.
@MainActor
final class RecordingScreen: ScreenOutput {
    let size = (width: 80, height: 24)
    private(set) var frames: [Frame] = []
    private(set) var logged: [String] = []
    private(set) var finished = false

    func show(_ frame: Frame) { frames.append(frame) }
    func log(_ line: String) { logged.append(line) }
    func finish() { finished = true }
}
