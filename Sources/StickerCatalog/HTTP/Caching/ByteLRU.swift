/// A cache bounded by the summed cost (bytes) of its values that evicts the least recently used entries first, one at a
/// time, in O(1). Not synchronised: its owner holds a lock around every call.
struct ByteLRU<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    /// The most a cache may hold; a single value costing more is not kept at all.
    let capacity: Int
    private(set) var totalCost = 0
    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { slots.count }

    /// The value for `key`, now the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[slot]?.value
    }

    /// The value for `key` without changing its rank.
    func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0]?.value }
    }

    /// Keeps `value`, evicting the least recently used entries until it fits.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= capacity else { return }
        while totalCost + cost > capacity, let oldest { remove(slot: oldest) }
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
    }

    mutating func remove(_ key: Key) {
        if let slot = slots[key] { remove(slot: slot) }
    }

    mutating func removeAll() {
        self = ByteLRU(capacity: capacity)
    }

    private mutating func remove(slot: Int) {
        guard let node = nodes[slot] else { return }
        unlink(slot, node)
        nodes[slot] = nil
        free.append(slot)
        slots[node.key] = nil
        totalCost -= node.cost
    }

    private mutating func moveToFront(_ slot: Int) {
        guard newest != slot, let node = nodes[slot] else { return }
        unlink(slot, node)
        nodes[slot]?.newer = nil
        nodes[slot]?.older = newest
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int, _ node: Node) {
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
    }
}
