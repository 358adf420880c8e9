//! Board parameter rows: each parameter of the board floor ([`crate::board::params::PARAMS`])
//! as an option row, built at compile time, so the parser, writer, links and `--help` read them
//! as any other option.

use super::{Access, OptionKind, OptionRow};
use crate::board::params::{self, Param};

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
        form: None,
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
