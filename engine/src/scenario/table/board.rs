//! Board parameter rows: each parameter of the board floor ([`crate::board::params::PARAMS`])
//! as an option row, built at compile time, so the parser, writer, links and `--help` read them
//! as any other option.

use super::macros::{form, GH};
use super::{Access, FormHint, OptionKind, OptionRow, Widget};
use crate::board::params::{self, Param};

/// The kernel versions whose block layer the model carries (`board::kernel_rules::CARRIED`,
/// which a test keeps this list equal to): the Lab's kernel choice, beside "the preset's".
pub const KERNEL_CHOICES: &[&str] = &["6.1", "6.6", "6.12"];

/// The page's control of the one board parameter the first screen offers, among the host's
/// (A's form and B's controls in the A/B view): the kernel, whose rules the block layer runs
/// (the Board panel has every parameter).
const KERNEL_FORM: Option<FormHint> = form(
    GH,
    "Linux kernel",
    "The block layer's rules: who dispatches, plugging, the flush path (6.1, 6.6 or 6.12)",
    Widget::Choices(KERNEL_CHOICES),
);

/// `a == b`, at compile time.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The option row of board parameter `p`.
const fn row(p: Param) -> OptionRow {
    OptionRow {
        name: p.name,
        aliases: &[],
        accepted: p.accepted,
        help: p.help,
        kind: OptionKind::Platform,
        access: Access::Platform(p),
        example: p.example,
        form: if same(p.name, "kernel") {
            KERNEL_FORM
        } else {
            None
        },
    }
}

/// One row per parameter, in the board floor's order.
const fn rows<const N: usize>(ps: &[Param]) -> [OptionRow; N] {
    let mut out = [row(ps[0]); N];
    let mut i = 0;
    while i < N {
        out[i] = row(ps[i]);
        i += 1;
    }
    out
}

static ROWS: [OptionRow; params::PARAMS.len()] = rows(params::PARAMS);

/// Every board parameter as an option row, in the order `--help`, platform files and the Board
/// panel list them.
pub static PARAMS: &[OptionRow] = &ROWS;
