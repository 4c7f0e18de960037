/// The end of a query's order that a ``LiveCollection`` opens at and grows from.
///
/// A collection first shows the page nearest its anchor and grows away from it: with
/// ``start``, ``LiveCollection/nextPage()`` loads more at the end; with ``end``,
/// ``LiveCollection/previousPage()`` loads more at the start. A chat sorted oldest first and
/// anchored at the ``end`` opens on the newest messages, keeps them at the bottom, and pages
/// back into history; a feed sorted newest first and anchored at the ``start`` does the same
/// at the top.
public enum CollectionAnchor: Sendable, Hashable {
    /// Open at the first results of the query's order; page with `nextPage()`.
    case start
    /// Open at the last results of the query's order; page with `previousPage()`.
    case end
}
