import LiveData
import SampleTerminal
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigatorTests {
    @Test func aTabsRootIsMadeOnceAndResumed() {
        let navigator = Navigator()
        var made = 0
        let make = { () -> ScreenView in
            made += 1
            return TestScreenView("root")
        }
        navigator.select(.channels, makeRoot: make)
        navigator.select(.channels, makeRoot: make)
        #expect(made == 1)
        #expect(navigator.top?.lifecycle.state == .resumed)
        #expect((navigator.top as? TestScreenView)?.received == ["first"])
    }

    @Test func aCoveredScreenStopsAndCatchesUpWithOneDeliveryOfTheLatestValue() {
        let navigator = Navigator()
        let root = TestScreenView("root")
        navigator.select(.channels) { root }
        let chat = TestScreenView("chat")
        navigator.push(chat)
        #expect(root.lifecycle.state == .created)
        #expect(chat.lifecycle.state == .resumed)

        root.data.data = "second"
        root.data.data = "third"
        #expect(root.received == ["first"])

        #expect(navigator.pop())
        #expect(root.lifecycle.state == .resumed)
        #expect(root.received == ["first", "third"])
    }

    @Test func aCoveredScreensNoticeComesOnceWhenItShowsAgain() {
        let navigator = Navigator()
        var shown: [String] = []
        navigator.onNotice = { shown.append($0) }
        let root = TestScreenView("root")
        navigator.select(.channels) { root }
        root.notices.send("on screen")
        #expect(shown == ["on screen"])

        navigator.push(TestScreenView("chat"))
        root.notices.send("while covered")
        #expect(shown == ["on screen"])
        #expect(navigator.pop())
        #expect(shown == ["on screen", "while covered"])

        navigator.select(.feed) { TestScreenView("feed") }
        navigator.select(.channels) { TestScreenView("unused") }
        #expect(root.lifecycle.state == .resumed)
        #expect(shown == ["on screen", "while covered"], "a screen that comes back is not told again")
    }

    @Test func leavingAScreenClosesAndDestroysItAndReleasesItsObservers() {
        let navigator = Navigator()
        navigator.select(.channels) { TestScreenView("root") }
        let data = MutableLiveData(data: "first")
        weak var left: TestScreenView?
        do {
            let chat = TestScreenView("chat", data: data)
            left = chat
            navigator.push(chat)
            #expect(data.hasObservers)
            #expect(navigator.pop())
            #expect(chat.closeCount == 1)
            #expect(chat.lifecycle.state == .destroyed)
        }
        #expect(!data.hasObservers)
        #expect(left == nil)
        data.data = "after"
    }

    @Test func theRootOfATabIsNeverPopped() {
        let navigator = Navigator()
        let root = TestScreenView("root")
        navigator.select(.feed) { root }
        #expect(!navigator.pop())
        #expect(root.lifecycle.state == .resumed)
        #expect(root.closeCount == 0)
    }

    @Test func switchingTabsStopsTheOtherTabsTopAndKeepsItsStack() {
        let navigator = Navigator()
        navigator.select(.channels) { TestScreenView("channels") }
        let chat = TestScreenView("chat")
        navigator.push(chat)
        let feed = TestScreenView("feed")
        navigator.select(.feed) { feed }
        #expect(chat.lifecycle.state == .created)
        #expect(feed.lifecycle.state == .resumed)
        chat.data.data = "while away"

        navigator.select(.channels) { TestScreenView("unused") }
        #expect(navigator.top === chat)
        #expect(chat.lifecycle.state == .resumed)
        #expect(feed.lifecycle.state == .created)
        #expect(chat.received == ["first", "while away"])
    }

    @Test func theHelpCoversTheScreenAndBackClosesIt() {
        let navigator = Navigator()
        let root = TestScreenView("root")
        navigator.select(.channels) { root }
        navigator.toggleHelp()
        #expect(navigator.top is HelpView)
        #expect(root.lifecycle.state == .created)
        #expect(navigator.pop())
        #expect(navigator.top === root)
        #expect(root.lifecycle.state == .resumed)
        navigator.toggleHelp()
        let help = navigator.top
        navigator.toggleHelp()
        #expect(help?.lifecycle.state == .destroyed)
        #expect(navigator.top === root)
    }

    @Test func closeAllDestroysEveryView() {
        let navigator = Navigator()
        let channels = TestScreenView("channels")
        let feed = TestScreenView("feed")
        navigator.select(.channels) { channels }
        navigator.select(.feed) { feed }
        navigator.closeAll()
        #expect(navigator.views.isEmpty)
        #expect(navigator.top == nil)
        #expect(channels.lifecycle.state == .destroyed && feed.lifecycle.state == .destroyed)
        #expect(channels.closeCount == 1 && feed.closeCount == 1)
    }

    @Test func everyViewReportsItsChangesThroughTheNavigator() {
        let navigator = Navigator()
        var changes = 0
        navigator.onChange = { changes += 1 }
        let root = TestScreenView("root")
        navigator.select(.channels) { root }
        let before = changes
        root.data.data = "changed"
        #expect(changes == before + 1)
    }
}
