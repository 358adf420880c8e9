//! Boards from published tables, fitted as `mmcsim fit` fits them: each table's 4 KiB and
//! 16 MiB rows (`tests/tables/BOARD/*.json`, the rows of `engine/data/measurements.toml` written
//! as fio JSON results) fitted on the board's base file (`tests/tables/BOARD/base.toml`: bus
//! mode, width, the card's geometry, what the hardware line says), then the rows the fit did
//! not see predicted by simulation. The fitted boards are `engine/tests/boards/*.toml`, written
//! by the command in their first line; a test here checks that they are what the fit gives.

use mmcsim_engine::scenario::board_file::apply_toml;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::Scenario;
use mmcsim_fit::{fit_on, read_case, Case, Fit};
use std::path::Path;

/// `--fit_runtime=2s`: each run cut at 2 s of simulated time (a 4 KiB run: thousands of
/// requests, a steady state; a 16 MiB run: 50-260 MB of its 100 MiB, past the write cache's
/// filling). At 1 s the BananaPi fit stops with the NAND program rate left unconstrained.
const FIT_RUNTIME_NS: u64 = 2_000_000_000;
const MAX_ITERS: u64 = 300;

/// The parameters the BananaPi fit frees: the host's software per request, tR, the bus rate
/// (reads level off at 43 MB/s, not DDR52's 104: the limit is on the host/bus side), the
/// internal channel (which the fit finds unconstrained and leaves at the base), the NAND
/// program rate and the card's write busy time.
const BANANAPI_FIT: &str =
    "submit_us,nand_read_us,bus_mb_s,nand_channel_mb_s,nand_program_mb_s,card_write_busy_us";
/// The NanoPi's: as the BananaPi's without the bus, which is HS400 (400 MB/s). Its 16 MiB
/// reads at 133 MB/s fit equally well as a bus or a channel limit from these two rows; only the
/// channel is a physical unknown of this board.
const NANOPI_FIT: &str =
    "submit_us,nand_read_us,nand_channel_mb_s,nand_program_mb_s,card_write_busy_us";

fn dir(board: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tables")
        .join(board)
}

/// The board's result files (sorted by name) and its base board.
fn inputs(board: &str) -> (Vec<Case>, Scenario) {
    let mut files: Vec<_> = std::fs::read_dir(dir(board))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let cases = files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy();
            read_case(&name, &text, Some(FIT_RUNTIME_NS)).unwrap()
        })
        .collect();
    let mut base = Scenario::default();
    let text = std::fs::read_to_string(dir(board).join("base.toml")).unwrap();
    apply_toml(&mut base, "base.toml", &text).unwrap();
    (cases, base)
}

fn fitted(board: &str, names: &str, cross_validation: bool) -> Fit {
    let (cases, base) = inputs(board);
    assert_eq!(cases.len(), 8, "the 4 KiB and 16 MiB rows");
    let names: Vec<String> = names.split(',').map(String::from).collect();
    let f = fit_on(&cases, &base, &names, MAX_ITERS, cross_validation).unwrap();
    eprintln!("{}", mmcsim_fit::render(&f, &cases));
    f
}

/// iozone -e -I -s 100M -r BS as fio on `board`: one psync job, direct=1, 100 MiB; iozone -e
/// counts the closing fsync in the write figures (end_fsync=1). KiB/s.
fn iozone(board: &Scenario, rw: &str, bs: &str) -> f64 {
    let fsync = if rw.ends_with("write") { "1" } else { "0" };
    let args = [
        "--name=iozone".to_string(),
        "--ioengine=psync".to_string(),
        "--direct=1".to_string(),
        "--size=100m".to_string(),
        format!("--bs={bs}"),
        format!("--rw={rw}"),
        format!("--end_fsync={fsync}"),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let s = parse_args(&args, board.clone()).unwrap();
    let r = mmcsim_engine::run(&s).unwrap();
    let m = r.merged();
    (m.read.bw_bytes() + m.write.bw_bytes()) / 1024.0
}

/// The fitted values equal the committed board file's (written by `mmcsim fit` with the same
/// inputs), to the 4 significant digits the fit writes.
fn matches_board_file(f: &Fit, file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/boards")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("# Made by: mmcsim fit"),
        "{file}: the command that made it comes first"
    );
    let mut committed = Scenario::default();
    apply_toml(&mut committed, file, &text).unwrap();
    let a = f.board.effective_platform().unwrap();
    let b = committed.effective_platform().unwrap();
    assert_eq!(
        a, b,
        "{file} is not what the fit gives now: remake it with its first line"
    );
}

/// BananaPi-M64: fitted on the 4 KiB and 16 MiB rows, the 16 KiB, 512 KiB and 1 MiB rows (12
/// figures the fit did not see) within 15 %.
#[test]
fn bananapi_m64_fitted_on_4k_and_16m_predicts_its_middle_rows() {
    let f = fitted("bananapi-m64", BANANAPI_FIT, false);
    assert!(f.rms < 0.03, "fitted rows: RMS {:.1} %", f.rms * 100.0);
    // What the data leaves loose is reported among the fitted names (and left at the base).
    assert!(
        f.unconstrained.iter().all(|n| f.names.contains(n)),
        "{:?}",
        f.unconstrained
    );
    matches_board_file(&f, "bananapi-m64.toml");
    let rows = [
        ("read", "16k", 30086.0),
        ("read", "512k", 41736.0),
        ("read", "1m", 41993.0),
        ("randread", "16k", 27717.0),
        ("randread", "512k", 41577.0),
        ("randread", "1m", 41905.0),
        ("write", "16k", 18840.0),
        ("write", "512k", 27645.0),
        ("write", "1m", 27480.0),
        ("randwrite", "16k", 18544.0),
        ("randwrite", "512k", 26975.0),
        ("randwrite", "1m", 27276.0),
    ];
    let mut table = String::new();
    let mut bad = Vec::new();
    for (rw, bs, measured) in rows {
        let sim = iozone(&f.board, rw, bs);
        let err = (sim / measured - 1.0) * 100.0;
        table += &format!(
            "{rw:<9} {bs:>4}: measured {measured:>6.0} predicted {sim:>6.0} KiB/s ({err:+.1} %)\n"
        );
        if err.abs() > 15.0 {
            bad.push(format!("{rw} {bs}"));
        }
    }
    eprint!("{table}");
    assert!(bad.is_empty(), "beyond 15 %: {bad:?}\n{table}");
}

/// NanoPi M4: only the 4 KiB and 16 MiB rows are published, so what is checked is each row
/// predicted by a fit to the other seven (the fit's cross-validation): within 15 %, unless the
/// other rows leave a parameter unconstrained (the fit reports it and keeps the base's value).
/// One row is alone in what it measures: the random 4 KiB read is the only one that sees tR.
#[test]
fn nanopi_m4_fitted_on_4k_and_16m_predicts_each_row_left_out() {
    let f = fitted("nanopi-m4", NANOPI_FIT, true);
    assert!(f.rms < 0.03, "fitted rows: RMS {:.1} %", f.rms * 100.0);
    matches_board_file(&f, "nanopi-m4.toml");
    let left_out = f.left_out.as_ref().unwrap();
    for l in left_out {
        let e = l.error() * 100.0;
        eprintln!(
            "left out {:<18} {e:+.1} %, unconstrained by the others: {:?}",
            l.file, l.unconstrained
        );
        if e.abs() > 15.0 {
            assert!(
                l.file == "randread-4k.json" && l.unconstrained == ["nand_read_us"],
                "{} predicted {e:+.1} % from the other rows, which constrain every parameter",
                l.file
            );
        }
    }
    let within = left_out.iter().filter(|l| l.error().abs() <= 0.15).count();
    assert!(within >= 7, "{within} of 8 rows predicted within 15 %");
}
