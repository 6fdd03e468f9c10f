import Foundation
import Synchronization

/// Where log lines go: a bounded buffer in memory, written to a file descriptor by a thread of its own, as nginx's
/// buffered `access_log` does. A caller only copies its line in (never a system call on the event loop); a slow or
/// stuck reader of the descriptor fills the buffer, and then lines are dropped and counted, never waited for.
package final class LogSink: @unchecked Sendable {
    /// Standard error, flushed when the process exits normally.
    package static let standardError: LogSink = {
        let sink = LogSink(descriptor: STDERR_FILENO)
        atexit { LogSink.standardError.flush() }
        return sink
    }()

    /// Bytes waiting at most; a line that does not fit is dropped.
    package let capacity: Int
    /// How long the writer lets lines gather after a write: under load it writes a batch every `batching`, and a
    /// request never wakes it (a wake per line was a context switch per request: a quarter of a cached manifest's
    /// throughput on two cores).
    package let batching: Duration
    private let descriptor: Int32
    /// Guards the fields below; signalled when a line arrives while the writer waits idle, and when a batch is written.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var writing = false
    private var idle = false
    private let droppedLines = Atomic<Int>(0)

    package init(descriptor: Int32, capacity: Int = 4 << 20, batching: Duration = .milliseconds(20)) {
        (self.descriptor, self.capacity, self.batching) = (descriptor, capacity, batching)
        pending.reserveCapacity(capacity)
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "log-writer"
        thread.start()
    }

    /// Lines dropped because the buffer was full.
    package var dropped: Int { droppedLines.load(ordering: .relaxed) }

    /// Queues one or more whole lines; false (and counted) when they do not fit.
    @discardableResult
    package func append(_ line: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        guard pending.count + line.count <= capacity else {
            condition.unlock()
            droppedLines.add(1, ordering: .relaxed)
            return false
        }
        pending.append(contentsOf: line)
        if idle {
            idle = false
            condition.broadcast()
        }
        condition.unlock()
        return true
    }

    @discardableResult
    package func append(_ line: [UInt8]) -> Bool {
        line.withUnsafeBytes { append($0) }
    }

    /// Returns once every line queued before the call is written (at exit, and in tests).
    package func flush() {
        condition.lock()
        while !pending.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    private func run() {
        var batch: [UInt8] = []
        batch.reserveCapacity(capacity)
        let pause = UInt32(
            max(0, batching.components.seconds * 1_000_000 + batching.components.attoseconds / 1_000_000_000_000))
        while true {
            condition.lock()
            while pending.isEmpty {
                idle = true
                condition.wait()
            }
            idle = false
            swap(&batch, &pending)
            writing = true
            condition.unlock()
            write(batch)
            batch.removeAll(keepingCapacity: true)
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
            // Lets the next batch gather; `flush` waits at most this long more.
            usleep(pause)
        }
    }

    /// Writes the batch: to a pipe in whole lines of at most PIPE_BUF, so that a pipe never puts another writer's line
    /// inside one of ours; to a file or a terminal at once.
    private func write(_ bytes: [UInt8]) {
        var status = stat()
        let piece =
            fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO ? Int(PIPE_BUF) : bytes.count
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                var end = min(all.count, start + piece)
                if end < all.count, let newline = all[start..<end].lastIndex(of: UInt8(ascii: "\n")) {
                    end = newline + 1
                }
                var offset = start
                while offset < end {
                    let written = Foundation.write(descriptor, all.baseAddress! + offset, end - offset)
                    if written < 0 && errno == EINTR { continue }
                    // A closed or broken descriptor loses what remains of this piece; the next one is tried anew.
                    guard written > 0 else { break }
                    offset += written
                }
                start = end
            }
        }
    }
}
