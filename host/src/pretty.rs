//! Indenting compact JSON for people (`--pretty`), keeping every byte of every key and
//! value and their order: only whitespace is added between tokens.

/// `compact` with two-space indentation. Input that is not compact JSON is indented on a
/// best-effort basis; nothing inside strings is ever changed.
///
/// ```
/// assert_eq!(codemode_errors_host::pretty::indent(r#"{"a":[1,{}],"b":"x,y"}"#), "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"x,y\"\n}");
/// ```
pub fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::indent;

    #[test]
    fn strings_are_untouched() {
        let s = r#"{"k":"a \"{[,:]}\" b\\","e":[]}"#;
        assert_eq!(indent(s), "{\n  \"k\": \"a \\\"{[,:]}\\\" b\\\\\",\n  \"e\": []\n}");
    }

    #[test]
    fn removing_whitespace_gives_back_the_input() {
        let s = r#"{"error":{"a":1,"b":[true,null,{"c":"d e"}]},"breaker":"success"}"#;
        let pretty = indent(s);
        let mut back = String::new();
        let (mut in_string, mut escaped) = (false, false);
        for c in pretty.chars() {
            if in_string {
                in_string = escaped || c != '"';
                escaped = !escaped && c == '\\';
            } else if c == '"' {
                in_string = true;
            } else if c.is_whitespace() {
                continue;
            }
            back.push(c);
        }
        assert_eq!(back, s);
    }
}
