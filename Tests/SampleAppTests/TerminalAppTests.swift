import LiveData
import LiveSocialServer
import SampleApp
@testable import SampleTerminal
import Testing

/// The terminal app against the embedded server: commands reach the right screen or the session
/// and return at once, frames come from the view models' state, and screens' lifecycles follow
/// the navigation.
///
/// ``TerminalApp/execute(_:)`` does not wait for the server, so a test waits on what the screen
/// shows (``TerminalApp/waitUntil(timeout:_:)``, a bounded wait on frames). The notice line runs
/// on a manual clock of its own: notices expire only when a test advances it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct TerminalAppTests {
    /// How long a test waits for a frame. The whole suite runs in parallel on two cores, under the
    /// thread sanitizer too, and its tests share the main actor: a test that takes half a second
    /// alone took 37 s in a CI run, and a 15 s wait in it ran out once. The bound only ends a wait
    /// that would never end.
    private static let bound: Duration = .seconds(60)

    private func started(fresh: Bool = true) async throws -> (TerminalApp, RecordingScreen, EnvironmentFixture) {
        let fixture = try await EnvironmentFixture.make()
        let (app, screen) = try await started(fixture, fresh: fresh)
        return (app, screen, fixture)
    }

    private func started(
        _ fixture: EnvironmentFixture, noticeClock: ManualClock = ManualClock(), fresh: Bool = true
    ) async throws -> (TerminalApp, RecordingScreen) {
        let screen = RecordingScreen()
        let app = TerminalApp(
            environment: fixture.environment, output: screen, echoesCommands: true,
            noticeLine: NoticeViewModel(lifetime: .seconds(5), clock: noticeClock))
        app.start()
        if fresh { try await waitUntilFresh(app) }
        return (app, screen)
    }

    private func body(_ app: TerminalApp) -> [String] {
        app.render()
        return app.lastFrame?.body ?? []
    }

    /// Waits until the screen shown has the server's data and is not loading.
    private func waitUntilFresh(_ app: TerminalApp) async throws {
        let fresh = await app.waitUntil(timeout: Self.bound) { app in
            guard let status = app.navigator.top?.status else { return false }
            return status.source == .fresh && !status.isLoading
        }
        try #require(fresh, "the screen did not get the server's data")
    }

    // MARK: Commands return at once

    @Test func startShowsTheChannelListAtOnceAndLoadsItBehind() async throws {
        let fixture = try await EnvironmentFixture.make()
        fixture.server.setLatency(.seconds(3))
        let (app, _) = try await started(fixture, fresh: false)
        let list = try #require(app.navigator.top as? ChannelListView)
        #expect(list.status.isLoading, "start returned before the server answered")
        #expect(app.lastFrame?.status.contains("loading…") == true || body(app) == ["  loading channels…"])
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(3))
        try await waitUntilFresh(app)
        #expect(body(app).contains { $0.contains("General") })
    }

    @Test func commandsThatNeedTheServerReturnBeforeItAnswers() async throws {
        let (app, _, fixture) = try await started()
        #expect(app.execute(.open("general")))
        try await waitUntilFresh(app)
        let chat = try #require(app.navigator.top as? ChatView)
        let texts = ["first", "second", "third"]
        // The server takes three seconds (of a clock that only the test moves) to answer anything.
        fixture.server.setLatency(.seconds(3))
        for text in texts {
            #expect(app.execute(.say(text)), "returned without the server")
        }
        let pending = await app.waitUntil(timeout: Self.bound) { app in
            texts.allSatisfy { text in app.lastFrame?.body.contains { $0.hasSuffix("ada: \(text)  (sending)") } == true }
        }
        #expect(pending, "every message shows as pending while the server has answered none")
        #expect(try await fixture.serverMessages("general").contains { texts.contains($0.text) } == false)

        // Paging back: `/more` scrolls through the rows loaded, then loads a page, behind.
        for _ in 0..<5 where !chat.status.isLoading {
            #expect(app.execute(.more))
        }
        #expect(chat.status.isLoading, "the page of older messages loads behind")

        // Navigation is instant too: the feed shows, loading, while the server holds everything.
        #expect(app.execute(.feed(nil)))
        #expect(app.navigator.top is FeedView)
        #expect(app.navigator.top?.status.isLoading == true)

        // The first message and the page are with the server; the feed asks after the latency is gone.
        await fixture.clock.waitForSleepers(2)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(3))
        try await waitUntilFresh(app)
        _ = app.execute(.channels)
        #expect(app.navigator.top === chat)
        _ = try await chat.viewModel.messages.record().value { rows in
            texts.allSatisfy { text in rows.contains { $0.text == text && $0.state == .sent } }
        }
        let stored = try await fixture.serverMessages("general").map(\.text).filter { texts.contains($0) }
        #expect(stored == texts, "they reach the server in the order typed")
        // A request that read the latency of three seconds just before it went to zero may begin
        // its sleep after the clock moved: each look moves the clock past such a sleeper.
        let clock = fixture.clock
        let settled = await app.waitUntil(timeout: Self.bound) { app in
            if clock.sleeperCount > 0 { clock.advance(by: .seconds(3)) }
            return !(app.navigator.top?.status.isLoading ?? true)
        }
        #expect(settled, "the page came in")
    }

    @Test func moreLoadsOlderMessagesBehindAndScrollsUpOnceTheyAreIn() async throws {
        let (app, _, fixture) = try await started()
        try await fixture.others.flood(50, in: "random")
        _ = app.execute(.open("random"))
        try await waitUntilFresh(app)
        let chat = try #require(app.navigator.top as? ChatView)
        let loaded = try #require(chat.viewModel.messages.data)
        fixture.server.setLatency(.seconds(1))
        // `/more` scrolls through the rows loaded; at their top, it asks for a page and returns.
        for _ in 0..<5 where !chat.status.isLoading {
            _ = app.execute(.more)
        }
        #expect(chat.status.isLoading)
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        try await waitUntilFresh(app)

        let rows = try #require(chat.viewModel.messages.data)
        let older = rows.filter { row in !loaded.contains { $0.id == row.id } }
        #expect(older.count == 20, "a page of older messages came in")
        let lines = body(app)
        let shown = older.filter { row in
            lines.contains { $0.contains("\(TextLayout.clock(row.time)) \(row.sender): \(row.text)") }
        }
        #expect(shown.count > lines.count / 2, "the chat scrolled up to the page once it came in:\n\(lines.joined(separator: "\n"))")
    }

    // MARK: Notices

    @Test func aNoticeExpiresAndAScreensErrorStaysUntilItIsGone() async throws {
        let fixture = try await EnvironmentFixture.make()
        let noticeClock = ManualClock()
        let (app, _) = try await started(fixture, noticeClock: noticeClock)
        _ = app.execute(.unknown("/wave"))
        #expect(app.notice.contains("unknown command /wave"))
        app.render()
        #expect(app.lastFrame?.notice.contains("unknown command /wave") == true)
        await noticeClock.waitForSleepers(1)
        noticeClock.advance(by: .seconds(4))
        #expect(app.notice.contains("unknown command /wave"), "not yet: it lives five seconds")
        noticeClock.advance(by: .seconds(1))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.lastFrame?.notice == "" }, "gone after its lifetime")
        #expect(app.notice == "")

        // A failure that lasts: the chat's error shows as a notice, and stays once the notice expires.
        _ = app.execute(.open("general"))
        try await waitUntilFresh(app)
        let chat = try #require(app.navigator.top as? ChatView)
        fixture.server.failRequests([.fetchPage], message: "pages are down")
        // The start cached one message more than it shows: the first page comes from there.
        await chat.viewModel.loadPrevious().value
        await chat.viewModel.loadPrevious().value
        #expect(await app.waitUntil(timeout: Self.bound) { $0.noticeLine.text.data?.contains("pages are down") == true })
        await noticeClock.waitForSleepers(1)
        noticeClock.advance(by: .seconds(5))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.noticeLine.text.data == "" })
        #expect(app.notice.contains("pages are down"), "the chat's error holds, so it shows")
        app.render()
        #expect(app.lastFrame?.notice.contains("pages are down") == true)
        fixture.server.resetFailures()
        await chat.viewModel.loadPrevious().value
        #expect(await app.waitUntil(timeout: Self.bound) { $0.lastFrame?.notice == "" }, "the error is gone with its cause")
    }

    // MARK: Typing

    /// The channel list's rows with `other` moved to the top by a message of alan's there, while
    /// ada types "1" on the list (the keys go through ``TerminalApp/run(_:)``, as in a terminal).
    private func typeOneWhileTheListReorders(
        _ app: TerminalApp, _ fixture: EnvironmentFixture
    ) async throws -> (first: String, other: String, keys: AsyncStream<InputEvent>.Continuation, running: Task<Void, Never>) {
        let list = try #require(app.navigator.top as? ChannelListView)
        let first = try #require(list.viewModel.channelId(at: 0))
        let other = first == "general" ? "random" : "general"
        let (stream, keys) = AsyncStream.makeStream(of: InputEvent.self)
        let running = Task { await app.run(stream) }
        keys.yield(.key(.character("1")))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.navigator.top?.isTyping == true })
        _ = try await fixture.say("\(other) moves to the top", in: other)
        #expect(await app.waitUntil(timeout: Self.bound) { _ in list.viewModel.channelId(at: 0) == other })
        return (first, other, keys, running)
    }

    private func name(of channelId: String, in app: TerminalApp) -> String? {
        (app.navigator.views.first as? ChannelListView)?.viewModel.rows.data?.first { $0.id == channelId }?.name
    }

    @Test func theListHoldsItsOrderWhileARowNumberIsTypedAndOpensTheRowRead() async throws {
        let (app, _, fixture) = try await started()
        let (first, other, keys, running) = try await typeOneWhileTheListReorders(app, fixture)
        let (firstName, otherName) = try (#require(name(of: first, in: app)), #require(name(of: other, in: app)))
        #expect(body(app).first?.contains(firstName) == true, "row 1 is still the one on screen when typing began")
        #expect(body(app).contains { $0.contains(otherName) && $0.contains("moves to the top") }, "its content is new")
        keys.yield(.key(.enter))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.navigator.top is ChatView })
        #expect((app.navigator.top as? ChatView)?.viewModel.channelId == first)
        keys.yield(.end)
        await running.value
        #expect(app.navigator.views.first?.isTyping == false, "the list let its order go once the command ran")
    }

    @Test func anArrowWhileARowNumberIsTypedKeepsTheOrderHeld() async throws {
        let (app, _, fixture) = try await started()
        let (first, _, keys, running) = try await typeOneWhileTheListReorders(app, fixture)
        keys.yield(.key(.down))
        keys.yield(.key(.enter))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.navigator.top is ChatView })
        #expect((app.navigator.top as? ChatView)?.viewModel.channelId == first)
        keys.yield(.end)
        await running.value
    }

    @Test func theListTakesItsOwnOrderAgainWhenTheLineIsEmptied() async throws {
        let (app, _, fixture) = try await started()
        let (_, other, keys, running) = try await typeOneWhileTheListReorders(app, fixture)
        let otherName = try #require(name(of: other, in: app))
        #expect(body(app).first?.contains(otherName) == false)
        keys.yield(.key(.backspace))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.navigator.top?.isTyping == false })
        #expect(body(app).first?.contains(otherName) == true)
        keys.yield(.end)
        await running.value
    }

    // MARK: Screens

    @Test func startsOnTheChannelListWithFreshRows() async throws {
        let (app, _, _) = try await started()
        #expect(app.navigator.top is ChannelListView)
        let lines = body(app)
        #expect(lines.count == 4)
        #expect(lines.contains { $0.contains("General") })
        #expect(app.lastFrame?.status.contains("● online") == true)
    }

    @Test func opensAChatByNumberOrIdAndSendsAMessage() async throws {
        let (app, _, _) = try await started()
        let general = try #require(body(app).firstIndex { $0.contains("General") })
        #expect(app.execute(.open("\(general + 1)")))
        let chat = try #require(app.navigator.top as? ChatView)
        #expect(chat.viewModel.channelId == "general")
        try await waitUntilFresh(app)
        #expect(app.execute(.say("Hello, terminal")))
        #expect(await app.waitUntil(timeout: Self.bound) { app in
            app.lastFrame?.body.contains { $0.contains("ada: Hello, terminal") && !$0.contains("sending") } == true
        })
        #expect(app.execute(.back))
        #expect(chat.lifecycle.state == .destroyed)
        #expect(app.navigator.top is ChannelListView)
    }

    @Test func aHiddenChatPausesAndCatchesUpWithOneDelivery() async throws {
        let (app, _, fixture) = try await started()
        _ = app.execute(.open("general"))
        try await waitUntilFresh(app)
        let chat = try #require(app.navigator.top as? ChatView)
        _ = app.execute(.feed(nil))
        #expect(chat.lifecycle.state == .created)
        let before = chat.deliveryCount
        try await fixture.say("first while hidden", in: "general")
        try await fixture.say("second while hidden", in: "general")
        try await fixture.settle()
        #expect(chat.deliveryCount == before)

        _ = app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(chat.deliveryCount > before)
        #expect(body(app).contains { $0.contains("second while hidden") })
    }

    @Test func sessionCommandsGoOfflineAndBackAndCatchUp() async throws {
        let (app, _, _) = try await started()
        _ = app.execute(.open("general"))
        try await waitUntilFresh(app)
        _ = app.execute(.offline)
        #expect(await app.waitUntil(timeout: Self.bound) { $0.lastFrame?.status.contains("○ offline") == true })
        _ = app.execute(.reply("Sent while you were offline"))
        #expect(await app.waitUntil(timeout: Self.bound) { $0.notice.contains("replied in #general") })
        #expect(!body(app).contains { $0.contains("Sent while you were offline") })
        _ = app.execute(.online)
        #expect(await app.waitUntil(timeout: Self.bound) { $0.notice.contains("caught up: 1 message change") })
        #expect(body(app).contains { $0.contains("alan: Sent while you were offline") })
    }

    @Test func aHiddenChatsCatchUpIsNoticedOnceWhenItComesBack() async throws {
        let (app, _, fixture) = try await started()
        _ = app.execute(.open("general"))
        try await waitUntilFresh(app)
        let chat = try #require(app.navigator.top as? ChatView)
        _ = app.execute(.feed(nil))
        try await fixture.goOffline()
        try await fixture.say("said while you were away", in: "general")
        let messages = chat.viewModel.messages.record()
        try await fixture.goOnline()
        _ = try await messages.value { $0.contains { $0.text == "said while you were away" } }
        try await fixture.settle()
        #expect(!app.notice.contains("caught up"), "the chat is hidden")

        _ = app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(app.notice == "caught up: 1 message change from the change log")
        _ = app.execute(.unknown("/wave"))
        _ = app.execute(.feed(nil))
        _ = app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(app.notice.contains("unknown command /wave"), "the catch-up is not told again")
    }

    @Test func commandsThatDoNotFitTheScreenSaySo() async throws {
        let (app, _, _) = try await started()
        _ = app.execute(.reply(nil))
        #expect(app.notice.contains("open a chat first"))
        _ = app.execute(.back)
        #expect(app.notice.contains("nothing to go back to"))
        _ = app.execute(.unknown("/dance"))
        #expect(app.notice.contains("unknown command /dance"))
        _ = app.execute(.react("like"))
        #expect(app.notice.contains("open a post"))
        _ = app.execute(.open("99"))
        #expect(app.notice.contains("there is no channel 99"))
        _ = app.execute(.help)
        #expect(app.navigator.top is HelpView)
        app.render()
        #expect(app.lastFrame?.title == "Help")
        #expect(app.execute(.quit) == false)
    }

    @Test func theDemoTourPlaysToTheEnd() async throws {
        let (app, screen, _) = try await started()
        #expect(await app.play(DemoStep.tour, pause: .zero, bound: Self.bound))
        #expect(screen.logged.contains("> /online"))
        #expect(app.navigator.top is HelpView)
        app.shutdown()
        #expect(screen.finished)
        #expect(app.navigator.views.isEmpty)
    }

    @Test func theSessionAndNavigatorOutliveTheAppSafely() async throws {
        var (app, screen, fixture): (TerminalApp?, RecordingScreen, EnvironmentFixture) = try await started()
        let session = try #require(app?.session)
        let navigator = try #require(app?.navigator)
        weak let released = app
        let frames = screen.frames.count
        app = nil
        #expect(released == nil, "nothing but its owner keeps the app")
        session.goOffline()
        try await fixture.waitForConnection(false)
        navigator.onChange()
        #expect(session.isOnline.data == false)
        #expect(screen.frames.count == frames, "nothing draws for an app that is gone")
    }
}
