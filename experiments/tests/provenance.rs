//! Provenance in manifests: the SHA-256 of the weights a run's agents read (computed here
//! independently from the shipped file), the commit the binary was built from, and `report`
//! refusing a run whose recorded network is no longer the shipped one.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{cowrie, refused};
use sha2::{Digest, Sha256};

const WEIGHTS: &str = "agents/weights/frangieh-modern.safetensors";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A two-game Frangieh match of the shipped network against `random`, into `out`.
fn td_match(out: &Path) {
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--variant",
        "modern",
        "--p1",
        "td:ply=0",
        "--p2",
        "random",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_run_records_the_weights_its_agents_read_and_the_commit() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("run");
    td_match(&out);
    let m = manifest(&out);
    let shipped = fs::read(repo().join(WEIGHTS)).unwrap();
    let recorded = &m["inputs"]["td:weights=shipped,ply=0"][WEIGHTS];
    assert_eq!(recorded["sha256"], sha256_hex(&shipped), "{m:#}");
    assert_eq!(recorded["bytes"], shipped.len());
    // `random` reads nothing, and says so.
    assert_eq!(m["inputs"]["random"], serde_json::json!({}));
    // Built in this checkout: a commit of 40 hex digits (outside git: `unknown`, dirty null).
    let commit = m["git_commit"].as_str().unwrap();
    if commit == "unknown" {
        assert!(m["git_dirty"].is_null());
    } else {
        assert_eq!(commit.len(), 40, "{commit}");
        assert!(commit.bytes().all(|b| b.is_ascii_hexdigit()), "{commit}");
        assert!(m["git_dirty"].is_boolean(), "{m:#}");
    }
    assert!(["debug", "release"].contains(&m["build_profile"].as_str().unwrap()));
}

#[test]
fn report_refuses_a_run_whose_network_was_replaced_after_it() {
    // A repository of its own: shipped weights and a results directory with one run.
    let t = tempfile::tempdir().unwrap();
    let weights = t.path().join(WEIGHTS);
    fs::create_dir_all(weights.parent().unwrap()).unwrap();
    fs::copy(repo().join(WEIGHTS), &weights).unwrap();
    let results = t.path().join("results");
    td_match(&results.join("matches/frangieh-td"));
    let r = results.to_str().unwrap();
    let o = cowrie(&["report", r]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let readme = fs::read_to_string(results.join("README.md")).unwrap();
    assert!(
        readme.contains("Recorded, every shipped network the same as now: `matches/frangieh-td`."),
        "{readme}"
    );
    assert!(cowrie(&["report", "--check", r]).status.success());
    // The network is retrained (here: one byte changed): the run no longer stands.
    let mut bytes = fs::read(&weights).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&weights, &bytes).unwrap();
    let o = cowrie(&["report", "--check", r]);
    refused(&o, "matches/frangieh-td");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(WEIGHTS), "{err}");
    assert!(err.contains(&sha256_hex(&bytes)), "{err}");
    let original = sha256_hex(&fs::read(repo().join(WEIGHTS)).unwrap());
    assert!(err.contains(&original), "{err}");
}

#[test]
fn runs_without_inputs_are_listed_as_provenance_not_recorded() {
    let t = tempfile::tempdir().unwrap();
    let results = t.path().join("results");
    let out = results.join("matches/old");
    td_match(&out);
    // A manifest from before inputs were recorded.
    let mut m = manifest(&out);
    m.as_object_mut().unwrap().remove("inputs");
    fs::write(out.join("manifest.json"), m.to_string()).unwrap();
    let o = cowrie(&["report", results.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let readme = fs::read_to_string(results.join("README.md")).unwrap();
    assert!(
        readme.contains("Provenance not recorded") && readme.contains("`matches/old`"),
        "{readme}"
    );
}

#[test]
fn a_network_borrowed_from_another_variant_is_said_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("j");
    let borrowed = "td:weights=shipped:barakat-1974,ply=0";
    let o = cowrie(&[
        "match",
        "--game",
        "julbahar",
        "--variant",
        "ludii",
        "--p1",
        "td:ply=0",
        "--p2",
        borrowed,
        "--games",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let inputs = &manifest(&out)["inputs"];
    let own = &inputs["td:weights=shipped,ply=0"]["agents/weights/julbahar-ludii.safetensors"];
    assert_eq!(own["trained_under"], "ludii");
    assert_eq!(own["borrowed"], false);
    let lent = &inputs[borrowed]["agents/weights/julbahar-barakat-1974.safetensors"];
    assert_eq!(lent["trained_under"], "barakat-1974");
    assert_eq!(lent["borrowed"], true);
    // The metadata of frangieh-barakat-1974 spells an option by its former name: still its own.
    let f = dir.path().join("f");
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--p1",
        "td:ply=0",
        "--p2",
        "random",
        "--games",
        "2",
        "--quiet",
        "--out",
        f.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rec = &manifest(&f)["inputs"]["td:weights=shipped,ply=0"]
        ["agents/weights/frangieh-barakat-1974.safetensors"];
    assert_eq!(rec["borrowed"], false, "{rec}");
}
