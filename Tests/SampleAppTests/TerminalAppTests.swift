import LiveData
import SampleApp
@testable import SampleTerminal
import Testing

/// The terminal app against the embedded server: commands reach the right screen or the session,
/// frames come from the view models' state, and screens' lifecycles follow the navigation.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct TerminalAppTests {
    private func started() async throws -> (TerminalApp, RecordingScreen, EnvironmentFixture) {
        let fixture = try await EnvironmentFixture.make()
        let screen = RecordingScreen()
        let app = TerminalApp(environment: fixture.environment, output: screen, echoesCommands: true)
        await app.start()
        return (app, screen, fixture)
    }

    private func body(_ app: TerminalApp) -> [String] {
        app.render()
        return app.lastFrame?.body ?? []
    }

    @Test func startsOnTheChannelListWithFreshRows() async throws {
        let (app, _, _) = try await started()
        #expect(app.navigator.top is ChannelListView)
        #expect(await app.waitUntil { $0.navigator.top?.status.source == .fresh })
        let lines = body(app)
        #expect(lines.count == 4)
        #expect(lines.contains { $0.contains("General") })
        #expect(app.lastFrame?.status.contains("● online") == true)
    }

    @Test func opensAChatByNumberOrIdAndSendsAMessage() async throws {
        let (app, _, _) = try await started()
        let general = try #require(body(app).firstIndex { $0.contains("General") })
        #expect(await app.execute(.open("\(general + 1)")))
        let chat = try #require(app.navigator.top as? ChatView)
        #expect(chat.viewModel.channelId == "general")
        #expect(chat.status.source == .fresh)
        #expect(await app.execute(.say("Hello, terminal")))
        #expect(await app.waitUntil { app in
            app.lastFrame?.body.contains { $0.contains("ada: Hello, terminal") && !$0.contains("sending") } == true
        })
        #expect(await app.execute(.back))
        #expect(chat.lifecycle.state == .destroyed)
        #expect(app.navigator.top is ChannelListView)
    }

    @Test func aHiddenChatPausesAndCatchesUpWithOneDelivery() async throws {
        let (app, _, fixture) = try await started()
        _ = await app.execute(.open("general"))
        let chat = try #require(app.navigator.top as? ChatView)
        _ = await app.execute(.feed(nil))
        #expect(chat.lifecycle.state == .created)
        let before = chat.deliveryCount
        try await fixture.say("first while hidden", in: "general")
        try await fixture.say("second while hidden", in: "general")
        try await fixture.settle()
        #expect(chat.deliveryCount == before)

        _ = await app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(chat.deliveryCount > before)
        #expect(body(app).contains { $0.contains("second while hidden") })
    }

    @Test func sessionCommandsGoOfflineAndBackAndCatchUp() async throws {
        let (app, _, _) = try await started()
        _ = await app.execute(.open("general"))
        _ = await app.execute(.offline)
        #expect(await app.waitUntil { $0.lastFrame?.status.contains("○ offline") == true })
        _ = await app.execute(.reply("Sent while you were offline"))
        #expect(!body(app).contains { $0.contains("Sent while you were offline") })
        _ = await app.execute(.online)
        #expect(await app.waitUntil { $0.notice.contains("caught up: 1 message change") })
        #expect(body(app).contains { $0.contains("alan: Sent while you were offline") })
    }

    @Test func aHiddenChatsCatchUpIsNoticedOnceWhenItComesBack() async throws {
        let (app, _, fixture) = try await started()
        _ = await app.execute(.open("general"))
        let chat = try #require(app.navigator.top as? ChatView)
        _ = await app.execute(.feed(nil))
        try await fixture.goOffline()
        try await fixture.say("said while you were away", in: "general")
        let messages = chat.viewModel.messages.record()
        try await fixture.goOnline()
        _ = try await messages.value { $0.contains { $0.text == "said while you were away" } }
        try await fixture.settle()
        #expect(!app.notice.contains("caught up"), "the chat is hidden")

        _ = await app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(app.notice == "caught up: 1 message change from the change log")
        _ = await app.execute(.unknown("/wave"))
        _ = await app.execute(.feed(nil))
        _ = await app.execute(.channels)
        #expect(app.navigator.top === chat)
        #expect(app.notice.contains("unknown command /wave"), "the catch-up is not told again")
    }

    @Test func commandsThatDoNotFitTheScreenSaySo() async throws {
        let (app, _, _) = try await started()
        _ = await app.execute(.reply(nil))
        #expect(app.notice.contains("open a chat first"))
        _ = await app.execute(.back)
        #expect(app.notice.contains("nothing to go back to"))
        _ = await app.execute(.unknown("/dance"))
        #expect(app.notice.contains("unknown command /dance"))
        _ = await app.execute(.react("like"))
        #expect(app.notice.contains("open a post"))
        _ = await app.execute(.open("99"))
        #expect(app.notice.contains("there is no channel 99"))
        _ = await app.execute(.help)
        #expect(app.navigator.top is HelpView)
        app.render()
        #expect(app.lastFrame?.title == "Help")
        #expect(await app.execute(.quit) == false)
    }

    @Test func theDemoTourPlaysToTheEnd() async throws {
        let (app, screen, _) = try await started()
        #expect(await app.play(DemoStep.tour, pause: .zero))
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
