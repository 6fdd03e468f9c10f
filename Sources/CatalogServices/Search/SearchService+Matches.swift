import CatalogCore
import CatalogSearch
import Synchronization

/// The matching's answers, kept per snapshot by the folded query (`SearchMatchKey`): a query typed with other marks or
/// case, or asked with another page size, is matched once.
extension SearchService {
    struct Matches: Sendable {
        let total: Int
        let best: [UInt32]
    }

    /// Matchings done so far (not answered from the match cache).
    package var matchesMade: Int { matchings.load(ordering: .relaxed) }

    /// Matches kept for the snapshot at `point`, else matched and kept (the same rules as `fragment(at:)`).
    func matches(at point: CatalogSnapshot.Point) -> SearchMatched {
        { [self] key, index, ranks in
            let kept = matched.withLock { state -> Matches?? in
                if state.point.map(point.isAfter) ?? true { state = (point, ByteLRU(capacity: state.kept.capacity)) }
                guard state.point == point else { return .none }
                return .some(state.kept.value(for: key))
            }
            if case .some(.some(let hit)) = kept { return (hit.total, hit.best) }
            matchings.add(1, ordering: .relaxed)
            let found = index.matches(
                key.terms, required: Set(key.required), locale: key.locale, first: key.window, popularity: ranks,
                hiding: key.hidden)
            if case .some = kept {
                matched.withLock {
                    if $0.point == point {
                        $0.kept.insert(
                            Matches(total: found.total, best: found.best), for: key, cost: 4 * found.best.count + 256)
                    }
                }
            }
            return found
        }
    }
}
