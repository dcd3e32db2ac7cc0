//! The rules in which tables games differ, as one small `Copy` struct.

/// How the two sides' tracks relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The sides move in opposite directions around the horseshoe, so one side's point `p` is the
    /// other side's point `25 - p` (Frangieh and Julbahar: Barakat 1974 §1769.1, §1773.1, "each player
    /// progresses in opposite directions").
    Opposite,
    /// Both sides move the same way round, starting on opposite sides of the board, so one
    /// side's point `p` is the other side's point `(p + 11) mod 24 + 1` (games of the
    /// narde/moultezim kind; not used by Frangieh).
    Same,
}

impl Direction {
    /// The other side's number for this side's point `p` (1 to 24). Both mappings are their own
    /// inverse.
    #[inline]
    #[must_use]
    pub const fn other(self, p: usize) -> usize {
        match self {
            Direction::Opposite => 25 - p,
            Direction::Same => (p + 11) % 24 + 1,
        }
    }
}

/// What a checker may land on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Landing {
    /// A point with at most one opposing checker; landing on a single one (a blot) hits it to
    /// the bar (Frangieh, Barakat 1974 §1769.6).
    Hit,
    /// Only a point with no opposing checker at all, including intermediate landings; nothing is
    /// ever hit (Julbahar, Barakat 1974 §1773.5: "cannot land on a space occupied by one of the opponent's
    /// pieces").
    Block,
}

/// The bearing-off rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BearOffParams {
    /// A die higher than the highest occupied point may bear off from that point (modern rule);
    /// otherwise only the exact number bears off (Barakat 1974 §1769.8: "a 6 from the 6th point, and so on").
    pub higher_die: bool,
    /// With `higher_die`: the die bears off only the rearmost checker it would carry past the
    /// end, and only when it has no other use (no checker can move by it or bear off exactly);
    /// Ludii 1.3.12's `Frangieh.lud`. Without it, a higher die bears off from the highest
    /// occupied point.
    pub rearmost: bool,
    /// A checker on the last six points may bear off by the exact throw even while other
    /// checkers are still outside the home board (Julbahar, Barakat 1974 §1773.7).
    pub early_exact: bool,
}

/// Everything the shared generator needs to know about a tables game's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TablesParams {
    /// Checkers per point at the start, in each side's own numbering: `start[i]` on point
    /// `i + 1`. Both sides start alike.
    pub start: [u8; 24],
    /// How the two tracks relate.
    pub direction: Direction,
    /// Hitting or blocking.
    pub landing: Landing,
    /// Bearing off.
    pub bear_off: BearOffParams,
    /// When either die but not both can be played, the larger must be (modern rule).
    pub larger_die: bool,
    /// A checker that plays several dice hits a lone opposing checker on each point it lands on
    /// (every die a move); otherwise only a lone opposing checker on a point where a checker of
    /// the mover stands at the end of the play is hit, and one passed on the way stays
    /// (Barakat 1974 §1769.6 read literally: "ends the turn on a point with one opposing piece").
    pub hit_in_passing: bool,
    /// Each die is a separate move: a die must be played while one can be, but a play after
    /// which the rest of the roll cannot be played is legal even if another play would use more
    /// dice (Ludii 1.3.12's `Frangieh.lud`); otherwise as many dice as possible must be played.
    pub each_die: bool,
}

impl TablesParams {
    /// Whether these rules need the plain enumeration of single-die sequences rather
    /// than the fast generator, which covers hits in passing, the most dice and the
    /// highest-point bear-off only.
    #[inline]
    #[must_use]
    pub const fn needs_sequences(&self) -> bool {
        !self.hit_in_passing || self.each_die || self.bear_off.rearmost
    }
}
