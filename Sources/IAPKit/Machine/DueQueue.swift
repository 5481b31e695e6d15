import IAPTime

/// A binary min-heap of the dates at which subscriptions next need attention, ordered by date and
/// then by original transaction id, so that things falling due at the same instant happen in a
/// fixed order.
///
/// `Machine.advanceClock` builds one from the subscriptions that fall due before the target and
/// pops them in date order, pushing each subscription's next date back: an advance costs
/// O(n log s) for n due items over s subscriptions, however far the clock moves.
struct DueQueue {
    struct Item: Comparable {
        let date: Timestamp
        let originalID: TransactionID

        static func < (a: Item, b: Item) -> Bool {
            a.date != b.date ? a.date < b.date : a.originalID < b.originalID
        }
    }

    private var heap: [Item] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    mutating func push(_ item: Item) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item.
    mutating func popMin() -> Item? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let min = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left] < heap[smallest] { smallest = left }
            if right < heap.count && heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return min
    }
}
