//! A value of a two-player zero-sum game together with the player whose view it is, and the
//! conversion to any player's view: what one player gains the other loses.
//!
//! Every agent converts views through [`Viewed`]: MCTS accumulates player one's values and
//! reads them from the view of the player choosing at a node, expectimax searches each decision
//! node from its own player's view (negamax), and the evaluations (the heuristics', the TD
//! networks') score a position from one player's view (the mover's, or the viewer an encoding
//! names).

use cowrie_engine::Player;

/// A zero-sum value seen by `viewer`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewed {
    viewer: Player,
    value: f64,
}

impl Viewed {
    /// `value` from `viewer`'s view.
    #[inline]
    #[must_use]
    pub const fn new(viewer: Player, value: f64) -> Self {
        Viewed { viewer, value }
    }

    /// `value` from player one's view.
    #[inline]
    #[must_use]
    pub const fn player_one(value: f64) -> Self {
        Viewed::new(Player::ONE, value)
    }

    /// The value from `player`'s view: the same for the viewer, negated for the other player.
    #[inline]
    #[must_use]
    pub fn for_player(self, player: Player) -> f64 {
        if player == self.viewer {
            self.value
        } else {
            -self.value
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_view_is_the_other_negated() {
        let v = Viewed::new(Player::TWO, 0.25);
        assert_eq!(v.for_player(Player::TWO), 0.25);
        assert_eq!(v.for_player(Player::ONE), -0.25);
        assert_eq!(Viewed::player_one(-3.0).for_player(Player::TWO), 3.0);
        assert_eq!(Viewed::player_one(-3.0).for_player(Player::ONE), -3.0);
    }
}
