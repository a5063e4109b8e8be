//! `restart=on|off` per engine (or with `-each`): a fresh process for every game, or one for
//! as long as it stays usable; a crashed engine is restarted either way (with `-recover`).

mod referee_support;

use baghchal::referee::outcome::Termination;
use referee_support::*;

#[test]
fn restart_on_gives_every_game_a_fresh_process() {
    let dir = temp_dir("restart");
    let a_pids = path(&dir, "a.pids");
    let b_pids = path(&dir, "b.pids");
    let a_flag = format!("--pid-file={a_pids}");
    let b_flag = format!("--pid-file={b_pids}");
    let mut args = mocks_with(&[("A", &[&a_flag]), ("B", &[&b_flag])]);
    // A restarts for every game; B keeps its process (the default, restart=off).
    let a_spec = args.iter().position(|a| a == "name=A").unwrap();
    args.insert(a_spec + 1, "restart=on".to_string());
    args.extend(strings(&["-rounds", "3", "-maxplies", "8"]));
    let (output, records) = run(&dir, "on", &args);
    assert_ok(&output);
    assert_eq!(records.len(), 6);
    let pids = pids_in(&a_pids);
    assert_eq!(pids.len(), 6, "one process of A per game: {pids:?}");
    let mut distinct = pids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 6);
    assert_eq!(pids_in(&b_pids).len(), 1, "B is kept");
    // -each restart=on restarts both; an engine's own restart=off wins over -each.
    let _ = std::fs::remove_file(&a_pids);
    let _ = std::fs::remove_file(&b_pids);
    let mut args = mocks_with(&[("A", &[&a_flag]), ("B", &[&b_flag])]);
    let b_spec = args.iter().position(|a| a == "name=B").unwrap();
    args.insert(b_spec + 1, "restart=off".to_string());
    args.extend(strings(&[
        "-each",
        "restart=on",
        "-rounds",
        "2",
        "-maxplies",
        "8",
    ]));
    let (output, records) = run(&dir, "each", &args);
    assert_ok(&output);
    assert_eq!(records.len(), 4);
    assert_eq!((pids_in(&a_pids).len(), pids_in(&b_pids).len()), (4, 1));
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&["-each", "restart=sometimes"]));
    let (output, _) = run(&dir, "bad", &args);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("\"sometimes\""));
}

#[test]
fn a_crashed_engine_is_restarted_with_restart_on_or_off() {
    let dir = temp_dir("crash");
    for mode in ["on", "off"] {
        let pids = path(&dir, &format!("{mode}.pids"));
        let pid_flag = format!("--pid-file={pids}");
        let mut args = mocks_with(&[
            ("A", &[]),
            ("B", &["--behaviour=crash", "--after=1", &pid_flag]),
        ]);
        args.extend(strings(&[
            "-each",
            &format!("restart={mode}"),
            "-recover",
            "-rounds",
            "2",
        ]));
        let (output, records) = run(&dir, mode, &args);
        assert_ok(&output);
        assert_eq!(records.len(), 4, "restart={mode}");
        assert!(records
            .iter()
            .all(|r| r.termination == Termination::Disconnect));
        assert_eq!(
            pids_in(&pids).len(),
            4,
            "restart={mode}: B restarted after each crash"
        );
    }
}
