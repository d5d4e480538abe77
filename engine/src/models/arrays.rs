//! Models of `System.arraycopy` and of `java.util.Arrays` on arrays of primitives (and the
//! reference variants that call no program code). Each variant quotes the Javadoc contract it
//! keeps; evaluated in `eval/library/arrays.rs`.

/// `java.util.Arrays`.
pub(super) const ARRAYS: &str = "java/util/Arrays";

/// An array method with a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ArraysCall {
    /// `System.arraycopy(src, srcPos, dest, destPos, length)`: "If dest is null, then a
    /// NullPointerException is thrown. If src is null, then a NullPointerException is thrown";
    /// ArrayStoreException (and "dest is not modified") when an argument is no array or the
    /// component types are of different primitive kinds or one primitive; "Otherwise, if any of
    /// the following is true, an IndexOutOfBoundsException is thrown and the destination is not
    /// modified: The srcPos argument is negative. The destPos argument is negative. The length
    /// argument is negative. srcPos+length is greater than src.length ... destPos+length is
    /// greater than dest.length"; overlapping ranges copy "as if ... first copied to a temporary
    /// array". Reference arrays whose elements might not fit the destination (an
    /// ArrayStoreException in the middle of the copy) are unsupported.
    Copy,
    /// `Arrays.fill(a, val)`: every element becomes `val`; NPE for `null`; for `Object[]`
    /// ArrayStoreException "if the specified value is not of a runtime type that can be stored
    /// in the specified array" (a value the type check cannot decide is unsupported).
    Fill,
    /// `Arrays.copyOf(original, newLength)`: "a copy of the original array, truncated or padded
    /// with zeros [nulls] to obtain the specified length"; NegativeArraySizeException "if
    /// newLength is negative", NullPointerException "if original is null" (JDK 17 checks the
    /// length first for primitive arrays, `original.getClass()` first for `T[]`); "The
    /// resulting array is of exactly the same class as the original array".
    CopyOf { reference: bool },
    /// `Arrays.copyOfRange(original, from, to)` of a primitive array: IllegalArgumentException
    /// "if from > to" (JDK 17: `to - from` as an int is negative); NullPointerException "if
    /// original is null"; ArrayIndexOutOfBoundsException "if from < 0 or from >
    /// original.length"; else a new array of length `to - from` (elements not kept).
    CopyOfRange,
    /// `Arrays.binarySearch(a, key)` of a primitive array: NullPointerException for `null`
    /// (`a.length`); else "index of the search key, if it is contained in the array; otherwise,
    /// (-(insertion point) - 1)": JDK 17's `binarySearch0` returns a `mid` in `[0, length-1]`
    /// or `-(low + 1)` with `low` in `[0, length]`, sorted or not.
    BinarySearch,
    /// `Arrays.equals(a, a2)` of primitive arrays: "true if the two arrays are equal"; "two
    /// array references are considered equal if both are null"; arrays of different lengths
    /// are not equal.
    Equals,
    /// `Arrays.sort` of a primitive array: "Sorts the specified array into ascending numerical
    /// order": a permutation of the elements; NPE for `null`.
    Sort,
    /// `Arrays.sort(Object[])` and the other sorts that compare with `compareTo` or a
    /// `Comparator`: program code the model does not run; always unsupported, named.
    SortByCallback,
    /// `Arrays.toString` of a primitive array: "null" if `a` is null, else "[" elements "]":
    /// at least two characters.
    ToString,
    /// `Arrays.hashCode` of a primitive array: 0 for `null`, else any int.
    HashCode,
}

impl ArraysCall {
    /// Whether the call may change an existing array (see `LibraryCall::may_write`).
    pub(crate) fn may_write(&self) -> bool {
        matches!(self, ArraysCall::Copy | ArraysCall::Fill | ArraysCall::Sort)
    }
}

/// The primitive array descriptors the `Arrays` methods are overloaded on.
const PRIMITIVE: [&str; 8] = ["[I", "[J", "[S", "[C", "[B", "[Z", "[F", "[D"];

/// The model of `class.name desc` among the array methods, if any.
pub(super) fn arrays_call(class: &str, name: &str, desc: &str) -> Option<ArraysCall> {
    use ArraysCall::*;
    if class == "java/lang/System" {
        return (name == "arraycopy" && desc == "(Ljava/lang/Object;ILjava/lang/Object;II)V")
            .then_some(Copy);
    }
    if class != ARRAYS {
        return None;
    }
    let (params, ret) = desc.strip_prefix('(')?.split_once(')')?;
    let prim = PRIMITIVE.iter().find(|p| params.starts_with(*p)).copied();
    match (name, prim) {
        ("fill", Some(p)) if params == format!("{p}{}", &p[1..]) && ret == "V" => Some(Fill),
        ("fill", None) if params == "[Ljava/lang/Object;Ljava/lang/Object;" => Some(Fill),
        ("copyOf", Some(p)) if params == format!("{p}I") && ret == p => {
            Some(CopyOf { reference: false })
        }
        ("copyOf", None) if params == "[Ljava/lang/Object;I" => Some(CopyOf { reference: true }),
        ("copyOfRange", Some(p)) if params == format!("{p}II") && ret == p => Some(CopyOfRange),
        // boolean arrays have no binary search
        ("binarySearch", Some(p))
            if params == format!("{p}{}", &p[1..]) && p != "[Z" && ret == "I" =>
        {
            Some(BinarySearch)
        }
        ("equals", Some(p)) if params == format!("{p}{p}") && ret == "Z" => Some(Equals),
        // boolean arrays have no sort
        ("sort", Some(p)) if params == p && p != "[Z" && ret == "V" => Some(Sort),
        ("sort", None) => Some(SortByCallback),
        ("toString", Some(p)) if params == p && ret == "Ljava/lang/String;" => Some(ToString),
        ("hashCode", Some(p)) if params == p && ret == "I" => Some(HashCode),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_descriptors_exactly() {
        assert_eq!(
            arrays_call(ARRAYS, "fill", "([II)V"),
            Some(ArraysCall::Fill)
        );
        assert_eq!(arrays_call(ARRAYS, "fill", "([IIII)V"), None);
        assert_eq!(
            arrays_call(ARRAYS, "fill", "([JJ)V"),
            Some(ArraysCall::Fill)
        );
        assert_eq!(
            arrays_call(ARRAYS, "copyOf", "([II)[I"),
            Some(ArraysCall::CopyOf { reference: false })
        );
        assert_eq!(
            arrays_call(
                ARRAYS,
                "copyOf",
                "([Ljava/lang/Object;I)[Ljava/lang/Object;"
            ),
            Some(ArraysCall::CopyOf { reference: true })
        );
        assert_eq!(arrays_call(ARRAYS, "sort", "([I)V"), Some(ArraysCall::Sort));
        assert_eq!(
            arrays_call(ARRAYS, "copyOfRange", "([III)[I"),
            Some(ArraysCall::CopyOfRange)
        );
        assert_eq!(arrays_call(ARRAYS, "copyOfRange", "([II)[I"), None);
        assert_eq!(
            arrays_call(ARRAYS, "binarySearch", "([JJ)I"),
            Some(ArraysCall::BinarySearch)
        );
        assert_eq!(arrays_call(ARRAYS, "binarySearch", "([IIII)I"), None);
        assert_eq!(arrays_call(ARRAYS, "binarySearch", "([ZZ)I"), None);
        assert_eq!(arrays_call(ARRAYS, "sort", "([III)V"), None);
        assert_eq!(arrays_call(ARRAYS, "sort", "([Z)V"), None);
        assert_eq!(
            arrays_call(ARRAYS, "sort", "([Ljava/lang/Object;)V"),
            Some(ArraysCall::SortByCallback)
        );
        assert_eq!(
            arrays_call(ARRAYS, "equals", "([I[I)Z"),
            Some(ArraysCall::Equals)
        );
        assert_eq!(
            arrays_call(
                "java/lang/System",
                "arraycopy",
                "(Ljava/lang/Object;ILjava/lang/Object;II)V"
            ),
            Some(ArraysCall::Copy)
        );
    }
}
