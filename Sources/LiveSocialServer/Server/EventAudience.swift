/// Who may receive a real-time event, and see its record in a change log.
///
/// ``AudienceResolver`` works it out from the record and the memberships at the time of the
/// change; ``EventHub`` delivers an event to the streams of the users it admits only.
enum EventAudience: Equatable {
    /// Every signed-in user.
    case everyone
    /// These users only.
    case only(Set<String>)

    /// Whether `userId` may receive the event.
    func admits(_ userId: String) -> Bool {
        switch self {
        case .everyone: true
        case .only(let users): users.contains(userId)
        }
    }
}
