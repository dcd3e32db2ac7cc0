//! `cowrie entry`: the effect of entering first in Bargese, by intervention on common random
//! numbers ([`crate::stats::entry_effect`] gives the estimators, docs/metrics.md the design).
//!
//! Seed `k` (chance stream `k` of the run seed) is played three times by the same agent in both
//! seats: the natural game (agent streams of game `3k`), then arm 1 and arm 2 (games `3k + 1`,
//! `3k + 2`), in which the opening is forced so that seat 1, respectively seat 2, throws the
//! opening's first dust or bange and so enters first: the three-shell throw (if any) goes to
//! that seat, 3 mouths up against 0; each opening throw of the other seat is a doi (void: it
//! passes the throw); the forced seat's opening throw is the first dust or bange drawn from the
//! seed's chance stream. Nothing else is forced, so from the first entry on both arms draw the
//! same throws from the same stream. Writes `OUT/entry.csv` (one row per seed),
//! `OUT/estimates.csv` and `OUT/manifest.json`.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use cowrie_agents::{Agent, AgentSpec, AnyAgent};
use cowrie_engine::bargese::{Opening, OpeningExtra, Stage, Throw};
use cowrie_engine::{
    sample_outcome, Bargese, BargeseOutcome, BargeseRules, Game, Player, RuleSet, ToAct,
};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::args::{whole_in, ForceArg, OutArg, SeedArg, ThreadsArg, VariantArgs, MAX_GAMES};
use crate::output::f6;
use crate::output::print_stdout;
use crate::run::seeds::{agent_stream, chance_stream};
use crate::stats::entry_effect::{estimates, SeedOutcome};

/// A validated `cowrie entry` request.
#[derive(Clone, Debug)]
pub struct EntryConfig {
    /// The Bargese variant (None: the default).
    pub variant: Option<String>,
    /// `key=value` overrides.
    pub options: Vec<String>,
    /// The agent in both seats.
    pub agent: AgentSpec,
    /// Seeds (each played three times).
    pub seeds: u64,
    /// Run seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Command line.
    pub command_line: Vec<String>,
}

/// Whom the opening is forced to, if anyone.
fn forced_outcome(state: &Bargese, to: Player, chance: &mut ChaCha8Rng) -> Option<BargeseOutcome> {
    if state.first_entered().is_some() {
        return None;
    }
    let three = |p: Player| BargeseOutcome::Shells(if p == to { 3 } else { 0 });
    match state.stage() {
        Stage::ShellsFirst => Some(three(Player::ONE)),
        Stage::ShellsSecond(_) => Some(three(Player::TWO)),
        Stage::Opening(p) if p != to => Some(BargeseOutcome::Throw(Throw::from_mouths(2))),
        Stage::Opening(_) => {
            // The first dust or bange of the stream: the opening's ending throw, as it falls.
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            loop {
                let o = sample_outcome(&outcomes, chance);
                if matches!(o, BargeseOutcome::Throw(t) if t.has_hal()) {
                    return Some(o);
                }
            }
        }
        _ => None,
    }
}

/// Plays one game; with `force`, the opening is forced so that this player enters first.
/// Returns the final position.
fn play(
    rules: &BargeseRules,
    agents: &mut [AnyAgent<Bargese>; 2],
    mut chance: ChaCha8Rng,
    force: Option<Player>,
) -> anyhow::Result<Bargese> {
    let mut state = Bargese::new(rules);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    loop {
        match state.to_act() {
            ToAct::Terminal(_) => return Ok(state),
            ToAct::Chance => {
                let o = match force.and_then(|to| forced_outcome(&state, to, &mut chance)) {
                    Some(o) => o,
                    None => {
                        state.chance_outcomes(&mut outcomes);
                        sample_outcome(&outcomes, &mut chance)
                    }
                };
                state.apply_outcome(o);
            }
            ToAct::Decision(p) => {
                state.legal_actions(&mut actions);
                let a = agents[p.index()]
                    .try_choose(&state, &actions)
                    .map_err(|f| {
                        anyhow::anyhow!("the agent in seat {} forfeited: {f:?}", p.seat())
                    })?;
                state.play_unchecked(a);
            }
        }
    }
}

fn index(p: Option<Player>) -> Option<usize> {
    p.map(Player::index)
}

fn one_seed(cfg: &EntryConfig, rules: &BargeseRules, k: u64) -> anyhow::Result<SeedOutcome> {
    let game = |g: u64, force: Option<Player>| -> anyhow::Result<Bargese> {
        let build = |s: Player| AnyAgent::try_build(&cfg.agent, agent_stream(cfg.seed, g, s));
        let mut agents = [build(Player::ONE)?, build(Player::TWO)?];
        play(rules, &mut agents, chance_stream(cfg.seed, k), force)
    };
    let natural = game(3 * k, None)?;
    let arm1 = game(3 * k + 1, Some(Player::ONE))?;
    let arm2 = game(3 * k + 2, Some(Player::TWO))?;
    let winner = |g: &Bargese| index(g.end_reason().and_then(cowrie_engine::EndReason::winner));
    Ok(SeedOutcome {
        natural_winner: winner(&natural),
        natural_entered: index(natural.first_entered()),
        natural_first_mover: index(natural.starter()),
        arm_winner: [winner(&arm1), winner(&arm2)],
        arm_entered: [index(arm1.first_entered()), index(arm2.first_entered())],
    })
}

/// The rules, refused where the intervention does not apply: it needs an opening in which
/// every throw before the first dust or bange is void.
///
/// # Errors
/// Unknown variant or option; rules without such an opening.
pub fn rules(variant: Option<&str>, options: &[String]) -> anyhow::Result<BargeseRules> {
    let rules = BargeseRules::resolve(variant, options)?;
    if rules.opening == Opening::None || rules.opening_extra != OpeningExtra::Void {
        anyhow::bail!(
            "--variant {}: the first entry can be forced only where the throws before the first dust or bange are void (opening=shells or alternate, opening-extra=void)",
            variant.unwrap_or("finkel-2002")
        );
    }
    Ok(rules)
}

/// Runs the experiment; returns the printed table.
///
/// # Errors
/// Bad rules or agent, no seeds, unwritable output.
pub fn run(cfg: &EntryConfig) -> anyhow::Result<String> {
    let rules = rules(cfg.variant.as_deref(), &cfg.options)?;
    if cfg.seeds < 2 {
        anyhow::bail!(
            "--seeds {}: at least 2 are needed for an interval",
            cfg.seeds
        );
    }
    AnyAgent::<Bargese>::check_rules(&cfg.agent, &rules)?;
    crate::output::create_dir(&cfg.out)?;
    let mut manifest = crate::run::manifest::Manifest::start(
        "entry",
        cfg.command_line.clone(),
        serde_json::json!({
            "game": Bargese::NAME,
            "variant": cfg.variant.clone().unwrap_or_else(|| "finkel-2002".to_string()),
            "options": rules.resolved().into_iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            "agent": cfg.agent.to_string(),
            "seeds": cfg.seeds,
            "seed": cfg.seed,
        }),
        cfg.threads,
        cfg.agent.is_reproducible(),
        crate::run::provenance::inputs_of::<Bargese>(&rules, std::slice::from_ref(&cfg.agent))?,
    );
    let started = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting worker threads")?;
    let seeds: anyhow::Result<Vec<SeedOutcome>> = pool.install(|| {
        (0..cfg.seeds)
            .into_par_iter()
            .map(|k| {
                // After SIGINT no seed starts; those under way finish.
                if crate::interrupt::requested() {
                    anyhow::bail!("interrupted");
                }
                one_seed(cfg, &rules, k)
            })
            .collect()
    });
    if crate::interrupt::requested() {
        return Err(crate::interrupt::Interrupted {
            message: format!(
                "interrupted: nothing was written to '{}'; entry cannot resume: run the same command again",
                cfg.out.display()
            ),
            written: 0,
        }
        .into());
    }
    let seeds = seeds?;
    let seat = |p: Option<usize>| p.map_or(String::new(), |i| (i + 1).to_string());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "seed_index",
        "natural_first_mover_seat",
        "natural_first_entered",
        "natural_winner_seat",
        "arm1_first_entered",
        "arm1_winner_seat",
        "arm2_first_entered",
        "arm2_winner_seat",
    ])?;
    for (k, s) in seeds.iter().enumerate() {
        w.write_record([
            k.to_string(),
            seat(s.natural_first_mover),
            seat(s.natural_entered),
            seat(s.natural_winner),
            seat(s.arm_entered[0]),
            seat(s.arm_winner[0]),
            seat(s.arm_entered[1]),
            seat(s.arm_winner[1]),
        ])?;
    }
    manifest.write_file(&cfg.out, "entry.csv", &w.into_inner()?)?;
    let rows = estimates(&seeds);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "metric",
        "value",
        "ci95_low",
        "ci95_high",
        "interval",
        "games",
        "p_value",
    ])?;
    let mut text = format!(
        "bargese {}: {} in both seats, {} seeds, each played as dealt and with the first entry forced to each seat, seed {}\n",
        cfg.variant.as_deref().unwrap_or("finkel-2002"),
        cfg.agent,
        cfg.seeds,
        cfg.seed
    );
    let _ = writeln!(
        text,
        "{:<36} {:>9}  {:<20} {:>7} {:>9}",
        "metric", "value", "95%", "games", "p"
    );
    for r in &rows {
        w.write_record([
            r.metric.to_string(),
            f6(r.value),
            f6(r.ci.0),
            f6(r.ci.1),
            r.interval.to_string(),
            format!("{}", r.games),
            f6(r.p_value),
        ])?;
        let _ = writeln!(
            text,
            "{:<36} {:>9.4}  [{:.4}, {:.4}] {:>8} {:>9}",
            r.metric,
            r.value,
            r.ci.0,
            r.ci.1,
            r.games,
            if r.p_value.is_nan() {
                String::new()
            } else {
                format!("{:.4}", r.p_value)
            }
        );
    }
    manifest.write_file(&cfg.out, "estimates.csv", &w.into_inner()?)?;
    let _ = writeln!(
        text,
        "forced: the first entry forced to each seat on the same throws (intervals clustered by seed); natural: the games as dealt; docs/metrics.md"
    );
    manifest.status = "complete";
    manifest.finished = crate::run::manifest::now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = 3 * cfg.seeds;
    manifest.write(&cfg.out)?;
    Ok(text)
}

/// `cowrie entry`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("variant", |a| a.help("The Bargese variant (one with an opening of void throws; default finkel-2002)")))]
#[command(mut_arg("seed", |a| a.help("Run seed. Default 1")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (the output does not depend on it)")))]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("force", |a| a.help("Replace the finished run DIR already holds; without it such a directory is refused (an interrupted one is replaced: run the same command again)")))]
pub struct EntryArgs {
    /// The variant and option overrides.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The agent in both seats.
    #[arg(long, default_value = "heuristic")]
    pub agent: AgentSpec,
    /// Seeds, each played three times: at least 2, for an interval.
    #[arg(long, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<u64>(t, 2, MAX_GAMES, "seeds"))]
    pub seeds: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seeding: SeedArg,
    /// `--threads`.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
}

/// `cowrie entry`: the experiment, its table printed.
///
/// # Errors
/// As [`run`].
pub fn command(a: EntryArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    crate::run::outputs::check_new_dir(&a.output.out, &[], a.forcing.force)?;
    print_stdout(&run(&EntryConfig {
        variant: a.variant.variant,
        options: a.variant.options,
        agent: a.agent,
        seeds: a.seeds,
        seed: a.seeding.or_default(),
        threads: a.workers.threads,
        out: a.output.out,
        command_line,
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forced_seat_enters_first_and_the_arms_share_their_throws() {
        let rules = rules(None, &[]).unwrap();
        let spec: AgentSpec = "heuristic".parse().unwrap();
        for k in 0..40 {
            for to in [Player::ONE, Player::TWO] {
                let mut agents = [Player::ONE, Player::TWO]
                    .map(|s| AnyAgent::<Bargese>::build(&spec, agent_stream(1, k, s)));
                let end = play(&rules, &mut agents, chance_stream(1, k), Some(to)).unwrap();
                assert_eq!(end.first_entered(), Some(to), "seed {k}");
                assert_eq!(end.shells_winner(), Some(to));
            }
        }
        // The board is the same for both players, so with the enterer's agent on the same
        // stream in both arms, arm 2 is arm 1 with the seats exchanged: as long, and won by
        // the other seat. (This checks that the forcing leaves the stream's later throws to
        // both arms alike.)
        let spec: AgentSpec = "random".parse().unwrap();
        for k in 0..40 {
            let end = |to: Player| {
                let stream =
                    |s: Player| agent_stream(1, 0, if s == to { Player::ONE } else { Player::TWO });
                let mut agents = [Player::ONE, Player::TWO]
                    .map(|s| AnyAgent::<Bargese>::build(&spec, stream(s)));
                play(&rules, &mut agents, chance_stream(1, k), Some(to)).unwrap()
            };
            let (a, b) = (end(Player::ONE), end(Player::TWO));
            assert_eq!(a.plies(), b.plies(), "seed {k}");
            let winner = |g: &Bargese| g.end_reason().and_then(cowrie_engine::EndReason::winner);
            assert_eq!(winner(&a).map(Player::opponent), winner(&b), "seed {k}");
        }
    }

    #[test]
    fn rules_without_a_void_opening_are_refused() {
        let e = rules(Some("summary"), &[]).unwrap_err().to_string();
        assert!(e.starts_with("--variant summary:"), "{e}");
        assert!(rules(Some("finkel-2002"), &["opening-extra=keep".into()]).is_err());
        assert!(rules(Some("dlp-1604"), &[]).is_ok());
    }
}
