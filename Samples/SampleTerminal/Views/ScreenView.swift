import LiveData
import SampleApp

/// The base of every screen: a lifecycle owner that observes its view model's `LiveData`, keeps
/// the latest values, and draws them as lines of text.
///
/// The ``Navigator`` drives its lifecycle: `resumed` while it is on screen, `created` (stopped)
/// while another screen covers it, so its observers pause and catch up with one delivery of the
/// latest values when it comes back, and `destroyed` when the user leaves it, which removes its
/// observers and closes its view model. A view holds no repository code: everything it shows
/// comes from its view model.
@MainActor
open class ScreenView: LifecycleOwner {
    /// The view's lifecycle, driven by the navigator.
    public let lifecycle = Lifecycle()
    /// Called whenever something the view shows changed; the app redraws.
    public var onChange: () -> Void = {}
    /// Called with each notice of the view model while the view is on screen; the app shows it.
    public var onNotice: (String) -> Void = { _ in }
    /// How many deliveries the view's observers received, for tests of the lifecycle.
    public private(set) var deliveryCount = 0
    /// The screen's status, from its view model.
    public private(set) var status = ScreenStatus()

    /// Creates a view; subclasses start observing their view model here.
    public init() {
        lifecycle.state = .created
    }

    /// Whether the user is typing on the command line while the screen shows. A list whose rows
    /// open by number holds their order meanwhile (``typingChanged()``), so that the number
    /// typed names the row the user read.
    public private(set) var isTyping = false

    /// The screen's title, shown at the top.
    open var title: String { "" }

    /// The screen's body, at most `height` lines of at most `width` columns.
    open func body(width: Int, height: Int) -> [String] { [] }

    /// Whether the status line shows where the screen's data comes from (local or fresh).
    open var showsDataStatus: Bool { true }

    /// Hints of the screen's own commands, shown in the status line.
    open var hints: String { "" }

    /// Handles a command meant for this screen, at once: a command that needs the server starts
    /// its work through the view model and returns; the screen shows how it goes as the view
    /// model's data changes.
    ///
    /// - Returns: what the app should do next, or nil when the screen does not handle it.
    open func handle(_ command: Command) -> ViewAction? { nil }

    /// Called once when the user leaves the screen for good, before it is destroyed: close the view model.
    open func close() {}

    /// Called by the app when the command line fills (`typing`) or empties, or its command ran.
    public func setTyping(_ typing: Bool) {
        guard typing != isTyping else { return }
        isTyping = typing
        typingChanged()
        onChange()
    }

    /// Called when ``isTyping`` changed: a list that opens rows by number holds or releases its
    /// rows' order.
    open func typingChanged() {}

    /// Observes `data` for as long as this view lives, calling `update` with each value while
    /// the view is on screen, starting with the current value.
    public func bind<Value>(_ data: LiveData<Value>, _ update: @escaping (Value?) -> Void) {
        let observer = data.observe(owner: self) { [unowned self] value in
            deliveryCount += 1
            update(value)
            onChange()
        }
        data.dispatch(initiator: observer)
    }

    /// The id an `/open` argument names: the id on row `key` (counted from 1) when `key` is a
    /// number, else `key` itself; nil for a number with no row.
    ///
    /// - Parameters:
    ///   - key: the argument, a row number or an id.
    ///   - row: the view model's id on a row (counted from 0), if there is one.
    public func id(opening key: String, row: (Int) -> String?) -> String? {
        guard let number = Int(key) else { return key }
        return row(number - 1)
    }

    /// The id an `/open` argument names, a row number counted from 1 among `rows` (as the
    /// screen shows them) or an id; nil for a number with no row.
    public func id<Row: Identifiable>(opening key: String, in rows: [Row]) -> String? where Row.ID == String {
        id(opening: key) { rows.indices.contains($0) ? rows[$0].id : nil }
    }

    /// Observes a view model's status into ``status``.
    public func bindStatus(_ data: LiveData<ScreenStatus>) {
        bind(data) { [unowned self] in status = $0 ?? ScreenStatus() }
    }

    /// Passes a view model's notices to ``onNotice`` while the view is on screen. A notice sent
    /// while the view is hidden comes when it shows again, once; none comes twice.
    public func bindNotices(_ notices: LiveEvent<String>) {
        notices.observe(owner: self) { [unowned self] notice in onNotice(notice) }
    }
}
