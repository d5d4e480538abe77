//! Models of `java.lang.String` queries and of `java.lang.Integer` (parsing, boxing): the model
//! keeps a string's length only and an `Integer`'s value not at all, so every result whose
//! value depends on contents is "any value of the result type, in the Javadoc's range".
//!
//! Identity: the JVM interns string literals (JLS §3.10.5: equal literals are one object) and
//! some methods return their receiver, their argument, an interned literal (`""`, `"null"`,
//! `"true"`) or a cached box (`Integer.valueOf`: "will always cache values in the range -128 to
//! 127, inclusive, and may cache other values outside of this range"). A result of these
//! models is therefore never claimed fresh: it may be any string (box) the state already
//! holds (see `eval/library/shared.rs`). Only `new Integer(int)` is fresh (JLS §15.9.4).

use super::classes::STRING;

/// `java.lang.Integer`.
pub const INTEGER: &str = "java/lang/Integer";
/// Thrown by `Integer.parseInt`/`valueOf(String)` (and `String.split` with a bad pattern is
/// [`PATTERN_SYNTAX`]).
pub const NUMBER_FORMAT: &str = "java/lang/NumberFormatException";
/// Thrown by `String.split` for an invalid regular expression.
pub const PATTERN_SYNTAX: &str = "java/util/regex/PatternSyntaxException";
/// Thrown by `String.charAt`/`substring` out of bounds (the JDK 17 implementation's class;
/// the Javadoc names its superclass `IndexOutOfBoundsException`).
pub const STRING_INDEX: &str = "java/lang/StringIndexOutOfBoundsException";

/// A `String` or `Integer` method with a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TextCall {
    /// `String.equals(Object)`: Javadoc "true if and only if the argument is not null and is a
    /// String object that represents the same sequence of characters": `[0,1]`, `0` for
    /// `null`, `1` for the receiver itself.
    Equals,
    /// A boolean query with a `String` argument (`startsWith`, `endsWith`, `contains` of a
    /// `CharSequence`; `startsWith(prefix, toffset)` with the string below the offset,
    /// `str_at` 1): `[0,1]`; Javadoc "NullPointerException - if ... is null".
    BoolQuery { str_at: usize },
    /// `compareTo(String)`: any int ("a value less than 0 ... greater than 0"); NPE on `null`.
    CompareTo,
    /// `indexOf`/`lastIndexOf` of a char (`null_throws: false`) or a `String` (at `str_at`
    /// from the top: 1 below a `fromIndex`): "the index of the ... occurrence, or -1 if there
    /// is no such occurrence": `[-1, count-1]`.
    IndexOf { null_throws: bool, str_at: usize },
    /// `new String(String original)`: "the newly created string is a copy of the argument
    /// string": the object `new` made gets the argument's length; NPE on `null`.
    NewCopy,
    /// `charAt(int)`: a char; Javadoc "IndexOutOfBoundsException - if the index argument is
    /// negative or not less than the length of this string".
    CharAt,
    /// `substring(begin)` (`two: false`) / `substring(begin, end)`: a string no longer than
    /// the receiver (the receiver itself for the whole range, `""` for an empty one);
    /// "IndexOutOfBoundsException - if beginIndex is negative, or endIndex is larger than the
    /// length of this String object, or beginIndex is larger than endIndex".
    Substring { two: bool },
    /// `concat(String)`: "If the length of the argument string is 0, then this String object
    /// is returned"; NPE on `null`.
    Concat,
    /// `split(String)`: an array of the pieces ("If the expression does not match any part of
    /// the input then the resulting array has just one element, namely this string"; trailing
    /// empty strings are removed, so it may be empty: `",".split(",")`); PatternSyntaxException
    /// for an invalid expression, NPE for `null`.
    Split,
    /// `intern()`: "a string that has the same contents as this string, but is guaranteed to
    /// be from a pool of unique strings": the receiver itself or an equal string of the pool.
    Intern,
    /// `String.valueOf`/`Integer.toString` of a primitive, `Integer.toString()`: its decimal
    /// or literal form, at least one character (`valueOf(boolean)` returns the literals).
    OfPrimitive,
    /// `String.valueOf(Object)`/`toString()` of a `String`: `"null"` for `null`, else
    /// `obj.toString()` (the string itself); any other object is unsupported (program code).
    OfObject,
    /// `Integer.parseInt(String)`: any int, or NumberFormatException ("if the string does not
    /// contain a parsable integer", `null` included).
    ParseInt,
    /// `Integer.valueOf(String)`: `valueOf(parseInt(s))`.
    ValueOfString,
    /// `Integer.valueOf(int)`: a box, possibly a cached one.
    Box,
    /// `new Integer(int)`: the object `new` made (fresh); its value is not kept.
    NewBox,
    /// `Integer.intValue()`: the box's value, which the model does not keep: any int.
    Unbox,
    /// `Integer.hashCode()`/`compareTo(Integer)`: any int (NPE on a `null` argument).
    AnyInt { null_throws: bool },
}

const S: &str = "Ljava/lang/String;";

/// The model of `class.name desc` among the `String` and `Integer` methods, if any.
pub fn text_call(class: &str, name: &str, desc: &str) -> Option<TextCall> {
    use TextCall::*;
    if class == STRING {
        let bool_query = format!("({S})Z");
        return Some(match (name, desc) {
            ("equals", "(Ljava/lang/Object;)Z") => Equals,
            ("startsWith" | "endsWith", d) if d == bool_query => BoolQuery { str_at: 0 },
            ("startsWith", d) if d == format!("({S}I)Z") => BoolQuery { str_at: 1 },
            ("contains", "(Ljava/lang/CharSequence;)Z") => BoolQuery { str_at: 0 },
            ("compareTo", d) if d == format!("({S})I") => CompareTo,
            ("indexOf" | "lastIndexOf", "(I)I" | "(II)I") => IndexOf {
                null_throws: false,
                str_at: 0,
            },
            ("indexOf" | "lastIndexOf", d) if d == format!("({S})I") => IndexOf {
                null_throws: true,
                str_at: 0,
            },
            ("indexOf" | "lastIndexOf", d) if d == format!("({S}I)I") => IndexOf {
                null_throws: true,
                str_at: 1,
            },
            ("<init>", d) if d == format!("({S})V") => NewCopy,
            ("charAt", "(I)C") => CharAt,
            ("substring", d) if d == format!("(I){S}") => Substring { two: false },
            ("substring", d) if d == format!("(II){S}") => Substring { two: true },
            ("concat", d) if d == format!("({S}){S}") => Concat,
            ("split", d) if d == format!("({S})[{S}") => Split,
            ("valueOf", d)
                if [
                    format!("(Z){S}"),
                    format!("(C){S}"),
                    format!("(I){S}"),
                    format!("(J){S}"),
                ]
                .contains(&d.to_string()) =>
            {
                OfPrimitive
            }
            ("valueOf", d) if d == format!("(Ljava/lang/Object;){S}") => OfObject,
            ("toString", d) if d == format!("(){S}") => OfObject,
            ("intern", d) if d == format!("(){S}") => Intern,
            _ => return None,
        });
    }
    if class == INTEGER {
        return Some(match (name, desc) {
            ("parseInt", d) if d == format!("({S})I") => ParseInt,
            ("valueOf", d) if d == format!("({S})Ljava/lang/Integer;") => ValueOfString,
            ("valueOf", "(I)Ljava/lang/Integer;") => Box,
            ("<init>", "(I)V") => NewBox,
            ("intValue", "()I") => Unbox,
            ("toString", d) if d == format!("(I){S}") || d == format!("(){S}") => OfPrimitive,
            ("hashCode", "()I") => AnyInt { null_throws: false },
            ("compareTo", "(Ljava/lang/Integer;)I") => AnyInt { null_throws: true },
            _ => return None,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_the_modelled_methods_only() {
        assert_eq!(text_call(STRING, "charAt", "(I)C"), Some(TextCall::CharAt));
        assert_eq!(
            text_call(INTEGER, "parseInt", "(Ljava/lang/String;)I"),
            Some(TextCall::ParseInt)
        );
        // the radix variant and String.format are not modelled
        assert_eq!(
            text_call(INTEGER, "parseInt", "(Ljava/lang/String;I)I"),
            None
        );
        assert_eq!(
            text_call(
                STRING,
                "format",
                "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;"
            ),
            None
        );
        assert_eq!(
            text_call("java/lang/Long", "parseLong", "(Ljava/lang/String;)J"),
            None
        );
    }
}
