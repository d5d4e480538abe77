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
/// `java.lang.Character`.
pub const CHARACTER: &str = "java/lang/Character";

/// A box class whose boxing and unboxing are modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Boxed {
    Integer,
    Character,
}

impl Boxed {
    pub(crate) fn class(self) -> &'static str {
        match self {
            Boxed::Integer => INTEGER,
            Boxed::Character => CHARACTER,
        }
    }
}
/// Thrown by `Integer.parseInt`/`valueOf(String)` (and `String.split` with a bad pattern is
/// [`PATTERN_SYNTAX`]).
pub(crate) const NUMBER_FORMAT: &str = "java/lang/NumberFormatException";
/// Thrown by `String.split` for an invalid regular expression.
pub(crate) const PATTERN_SYNTAX: &str = "java/util/regex/PatternSyntaxException";
/// Thrown by `String.charAt`/`substring` out of bounds (the JDK 17 implementation's class;
/// the Javadoc names its superclass `IndexOutOfBoundsException`).
pub(crate) const STRING_INDEX: &str = "java/lang/StringIndexOutOfBoundsException";

/// A `String` or `Integer` method with a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TextCall {
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
    /// `indexOf`/`lastIndexOf` (`last`) of a char (`null_throws: false`) or a `String` (at
    /// `str_at` from the top: 1 below a `fromIndex`, `from`): "the index of the ...
    /// occurrence, or -1 if there is no such occurrence". Found, a char's index is in `[0,
    /// count-1]`, a string's in `[0, count]` ("" is found at the end); from `fromIndex`, a
    /// char's index is `≥ fromIndex` (`indexOf`: "greater than or equal to fromIndex") or `≤
    /// fromIndex` (`lastIndexOf`: "less than or equal to fromIndex"), a string's `≤ fromIndex`
    /// for `lastIndexOf` ("k <= Math.min(fromIndex, this.length())") — `indexOf(String, from)`
    /// only promises `k >= Math.min(fromIndex, this.length())`, no bound by `fromIndex`.
    IndexOf {
        null_throws: bool,
        str_at: usize,
        last: bool,
        from: bool,
    },
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
    /// `String.valueOf`/`Integer.toString` of a primitive, `Integer.toString()`, and
    /// `Integer.toBinaryString`/`toOctalString`/`toHexString`: its decimal, literal or
    /// unsigned-radix form, of `min..=max` characters (`valueOf(boolean)` returns the literals
    /// `"true"`/`"false"`; a `char` is one; an `int` in decimal at most `"-2147483648"`'s 11, a
    /// `long` `"-9223372036854775808"`'s 20; the unsigned forms "without extra leading 0s", at
    /// most 32 binary, 11 octal, 8 hex digits for the 32 bits, `"0"` for zero).
    OfPrimitive { min: u8, max: u8 },
    /// `String.valueOf(Object)`/`toString()` of a `String`: `"null"` for `null`, else
    /// `obj.toString()` (the string itself); any other object is unsupported (program code).
    OfObject,
    /// `Integer.parseInt(String)`: any int, or NumberFormatException ("if the string does not
    /// contain a parsable integer", `null` included).
    ParseInt,
    /// `Integer.valueOf(String)`: `valueOf(parseInt(s))`.
    ValueOfString,
    /// `Integer.valueOf(int)`, `Character.valueOf(char)`: a box, possibly a cached one
    /// (`Character`: "This method will always cache values in the range '\u0000' to
    /// '\u007F', inclusive, and may cache other characters outside of this range").
    Box(Boxed),
    /// `new Integer(int)`: the object `new` made (fresh); its value is not kept.
    NewBox,
    /// `Integer.intValue()`, `Character.charValue()`: the box's value, which the model does not
    /// keep: any value of the primitive type.
    Unbox(Boxed),
    /// `Integer.hashCode()`/`compareTo(Integer)`, `Character.hashCode()`/`compareTo(Character)`:
    /// any int (NPE on a `null` argument).
    AnyInt { null_throws: bool },
    /// The bridge `compareTo(Object)` of `Comparable` that `String` and the boxes have (what a
    /// generic `x.compareTo(y)` calls): it casts its argument to the receiver's class, so
    /// ClassCastException for an object of another class, NullPointerException for `null`,
    /// else `compareTo`'s any int. `class`: the receiver's.
    CompareToBridge { class: &'static str },
    /// `isEmpty()`: "true if, and only if, length() is 0": the length decides it (refined
    /// against 0 first).
    IsEmpty,
    /// `isBlank()`: "true if the string is empty or contains only white space codepoints":
    /// `1` for the empty string, else `[0,1]`.
    IsBlank,
    /// `trim()`/`strip()`/`stripLeading()`/`stripTrailing()`: "this string, with all leading
    /// and trailing space removed, or this string if it has no leading or trailing space": a
    /// string no longer than the receiver.
    Trim,
    /// `toCharArray()`: "a newly allocated character array whose length is the length of this
    /// string": a new `char[]` whose length is the receiver's `count`.
    ToCharArray,
    /// `toUpperCase()`/`toLowerCase()`: the case mapping may change the length ("ß" → "SS"),
    /// never empties a non-empty string nor fills an empty one.
    ChangeCase,
    /// `replace(char, char)`: "a string derived from this string by replacing every occurrence
    /// of oldChar with newChar" (the receiver itself when there is none): the same length.
    ReplaceChar,
    /// `replace(CharSequence target, CharSequence replacement)` of two strings: "the resulting
    /// string" of replacing each substring that matches `target` (the receiver itself when none
    /// does, JDK 17), of any length; NullPointerException for a `null` argument
    /// (`target.toString()` first). Another `CharSequence` is unsupported (its `toString()` may
    /// be program code).
    ReplaceSeq,
    /// `repeat(int count)` (JDK 11+): "IllegalArgumentException - if the count is negative";
    /// JDK 17 returns the receiver for 1 and `""` for 0 or an empty receiver, else a new
    /// string of `length() * count` characters (an OutOfMemoryError past the int range, a JVM
    /// limit, ends the run).
    Repeat,
    /// `String.valueOf(char[])`: "the characters contained in the character array": a string
    /// of the array's length; NPE for `null`.
    ValueOfChars,
    /// `new String(char[] value)`: "represent the sequence of characters currently contained
    /// in the character array argument": the object `new` made gets the array's length; NPE
    /// for `null`.
    NewOfChars,
}

/// How many characters an `append` adds: those of `String.valueOf(x)` for a primitive `x`
/// (`Chars`: a `boolean` "true"/"false" 4–5, a `char` 1, an `int` 1–11 as
/// `"-2147483648"`, a `long` 1–20, a `float`/`double` at least 1, no bound kept), or a
/// string's length (`Text`: "If str is null, then the four characters "null" are
/// appended").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Appended {
    Chars { min: u8, max: Option<u8> },
    Text,
}

impl Appended {
    /// What `append` with the parameter descriptor `param` adds, if it is modelled.
    pub(super) fn of_param(param: &str) -> Option<Appended> {
        let chars = |min, max| Some(Appended::Chars { min, max });
        match param {
            "Z" => chars(4, Some(5)),
            "C" => chars(1, Some(1)),
            "I" => chars(1, Some(11)),
            "J" => chars(1, Some(20)),
            "F" | "D" => chars(1, None),
            "Ljava/lang/String;" => Some(Appended::Text),
            _ => None,
        }
    }
}

/// A `StringBuilder` method with a model beyond `append`/`toString` (`super::LibraryCall`). The
/// model keeps the length (the field `count`) and no contents: an index is checked against the
/// length where the intervals decide it, else by a split (returns / throws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum BuilderCall {
    /// `length()`: "the length of the sequence of characters currently represented": `≥ 0`.
    Length,
    /// `reverse()`: "Returns: a reference to this object"; throws nothing.
    Reverse,
    /// `setLength(int)`: "IndexOutOfBoundsException - if the newLength argument is negative"
    /// (JDK 17 throws StringIndexOutOfBoundsException).
    SetLength,
    /// `charAt(int)`: a char, or "IndexOutOfBoundsException - if index is negative or greater
    /// than or equal to length()" (StringIndexOutOfBoundsException in JDK 17).
    CharAt,
    /// `deleteCharAt(int)`: "StringIndexOutOfBoundsException - if the index is negative or
    /// greater than or equal to length()"; returns this.
    DeleteCharAt,
    /// `setCharAt(int, char)`: "IndexOutOfBoundsException - if index is negative or greater
    /// than or equal to length()".
    SetCharAt,
    /// `insert(int offset, x)` of a primitive or a `String`: "StringIndexOutOfBoundsException -
    /// if the offset is invalid" (negative or greater than `length()`); returns this, longer by
    /// what [`Appended`] says of `x`.
    Insert(Appended),
    /// `append(CharSequence s, int start, int end)`: "If s is null, then characters are
    /// appended as if s contained the four characters "null""; "IndexOutOfBoundsException - if
    /// start is negative, or start is greater than end or end is greater than s.length()";
    /// returns this. `s` must be `null` or a `String` (another `CharSequence`'s `length()` and
    /// `charAt` may be program code).
    AppendRange,
}

/// The model of `StringBuilder.name desc` among [`BuilderCall`], if any.
pub(super) fn builder_call(name: &str, desc: &str) -> Option<BuilderCall> {
    use BuilderCall::*;
    const SB: &str = "Ljava/lang/StringBuilder;";
    let (params, ret) = desc.strip_prefix('(')?.split_once(')')?;
    match (name, params) {
        ("length", "") if ret == "I" => Some(Length),
        ("reverse", "") if ret == SB => Some(Reverse),
        ("setLength", "I") if ret == "V" => Some(SetLength),
        ("charAt", "I") if ret == "C" => Some(CharAt),
        ("deleteCharAt", "I") if ret == SB => Some(DeleteCharAt),
        ("setCharAt", "IC") if ret == "V" => Some(SetCharAt),
        ("insert", p) if ret == SB => Some(Insert(Appended::of_param(p.strip_prefix('I')?)?)),
        ("append", "Ljava/lang/CharSequence;II") if ret == SB => Some(AppendRange),
        _ => None,
    }
}

const S: &str = "Ljava/lang/String;";

/// The model of `class.name desc` among the `String` and `Integer` methods, if any.
pub(super) fn text_call(class: &str, name: &str, desc: &str) -> Option<TextCall> {
    use TextCall::*;
    if class == STRING {
        let bool_query = format!("({S})Z");
        return Some(match (name, desc) {
            ("equals", "(Ljava/lang/Object;)Z") => Equals,
            ("startsWith" | "endsWith", d) if d == bool_query => BoolQuery { str_at: 0 },
            ("startsWith", d) if d == format!("({S}I)Z") => BoolQuery { str_at: 1 },
            ("contains", "(Ljava/lang/CharSequence;)Z") => BoolQuery { str_at: 0 },
            ("compareTo", d) if d == format!("({S})I") => CompareTo,
            ("compareTo", "(Ljava/lang/Object;)I") => CompareToBridge { class: STRING },
            ("indexOf" | "lastIndexOf", "(I)I" | "(II)I") => IndexOf {
                null_throws: false,
                str_at: 0,
                last: name == "lastIndexOf",
                from: desc == "(II)I",
            },
            ("indexOf" | "lastIndexOf", d) if d == format!("({S})I") => IndexOf {
                null_throws: true,
                str_at: 0,
                last: name == "lastIndexOf",
                from: false,
            },
            ("indexOf" | "lastIndexOf", d) if d == format!("({S}I)I") => IndexOf {
                null_throws: true,
                str_at: 1,
                last: name == "lastIndexOf",
                from: true,
            },
            ("<init>", d) if d == format!("({S})V") => NewCopy,
            ("charAt", "(I)C") => CharAt,
            ("substring", d) if d == format!("(I){S}") => Substring { two: false },
            ("substring", d) if d == format!("(II){S}") => Substring { two: true },
            ("concat", d) if d == format!("({S}){S}") => Concat,
            ("split", d) if d == format!("({S})[{S}") => Split,
            ("valueOf", d) if value_of_primitive(d).is_some() => value_of_primitive(d)?,
            ("valueOf", d) if d == format!("(Ljava/lang/Object;){S}") => OfObject,
            ("toString", d) if d == format!("(){S}") => OfObject,
            ("intern", d) if d == format!("(){S}") => Intern,
            ("repeat", d) if d == format!("(I){S}") => Repeat,
            ("equalsIgnoreCase", d) if d == format!("({S})Z") => Equals,
            ("compareToIgnoreCase", d) if d == format!("({S})I") => CompareTo,
            ("isEmpty", "()Z") => IsEmpty,
            ("isBlank", "()Z") => IsBlank,
            ("trim" | "strip" | "stripLeading" | "stripTrailing", d) if d == format!("(){S}") => {
                Trim
            }
            ("toCharArray", "()[C") => ToCharArray,
            ("toUpperCase" | "toLowerCase", d) if d == format!("(){S}") => ChangeCase,
            ("replace", d) if d == format!("(CC){S}") => ReplaceChar,
            ("replace", d)
                if d == format!("(Ljava/lang/CharSequence;Ljava/lang/CharSequence;){S}") =>
            {
                ReplaceSeq
            }
            ("valueOf" | "copyValueOf", d) if d == format!("([C){S}") => ValueOfChars,
            ("<init>", "([C)V") => NewOfChars,
            _ => return None,
        });
    }
    if class == "java/lang/Long" && name == "toString" && desc == format!("(J){S}") {
        return primitive_form("J");
    }
    if class == CHARACTER {
        return Some(match (name, desc) {
            ("toString", d) if d == format!("(C){S}") || d == format!("(){S}") => {
                primitive_form("C")?
            }
            ("valueOf", "(C)Ljava/lang/Character;") => Box(Boxed::Character),
            ("charValue", "()C") => Unbox(Boxed::Character),
            ("hashCode", "()I") => AnyInt { null_throws: false },
            ("compareTo", "(Ljava/lang/Character;)I") => AnyInt { null_throws: true },
            ("compareTo", "(Ljava/lang/Object;)I") => CompareToBridge { class: CHARACTER },
            _ => return None,
        });
    }
    if class == INTEGER {
        return Some(match (name, desc) {
            ("parseInt", d) if d == format!("({S})I") => ParseInt,
            ("valueOf", d) if d == format!("({S})Ljava/lang/Integer;") => ValueOfString,
            ("valueOf", "(I)Ljava/lang/Integer;") => Box(Boxed::Integer),
            ("<init>", "(I)V") => NewBox,
            ("intValue", "()I") => Unbox(Boxed::Integer),
            ("toString", d) if d == format!("(I){S}") || d == format!("(){S}") => {
                primitive_form("I")?
            }
            ("toBinaryString", d) if d == format!("(I){S}") => OfPrimitive { min: 1, max: 32 },
            ("toOctalString", d) if d == format!("(I){S}") => OfPrimitive { min: 1, max: 11 },
            ("toHexString", d) if d == format!("(I){S}") => OfPrimitive { min: 1, max: 8 },
            ("hashCode", "()I") => AnyInt { null_throws: false },
            ("compareTo", "(Ljava/lang/Integer;)I") => AnyInt { null_throws: true },
            ("compareTo", "(Ljava/lang/Object;)I") => CompareToBridge { class: INTEGER },
            _ => return None,
        });
    }
    None
}

/// `String.valueOf` of the primitive whose descriptor is `desc`'s one parameter.
fn value_of_primitive(desc: &str) -> Option<TextCall> {
    primitive_form(desc.strip_prefix('(')?.strip_suffix(&format!("){S}"))?)
}

/// The length bounds of the string form of a primitive of descriptor `d` (`String.valueOf`,
/// `Integer`/`Long`/`Character.toString`).
fn primitive_form(d: &str) -> Option<TextCall> {
    let (min, max) = match d {
        "Z" => (4, 5),
        "C" => (1, 1),
        "I" => (1, 11),
        "J" => (1, 20),
        _ => return None,
    };
    Some(TextCall::OfPrimitive { min, max })
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
        assert_eq!(
            text_call(STRING, "valueOf", "(Z)Ljava/lang/String;"),
            Some(TextCall::OfPrimitive { min: 4, max: 5 })
        );
        assert_eq!(
            text_call(INTEGER, "toHexString", "(I)Ljava/lang/String;"),
            Some(TextCall::OfPrimitive { min: 1, max: 8 })
        );
        // `valueOf(double)` is not: its form has no short bound here
        assert_eq!(text_call(STRING, "valueOf", "(D)Ljava/lang/String;"), None);
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
