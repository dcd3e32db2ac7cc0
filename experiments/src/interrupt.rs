//! SIGINT (Ctrl-C): a run finishes writing the games it has finished, marks its manifest
//! `interrupted`, and exits with code 130 and one line saying how to resume. A second SIGINT
//! exits at once (the files still hold only whole, verified rows up to the last manifest).

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted run (128 + SIGINT), as shells report it.
pub const EXIT_CODE: u8 = 130;

/// Installs the handler (once per process; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_CODE));
        }
    });
}

/// Asks every run under way in this process to stop at its next write of finished games, as
/// SIGINT does (the Python package's `play_match` calls it on `KeyboardInterrupt`).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Forgets a request once the runs it stopped have ended, so that the process can start others.
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether an interruption was asked for.
#[must_use]
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// The error a run returns when it stopped on SIGINT after writing what it had finished;
/// `main` prints it as one line and exits with [`EXIT_CODE`].
#[derive(Debug)]
pub struct Interrupted {
    /// What was written and how to continue.
    pub message: String,
    /// The finished games on disk.
    pub written: u64,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}
