//! A small JSON writer (the engine has no serde): values whose objects keep their key order,
//! written in fio's layout (`stat.c` JSON output: two-space indent, `"key" : value`, floats as
//! `%f`), and string quoting per RFC 8259 section 7 for every exporter.

/// A JSON value whose objects keep their key order.
pub enum Json {
    U(u64),
    F(f64),
    S(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// An object from `(key, value)` pairs, in that order.
pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// Writes `s` as a JSON string (RFC 8259 section 7: quote, backslash and control characters escaped).
pub fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Json {
    /// fio's layout: two-space indent, `"key" : value`, floats with six decimals.
    pub fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::U(v) => out.push_str(&v.to_string()),
            Json::F(v) => out.push_str(&format!("{:.6}", if v.is_finite() { *v } else { 0.0 })),
            Json::S(s) => quote(s, out),
            Json::Arr(items) if items.is_empty() => out.push_str("[]"),
            Json::Obj(items) if items.is_empty() => out.push_str("{}"),
            Json::Arr(items) => {
                out.push_str("[\n");
                for (i, v) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Json::Obj(items) => {
                out.push_str("{\n");
                for (i, (k, v)) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    quote(k, out);
                    out.push_str(" : ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
}
