//! Move ordering: moves with ordering scores handed out best first.

/// Moves with ordering scores, handed out best first (selection sort: cut-offs come early). The
/// searcher keeps one per ply and reuses its buffers.
pub(super) struct Picker<M> {
    pub(super) moves: Vec<M>,
    pub(super) scores: Vec<i32>,
}

impl<M> Default for Picker<M> {
    fn default() -> Self {
        Picker { moves: Vec::new(), scores: Vec::new() }
    }
}

impl<M: Copy> Picker<M> {
    /// Number of moves.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.moves.len()
    }

    /// The best remaining move, moved to position `i`.
    #[inline]
    pub(super) fn pick(&mut self, i: usize) -> M {
        let mut best = i;
        for j in i + 1..self.moves.len() {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.moves[i]
    }
}
