import IAPTime

/// What one commit writes: the payload of one journal frame (docs/store.md, "Commit frames").
///
/// Sections, each `[section tag varint][length varint][bytes]`, in this order:
/// 1. `versions`: every transaction version the commit refers to, as `TransactionRecordCodec`
///    records (each one a length-prefixed block);
/// 2. `finals`: indexes into `versions` of the latest version of each transaction the commit
///    created or changed: what the index points at and what the queue folds;
/// 3. `events`: the first event's `seq`, a count, then `EventRecordCodec` records, which name
///    transactions by index into `versions`;
/// 4. `legacyEvents`: events migrated from a format-1 store, kept as the JSON that release wrote
///    (`seq` and bytes), so `iapctl events` prints them exactly as before;
/// 5. `state`: a `StateDeltaCodec` delta from the state before the commit.
///
/// A section a commit does not need is left out.
enum CommitRecord {
    /// A changed transaction and where its latest version's length prefix starts in the
    /// payload: what the index records of a commit. A struct, not a tuple: an array of tuples
    /// has its element type's metadata built at run time, on every commit's path (issue 12).
    struct FinalVersion {
        let id: TransactionID
        let position: Int
    }

    enum Section: UInt64 {
        case versions = 1, finals, events, legacyEvents, state
    }

    /// Builds the record of one commit from what `apply` did and the states around it; with no
    /// state before (a journal's first commit), the delta holds every field.
    static func encode(
        effects: Effects, legacyEvents: [(seq: UInt64, json: [UInt8])] = [], from old: StoreState?, to new: StoreState
    ) -> (payload: [UInt8], finals: [FinalVersion]) {
        if let old { return encode(effects: effects, legacyEvents: legacyEvents, changesFrom: old, to: new) }
        return encode(effects: effects, legacyEvents: legacyEvents, changesFrom: StateDeltaCodec.base, full: true, to: new)
    }

    /// `encode(effects:legacyEvents:from:to:)` with the state before given, not optional: a
    /// commit's two states are borrowed throughout, where an optional one was copied (a retain
    /// and a release of every field of the state) each time it was unwrapped.
    static func encode(
        effects: Effects, legacyEvents: [(seq: UInt64, json: [UInt8])] = [], changesFrom old: StoreState,
        full: Bool = false, to new: StoreState
    ) -> (payload: [UInt8], finals: [FinalVersion]) {
        // `finals` pairs each changed transaction with where its latest version's length prefix
        // starts in the payload (what the index records).
        var versions: [Transaction] = []
        // The latest version of each id: found by a scan while there are few versions (a command
        // usually writes one to three), by a table from then on.
        var latestIndex: [TransactionID: Int] = [:]
        let scanned = 16
        func ref(_ t: Transaction) -> Int {
            let latest = versions.count <= scanned ? versions.lastIndex { $0.id == t.id } : latestIndex[t.id]
            if let i = latest, versions[i] == t { return i }
            versions.append(t)
            if versions.count == scanned + 1 {
                for (i, v) in versions.enumerated() { latestIndex[v.id] = i }
            } else if versions.count > scanned {
                latestIndex[t.id] = versions.count - 1
            }
            return versions.count - 1
        }
        var events = ByteWriter(capacity: 64 * effects.events.count + 16)
        if let first = effects.events.first {
            events.varint(first.seq)
            events.varint(UInt64(effects.events.count))
            var previous = Timestamp(milliseconds: 0)
            for e in effects.events {
                EventRecordCodec.encode(e, previousDate: previous, into: &events, ref: ref)
                previous = e.date
            }
        }
        let finals = effects.transactions.map(ref)

        // One buffer: each section and version is written in place behind a length prefix that
        // is fixed up after (`ByteWriter.block`), not built in a buffer of its own and copied.
        var w = ByteWriter(capacity: 192 * versions.count + events.bytes.count + 96)
        var offsets: [Int] = []
        if !versions.isEmpty {
            offsets.reserveCapacity(versions.count)
            w.varint(Section.versions.rawValue)
            // Where each version's length prefix starts, moved by however longer than one byte
            // the section's own length prefix turned out.
            let moved = w.block { section in
                section.varint(UInt64(versions.count))
                for t in versions {
                    offsets.append(section.bytes.count)
                    section.block { TransactionRecordCodec.encode(t, into: &$0) }
                }
            }
            if moved > 0 { for i in offsets.indices { offsets[i] += moved } }
        }
        if !finals.isEmpty {
            w.varint(Section.finals.rawValue)
            w.block { b in
                b.varint(UInt64(finals.count))
                for i in finals { b.varint(UInt64(i)) }
            }
        }
        if !events.bytes.isEmpty {
            w.varint(Section.events.rawValue)
            w.varint(UInt64(events.bytes.count))
            w.raw(events.bytes)
        }
        if !legacyEvents.isEmpty {
            w.varint(Section.legacyEvents.rawValue)
            w.block { b in
                b.varint(UInt64(legacyEvents.count))
                for e in legacyEvents {
                    b.varint(e.seq)
                    b.varint(UInt64(e.json.count))
                    b.raw(e.json)
                }
            }
        }
        let beforeState = w.bytes.count
        w.varint(Section.state.rawValue)
        // Not in a closure: capturing the two states copied both.
        let deltaStart = w.beginBlock()
        StateDeltaCodec.encode(changesFrom: old, full: full, to: new, into: &w)
        w.endBlock(deltaStart)
        // An empty delta (its end tag alone, one byte behind a one-byte length) is left out.
        if !full && w.bytes.count == deltaStart + 2 && w.bytes[deltaStart + 1] == 0 {
            w.bytes.removeSubrange(beforeState...)
        }
        return (w.bytes, finals.map { FinalVersion(id: versions[$0].id, position: offsets[$0]) })
    }

    /// The parts of a payload, found without decoding them: what a reader needs to decode only
    /// the part it wants (the index wants `finals`, `events` wants events, loading wants finals
    /// and the delta).
    ///
    /// Every command's load lays out each frame of the journal's tail, so the versions' places
    /// are one flat array (prefix, offset, length for each) and both arrays are allocated once, at
    /// their size: three growing arrays cost some 3,000 instructions a frame.
    struct Layout {
        /// `versionCount` triples: where version `i`'s length prefix starts (what the index
        /// stores), where its bytes start, and their length.
        private var versionPlaces: [Int] = []
        var finals: [Int] = []
        var events: Range<Int>?
        var legacyEvents: Range<Int>?
        var state: Range<Int>?

        var versionCount: Int { versionPlaces.count / 3 }
        func versionPrefix(_ i: Int) -> Int { versionPlaces[3 * i] }
        func versionOffset(_ i: Int) -> Int { versionPlaces[3 * i + 1] }
        func versionLength(_ i: Int) -> Int { versionPlaces[3 * i + 2] }

        mutating func reserveVersions(_ count: Int) { versionPlaces.reserveCapacity(3 * count) }
        mutating func appendVersion(prefix: Int, offset: Int, length: Int) {
            versionPlaces.append(prefix)
            versionPlaces.append(offset)
            versionPlaces.append(length)
        }
    }

    /// Splits a payload into its sections; nil when malformed.
    static func layout(_ payload: UnsafeRawBufferPointer) -> Layout? {
        var r = ByteReader(payload)
        var layout = Layout()
        var lastSection: UInt64 = 0
        while !r.isAtEnd {
            guard let tag = r.varint(), let section = Section(rawValue: tag), tag > lastSection, let n = r.varint(),
                n <= UInt64(payload.count - r.index)
            else { return nil }
            lastSection = tag
            let range = r.index..<(r.index + Int(n))
            r.index = range.upperBound
            var s = ByteReader(UnsafeRawBufferPointer(rebasing: payload[range]))
            switch section {
            case .versions:
                guard let count = s.varint(), count <= UInt64(range.count) else { return nil }
                layout.reserveVersions(Int(count))
                for _ in 0..<count {
                    let prefix = range.lowerBound + s.index
                    guard let length = s.varint(), length <= UInt64(range.count - s.index) else { return nil }
                    layout.appendVersion(prefix: prefix, offset: range.lowerBound + s.index, length: Int(length))
                    s.index += Int(length)
                }
                guard s.isAtEnd else { return nil }
            case .finals:
                guard let count = s.varint(), count <= UInt64(range.count) else { return nil }
                layout.finals.reserveCapacity(Int(count))
                for _ in 0..<count {
                    guard let i = s.varint(), i < UInt64(layout.versionCount) else { return nil }
                    layout.finals.append(Int(i))
                }
                guard s.isAtEnd else { return nil }
            case .events: layout.events = range
            case .legacyEvents: layout.legacyEvents = range
            case .state: layout.state = range
            }
        }
        return layout
    }

    /// The transaction version at `offset` of a payload (`length` bytes).
    static func transaction(_ payload: UnsafeRawBufferPointer, at offset: Int, length: Int) -> Transaction? {
        bytes(payload, at: offset, length: length).flatMap(TransactionRecordCodec.decode)
    }

    /// The `length` bytes at `offset` of a payload; nil when they run outside it.
    private static func bytes(_ payload: UnsafeRawBufferPointer, at offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset + length <= payload.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + length)])
    }

    /// Version `i`'s record bytes; nil when they run outside the payload.
    private static func versionBytes(_ payload: UnsafeRawBufferPointer, layout: Layout, version i: Int) -> UnsafeRawBufferPointer?
    {
        bytes(payload, at: layout.versionOffset(i), length: layout.versionLength(i))
    }

    /// The version whose length prefix starts at `prefix` (an index slot's position).
    static func transaction(_ payload: UnsafeRawBufferPointer, prefix: Int) -> Transaction? {
        guard prefix >= 0, prefix < payload.count else { return nil }
        var r = ByteReader(payload, at: prefix)
        guard let n = r.varint(), n <= UInt64(payload.count - r.index) else { return nil }
        return transaction(payload, at: r.index, length: Int(n))
    }

    /// Version `i` of a payload.
    static func transaction(_ payload: UnsafeRawBufferPointer, layout: Layout, version i: Int) -> Transaction? {
        transaction(payload, at: layout.versionOffset(i), length: layout.versionLength(i))
    }

    /// Every event of the payload, in order; nil when malformed.
    static func events(_ payload: UnsafeRawBufferPointer, layout: Layout) -> [Event]? {
        guard let range = layout.events else { return [] }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: payload[range]))
        guard let first = r.varint(), let count = r.varint(), count <= UInt64(range.count) else { return nil }
        var cache: [Int: Transaction] = [:]
        var failed = false
        func version(_ i: Int) -> Transaction? {
            guard i < layout.versionCount else { return nil }
            if let t = cache[i] { return t }
            guard let t = transaction(payload, layout: layout, version: i) else {
                failed = true
                return nil
            }
            cache[i] = t
            return t
        }
        var out: [Event] = []
        out.reserveCapacity(Int(count))
        var previous = Timestamp(milliseconds: 0)
        for k in 0..<count {
            guard let e = EventRecordCodec.decode(from: &r, seq: first &+ k, previousDate: previous, version: version), !failed
            else { return nil }
            previous = e.date
            out.append(e)
        }
        guard r.isAtEnd else { return nil }
        return out
    }

    /// The seqs of the payload's events, `first ..< first + count`, read from the head of the
    /// events section without decoding them (a reader after an event seq skips older frames
    /// whole); nil when there are none or the head is malformed.
    static func eventSeqs(_ payload: UnsafeRawBufferPointer, layout: Layout) -> Range<UInt64>? {
        guard let range = layout.events else { return nil }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: payload[range]))
        guard let first = r.varint(), let count = r.varint(), first <= UInt64.max - count else { return nil }
        return first..<(first + count)
    }

    /// The migrated format-1 events of the payload; nil when malformed.
    static func legacyEvents(_ payload: UnsafeRawBufferPointer, layout: Layout) -> [(seq: UInt64, json: [UInt8])]? {
        guard let range = layout.legacyEvents else { return [] }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: payload[range]))
        guard let count = r.varint(), count <= UInt64(range.count) else { return nil }
        var out: [(seq: UInt64, json: [UInt8])] = []
        for _ in 0..<count {
            guard let seq = r.varint(), let block = r.block() else { return nil }
            out.append((seq, Array(block)))
        }
        guard r.isAtEnd else { return nil }
        return out
    }

    /// `fold`, except that the transactions the commit changed are not decoded: the queue only
    /// learns which ids it holds, and reads each one from the journal (through the index) if a
    /// command asks for it, as it does for the checkpoint's. A store's load replays the tail since
    /// the checkpoint this way: a `buy` decoded every transaction of up to some 25 commits (about
    /// 3,500 instructions each, strings allocated and freed) to use none of them.
    ///
    /// Each version's place is appended to `versions` as (id, `frame`, position) triples: what
    /// the index needs to find them without scanning (`TransactionIndex.seedTailVersions`).
    static func foldQueue(
        _ payload: UnsafeRawBufferPointer, layout: Layout, frame: UInt64, into state: inout StoreState,
        versions: inout [Int]
    ) -> Bool {
        guard applyStateDelta(payload, layout: layout, to: &state) else { return false }
        for i in layout.finals {
            guard let bytes = versionBytes(payload, layout: layout, version: i),
                let (id, inQueue) = TransactionRecordCodec.queueStatus(bytes)
            else { return false }
            state.upsertStored(id, inQueue: inQueue)
            versions.append(Int(bitPattern: UInt(id.rawValue)))
            versions.append(Int(frame))
            versions.append(layout.versionPrefix(i))
        }
        return true
    }

    /// Folds the payload's state delta and latest transaction versions into `state`; false
    /// when malformed.
    static func fold(_ payload: UnsafeRawBufferPointer, layout: Layout, into state: inout StoreState) -> Bool {
        guard applyStateDelta(payload, layout: layout, to: &state) else { return false }
        for i in layout.finals {
            guard let t = transaction(payload, layout: layout, version: i) else { return false }
            state.upsert(t)
        }
        return true
    }

    /// Applies the payload's state delta, if it has one; false when malformed.
    private static func applyStateDelta(_ payload: UnsafeRawBufferPointer, layout: Layout, to state: inout StoreState) -> Bool {
        guard let range = layout.state else { return true }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: payload[range]))
        return StateDeltaCodec.apply(from: &r, to: &state) && r.isAtEnd
    }
}
