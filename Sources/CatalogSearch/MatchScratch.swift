/// The memory one matching works in, by slot: each slot's best rank for the word being matched (`.max`: not touched),
/// its total over the words so far, the slots the word touched and the candidates left. Raw buffers and no closure over
/// them: captured variables and arrays cost exclusivity and uniqueness checks on every access, which perf showed as a
/// third of a search's CPU at 100,000 stickers. Deallocated by its owner (`deallocate()`).
struct MatchScratch {
    let best: UnsafeMutableBufferPointer<UInt8>
    /// Written for every slot of the first word's matches before it is read, and only theirs are: not initialised.
    let total: UnsafeMutableBufferPointer<UInt16>
    private(set) var touched: UnsafeMutableBufferPointer<UInt32>
    private(set) var candidates: UnsafeMutableBufferPointer<UInt32>
    private(set) var candidateCount = 0

    init(slots: Int) {
        best = .allocate(capacity: slots)
        best.initialize(repeating: .max)
        total = .allocate(capacity: slots)
        (touched, candidates) = (.allocate(capacity: 0), .allocate(capacity: 0))
    }

    /// Room for `postings` touched slots, one more than a word can touch: the branch-free loop writes a slot before it
    /// knows whether it counts.
    mutating func reserveTouched(_ postings: Int) {
        let needed = min(postings, best.count) + 1
        guard touched.count < needed else { return }
        touched.deallocate()
        touched = .allocate(capacity: needed)
    }

    /// The first word's slots are the candidates, each with its rank as its total.
    mutating func startCandidates(_ count: Int) {
        candidates.deallocate()
        candidates = .allocate(capacity: count)
        for index in 0..<count {
            let slot = touched[index]
            candidates[index] = slot
            total[Int(slot)] = UInt16(best[Int(slot)])
        }
        candidateCount = count
    }

    /// Keeps the candidates this word touched too, adding its rank to their totals (a dropped one's total is never
    /// read again, so it is added to as well: no branch).
    mutating func keepCandidates() {
        var kept = 0
        for index in 0..<candidateCount {
            let slot = candidates[index]
            let rank = best[Int(slot)]
            candidates[kept] = slot
            total[Int(slot)] &+= UInt16(rank)
            kept &+= rank == .max ? 0 : 1
        }
        candidateCount = kept
    }

    /// Clears the ranks of the `count` slots the word touched, for the next word.
    func resetBest(_ count: Int) {
        for index in 0..<count { best[Int(touched[index])] = .max }
    }

    func deallocate() {
        best.deallocate()
        total.deallocate()
        touched.deallocate()
        candidates.deallocate()
    }
}
