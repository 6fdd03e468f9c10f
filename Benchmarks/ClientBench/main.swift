import Foundation
import StickerCatalogClient

// `client-bench snapshot FOLDER [ROUNDS]`: how long an app's main actor is held while it asks for the catalog synced
// into FOLDER (`await sync.snapshot`), against what reading it on the main actor took (`LocalCatalog.load()`, what
// `messagesStickers()` and `snapshot` did before they were async). The main actor's longest stall is measured by a
// ticker on it that yields in a loop: the longest gap between two of its turns is the longest time anything else held
// the main actor. Prints one line per measure, in milliseconds, the best of ROUNDS (5), each with a new StickerSync
// (nothing held in memory). For scripts/bench/client.sh.

/// A main-actor ticker's state: when it last had a turn, and the longest gap between two turns.
@MainActor
final class Ticker {
    var longest = Duration.zero
    var last = ContinuousClock.now
    var running = true
}

/// The longest gap between two turns of a main-actor ticker while `body` runs on the main actor.
@MainActor
func longestStall(_ body: @MainActor () async -> Void) async -> Duration {
    let state = Ticker()
    let ticker = Task { @MainActor in
        while state.running {
            let now = ContinuousClock.now
            state.longest = max(state.longest, now - state.last)
            state.last = now
            await Task.yield()
        }
    }
    await body()
    state.running = false
    await ticker.value
    return state.longest
}

@MainActor
func measure(_ folder: URL, rounds: Int) async {
    var (stalls, loads) = ([Duration](), [Duration]())
    var stickers = 0
    for _ in 0..<rounds {
        let sync = StickerSync(service: URL(string: "http://127.0.0.1:9")!, folder: LocalCatalog(directory: folder))
        stalls.append(
            await longestStall {
                let catalog = await sync.snapshot
                stickers = catalog?.groups.reduce(0) { $0 + $1.stickers.count } ?? 0
            })
        let start = ContinuousClock.now
        _ = LocalCatalog(directory: folder).load()
        loads.append(ContinuousClock.now - start)
    }
    func ms(_ duration: Duration) -> String {
        String(
            format: "%.1f", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
    }
    print("snapshot of \(stickers) stickers: main actor held at most \(ms(stalls.min()!)) ms (target under 16 ms)")
    print("the same catalog read on the main actor (LocalCatalog.load, as before): \(ms(loads.min()!)) ms")
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments[1] == "snapshot" else {
    FileHandle.standardError.write(Data("usage: client-bench snapshot FOLDER [ROUNDS]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[2])
let rounds = arguments.count > 3 ? max(Int(arguments[3]) ?? 5, 1) : 5
await measure(folder, rounds: rounds)
