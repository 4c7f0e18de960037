/// One community in the feed screen's row of tabs.
public struct CommunityTab: Sendable, Hashable, Identifiable {
    /// The community's id.
    public var id: String
    /// The community's name.
    public var name: String
    /// Whether its feed is the one shown.
    public var isSelected: Bool

    /// Creates a tab.
    public init(id: String, name: String, isSelected: Bool) {
        self.id = id
        self.name = name
        self.isSelected = isSelected
    }
}
