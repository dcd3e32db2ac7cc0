//! `cowrie show --game G [--variant V] [--position NOTATION] --out FILE.svg|FILE.png`: draws a
//! position of any game as a diagram ([`crate::pages::board`]), SVG or PNG by the file's
//! extension.

use anyhow::Context;
use clap::Args;
use cowrie_engine::Game;

use crate::args::{GameRulesArgs, OutArg};
use crate::output::print_stdout;
use crate::pages::board::Draw;
use crate::registry::{dispatch, GameTask};

struct Show<'a>(&'a ShowArgs);

impl GameTask for Show<'_> {
    type Output = String;

    fn run<G: Game + cowrie_agents::Evaluate + Draw>(self) -> anyhow::Result<String> {
        let rules = crate::config::RulesConfig::from_args(&self.0.rules)?.typed::<G>()?;
        let state = match &self.0.position {
            Some(text) => G::from_notation(text, &rules)?,
            None => G::new(&rules),
        };
        Ok(state.diagram())
    }
}

/// The image formats `show` writes, by the extension of `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`: the diagram as drawn.
    Svg,
    /// `.png`: the diagram rasterised ([`crate::pages::board::png`]).
    Png,
}

impl Format {
    /// The format `path`'s extension names (in any case).
    ///
    /// # Errors
    /// An extension other than `svg` or `png`, or none, naming it.
    pub fn of(path: &std::path::Path) -> anyhow::Result<Format> {
        let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            Some(other) => anyhow::bail!(
                "--out '{}': unknown image format {} (write FILE.svg or FILE.png)",
                path.display(),
                crate::args::quote(&format!(".{other}"))
            ),
            None => anyhow::bail!(
                "--out '{}': no extension to name the image format (write FILE.svg or FILE.png)",
                path.display()
            ),
        }
    }
}

/// Draws the position into `args.output.out`, SVG or PNG by its extension; returns the line
/// printed on stdout.
///
/// # Errors
/// An unknown image format, game, variant or option, a position that does not parse, or an
/// unwritable file, naming it.
pub fn run(args: &ShowArgs) -> anyhow::Result<String> {
    let format = Format::of(&args.output.out)?;
    let svg = dispatch(args.rules.game(), Show(args))?;
    let bytes = match format {
        Format::Svg => svg.into_bytes(),
        Format::Png => crate::pages::board::png::png(&svg)?,
    };
    std::fs::write(&args.output.out, bytes)
        .with_context(|| format!("cannot write '{}'", args.output.out.display()))?;
    Ok(format!("wrote {}\n", args.output.out.display()))
}

/// `cowrie show`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("The diagram to write: FILE.svg, or FILE.png rendered from it").value_name("FILE.svg|FILE.png")))]
pub struct ShowArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The position in the game's notation (`docs/rules/GAME.md`); default: the start.
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
}

/// `cowrie show`.
///
/// # Errors
/// As [`run`].
pub fn command(args: ShowArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    crate::run::outputs::check_file("--out", &args.output.out, &[])?;
    print_stdout(&run(&args)?)
}
