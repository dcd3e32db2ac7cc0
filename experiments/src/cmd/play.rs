//! `cowrie play --game G [--variant V] [--option k=v] --agent SPEC [--port P] [--seed S]
//! [--seat 1|2] [--line]`: a person against an agent, on a local web page
//! ([`crate::play::server`]) or, with `--line`, on stdin and stdout ([`crate::play::line`]).

use clap::Args;
use cowrie_agents::{AgentSpec, AnyAgent, Evaluate};
use cowrie_engine::{Game, Player};

use crate::args::{agent_spec, seed_value, GameRulesArgs};
use crate::config::RulesConfig;
use crate::games::Report;
use crate::pages::board::Draw;
use crate::play::server::{serve, Games};
use crate::play::session::Setup;
use crate::registry::{dispatch, GameTask};
use crate::run::seeds::agent_stream;

/// `cowrie play`.
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The agent to play against (docs/agents.md).
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub agent: AgentSpec,
    /// The port on 127.0.0.1 to serve the page on; 0 for any free port (the address is
    /// printed on stdout).
    #[arg(long, default_value_t = 8321, conflicts_with = "line")]
    pub port: u16,
    /// The seed: game i of this server (or line session) draws its chance outcomes from pair
    /// i's chance stream and the agent from game i's stream (docs/conventions.md).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = seed_value)]
    pub seed: u64,
    /// Your seat in the first game, 1 or 2 (the page can change it for the next).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: u8,
    /// Play on stdin and stdout instead of a web page: the position as text, the legal moves
    /// numbered, one command a line.
    #[arg(long)]
    pub line: bool,
}

struct Play<'a> {
    args: &'a PlayArgs,
    rules: RulesConfig,
}

impl GameTask for Play<'_> {
    type Output = ();

    fn run<G: Game + Evaluate + Draw + Report>(self) -> anyhow::Result<()> {
        let rules = self.rules.typed::<G>()?;
        let args = self.args;
        // The agent is built and checked against the rules before anything is served.
        AnyAgent::<G>::try_build(&args.agent, agent_stream(args.seed, 0, Player::TWO))?;
        AnyAgent::<G>::check_rules(&args.agent, &rules)?;
        let table = crate::play::rules_table::table(
            &rules,
            &self.rules.resolved.variant,
            &self.rules.options,
        );
        let setup: Setup<G> = Setup {
            rules,
            resolved: self.rules.resolved.clone(),
            spec: args.agent.clone(),
            seed: args.seed,
        };
        let seat = Player::from_index(usize::from(args.seat - 1));
        if args.line {
            crate::play::line::run(
                &setup,
                &table,
                seat,
                std::io::stdin().lock(),
                std::io::stdout().lock(),
            )
        } else {
            serve(Games::new(setup, table, seat), args.port)
        }
    }
}

/// `cowrie play`.
///
/// # Errors
/// An unknown game, variant or option, an agent that cannot play this game, a port that cannot
/// be listened on, or a failed read or write.
pub fn command(args: PlayArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    let rules = RulesConfig::from_args(&args.rules)?;
    dispatch(&rules.game.clone(), Play { args: &args, rules })
}
