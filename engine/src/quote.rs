//! How error messages quote a user's input: on one line, and cut to a short part with its
//! length, whatever was given.

/// A user's input as an error message quotes it: in single quotes, control characters (a
/// newline, a tab) escaped, and at most its first 80 characters, with its length when longer,
/// so the message stays one short line whatever was given.
#[must_use]
pub fn quote_input(text: &str) -> String {
    const SHOWN: usize = 80;
    let n = text.chars().count();
    let head = one_line(&text.chars().take(SHOWN).collect::<String>());
    if n <= SHOWN {
        format!("'{head}'")
    } else {
        format!("'{head}...' ({n} characters)")
    }
}

/// `text` with its control characters escaped (`\n`), so it prints on one line.
#[must_use]
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` on one line (as [`one_line`]) and cut after `shown` characters, with its length when
/// cut: for a message that may carry part of a user's input.
#[must_use]
pub fn clip(text: &str, shown: usize) -> String {
    let n = text.chars().count();
    if n <= shown {
        one_line(text)
    } else {
        let head: String = text.chars().take(shown).collect();
        format!("{}... ({n} characters)", one_line(&head))
    }
}

/// `text`, a message that may quote parts of a user's input, with each quoted part (in `'...'`,
/// in `"..."` with `\"` escapes, or in backticks) cut to its first 80 characters, followed by
/// its length. A `'` opens a quote only where a word does not go on before it (so the
/// apostrophe of "player's" is not one).
#[must_use]
pub fn clip_quoted(text: &str) -> String {
    const SHOWN: usize = 80;
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len().min(400));
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        let opens = match c {
            '"' | '`' => true,
            '\'' => i < 2 || !chars[i - 2].is_alphanumeric(),
            _ => false,
        };
        if !opens {
            continue;
        }
        let start = i;
        // A closing `'` is one no word goes on after.
        while i < chars.len()
            && !(chars[i] == c
                && (c != '\'' || chars.get(i + 1).is_none_or(|n| !n.is_alphanumeric())))
        {
            if c == '"' && chars[i] == '\\' {
                i += 1;
            }
            i += 1;
        }
        let inner = &chars[start..i.min(chars.len())];
        // A part cut already (by [`quote_input`]) ends in "...".
        let cut = inner.len() > SHOWN && !(inner.len() == SHOWN + 3 && inner.ends_with(&['.'; 3]));
        if cut {
            out.extend(inner.iter().take(SHOWN));
            out.push_str("...");
        } else {
            out.extend(inner);
        }
        if i < chars.len() {
            out.push(c);
            i += 1;
        }
        if cut {
            out.push_str(&format!(" ({} characters)", inner.len()));
        }
    }
    out
}
