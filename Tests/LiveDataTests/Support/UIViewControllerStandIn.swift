import Foundation

/// Stands in for UIKit's `UIViewController`, which Linux does not have, so that the view
/// controller of the article "Owning a lifecycle in UIKit and SwiftUI" compiles as written.
///
/// It has the members that controller uses; a test calls the appearance callbacks in the order
/// UIKit would, and sets `isMovingFromParent` and `isBeingDismissed` (read-only in UIKit) first.
@MainActor
class UIViewController {
    var title: String?
    var isMovingFromParent = false
    var isBeingDismissed = false

    init(nibName: String?, bundle: Bundle?) {}

    required init?(coder: NSCoder) { nil }

    func viewDidLoad() {}
    func viewWillAppear(_ animated: Bool) {}
    func viewDidAppear(_ animated: Bool) {}
    func viewWillDisappear(_ animated: Bool) {}
    func viewDidDisappear(_ animated: Bool) {}
}

extension UIViewController {
    /// The callbacks of appearing: will, then did.
    func appear() {
        viewWillAppear(true)
        viewDidAppear(true)
    }

    /// The callbacks of disappearing: will, then did.
    func disappear() {
        viewWillDisappear(true)
        viewDidDisappear(true)
    }
}
