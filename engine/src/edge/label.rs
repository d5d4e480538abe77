//! Edge labels: what an edge computed, checked or decided, as typed values.
//!
//! | label | text | where it stands | meaning |
//! |---|---|---|---|
//! | [`Label::Arith`] | `i3 = i1 - 1`, `i5 = -i2` | eval | the result (a reference of the target) is the operation on the operands (of the source); 32/64-bit under `--ints java` as the result's kind says |
//! | [`Label::Narrow`] | `i5 = (char) i4` | eval | the result is the operand's low bits read as the narrower type (`i2b`, `i2c`, `i2s`, `l2i`): congruent to it modulo `2ᵇⁱᵗˢ`, inside the type's range |
//! | [`Label::Rel`] | `i4 ≤ 0`, `i1 ≠ i2`, `i9 ≥ i3` | eval, split, refine | the relation held on the source state; on an eval edge it may also name the step's result (read in the target): a library call's contract, `i9 ≥ i3` for `indexOf(c, from)` |
//! | [`Label::RefEq`] | `o1 = null`, `o7 = o6`, `o7 ≠ o6` | refine | the two references are one object (or both null) / are not one object |
//! | [`Label::Exists`] | `o1 exists` | refine | the reference is an object (not null) |
//! | [`Label::Type`] | `o3 instanceof a.B`, `o3 !instanceof a.B` | refine | the object's runtime class is (not) a subtype of the type |
//! | [`Label::AbstractCall`] | `abstract call of M` | call | the call of `M` is not inlined: the edge enters `M`'s method graph |
//! | [`Label::Returned`] | `return from M` | return | the abstracted call of `M` returned normally |
//! | [`Label::Thrown`] | `a.E thrown by M` | return | the abstracted call of `M` was left by an exception of class `a.E` |
//! | [`Label::FilledStatics`] | `filled static fields a.B.x, a.C.y` | refine | the target knows these static fields too, with their first-access values |
//!
//! Where references are read ([`Label::side`]): an edge that executes an instruction (eval,
//! call, return) reads operands in its source and an assignment's result in its target; an edge
//! that executes nothing (refine, split, instance) has one concrete state at both ends, so each
//! reference is read in whichever end has it (a refinement renames: `o1 = o5` names `o1` of
//! the source and the fresh `o5` of the target).

use crate::class::Cond;
use crate::state::{IntOp, MethodId, Ref, State, StaticField};
use std::fmt;

/// An integer operand: a reference or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operand {
    Ref(Ref),
    Lit(i128),
}

impl Operand {
    /// The operand for reference `r` of `state`: its literal when it has one.
    pub fn of(state: &State, r: Ref) -> Operand {
        match state.integral(r).and_then(|i| i.as_literal()) {
            Some(v) => Operand::Lit(v),
            None => Operand::Ref(r),
        }
    }
    pub fn as_ref(self) -> Option<Ref> {
        match self {
            Operand::Ref(r) => Some(r),
            Operand::Lit(_) => None,
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Ref(r) => write!(f, "{r}"),
            Operand::Lit(v) => write!(f, "{v}"),
        }
    }
}

/// A narrowing conversion's target type (JLS §5.1.3): the operand's low bits, read as it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Narrowing {
    /// `i2b`
    Byte,
    /// `i2c`
    Char,
    /// `i2s`
    Short,
    /// `l2i`
    Int,
}

impl Narrowing {
    pub const ALL: [Narrowing; 4] = [
        Narrowing::Byte,
        Narrowing::Char,
        Narrowing::Short,
        Narrowing::Int,
    ];

    /// The Java name of the target type, as the label prints it.
    pub fn name(self) -> &'static str {
        match self {
            Narrowing::Byte => "byte",
            Narrowing::Char => "char",
            Narrowing::Short => "short",
            Narrowing::Int => "int",
        }
    }

    pub fn of_name(s: &str) -> Option<Narrowing> {
        Narrowing::ALL.into_iter().find(|n| n.name() == s)
    }

    /// The bits kept.
    pub fn bits(self) -> u32 {
        match self {
            Narrowing::Byte => 8,
            Narrowing::Char | Narrowing::Short => 16,
            Narrowing::Int => 32,
        }
    }

    /// The target type's range `[lo, hi]` (`char` is unsigned).
    pub fn range(self) -> (i128, i128) {
        let half = 1i128 << (self.bits() - 1);
        match self {
            Narrowing::Char => (0, 2 * half - 1),
            _ => (-half, half - 1),
        }
    }

    /// The conversion of `v`: the value of the range congruent to `v` modulo `2ᵇⁱᵗˢ`.
    pub fn apply(self, v: i128) -> i128 {
        let (lo, hi) = self.range();
        lo + (v - lo).rem_euclid(hi - lo + 1)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// `res = a op b`, or `res = -a` (`op` [`IntOp::Neg`], `b` `None`; every other `op` has
    /// a `b`: see [`Label::well_formed`]).
    Arith {
        res: Ref,
        op: IntOp,
        a: Operand,
        b: Option<Operand>,
    },
    /// `res = (to) a`: a narrowing conversion of the integer `a` (read in the source) whose
    /// value may lie outside `to`'s range; `res` (in the target) is `to.apply(a)`.
    Narrow { res: Ref, to: Narrowing, a: Ref },
    /// `a cond b` between integers, a relation that held when the edge was taken: between
    /// values of the source, or (on an eval edge) between a value of the source and one the
    /// step created, read in the target (a library result's contract).
    Rel { a: Operand, cond: Cond, b: Operand },
    /// `r = p` (`equal`) or `r ≠ p` between object references; `p` may be `null`. `r = p`
    /// holds iff both are one object or both are null; `r ≠ p` iff they are not one object
    /// (two nulls are no object, so both hold there: the engine's equality refinement keeps
    /// such a state in both successors).
    RefEq { r: Ref, p: Ref, equal: bool },
    /// `r exists`: `r` is an object (existence refinement, spec §5.3 step 1).
    Exists { r: Ref },
    /// `r instanceof T` / `r !instanceof T`: the outcome of a type refinement (spec §5.3,
    /// step 2) for `instanceof`/`checkcast` on an object whose static type is too wide to
    /// enumerate its subtypes (`java.lang.Object`). `ty` is an internal name (`a/b/C`).
    Type { r: Ref, ty: String, holds: bool },
    /// The `call` edge of an abstracted call: into the method graph of `callee`.
    AbstractCall { callee: MethodId },
    /// A `return` edge of an abstracted call: `callee` returned normally.
    Returned { callee: MethodId },
    /// A `return` edge of an abstracted call: `callee` was left by an exception of exactly
    /// class `class` (an internal name).
    Thrown { class: String, callee: MethodId },
    /// The target state knows these static fields too (first-access values), which the
    /// source did not: how a merge gets two states that know the same statics.
    FilledStatics { fields: Vec<StaticField> },
}

/// Which end of an edge a reference of a label is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Source,
    Target,
    /// The edge executes nothing: whichever end has the reference (the source first).
    Either,
}

impl Label {
    /// Every reference the label names (no `null`) and where it is read on an edge that
    /// executes an instruction (`step`) or not.
    pub fn reads(&self, step: bool) -> Vec<(Ref, Side)> {
        let operand = if step { Side::Source } else { Side::Either };
        let mut out = Vec::new();
        let mut push = |r: Ref, side: Side| {
            if !r.is_null() {
                out.push((r, side));
            }
        };
        match self {
            Label::Arith { res, a, b, .. } => {
                push(*res, if step { Side::Target } else { Side::Either });
                for o in std::iter::once(a).chain(b) {
                    if let Operand::Ref(r) = o {
                        push(*r, operand);
                    }
                }
            }
            Label::Narrow { res, a, .. } => {
                push(*res, if step { Side::Target } else { Side::Either });
                push(*a, operand);
            }
            Label::Rel { a, b, .. } => {
                // on a step, a reference the source lacks is the step's result
                for o in [a, b] {
                    if let Operand::Ref(r) = o {
                        push(*r, Side::Either);
                    }
                }
            }
            Label::RefEq { r, p, .. } => {
                push(*r, operand);
                push(*p, operand);
            }
            Label::Exists { r } | Label::Type { r, .. } => push(*r, operand),
            Label::AbstractCall { .. }
            | Label::Returned { .. }
            | Label::Thrown { .. }
            | Label::FilledStatics { .. } => {}
        }
        out
    }

    /// Whether the parts fit together: an assignment's result and operands are integer
    /// references (or literals), negation has one operand and every other operation two; the
    /// references of a reference label are object references (`p` may be `null`, `r` is not),
    /// and not one reference twice; names are not empty.
    pub fn well_formed(&self) -> Result<(), String> {
        let int = |o: &Operand| match o {
            Operand::Ref(r) if !r.is_int() => Err(format!("{r} is not an integer reference")),
            _ => Ok(()),
        };
        match self {
            Label::Arith { res, op, a, b } => {
                if !res.is_int() {
                    return Err(format!("the result {res} is not an integer reference"));
                }
                int(a)?;
                match (op, b) {
                    (IntOp::Neg, None) => Ok(()),
                    (IntOp::Neg, Some(_)) => Err("negation has one operand".into()),
                    (IntOp::Shr | IntOp::Ushr, Some(Operand::Lit(k))) if (0..64).contains(k) => {
                        Ok(())
                    }
                    (IntOp::Shr | IntOp::Ushr, Some(_)) => {
                        Err("a shift's distance is a literal in 0..64".into())
                    }
                    (_, None) => Err(format!("`{}` needs two operands", op.symbol())),
                    (_, Some(b)) => int(b),
                }
            }
            Label::Narrow { res, a, .. } => {
                if !res.is_int() {
                    return Err(format!("the result {res} is not an integer reference"));
                }
                int(&Operand::Ref(*a))
            }
            Label::Rel { a, b, .. } => int(a).and_then(|()| int(b)),
            Label::RefEq { r, p, .. } => {
                if !r.is_obj() {
                    Err(format!("{r} is not an object reference"))
                } else if !(p.is_obj() || p.is_null()) {
                    Err(format!("{p} is not an object reference"))
                } else if r == p {
                    Err(format!("{r} is compared with itself"))
                } else {
                    Ok(())
                }
            }
            Label::Exists { r } | Label::Type { r, .. } if !r.is_obj() => {
                Err(format!("{r} is not an object reference"))
            }
            Label::Type { ty, .. } if !valid_type(ty) => Err(format!("bad type name `{ty}`")),
            Label::Thrown { class, .. } if !valid_class(class) => {
                Err(format!("bad class name `{class}`"))
            }
            Label::FilledStatics { fields } if fields.is_empty() => {
                Err("no static field is named".into())
            }
            Label::FilledStatics { fields } => match fields
                .iter()
                .find(|(c, f)| !valid_class(c) || f.is_empty() || f.contains(['.', ',', ' ']))
            {
                Some((c, f)) => Err(format!("bad static field `{c}.{f}`")),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

/// An internal class name as labels print and read it back (dots become slashes).
pub(super) fn valid_class(c: &str) -> bool {
    !c.is_empty()
        && !c.starts_with('[')
        && !c.contains(['.', ' ', ','])
        && c.split('/').all(|p| !p.is_empty())
}

/// A class or array type name (`[I`, `[La/B;`) as a type label carries it.
pub(super) fn valid_type(t: &str) -> bool {
    match t.strip_prefix('[') {
        Some(rest) => !rest.is_empty() && !rest.contains([' ', '.']),
        None => valid_class(t),
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Arith {
                res,
                op: IntOp::Neg,
                a,
                ..
            } => write!(f, "{res} = -{a}"),
            Label::Arith { res, op, a, b } => match b {
                Some(b) => write!(f, "{res} = {a} {} {b}", op.symbol()),
                // not well-formed; printed so that it cannot be read back
                None => write!(f, "{res} = {a} {}", op.symbol()),
            },
            Label::Narrow { res, to, a } => write!(f, "{res} = ({}) {a}", to.name()),
            Label::Rel { a, cond, b } => write!(f, "{a} {} {b}", cond.symbol()),
            Label::RefEq { r, p, equal } => {
                write!(f, "{r} {} {p}", if *equal { "=" } else { "≠" })
            }
            Label::Exists { r } => write!(f, "{r} exists"),
            Label::Type { r, ty, holds } => {
                let kw = if *holds { "instanceof" } else { "!instanceof" };
                write!(f, "{r} {kw} {}", ty.replace('/', "."))
            }
            Label::AbstractCall { callee } => write!(f, "abstract call of {callee}"),
            Label::Returned { callee } => write!(f, "return from {callee}"),
            Label::Thrown { class, callee } => {
                write!(f, "{} thrown by {callee}", class.replace('/', "."))
            }
            Label::FilledStatics { fields } => {
                f.write_str("filled static fields ")?;
                for (k, (c, name)) in fields.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}.{name}", c.replace('/', "."))?;
                }
                Ok(())
            }
        }
    }
}
