import LiveRepository

/// Users: live profiles, and updates to the signed-in user's own.
///
/// Get it from ``SocialClient/users``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct UserRepository {
    let client: SocialClient

    /// The user with `id`, live: cached first, then fresh from the server.
    public func get(id: String) -> LiveObject<User> { client.liveObject(User.self, id: id) }

    /// The signed-in user, live.
    public func me() -> LiveObject<User> { get(id: client.userId) }

    /// Changes the signed-in user's profile; nil leaves a field as it is. The cache shows the
    /// change at once, then the server's copy; if the server refuses, the server's copy stays
    /// and the error is thrown.
    @discardableResult
    public func updateProfile(displayName: String? = nil, about: String? = nil, avatarURL: String? = nil) async throws -> User? {
        let id = client.userId
        var local = try await client.store.read { try User.read(id: id, from: $0) }
        if let displayName { local?.displayName = displayName }
        if let about { local?.about = about }
        if let avatarURL { local?.avatarURL = avatarURL }
        local?.updatedAt = client.now()
        let result = try await client.mutate(
            .updateUser(displayName: displayName, about: about, avatarURL: avatarURL), local: local)
        return result.first(User.self)
    }
}
