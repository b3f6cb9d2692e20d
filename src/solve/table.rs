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

/// Bytes of one entry as stored: the key and one word of data.
pub(crate) const ENTRY_BYTES: usize = 16;

impl Entry {
    fn pack(self) -> [u64; 2] {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        [
            self.key,
            u64::from(self.score as u16)
                | u64::from(self.mv) << 16
                | bound << 32
                | u64::from(self.work) << 40,
        ]
    }

    fn unpack(words: [u64; 2]) -> Entry {
        let [key, data] = words;
        Entry {
            key,
            score: data as u16 as i16,
            mv: (data >> 16) as u16,
            bound: match (data >> 32) & 0xff {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            work: (data >> 40) as u8,
        }
    }
}

/// `n` zeroed words (at least one), or `None` when the allocator refuses them. The memory comes from the allocator
/// zeroed, so pages are only touched (and committed) as the table fills.
fn zeroed_words(n: usize) -> Option<Box<[u64]>> {
    let n = n.max(1);
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    // SAFETY: the all-zero bit pattern is a valid `u64`; the layout is not zero-sized since `n >= 1`; a null
    // pointer is handled; and the box takes ownership of exactly the allocation made with this layout (the global
    // allocator, which `Box` frees with the same layout).
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<u64>();
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
    }
}

/// A table of `2^k` buckets of two entries: the first keeps the entry that cost more work, the second always takes
/// the newest. Entries are stored as pairs of words, all zero when empty, so that a fresh table is memory the system
/// hands out untouched (a large table costs nothing until it fills).
pub(crate) struct Table {
    words: Box<[u64]>,
    mask: usize,
    used: usize,
}

impl Table {
    /// The largest table that fits in `bytes` (at least one bucket), or `None` when the allocator refuses the
    /// memory (a limit beyond what the machine has): never an abort.
    pub(crate) fn try_with_bytes(bytes: usize) -> Option<Table> {
        let buckets = (bytes / (2 * ENTRY_BYTES)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Some(Table {
            words: zeroed_words(4 * buckets)?,
            mask: buckets - 1,
            used: 0,
        })
    }

    /// Bytes the entries take.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Entries in use.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Entries the table can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.words.len() / 2
    }

    /// Empties the table: fresh, untouched memory when the allocator grants it, else the same memory zeroed.
    pub(crate) fn clear(&mut self) {
        match zeroed_words(self.words.len()) {
            Some(fresh) => self.words = fresh,
            None => self.words.fill(0),
        }
        self.used = 0;
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key >> 32) as usize & self.mask)
    }

    fn get(&self, i: usize) -> Entry {
        Entry::unpack([self.words[2 * i], self.words[2 * i + 1]])
    }

    fn set(&mut self, i: usize, e: Entry) {
        let [a, b] = e.pack();
        self.words[2 * i] = a;
        self.words[2 * i + 1] = b;
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        let b = self.bucket(key);
        (b..b + 2)
            .find(|&i| self.words[2 * i] == key)
            .map(|i| self.get(i))
    }

    /// Stores `entry`: over the entry of the same key; else in the first slot when it cost at least as much work
    /// as the entry there (which moves to the second slot), else in the second slot.
    #[inline]
    pub(crate) fn store(&mut self, entry: Entry) {
        if entry.key == 0 {
            return;
        }
        let b = self.bucket(entry.key);
        let (first, second) = (self.get(b), self.get(b + 1));
        if second.key == entry.key {
            if first.key != 0 && first.work > entry.work {
                self.set(b + 1, entry);
            } else {
                self.set(b + 1, first);
                self.set(b, entry);
                if first.key == 0 {
                    self.set(b + 1, EMPTY);
                }
            }
            return;
        }
        if first.key == entry.key || first.key == 0 {
            if first.key == 0 {
                self.used += 1;
            }
            self.set(b, entry);
            return;
        }
        if second.key == 0 {
            self.used += 1;
        }
        if first.work <= entry.work {
            self.set(b + 1, first);
            self.set(b, entry);
        } else {
            self.set(b + 1, entry);
        }
    }
}
