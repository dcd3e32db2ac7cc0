//! Baghchal's oracle: a database written by `cowrie solve`, shared by every agent that names the
//! same directory (it is opened once per process). The movement phase is read into memory; the
//! placement phase's halves, where written, are read a byte at a time from their files.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use cowrie_engine::games::baghchal::TOTAL_GOATS;
use cowrie_engine::{Baghchal, BaghchalRules, Game, Player, ToAct};
use cowrie_solver::packed::{DRAW, WIN};
use cowrie_solver::placement_db::PlacementReader;
use cowrie_solver::value::MAX_DISTANCE;
use cowrie_solver::{Database, Side, SolveRules, Value};

use super::oracle::Oracle;

/// A loaded database.
pub struct BaghchalOracle {
    dir: PathBuf,
    db: Database,
    placement: PlacementReader,
}

impl fmt::Debug for BaghchalOracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BaghchalOracle")
            .field("dir", &self.dir)
            .field("rules", self.db.rules())
            .finish()
    }
}

type Cache = Mutex<Vec<(PathBuf, Arc<BaghchalOracle>)>>;

static OPEN: OnceLock<Cache> = OnceLock::new();

impl BaghchalOracle {
    /// The database in `dir`, loaded on first use and shared afterwards.
    ///
    /// # Errors
    /// No database there, or an unreadable one.
    pub fn open(dir: &Path) -> Result<Arc<BaghchalOracle>, String> {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let cache = OPEN.get_or_init(|| Mutex::new(Vec::new()));
        let mut open = cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, o)) = open.iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(o));
        }
        let db = Database::open_any(dir).map_err(|e| e.to_string())?;
        let placement = PlacementReader::open(dir, db.rules()).map_err(|e| e.to_string())?;
        let oracle = Arc::new(BaghchalOracle {
            dir: dir.to_path_buf(),
            db,
            placement,
        });
        open.push((key, Arc::clone(&oracle)));
        Ok(oracle)
    }
}

impl BaghchalOracle {
    /// Whether the placement phase is solved back to the start.
    #[must_use]
    pub fn placement_complete(&self) -> bool {
        self.placement.complete()
    }

    /// The stored value of a placement-phase position, if its half is written. The placement
    /// halves keep no distances: a win or loss there is given the longest distance a value can
    /// hold, so it ranks below every win (above every loss) whose distance is known, and the
    /// agent never prefers it to a faster end.
    fn placement_value(&self, state: &Baghchal) -> Option<Value> {
        if !matches!(state.to_act(), ToAct::Decision(_)) {
            return None;
        }
        let placed = u32::from(TOTAL_GOATS - state.goats_in_hand());
        let code = self
            .placement
            .code(
                placed,
                Side::of(state.side_to_move()),
                state.tigers(),
                state.goats(),
            )
            .ok()??;
        Some(match code {
            WIN => Value::Win(MAX_DISTANCE),
            DRAW => Value::Draw,
            _ => Value::Loss(MAX_DISTANCE),
        })
    }
}

impl Oracle<Baghchal> for BaghchalOracle {
    fn check_rules(&self, rules: &BaghchalRules) -> Result<(), String> {
        let wanted = SolveRules::from_rules(rules).map_err(|e| e.to_string())?;
        if wanted == *self.db.rules() {
            Ok(())
        } else {
            Err(format!(
                "the database in '{}' is solved for {}, the game is played under {}",
                self.dir.display(),
                self.db.rules(),
                wanted
            ))
        }
    }

    #[inline]
    fn score(&self, state: &Baghchal, player: Player) -> Option<i32> {
        let v = match self.db.state_value(state) {
            Some(v) => v,
            None => self.placement_value(state)?,
        };
        let s = v.preference();
        Some(if state.side_to_move() == player {
            s
        } else {
            -s
        })
    }

    fn phases(&self) -> String {
        match self.placement.fewest_placed() {
            None => "movement".to_string(),
            Some(0) => "movement+placement".to_string(),
            Some(p) => format!("movement+placement from {p} placed"),
        }
    }

    fn is_complete(&self) -> bool {
        self.placement_complete()
    }
}
