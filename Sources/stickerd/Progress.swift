import Foundation

/// Progress of long work: a bar redrawn in place on a terminal, a plain line per batch otherwise (logs, CI).
struct Progress {
    let total: Int
    let unit: String
    private(set) var done = 0
    private let terminal = isatty(STDOUT_FILENO) == 1
    private let started = ContinuousClock.now

    init(total: Int, unit: String) {
        self.total = total
        self.unit = unit
    }

    mutating func advance() {
        done += 1
        if terminal { draw() }
    }

    /// A line for each batch when the output is not a terminal.
    func batchDone() {
        if !terminal { print("\(done) of \(total) \(unit) (\(elapsed))") }
    }

    func finish() {
        if terminal { print("") }
    }

    private func draw() {
        let width = 30
        let filled = total == 0 ? width : min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardOutput.write(Data("\r[\(bar)] \(done)/\(total) \(unit), \(elapsed)".utf8))
    }

    private var elapsed: String {
        let duration = ContinuousClock.now - started
        return String(
            format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
