/// One watched file's data version as last read, for a slow check or a polling tick of
/// ``ExternalChangeMonitor``: it says whether the file changed since the last look.
///
/// A file locked for a moment (another connection's checkpoint) is read again at the next look,
/// and counts as unchanged meanwhile. A file that cannot be read (gone, damaged) is opened again
/// at the next look; so is a file replaced at its path (a damaged cache moved aside and made anew
/// by recovery), which the check then follows. A file whose version is not known (opened anew)
/// counts as changed once, in case something was committed to it before it was read.
///
/// Not `Sendable`: used by one thread at a time (the monitor's queue, or a channel's reading
/// thread once handed to it).
struct DataVersionCheck {
    let path: String
    private var reader: DataVersionReader?
    private var version: Int64?

    /// Opens `path` and reads its version, the baseline of later looks, waiting up to `patience`
    /// milliseconds for a lock (other processes opening the file at the same moment), so that
    /// the baseline is read here rather than at a look, which would then count as a change.
    init(path: String, patience: Int32) {
        self.path = path
        reader = DataVersionReader(path: path)
        if case .version(let version)? = reader?.read(patience: patience) { self.version = version }
    }

    /// Whether the file changed since the last look (or its version is not known).
    mutating func changed() -> Bool {
        if let reader, !reader.isStillAtPath {
            reader.close()
            self.reader = nil
            version = nil
        }
        if reader == nil { reader = DataVersionReader(path: path) }
        guard let reader else { return false }
        switch reader.read() {
        case .version(let read):
            defer { version = read }
            return read != version
        case .busy:
            return false
        case .failed:
            reader.close()
            self.reader = nil
            version = nil
            return false
        }
    }

    /// Closes the connection, once the file is no longer watched.
    func close() {
        reader?.close()
    }
}
