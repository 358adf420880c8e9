//! Circles in an import graph: Tarjan's strongly connected components, each reported with the
//! imports that close it.

use super::floors::{show, Edge};
use super::Module;
use std::collections::{BTreeMap, BTreeSet};

/// The import graph of `edges` between the nodes `node_of` puts their ends in (`None`: not a
/// node), and every circle in it (`what` names the kind, "import circle between") but those
/// whose members are all `exempt`.
pub(crate) fn circles(
    what: &str,
    edges: &[(Module, Edge)],
    node_of: impl Fn(&Module) -> Option<Module>,
    exempt: impl Fn(&Module) -> bool,
) -> Vec<String> {
    let mut graph: BTreeMap<Module, BTreeMap<Module, &Edge>> = BTreeMap::new();
    for (from, e) in edges {
        let (Some(a), Some(b)) = (node_of(from), node_of(&e.to)) else {
            continue;
        };
        if a != b {
            graph.entry(a).or_default().entry(b).or_insert(e);
        }
    }
    let mut out = Vec::new();
    for scc in strongly_connected(&graph) {
        if scc.len() < 2 || scc.iter().all(&exempt) {
            continue;
        }
        let members: BTreeSet<&Module> = scc.iter().collect();
        let mut why = Vec::new();
        for a in &scc {
            for (b, e) in &graph[a] {
                if members.contains(b) {
                    why.push(format!(
                        "{}:{} `{}` ({} -> {})",
                        e.file,
                        e.line,
                        e.text,
                        show(a),
                        show(b)
                    ));
                }
            }
        }
        out.push(format!(
            "{what} {}:\n    {}",
            scc.iter()
                .map(|m| format!("`{}`", show(m)))
                .collect::<Vec<_>>()
                .join(", "),
            why.join("\n    ")
        ));
    }
    out
}

/// Tarjan's strongly connected components.
fn strongly_connected(graph: &BTreeMap<Module, BTreeMap<Module, &Edge>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(
        v: &'a Module,
        g: &'a BTreeMap<Module, BTreeMap<Module, &Edge>>,
        s: &mut State<'a>,
    ) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in g.get(v).into_iter().flat_map(|m| m.keys()) {
            if !s.index.contains_key(w) {
                visit(w, g, s);
                let lw = s.low[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}
