//! The transposition table of the solver: a fixed number of two-entry buckets, keyed by a position's canonical
//! hash (the smallest of its hashes under the board's symmetries).

/// What a stored score says about the exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The exact score is at least the stored one.
    Lower,
    /// The exact score is at most the stored one.
    Upper,
}

/// No stored move.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// One stored position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The canonical hash; 0 marks an empty entry (a real hash of 0 is simply never stored).
    pub key: u64,
    /// The score, relative to the position (see the solver's score convention).
    pub score: i16,
    /// The best move found, in the canonical frame: a point index, or [`NO_MOVE`].
    pub mv: u16,
    /// What the score is.
    pub bound: Bound,
    /// About log2 of the nodes the search of this position took: entries that cost more are kept.
    pub work: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    mv: NO_MOVE,
    bound: Bound::Exact,
    work: 0,
};

/// Bytes of one entry.
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// A table of `2^k` buckets of two entries: the first keeps the entry that cost more work, the second always takes
/// the newest.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Table {
    /// The largest table that fits in `bytes` (at least one bucket).
    pub(crate) fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / (2 * ENTRY_BYTES)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Table {
            entries: vec![EMPTY; 2 * buckets],
            mask: buckets - 1,
            used: 0,
        }
    }

    /// Bytes the entries take.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Entries in use.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Entries the table can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Empties the table.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.used = 0;
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key >> 32) as usize & self.mask)
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key && key != 0)
            .copied()
    }

    /// Stores `entry`, replacing the entry of the same key, else the cheaper of the bucket's first entry and the
    /// new one goes to the second slot.
    #[inline]
    pub(crate) fn store(&mut self, entry: Entry) {
        if entry.key == 0 {
            return;
        }
        let b = self.bucket(entry.key);
        let slot = if self.entries[b].key == entry.key
            || self.entries[b].key == 0
            || self.entries[b].work <= entry.work
        {
            b
        } else {
            b + 1
        };
        if slot == b && self.entries[b].key != 0 && self.entries[b].key != entry.key {
            // The first slot's old entry moves down to the second, which it displaces.
            if self.entries[b + 1].key == 0 {
                self.used += 1;
            }
            self.entries[b + 1] = self.entries[b];
        } else if self.entries[slot].key == 0 {
            self.used += 1;
        }
        self.entries[slot] = entry;
        // Never keep one key twice.
        if slot == b && self.entries[b + 1].key == entry.key {
            self.entries[b + 1] = EMPTY;
            self.used -= 1;
        }
    }
}
