extension Task where Success == Void, Failure == Never {
    /// A task with nothing to do: what an action that had nothing to start returns.
    static var finished: Task<Void, Never> { Task {} }
}
