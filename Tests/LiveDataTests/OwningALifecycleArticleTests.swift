import Foundation
import Testing
import LiveData

// MARK: - The article's listings, as written there

// Sources/LiveData/LiveData.docc/OwningALifecycle.md: `theListingsMatchTheArticle` fails when a
// listing there (other than the SwiftUI one) differs from its copy below.

@MainActor
final class ProfileViewModel {
    private let nameData = MutableLiveData<String>()
    private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)

    var name: LiveData<String> { nameData }
    var notices: LiveEvent<String> { noticeEvents }

    func rename(to newName: String) { nameData.data = newName }
    func saveFailed() { noticeEvents.send("could not save the profile") }
}

final class ProfileViewController: UIViewController, LifecycleOwner {
    let lifecycle = Lifecycle()
    private let viewModel: ProfileViewModel
    var banner: String?   // the notice shown; nil once the user closes it

    init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { fatalError("ProfileViewController is not made from a storyboard") }

    override func viewDidLoad() {
        super.viewDidLoad()
        lifecycle.state = .created
        viewModel.name.observe(owner: self) { [unowned self] name in title = name }
        viewModel.name.dispatch()
        viewModel.notices.observe(owner: self) { [unowned self] notice in banner = notice }
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        lifecycle.state = .started
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        lifecycle.state = .resumed
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        lifecycle.state = .started
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        // Destroyed only when it leaves for good; a controller that is covered comes back.
        lifecycle.state = isMovingFromParent || isBeingDismissed ? .destroyed : .created
    }
}

@MainActor
final class ScreenLifecycle: LifecycleOwner {
    let lifecycle = Lifecycle()
    private var isSetUp = false

    /// Registers the screen's observers the first time, then marks the screen as shown.
    func appear(setUp: (ScreenLifecycle) -> Void) {
        if !isSetUp {
            isSetUp = true
            lifecycle.state = .created
            setUp(self)
        }
        lifecycle.state = .resumed
    }

    func disappear() { lifecycle.state = .created }
}

// MARK: - Tests

@MainActor
@Suite struct OwningALifecycleArticleTests {
    @Test func theListingsMatchTheArticle() throws {
        let here = URL(fileURLWithPath: #filePath)
        let article = here.deletingLastPathComponent().appendingPathComponent(
            "../../Sources/LiveData/LiveData.docc/OwningALifecycle.md")
        let listings = try Self.swiftListings(in: String(contentsOf: article, encoding: .utf8))
        let compiled = Self.normalized(try String(contentsOf: here, encoding: .utf8))
        #expect(listings.count == 4, "the view model, the controller, the SwiftUI view, ScreenLifecycle")
        for listing in listings where !listing.contains("import SwiftUI") {
            #expect(compiled.contains(Self.normalized(listing)), "not compiled as written here:\n\(listing)")
        }
    }

    @Test func theControllerMovesItsLifecycleFromItsCallbacks() {
        let controller = ProfileViewController(viewModel: ProfileViewModel())
        #expect(controller.lifecycle.state == .initialized)
        controller.viewDidLoad()
        #expect(controller.lifecycle.state == .created)
        controller.viewWillAppear(true)
        #expect(controller.lifecycle.state == .started)
        controller.viewDidAppear(true)
        #expect(controller.lifecycle.state == .resumed)
        controller.viewWillDisappear(true)
        #expect(controller.lifecycle.state == .started)
        controller.viewDidDisappear(true)
        #expect(controller.lifecycle.state == .created, "covered, not gone")
    }

    @Test func aCoveredControllerCatchesUpOnceAndShowsANoticeOnce() {
        let viewModel = ProfileViewModel()
        let controller = ProfileViewController(viewModel: viewModel)
        viewModel.rename(to: "Ada")
        controller.viewDidLoad()
        #expect(controller.title == nil, "nothing before the view shows")
        controller.appear()
        #expect(controller.title == "Ada")

        controller.disappear()   // another screen is pushed over it
        viewModel.rename(to: "Ada L.")
        viewModel.rename(to: "Ada Lovelace")
        viewModel.saveFailed()
        #expect(controller.title == "Ada")
        #expect(controller.banner == nil)
        controller.appear()
        #expect(controller.title == "Ada Lovelace")
        #expect(controller.banner == "could not save the profile")

        controller.banner = nil   // the user closes it
        controller.disappear()
        controller.appear()
        #expect(controller.banner == nil, "a notice already shown is not shown again")
    }

    @Test(arguments: [true, false])
    func aControllerThatLeavesForGoodIsDestroyed(popped: Bool) {
        let viewModel = ProfileViewModel()
        let controller = ProfileViewController(viewModel: viewModel)
        controller.viewDidLoad()
        controller.appear()
        if popped { controller.isMovingFromParent = true } else { controller.isBeingDismissed = true }
        controller.disappear()
        #expect(controller.lifecycle.state == .destroyed)
        #expect(!viewModel.name.hasObservers)
        #expect(!viewModel.notices.hasObservers)
    }

    @Test func aSwiftUIScreenRegistersOnceAndSeesEachNoticeOnce() {
        let viewModel = ProfileViewModel()
        let screen = ScreenLifecycle()
        var banners: [String] = []
        let setUp: (ScreenLifecycle) -> Void = { owner in
            viewModel.notices.observe(owner: owner) { notice in banners.append(notice) }
        }
        viewModel.saveFailed()   // before the screen shows: kept
        screen.appear(setUp: setUp)
        #expect(banners == ["could not save the profile"])
        screen.disappear()
        viewModel.saveFailed()
        #expect(banners.count == 1)
        screen.appear(setUp: setUp)   // onAppear runs again: no second registration
        #expect(banners == ["could not save the profile", "could not save the profile"])
        screen.disappear()
        screen.appear(setUp: setUp)
        #expect(banners.count == 2)
    }

    /// The Swift listings of a DocC article.
    static func swiftListings(in article: String) -> [String] {
        var listings: [String] = []
        var current: [String]?
        for line in article.components(separatedBy: "\n") {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                listings.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return listings
    }

    /// The text with each line trimmed, and the empty lines and import lines dropped.
    static func normalized(_ text: String) -> String {
        text.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            .joined(separator: "\n")
    }
}
