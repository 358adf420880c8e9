//! From a path a file names to the module it imports: `crate::`, `super::`, `self::`, relative
//! `use` paths, and names the crate root re-exports.

use super::rust::{tokens, use_tree, without_test_items, Tok};
use super::Module;
use std::collections::BTreeMap;
use std::path::PathBuf;

// ---------------------------------------------------------------- resolution

pub(crate) struct Crate {
    pub(crate) files: BTreeMap<Module, PathBuf>,
    /// Names the crate root re-exports: `platform` -> `board::platform`, `Report` -> `report::Report`.
    pub(crate) root_aliases: BTreeMap<String, Vec<String>>,
}

impl Crate {
    /// The module a path names, from a file that is module `from`; `None` for a path outside
    /// the crate (std, serde) or into the crate root itself.
    pub(crate) fn resolve(
        &self,
        from: &[String],
        segs: &[String],
    ) -> Result<Option<Module>, String> {
        let mut abs: Vec<String> = match segs.first().map(String::as_str) {
            Some("crate") => segs[1..].to_vec(),
            Some("self") => from.iter().chain(&segs[1..]).cloned().collect(),
            Some("super") => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                if ups > from.len() {
                    return Err("more `super` than the module is deep".into());
                }
                from[..from.len() - ups]
                    .iter()
                    .chain(&segs[ups..])
                    .cloned()
                    .collect()
            }
            Some(first) => {
                // A relative `use` path: a child module of this one, or the root's own names.
                let child: Module = from.iter().chain([&first.to_string()]).cloned().collect();
                if self.files.contains_key(&child) {
                    from.iter().chain(segs).cloned().collect()
                } else if from.is_empty() && self.root_aliases.contains_key(first) {
                    segs.to_vec()
                } else {
                    return Ok(None);
                }
            }
            None => return Ok(None),
        };
        for _ in 0..8 {
            match abs.first() {
                None => return Ok(None),
                Some(first) if self.files.contains_key(&vec![first.clone()]) => break,
                Some(first) => match self.root_aliases.get(first) {
                    Some(target) if target.first() != Some(first) => {
                        abs = target.iter().chain(&abs[1..]).cloned().collect();
                    }
                    _ => {
                        return Err(format!(
                            "`{}` is no module or re-export of the crate root",
                            first
                        ))
                    }
                },
            }
        }
        let longest = (1..=abs.len())
            .rev()
            .map(|n| abs[..n].to_vec())
            .find(|m| self.files.contains_key(m));
        Ok(longest)
    }
}

pub(crate) fn root_aliases(lib_src: &str) -> BTreeMap<String, Vec<String>> {
    let toks = without_test_items(tokens(lib_src));
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].0 == Tok::Ident("use".into()) {
            let mut leaves = Vec::new();
            i = use_tree(&toks, i + 1, Vec::new(), &mut leaves);
            for (leaf, name) in leaves {
                if let Some(name) = name {
                    let crate_path = leaf.first().is_some_and(|s| s == "crate");
                    out.insert(name, if crate_path { leaf[1..].to_vec() } else { leaf });
                }
            }
        } else {
            i += 1;
        }
    }
    out
}
