//! Colour on terminals: errors, violations and diffs. `--color auto|always|never`; `auto`
//! (the default) colours a stream only when it is a terminal and `NO_COLOR` is not set to a
//! non-empty value (no-color.org; also `CLICOLOR=0`, `CLICOLOR_FORCE`, `TERM=dumb`, as
//! `anstream` reads them). Reports are rendered with escapes and written through `anstream`,
//! which strips them wherever colour is off, so a piped or redirected report is plain text;
//! files written with `-o` are always plain.

use anstyle::{AnsiColor, Style};
use std::io::Write;

/// `--color` values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// Colour a stream that is a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always colour (also when piped; `NO_COLOR` is ignored).
    Always,
    /// Never colour.
    Never,
}

/// Sets the colour choice of every stream jtg writes to (call once, before any output).
pub fn init(when: ColorWhen) {
    let choice = match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    choice.write_global();
}

const ERROR: Style = AnsiColor::Red.on_default().bold();
const BAD: Style = AnsiColor::Red.on_default();
const GOOD: Style = AnsiColor::Green.on_default();
const NOTE: Style = AnsiColor::Yellow.on_default();
const HEAD: Style = Style::new().bold();
const TOKEN_OLD: Style = AnsiColor::Red.on_default().bold().underline();
const TOKEN_NEW: Style = AnsiColor::Green.on_default().bold().underline();

fn styled(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// Prints `jtg: MESSAGE` on standard error, `jtg:` in bold red when colour is on.
pub fn error_line(message: &str) {
    let mut err = anstream::stderr();
    let _ = writeln!(err, "{} {message}", styled(ERROR, "jtg:"));
}

/// Writes `text` to standard output through `anstream` (escapes stripped when colour is off).
pub fn print(text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut out = anstream::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// A check report (`jtg check`, `jtg merge`) with its violations in red: `VIOLATION` headers,
/// and the totals line's violation count (red when there are any, green when none).
pub fn check_report(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if line.starts_with("VIOLATION") {
            out.push_str(&styled(ERROR, line.trim_end_matches('\n')));
            out.push('\n');
        } else if let Some(k) = line.find(" violations,") {
            // the count is the number before " violations,"
            let start = line[..k].rfind(' ').map_or(0, |s| s + 1);
            let count = &line[start..k];
            let style = if count == "0" { GOOD } else { BAD };
            out.push_str(&line[..start]);
            out.push_str(&styled(style, &line[start..k + " violations".len()]));
            out.push_str(&line[k + " violations".len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// A `jtg diff` text report: removed lines red, added lines green, relabelled edges yellow,
/// node headers bold; changed tokens (between `«` and `»`) bold and underlined.
pub fn diff_report(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let painted = if body.starts_with("  - ") {
            tokens(body, BAD, TOKEN_OLD)
        } else if body.starts_with("  + ") {
            tokens(body, GOOD, TOKEN_NEW)
        } else if body.starts_with("  ~ ") {
            styled(NOTE, body)
        } else if ["changed [", "renamed [", "added [", "removed [", "diff "]
            .iter()
            .any(|p| body.starts_with(p))
        {
            styled(HEAD, body)
        } else {
            body.to_string()
        };
        out.push_str(&painted);
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// `line` in `base`, with the marked tokens (`«…»`, markers kept) in `token`.
fn tokens(line: &str, base: Style, token: Style) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(a) = rest.find('«') {
        let Some(b) = rest[a..].find('»').map(|b| a + b + '»'.len_utf8()) else {
            break;
        };
        out.push_str(&styled(base, &rest[..a]));
        out.push_str(&styled(token, &rest[a..b]));
        rest = &rest[b..];
    }
    out.push_str(&styled(base, rest));
    out
}

/// A one-line summary with its violation count coloured (`corpus` totals, interrupted runs).
pub fn totals_line(text: &str, violations: usize) -> String {
    styled(if violations > 0 { BAD } else { HEAD }, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(s: &str) -> String {
        anstream::adapter::strip_str(s).to_string()
    }

    #[test]
    fn painting_only_adds_escapes() {
        let check = "VIOLATION (seed 0 case 3)\n  input:\nM.m()V: 4 traces, 9 steps, 1 violations, 0 outside the model, 0 cut\n";
        assert_eq!(strip(&check_report(check)), check);
        assert!(check_report(check).contains("\u{1b}[31m1 violations"));
        let none = "M.m()V: 4 traces, 9 steps, 0 violations, 0 cut\n";
        assert!(check_report(none).contains("\u{1b}[32m0 violations"));
        let diff = "diff M: old 1\n\nchanged [0] → [0]\n  - i1: «Z»\n  + i1: «[-1,1]»\n  ~ [0] → [1] eval\n";
        let painted = diff_report(diff);
        assert_eq!(strip(&painted), diff);
        assert!(
            painted.contains("\u{1b}[1m\u{1b}[4m\u{1b}[32m«[-1,1]»"),
            "{painted:?}"
        );
    }
}
