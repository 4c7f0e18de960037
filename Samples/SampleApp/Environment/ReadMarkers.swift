import Foundation
import LiveData

/// How much of each channel the user has read on this device: the channel's message count when
/// the user last saw its newest messages. A channel's unread count is its message count minus this.
///
/// The markers are app state, not server data, so they live in a small JSON file in the user's
/// own folder of the data folder (`users/<id>/read-markers.json`): each user has their own. A
/// file that cannot be read is moved aside (to `read-markers.json.unreadable`), never
/// overwritten, and the app starts with no markers; ``problem`` says so.
@MainActor
public final class ReadMarkers {
    /// The file the markers are kept in, or nil to keep them in memory only.
    public let url: URL?
    private let countsData: MutableLiveData<[String: Int]>
    private let problemData = MutableLiveData<String>()

    /// The read message count of each channel, by channel id.
    public var counts: LiveData<[String: Int]> { countsData }
    /// The last problem reading or writing the file, if any, in words.
    public var problem: LiveData<String> { problemData }

    /// Loads the markers from `url`, or starts empty when there is no file (or no url).
    public init(url: URL?) {
        self.url = url
        var loaded: [String: Int] = [:]
        var problem: String?
        if let url, FileManager.default.fileExists(atPath: url.path) {
            do {
                loaded = try JSONDecoder().decode([String: Int].self, from: Data(contentsOf: url))
            } catch {
                let aside = url.appendingPathExtension("unreadable")
                try? FileManager.default.removeItem(at: aside)
                try? FileManager.default.moveItem(at: url, to: aside)
                problem = "read markers were unreadable (moved to \(aside.lastPathComponent)); starting from none"
            }
        }
        countsData = MutableLiveData(data: loaded)
        if let problem { problemData.data = problem }
    }

    /// The read message count of a channel; 0 for a channel never opened.
    public func readCount(of channelId: String) -> Int { countsData.data?[channelId] ?? 0 }

    /// Records that the user has seen a channel's first `messageCount` messages, and saves.
    /// Does nothing when the marker is already there.
    public func markRead(_ channelId: String, messageCount: Int) {
        var counts = countsData.data ?? [:]
        guard counts[channelId] != messageCount else { return }
        counts[channelId] = messageCount
        countsData.data = counts
        save(counts)
    }

    private func save(_ counts: [String: Int]) {
        guard let url else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(counts).write(to: url, options: .atomic)
        } catch {
            problemData.data = "could not save read markers: \(error.localizedDescription)"
        }
    }
}
