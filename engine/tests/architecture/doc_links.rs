//! Every link of the README and the book (`docs/`, its pages and folders) resolves: a relative
//! link names a file or folder that exists, and its `#anchor` a heading or an `id` of the page it
//! points at, with the ids mdbook 0.5 gives headings (GitHub's are the same for these pages:
//! lower case, letters, digits, `-` and `_` kept, spaces as `-`, `-1`, `-2` after repeats).
//! Links to other sites (`http:`, `https:`, `mailto:`) are not fetched: there is no network.
//! `docs/SUMMARY.md`, the book's reading order, lists every page of `docs/`. The Markdown is read
//! with pulldown-cmark and the options mdbook reads it with, so what is a link here is a link in
//! the book. `make docs` and `make check` run it.

use super::doc_paths::ROOT;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

/// README.md and every Markdown file below docs/, as paths relative to the root.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).expect("docs/").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}/{name}");
            if e.path().is_dir() {
                walk(&e.path(), &path, out);
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    let mut out = vec!["README.md".to_string()];
    walk(&Path::new(ROOT).join("docs"), "docs", &mut out);
    out.sort();
    out
}

/// mdbook's parser options (mdbook-markdown 0.5: tables, footnotes, strikethrough, task lists,
/// heading attributes; GitHub's admonitions and definition lists).
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}

/// mdbook-html's `id_from_content`: lower case; letters, digits, `_` and `-` kept; white space
/// as `-`; the rest dropped.
fn id_from_content(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// `id="…"` and `name="…"` attributes of raw HTML.
fn html_ids(html: &str, ids: &mut HashSet<String>) {
    for attr in ["id=\"", "name=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            if let Some(end) = rest.find('"') {
                ids.insert(rest[..end].to_string());
            }
        }
    }
}

/// `href="…"` and `src="…"` attributes of raw HTML.
fn html_links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// A page's links (with the line each starts on) and the anchors it offers.
struct Page {
    links: Vec<(usize, String)>,
    ids: HashSet<String>,
}

fn read_page(text: &str) -> Page {
    let line = |offset: usize| text[..offset].matches('\n').count() + 1;
    let (mut links, mut ids, mut used) = (Vec::new(), HashSet::new(), HashSet::new());
    let mut heading: Option<(Option<String>, String)> = None;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((line(range.start), dest_url.to_string()));
            }
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((id.map(|i| i.to_string()), String::new()));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, words)) = heading.as_mut() {
                    words.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => match heading.take() {
                Some((Some(id), _)) => {
                    ids.insert(id);
                }
                Some((None, words)) => {
                    // mdbook-html's unique_id: a repeated id gets -1, -2, ...
                    let id = id_from_content(&words);
                    let mut unique = id.clone();
                    let mut n = 0;
                    while !used.insert(unique.clone()) {
                        n += 1;
                        unique = format!("{id}-{n}");
                    }
                    ids.insert(unique);
                }
                None => {}
            },
            Event::Html(h) | Event::InlineHtml(h) => {
                html_ids(&h, &mut ids);
                links.extend(html_links(&h).into_iter().map(|l| (line(range.start), l)));
            }
            _ => {}
        }
    }
    Page { links, ids }
}

/// What is wrong with one link of `page` (a path relative to the root), if anything.
fn check_link(page: &str, dest: &str, read: &dyn Fn(&str) -> Option<Page>) -> Option<String> {
    let external = ["http://", "https://", "mailto:"];
    // `?…` is a link into the web app (its query string), not into the repository.
    if external.iter().any(|e| dest.starts_with(e)) || dest.starts_with('?') {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    let target = if path.is_empty() {
        page.to_string()
    } else {
        let dir = Path::new(page).parent().unwrap_or(Path::new(""));
        let joined = normalize(&dir.join(path.replace("%20", " ")));
        match joined {
            Some(j) if Path::new(ROOT).join(&j).exists() => j,
            _ => return Some(format!("`{dest}`: no such file or folder")),
        }
    };
    let anchor = anchor?;
    // Line anchors of source files (`#L10`) are GitHub's; only Markdown pages are checked.
    if !target.ends_with(".md") {
        return None;
    }
    let ids = read(&target).map(|p| p.ids).unwrap_or_default();
    (!ids.contains(anchor)).then(|| format!("`{dest}`: {target} has no heading `#{anchor}`"))
}

/// `a/b/../c` as `a/c`; None when it climbs out of the repository.
fn normalize(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    Some(parts.join("/"))
}

fn read(rel: &str) -> Option<Page> {
    fs::read_to_string(PathBuf::from(ROOT).join(rel))
        .ok()
        .map(|t| read_page(&t))
}

#[test]
fn every_link_of_the_readme_and_the_book_resolves() {
    let mut broken = Vec::new();
    let mut count = 0;
    for page in pages() {
        let links = read(&page).expect("a page").links;
        count += links.len();
        for (line, dest) in links {
            if let Some(why) = check_link(&page, &dest, &read) {
                broken.push(format!("{page}:{line}: {why}"));
            }
        }
    }
    assert!(
        count > 50,
        "only {count} links found: is the parser reading the pages?"
    );
    assert!(
        broken.is_empty(),
        "links that do not resolve:\n  {}\n",
        broken.join("\n  ")
    );
}

#[test]
fn the_summary_lists_every_page_of_the_book() {
    let summary = read("docs/SUMMARY.md").expect("docs/SUMMARY.md");
    let listed: BTreeSet<String> = summary
        .links
        .iter()
        .filter_map(|(_, l)| normalize(&Path::new("docs").join(l.split('#').next()?)))
        .collect();
    let missing: Vec<String> = pages()
        .into_iter()
        .filter(|p| p.starts_with("docs/") && p != "docs/SUMMARY.md" && !listed.contains(p))
        .collect();
    assert!(
        missing.is_empty(),
        "pages of docs/ that docs/SUMMARY.md does not list (mdbook leaves them out of the book): {missing:?}"
    );
}

// ---------------------------------------------------------------- the checker checked

#[test]
fn headings_links_and_code_are_read_as_mdbook_reads_them() {
    let page = read_page(
        "# The `make check` loop\n\n## Setup\n\n## Setup\n\nSee [x](other.md#a-b) and \
         ![p](pic.png).\n\n```sh\n[not](a-link.md)\n```\n\n<a id=\"kept\"></a>\n\
         <img src=\"docs/x.png\">\n\n## Own id {#own}\n",
    );
    let ids: BTreeSet<&str> = page.ids.iter().map(String::as_str).collect();
    assert_eq!(
        ids,
        BTreeSet::from(["the-make-check-loop", "setup", "setup-1", "kept", "own"])
    );
    let links: Vec<&str> = page.links.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(links, ["other.md#a-b", "pic.png", "docs/x.png"]);
}

#[test]
fn a_missing_file_or_heading_is_reported_and_a_site_is_not_fetched() {
    // docs/cli.md exists; its text here is a stand-in with one heading.
    let read = |p: &str| (p == "docs/cli.md").then(|| read_page("# Here\n"));
    let check = |dest: &str| check_link("docs/cli.md", dest, &read);
    assert_eq!(check("https://example.org/nowhere"), None);
    assert_eq!(check("?platform=x"), None);
    assert_eq!(check("../README.md"), None);
    assert_eq!(check("cli.md#here"), None);
    assert_eq!(check("#here"), None);
    assert!(check("../README.mdx").is_some_and(|w| w.contains("no such file")));
    assert!(check("../../../etc/passwd").is_some());
    assert!(check("#there").is_some_and(|w| w.contains("no heading `#there`")));
    assert!(check("cli.md#there").is_some());
}
