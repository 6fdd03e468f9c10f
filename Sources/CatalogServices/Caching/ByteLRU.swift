/// A cache bounded by the summed cost (bytes) of its values that evicts the least recently used entries first, one at a
/// time, in O(1). Not synchronised: its owner holds a lock around every call.
/// Links live in arrays of their own, so that marking an entry as used touches integers only.
package struct ByteLRU<Key: Hashable, Value> {
    /// The most a cache may hold; a single value costing more is not kept at all.
    package let capacity: Int
    package private(set) var totalCost = 0
    private var keys: [Key?] = []
    private var values: [Value?] = []
    private var costs: [Int] = []
    private var newer: [Int] = []
    private var older: [Int] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package var count: Int { slots.count }

    /// The value for `key`, now the most recently used.
    package mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        if slot != newest {
            unlink(slot)
            pushFront(slot)
        }
        return values[slot]
    }

    /// The value for `key` without changing its rank.
    package func peek(_ key: Key) -> Value? {
        slots[key].flatMap { values[$0] }
    }

    /// Keeps `value`, evicting the least recently used entries until it fits.
    package mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= capacity else { return }
        while totalCost + cost > capacity, oldest >= 0 { remove(slot: oldest) }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            (keys[slot], values[slot], costs[slot]) = (key, value, cost)
        } else {
            slot = keys.count
            keys.append(key)
            values.append(value)
            costs.append(cost)
            newer.append(-1)
            older.append(-1)
        }
        pushFront(slot)
        slots[key] = slot
        totalCost += cost
    }

    package mutating func remove(_ key: Key) {
        if let slot = slots[key] { remove(slot: slot) }
    }

    package mutating func removeAll() {
        self = ByteLRU(capacity: capacity)
    }

    private mutating func remove(slot: Int) {
        guard let key = keys[slot] else { return }
        unlink(slot)
        slots[key] = nil
        totalCost -= costs[slot]
        (keys[slot], values[slot], costs[slot]) = (nil, nil, 0)
        free.append(slot)
    }

    private mutating func pushFront(_ slot: Int) {
        (newer[slot], older[slot]) = (-1, newest)
        if newest >= 0 { newer[newest] = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (toNewer, toOlder) = (newer[slot], older[slot])
        if toNewer >= 0 { older[toNewer] = toOlder } else { newest = toOlder }
        if toOlder >= 0 { newer[toOlder] = toNewer } else { oldest = toNewer }
    }
}
