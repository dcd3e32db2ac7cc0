//! Progress bars on stderr, drawn only when stderr is a terminal: a run's own bar, or one bar
//! shared by every run of a study, with the current game and variant and an overall ETA.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How a run shows its progress.
#[derive(Clone, Debug, Default)]
pub enum Progress {
    /// No bar.
    #[default]
    Hidden,
    /// A bar of its own, cleared when the run ends.
    Own,
    /// Advances a bar that spans several runs (a study's); its owner sets its length,
    /// message and end.
    Shared(ProgressBar),
}

impl Progress {
    /// A bar of its own when `wanted` (the `--quiet` flag's opposite), else none.
    #[must_use]
    pub fn own(wanted: bool) -> Progress {
        if wanted {
            Progress::Own
        } else {
            Progress::Hidden
        }
    }

    /// The bar a run of `len` units draws on; `unit` is what one row of its `games.csv` is
    /// (`games`, or `matches` for a game played as matches).
    #[must_use]
    pub fn bar(&self, len: u64, unit: &str) -> ProgressBar {
        match self {
            Progress::Hidden => ProgressBar::hidden(),
            Progress::Own => styled(
                terminal_bar(len),
                &format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  ETA {{eta}}"),
            ),
            Progress::Shared(bar) => bar.clone(),
        }
    }

    /// Ends a run's bar: its own is cleared; a shared one goes on.
    pub fn finish(&self, bar: &ProgressBar) {
        if !matches!(self, Progress::Shared(_)) {
            bar.finish_and_clear();
        }
    }

    /// Sets the shared bar's message (what is being played now); nothing otherwise.
    pub fn say(&self, message: String) {
        if let Progress::Shared(bar) = self {
            bar.set_message(message);
        }
    }
}

/// A study's bar over `len` units in all: the current run in its message, an overall ETA.
#[must_use]
pub fn study_bar(len: u64, wanted: bool) -> ProgressBar {
    if !wanted {
        return ProgressBar::hidden();
    }
    styled(
        terminal_bar(len),
        "{msg:44} {bar:30} {pos}/{len} games and matches  ETA {eta}",
    )
}

/// A bar of `len` units on stderr when stderr is a terminal, hidden otherwise.
fn terminal_bar(len: u64) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    ProgressBar::with_draw_target(Some(len), target)
}

fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
