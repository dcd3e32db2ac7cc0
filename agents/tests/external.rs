//! `external:cmd=...`: a program's answer is read a bounded line at a time, so one that writes
//! an endless line forfeits the game without filling the memory (this file is a test process
//! of its own, so its peak memory is the test's).

use cowrie_agents::external::MAX_ANSWER_LINE;
use cowrie_agents::{Agent, ExternalAgent, ExternalParams, ForfeitReason};
use cowrie_engine::{Baghchal, BaghchalRules, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The peak resident memory of this process in KiB (`VmHWM` of `/proc/self/status`), where
/// the system reports it.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn an_answer_line_over_the_limit_forfeits_without_being_held() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = dir.path().join("agent.stderr");
    // Reads the hello and move lines, then answers with 256 MiB of `x` before its newline.
    let params = ExternalParams {
        cmd: r#"sh -c 'read hello; read move; head -c 268435456 /dev/zero | tr "\0" x; echo'"#
            .to_string(),
        timeout_ms: 20_000,
        stderr: Some(stderr.clone()),
    };
    let mut agent = ExternalAgent::new(&params, ChaCha8Rng::seed_from_u64(1)).unwrap();
    let state = Baghchal::new(&BaghchalRules::default());
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    assert!(legal.len() > 1);
    let before = peak_kib();
    let forfeit = agent.try_choose(&state, &legal).unwrap_err();
    assert_eq!(forfeit.reason, ForfeitReason::Illegal);
    assert!(
        forfeit
            .detail
            .starts_with("an answer line longer than 1048576 bytes (1 MiB, the most read) at '"),
        "{}",
        forfeit.detail
    );
    assert_eq!(MAX_ANSWER_LINE, 1 << 20);
    let logged = std::fs::read_to_string(&stderr).unwrap();
    assert_eq!(
        logged,
        format!("cowrie: forfeit-illegal: {}\n", forfeit.detail)
    );
    // Reading the whole line would take 256 MiB or more; the bounded read holds 1 MiB.
    if let (Some(before), Some(after)) = (before, peak_kib()) {
        assert!(
            after < before + 32 * 1024,
            "peak memory grew from {before} KiB to {after} KiB"
        );
    }
}

#[test]
fn a_last_line_of_exactly_the_limit_is_read() {
    // 1 MiB of `x` then a newline: read whole, so it is an answer (an illegal one), not a
    // line over the limit.
    let params = ExternalParams {
        cmd: r#"sh -c 'read hello; read move; head -c 1048576 /dev/zero | tr "\0" x; echo'"#
            .to_string(),
        timeout_ms: 20_000,
        stderr: None,
    };
    let mut agent = ExternalAgent::new(&params, ChaCha8Rng::seed_from_u64(1)).unwrap();
    let state = Baghchal::new(&BaghchalRules::default());
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let forfeit = agent.try_choose(&state, &legal).unwrap_err();
    assert_eq!(forfeit.reason, ForfeitReason::Illegal);
    let quoted = format!("'{}...' (1048576 characters)", "x".repeat(80));
    assert_eq!(
        forfeit.detail,
        format!("answer {quoted} is not a line {{\"action\": \"...\"}}")
    );
}
