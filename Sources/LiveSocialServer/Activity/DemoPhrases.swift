/// Texts for seeded and simulated activity.
enum DemoPhrases {
    static let messages = [
        "Good morning everyone!", "Has anyone tried the new release?", "I'll be five minutes late.",
        "That build finally passed 🎉", "Lunch at noon?", "Can someone review my pull request?",
        "The keynote starts in ten minutes.", "Great talk, thanks!", "Where are the slides?",
        "I pushed a fix for the crash.", "Coffee break ☕️", "Let's move this to a thread.",
        "Does the demo work offline?", "Shipping it today.", "Nice weather for a hike this weekend.",
        "Reading the docs now.", "Anyone up for pairing this afternoon?", "Thanks, that helped a lot!",
    ]

    static let posts = [
        "Just published a guide to structured concurrency.", "Trail report: the ridge path is open again.",
        "Our meetup is next Thursday, everyone welcome.", "Which grinder do you recommend for espresso?",
        "Photos from Saturday's hike are up.", "Tip: keyset paging beats offsets for live lists.",
        "Looking for contributors to a small open-source library.", "Tried a new roast today, fruity and bright.",
    ]

    static let comments = [
        "Great post!", "Thanks for sharing.", "I disagree, but good points.", "Bookmarked.",
        "Could you say more about this?", "Same here.", "This is exactly what I needed.", "Ha, love it.",
    ]

    static let reactions = ["like", "love", "laugh", "wow"]
}
