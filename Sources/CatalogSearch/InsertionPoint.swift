extension RandomAccessCollection where Index == Int {
    /// The first index whose element is not `before` the value sought (binary search over a sorted collection):
    /// where the value is, or would go.
    package func insertionPoint(_ before: (Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = (low + high) / 2
            if before(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
