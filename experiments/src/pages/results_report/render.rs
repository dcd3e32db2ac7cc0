//! The templates (`experiments/templates/report/`, built into the binary) and the filters they
//! format numbers with, rendered by minijinja.

use minijinja::value::Value;
use minijinja::{Environment, UndefinedBehavior};

/// The templates, by name; `README.md.j2` is the report and includes the others.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "README.md.j2",
        include_str!("../../../templates/report/README.md.j2"),
    ),
    (
        "macros.j2",
        include_str!("../../../templates/report/macros.j2"),
    ),
    (
        "answers.md.j2",
        include_str!("../../../templates/report/answers.md.j2"),
    ),
    (
        "study.md.j2",
        include_str!("../../../templates/report/study.md.j2"),
    ),
    (
        "intro-default-study.md.j2",
        include_str!("../../../templates/report/intro-default-study.md.j2"),
    ),
    (
        "intro-large-study.md.j2",
        include_str!("../../../templates/report/intro-large-study.md.j2"),
    ),
    (
        "intro-julbahar-rules.md.j2",
        include_str!("../../../templates/report/intro-julbahar-rules.md.j2"),
    ),
    (
        "note-baghchal.md.j2",
        include_str!("../../../templates/report/note-baghchal.md.j2"),
    ),
    (
        "note-julbahar.md.j2",
        include_str!("../../../templates/report/note-julbahar.md.j2"),
    ),
    (
        "note-bargese.md.j2",
        include_str!("../../../templates/report/note-bargese.md.j2"),
    ),
    (
        "solve.md.j2",
        include_str!("../../../templates/report/solve.md.j2"),
    ),
    (
        "ladders.md.j2",
        include_str!("../../../templates/report/ladders.md.j2"),
    ),
    (
        "converge.md.j2",
        include_str!("../../../templates/report/converge.md.j2"),
    ),
    (
        "others.md.j2",
        include_str!("../../../templates/report/others.md.j2"),
    ),
];

/// A CSV cell or a number as a float; None for an empty cell, text or a missing value.
fn as_f64(v: &Value) -> Option<f64> {
    if let Some(s) = v.as_str() {
        return s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    }
    f64::try_from(v.clone()).ok().filter(|x| x.is_finite())
}

/// `x|f(d)`: fixed with `d` decimals (3 by default); `-` where there is no number.
fn f(v: Value, digits: Option<usize>) -> String {
    as_f64(&v).map_or_else(
        || "-".into(),
        |x| {
            let s = format!("{:.*}", digits.unwrap_or(3), x);
            // No "-0.000".
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s
            }
        },
    )
}

/// `x|signed(d)`: as [`f`] with a sign always.
fn signed(v: Value, digits: Option<usize>) -> String {
    let s = f(v, digits);
    if s == "-" || s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

/// `x|pct(d)`: a fraction as a percentage with `d` decimals (1 by default).
fn pct(v: Value, digits: Option<usize>) -> String {
    as_f64(&v).map_or_else(
        || "-".into(),
        |x| format!("{:.*}%", digits.unwrap_or(1), x * 100.0),
    )
}

/// `x|int`: a count with thousands separators.
fn int(v: Value) -> String {
    let Some(x) = as_f64(&v) else {
        return "-".into();
    };
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// `x|num`: the number in a cell (for comparisons), none where there is none.
fn num(v: Value) -> Value {
    as_f64(&v).map_or(Value::from(()), Value::from)
}

/// Renders `README.md.j2` with `ctx`.
///
/// # Errors
/// A template error (its name and line).
pub fn render(ctx: &serde_json::Value) -> anyhow::Result<String> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Chainable);
    for (name, text) in TEMPLATES {
        env.add_template(name, text)
            .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
    }
    env.add_filter("f", f);
    env.add_filter("signed", signed);
    env.add_filter("pct", pct);
    env.add_filter("int", int);
    env.add_filter("num", num);
    let t = env
        .get_template("README.md.j2")
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    t.render(Value::from_serialize(ctx)).map_err(|e| {
        let mut msg = format!("rendering the report: {e}");
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            msg += &format!(": {s}");
            src = s.source();
        }
        anyhow::anyhow!(msg)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_formatted_as_the_tables_show_them() {
        assert_eq!(f(Value::from("0.454500"), None), "0.455");
        assert_eq!(f(Value::from("-0.0001"), None), "0.000");
        assert_eq!(f(Value::from(""), None), "-");
        assert_eq!(signed(Value::from("0.0085"), Some(2)), "+0.01");
        assert_eq!(signed(Value::from("-0.13"), None), "-0.130");
        assert_eq!(int(Value::from(88_260_972u64)), "88,260,972");
        assert_eq!(int(Value::from("1666")), "1,666");
        assert_eq!(int(Value::from(73u64)), "73");
        assert_eq!(pct(Value::from("0.5151"), None), "51.5%");
    }
}
