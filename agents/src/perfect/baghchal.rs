//! Baghchal's oracle: a movement-phase database written by `cowrie solve`, shared by every agent
//! that names the same directory (it is read once per process).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use cowrie_engine::{Baghchal, BaghchalRules, Player};
use cowrie_solver::{Database, SolveRules};

use super::Oracle;

/// A loaded database.
pub struct BaghchalOracle {
    dir: PathBuf,
    db: Database,
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
        let oracle = Arc::new(BaghchalOracle {
            dir: dir.to_path_buf(),
            db,
        });
        open.push((key, Arc::clone(&oracle)));
        Ok(oracle)
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
        let v = self.db.state_value(state)?;
        let s = v.preference();
        Some(if state.side_to_move() == player {
            s
        } else {
            -s
        })
    }
}
