//! The transposition table: one entry per slot, indexed by the position's
//! [`tavola_sdk::Position::hash_key`], replaced by depth and age.

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size table of [`Entry`]s (a power of two of them).
#[derive(Debug)]
pub(crate) struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` (at least 1024 entries).
    pub fn new(megabytes: usize) -> Table<M> {
        let size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (megabytes.max(1) << 20) / size;
        // The largest power of two that fits, so that the index is a mask.
        let len = if wanted < 1024 {
            1024
        } else {
            1 << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut entries = Vec::with_capacity(len);
        advise_huge_pages(&mut entries);
        entries.resize(len, None);
        Table {
            entries,
            generation: 0,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Marks a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // The high bits: the low ones of some games' keys carry counts.
        ((key >> 20) as usize ^ key as usize) & (self.entries.len() - 1)
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.index(key)].filter(|e| e.key == key)
    }

    /// Starts loading the slot of `key` into the cache, for a probe soon after (the child a
    /// node is about to search): the table is far larger than the cache, so the probe itself
    /// would wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const Option<Entry<M>> = &self.entries[self.index(key)];
            // SAFETY: SSE is part of every x86-64 processor, and a prefetch reads nothing (the
            // address is a slot of the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a result, keeping a deeper one of the current search for another position.
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: u32, bound: Bound) {
        let index = self.index(key);
        let generation = self.generation;
        let depth = depth.min(255) as u8;
        let slot = &mut self.entries[index];
        let mut mv = mv;
        if let Some(old) = slot {
            let replace = old.key == key
                || old.generation != generation
                || depth >= old.depth
                || bound == Bound::Exact;
            if !replace {
                return;
            }
            // Keep the old move when the new result has none for the same position.
            if mv.is_none() && old.key == key {
                mv = old.mv;
            }
        }
        *slot = Some(Entry {
            key,
            mv,
            score,
            depth,
            bound,
            generation,
        });
    }
}

/// Asks the kernel to back the (still untouched) capacity of `entries` with huge pages where it
/// can (Linux's transparent huge pages, when set to `madvise` or `always`): a probe lands on a
/// random entry of the table, and with 4 KiB pages most probes of a table of megabytes also miss
/// the TLB. Only the 2 MiB-aligned part of the allocation is advised; a kernel that refuses
/// leaves the table as it was.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(entries: &mut Vec<T>) {
    const HUGE: usize = 2 << 20;
    let start = entries.as_mut_ptr() as usize;
    let end = start + entries.capacity() * std::mem::size_of::<T>();
    let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if first < last {
        // SAFETY: the range lies inside `entries`' own allocation, which nothing has touched
        // yet; the advice changes how the kernel backs it, not its contents or ownership.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_entries: &mut Vec<T>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key() {
        let mut table = Table::<u16>::new(1);
        table.store(42, Some(7), 15, 3, Bound::Exact);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.mv, entry.score, entry.depth), (Some(7), 15, 3));
        assert!(table.probe(43).is_none());
        table.clear();
        assert!(table.probe(42).is_none());
    }
}
