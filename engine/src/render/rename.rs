//! References renamed by first occurrence (`o#1`, `i#1`, …): the canonical form in which
//! [`super::diff`] and [`super::align`] compare state texts and labels of two graphs whose
//! reference numbers differ.

use std::collections::HashMap;

/// Whether a reference token (`o12`, `i3`) starts at byte `k` of `s`: `o` or `i`, digits, and
/// no identifier character on either side.
fn ref_at(s: &[u8], k: usize) -> Option<usize> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    if !matches!(s[k], b'o' | b'i') || (k > 0 && ident(s[k - 1])) {
        return None;
    }
    let digits = s[k + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let end = k + 1 + digits;
    (digits > 0 && (end == s.len() || !ident(s[end]))).then_some(end)
}

/// Renames references in `text` by first occurrence (`o#1`, `i#1`, …), continuing `names`.
pub(super) fn canonical(text: &str, names: &mut HashMap<String, String>) -> String {
    let s = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut k = 0;
    while k < s.len() {
        if let Some(end) = ref_at(s, k) {
            out.push_str(&text[last..k]);
            let r = &text[k..end];
            let kind = &r[..1];
            let n = names.values().filter(|v| v.starts_with(kind)).count() + 1;
            let name = names
                .entry(r.to_string())
                .or_insert_with(|| format!("{kind}#{n}"));
            out.push_str(name);
            last = end;
            k = end;
        } else {
            k += 1;
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_renames_by_first_occurrence_only_reference_tokens() {
        let mut names = HashMap::new();
        let s = canonical(
            "00 | this: o4, x: i7, i: i2 | o4\no4: int[](len=i7)",
            &mut names,
        );
        assert_eq!(
            s,
            "00 | this: o#1, x: i#1, i: i#2 | o#1\no#1: int[](len=i#1)"
        );
        // identifiers that merely start with o/i are not references
        let mut names = HashMap::new();
        assert_eq!(canonical("io1 o1x i12", &mut names), "io1 o1x i#1");
    }
}
