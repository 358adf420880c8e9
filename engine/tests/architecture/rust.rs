//! Reading Rust source as far as imports go: tokens without comments, strings and
//! `#[cfg(test)]` items, and every path a file names (`crate::…`, `super::…`, use trees).

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Identifiers, `::` and punctuation with their line numbers; comments, strings and char
/// literals dropped.
pub(crate) fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    while i < c.len() {
        let ch = c[i];
        let start = i;
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i = skip_block_comment(&c, i);
        } else if ch == '"' {
            i = skip_string(&c, i + 1, 0);
        } else if ch == '\'' {
            i = skip_char_or_lifetime(&c, i);
        } else if ch.is_alphabetic() || ch == '_' {
            if let Some(end) = raw_or_byte_string(&c, i) {
                i = end;
            } else {
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                let word: String = c[start..i].iter().collect();
                if word == "r" && c.get(i) == Some(&'#') {
                    i += 1; // r#ident: the identifier follows
                } else {
                    out.push((Tok::Ident(word), line));
                }
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            if !ch.is_whitespace() {
                out.push((Tok::Punct(ch), line));
            }
            i += 1;
        }
        i = i.clamp(start + 1, c.len());
        line += c[start..i].iter().filter(|&&x| x == '\n').count();
    }
    out
}

pub(crate) fn skip_block_comment(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// From just after the opening quote to just after the closing quote followed by `hashes` #.
pub(crate) fn skip_string(c: &[char], mut i: usize, hashes: usize) -> usize {
    while i < c.len() {
        if c[i] == '\\' && hashes == 0 {
            i += 2;
        } else if c[i] == '"' && (0..hashes).all(|k| c.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        } else {
            i += 1;
        }
    }
    i
}

pub(crate) fn skip_char_or_lifetime(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        let mut j = i + 3; // past the backslash and the escaped character
        while j < c.len() && c[j] != '\'' {
            j += 1;
        }
        j + 1
    } else if c.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i + 1 // a lifetime: its name follows as an identifier
    }
}

/// `b"…"`, `r"…"`, `r#"…"#`, `br#"…"#`, `c"…"`: the index after it, if one starts at `i`.
pub(crate) fn raw_or_byte_string(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(c[j], 'b' | 'c') {
        j += 1;
    }
    let raw = c.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    if j == i || c.get(j + hashes) != Some(&'"') || (hashes > 0 && !raw) {
        return None;
    }
    Some(skip_string(c, j + hashes + 1, if raw { hashes } else { 0 }))
}

/// The tokens without `#[cfg(test)]` items (a test module, a test-only `use` or function).
pub(crate) fn without_test_items(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let attr: Vec<Tok> = "# [ cfg ( test ) ]"
        .split(' ')
        .map(|s| match s {
            "cfg" | "test" => Tok::Ident(s.to_string()),
            p => Tok::Punct(p.chars().next().unwrap()),
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let is_attr = toks.len() >= i + attr.len()
            && toks[i..i + attr.len()].iter().map(|t| &t.0).eq(attr.iter());
        if !is_attr {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += attr.len();
        // The item: up to its `;` or through its balanced `{ … }`.
        while i < toks.len() && !matches!(toks[i].0, Tok::Punct(';') | Tok::Punct('{')) {
            i += 1;
        }
        if i < toks.len() && toks[i].0 == Tok::Punct('{') {
            let mut depth = 0;
            while i < toks.len() {
                match toks[i].0 {
                    Tok::Punct('{') => depth += 1,
                    Tok::Punct('}') => depth -= 1,
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------- paths

/// One path a file names: its segments as written, and the line.
#[derive(Clone, Debug)]
pub(crate) struct Named {
    pub(crate) segs: Vec<String>,
    pub(crate) line: usize,
}

/// Every path a file names that starts at `crate`, `super` or `self` (in code), and every leaf
/// of every `use` tree (nested groups, `self`, renames and globs).
pub(crate) fn named_paths(toks: &[(Tok, usize)]) -> Vec<Named> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(w) if w == "use" => {
                let line = toks[i].1;
                let mut leaves = Vec::new();
                i = use_tree(toks, i + 1, Vec::new(), &mut leaves);
                out.extend(leaves.into_iter().map(|(segs, _)| Named { segs, line }));
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    && !(i > 0 && toks[i - 1].0 == Tok::Punct('$')) =>
            {
                let line = toks[i].1;
                let mut segs = vec![w.clone()];
                i += 1;
                while toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
                    match toks.get(i + 1).map(|t| &t.0) {
                        Some(Tok::Ident(s)) => segs.push(s.clone()),
                        _ => break,
                    }
                    i += 2;
                }
                out.push(Named { segs, line });
            }
            _ => i += 1,
        }
    }
    out
}

/// A `use` leaf: the path, and the name it is known by (the last segment, or its `as` rename).
pub(crate) type Leaf = (Vec<String>, Option<String>);

/// Parses one use tree from `i` with `prefix` before it; pushes each leaf; returns the index
/// after the tree (after the `;` at the top level).
pub(crate) fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: Vec<String>,
    leaves: &mut Vec<Leaf>,
) -> usize {
    let mut path = prefix;
    let mut name = None;
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Ident(w)) if w == "as" => {
                // The rename: the path already ends at what it names.
                if let Some(Tok::Ident(n)) = toks.get(i + 1).map(|t| &t.0) {
                    name = Some(n.clone());
                }
                i += 2;
            }
            Some(Tok::Ident(w)) if w == "self" && !path.is_empty() => i += 1,
            Some(Tok::Ident(w)) => {
                path.push(w.clone());
                i += 1;
            }
            Some(Tok::Punct('*')) => i += 1,
            Some(Tok::Punct('{')) => {
                i += 1;
                while !matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct('}')) | None) {
                    i = use_tree(toks, i, path.clone(), leaves);
                    if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return finish_group(toks, i + 1);
            }
            _ => {
                let name = name.or_else(|| path.last().cloned());
                leaves.push((path, name));
                return if matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct(';'))) {
                    i + 1
                } else {
                    i
                };
            }
        }
    }
}

/// After a group's `}`: the `;` ends a top-level tree; a `,` or `}` is the enclosing group's.
pub(crate) fn finish_group(toks: &[(Tok, usize)], i: usize) -> usize {
    if matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct(';'))) {
        i + 1
    } else {
        i
    }
}
