//! fio's variables in job files (HOWTO, "Environment variables" and "Reserved keywords"):
//! `${NAME}` is replaced by the environment variable NAME, and `$pagesize`, `$mb_memory`,
//! `$ncpus` by the machine's figures, here the modelled phone's.

/// `$pagesize`: the page size of the modelled kernel (arm64, 4 KiB pages).
pub const PAGESIZE: u64 = 4096;
/// `$mb_memory`: MiB of memory of the modelled phone.
pub const MB_MEMORY: u64 = 4096;
/// `$ncpus`: CPUs of the modelled SoC (the Unisoc and Qualcomm boards have 8).
pub const NCPUS: u64 = 8;

/// Longest line a job file's variables may expand to: a short `${VAR}` repeated on one line
/// must not multiply a large variable into gigabytes.
pub const MAX_EXPANDED_LINE: usize = 1 << 20;

/// `out` with `v` appended, within [`MAX_EXPANDED_LINE`].
fn grow(out: &mut String, v: &str) -> Result<(), String> {
    if out.len() + v.len() > MAX_EXPANDED_LINE {
        return Err(format!(
            "the line's variables expand to more than {} KiB; accepted: lines of at most {} KiB once expanded",
            MAX_EXPANDED_LINE >> 10,
            MAX_EXPANDED_LINE >> 10
        ));
    }
    out.push_str(v);
    Ok(())
}

/// Replaces fio's variables in one job-file line. `env` looks up an environment variable; an
/// unset one is an error naming it (fio would pass the text on and fail later, less clearly).
pub fn expand(line: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    if !line.contains('$') {
        return Ok(line.to_string());
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(body) = after.strip_prefix('{') {
            let end = body
                .find('}')
                .ok_or_else(|| format!("'${{' without a closing '}}' in '{line}'"))?;
            let name = &body[..end];
            let v = env(name).ok_or_else(|| format!("environment variable '{name}' is not set"))?;
            grow(&mut out, &v)?;
            rest = &body[end + 1..];
            continue;
        }
        let word_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let word = &after[..word_len];
        let value = match word {
            "pagesize" => Some(PAGESIZE),
            "mb_memory" => Some(MB_MEMORY),
            "ncpus" => Some(NCPUS),
            _ => None,
        };
        match value {
            Some(v) => out.push_str(&v.to_string()),
            None => match env(word).filter(|_| !word.is_empty()) {
                Some(v) => grow(&mut out, &v)?,
                None => {
                    out.push('$');
                    out.push_str(word);
                }
            },
        }
        rest = &after[word_len..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_repeated_on_a_line_cannot_multiply_it_past_the_cap() {
        let big = "x".repeat(64 << 10);
        let env = |n: &str| (n == "BIG").then(|| big.clone());
        let line = format!("name={}", "${BIG}".repeat(100));
        let e = expand(&line, &env).unwrap_err();
        assert!(e.contains("more than 1024 KiB"), "{e}");
        let line = format!("name={}", "$BIG".repeat(100));
        assert!(expand(&line, &env).is_err());
        assert_eq!(expand("a=${BIG}", &env).unwrap().len(), 2 + (64 << 10));
    }

    #[test]
    fn expands_environment_variables_and_fio_keywords() {
        let env = |k: &str| (k == "SIZE").then(|| "8m".to_string());
        assert_eq!(expand("size=${SIZE}", &env).unwrap(), "size=8m");
        assert_eq!(expand("numjobs=$ncpus", &env).unwrap(), "numjobs=8");
        assert_eq!(expand("bs=$pagesize", &env).unwrap(), "bs=4096");
        assert_eq!(expand("size=$SIZE", &env).unwrap(), "size=8m");
        assert!(expand("size=${NOPE}", &env).unwrap_err().contains("'NOPE'"));
        assert_eq!(expand("name=a$", &env).unwrap(), "name=a$");
    }
}
