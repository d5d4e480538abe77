//! The lock-step walk of `c ⊑ s` from the roots, conditions (a)–(e): every reference of `s`
//! it reaches is bound to the concrete value at the same place (the witness), with access
//! paths for messages.

use super::witness::{Condition, Failure, RefMap, StateIndex};
use super::{frames_control, primitive_holds, Concrete};
use jtg_engine::models;
use jtg_engine::state::{display_type, End, HeapValue, Ref, State, Subtyping};
use jtg_jvm::{static_value, CObject, CStatics, CValue, ObjId, Objects, TraceEnd};
use rustc_hash::FxHashSet;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

/// The name of a concrete edge: a field or an array element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum EdgeName<'a> {
    Field(&'a str),
    Elem(usize),
}

impl fmt::Display for EdgeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdgeName::Field(n) => write!(f, ".{n}"),
            EdgeName::Elem(k) => write!(f, "[{k}]"),
        }
    }
}

/// Where an access path starts.
#[derive(Clone, Copy, Debug)]
pub(super) enum Root<'a> {
    /// Local `slot` of frame `k` (0 = top).
    Local(usize, usize),
    /// Stack entry `j` (0 = top) of frame `k`.
    Stack(usize, usize),
    Result,
    Thrown,
    /// A static field: declaring class, name.
    Static(&'a str, &'a str),
}

/// One segment of an access path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seg<'a> {
    Root(Root<'a>),
    Edge(EdgeName<'a>),
}

/// `sf.C.f`, the name of a static field as a root (as the engine names it).
pub(super) fn static_name(class: &str, name: &str) -> String {
    format!("sf.{}.{name}", display_type(class))
}

impl fmt::Display for Seg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seg::Root(Root::Local(k, slot)) => write!(f, "lv{k}.{slot}"),
            Seg::Root(Root::Stack(k, j)) => write!(f, "os{k}.{j}"),
            Seg::Root(Root::Result) => f.write_str("result"),
            Seg::Root(Root::Thrown) => f.write_str("thrown"),
            Seg::Root(Root::Static(c, n)) => f.write_str(&static_name(c, n)),
            Seg::Edge(e) => e.fmt(f),
        }
    }
}

/// An edge out of an object: its name and target.
pub(super) type Edge<'a> = (EdgeName<'a>, ObjId);

/// How much of an object's concrete structure `s` leaves hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hidden {
    /// `C(?)`, `C(…)`, arrays without known elements: all of it.
    All,
    /// A realized object: only fields `s` does not list.
    Unlisted,
}

/// An object's listed fields: name, reference in `s`, concrete value (objects have few).
pub(super) type SmallFields<'a> = SmallVec<[(&'a str, Ref, CValue); 4]>;

pub(super) struct Walk<'a> {
    pub(super) s: &'a State,
    pub(super) idx: Cow<'a, StateIndex<'a>>,
    pub(super) heap: &'a Objects,
    pub(super) types: &'a dyn Subtyping,
    pub(super) map: RefMap,
    /// The access path being visited, as segments: it is only read in messages, so it is
    /// formatted ([`Walk::path`]) only when a condition fails.
    pub(super) path: Vec<Seg<'a>>,
    /// Concrete edges `s` shows: (object, field or element index). Only the heap predicates
    /// read them: [`Walked::finish`] collects them ([`Walk::collect_explicit`]).
    pub(super) explicit: FxHashSet<(ObjId, EdgeName<'a>)>,
    /// Object references bound to objects, with how much of them is hidden.
    pub(super) objects: SmallVec<[(Ref, ObjId, Hidden); 8]>,
    /// Whether a failure says why ([`Failure::reason`]); a matcher trying candidates only
    /// needs to know which fail, and formats reasons only for a run that gets stuck.
    pub(super) explain: bool,
    /// Whether frame positions holding an integer reference of `s` are left out (the caller
    /// checks them, [`bind_int_roots`]).
    pub(super) defer_ints: bool,
}

pub(super) fn show(v: &CValue) -> String {
    match v {
        CValue::Int(i) => i.to_string(),
        CValue::Long(l) => format!("{l}L"),
        CValue::Float(b) => format!("{}f", f32::from_bits(*b)),
        CValue::Double(b) => format!("{}d", f64::from_bits(*b)),
        CValue::Null => "null".into(),
        CValue::Ref(id) => id.to_string(),
        CValue::Top => "(no value)".into(),
        CValue::Uninit(_) => "(uninitialized object)".into(),
    }
}

/// The class name (internal form) of a concrete object.
pub(super) fn class_of(o: &CObject) -> Cow<'_, str> {
    match o {
        CObject::Instance { class, .. } => Cow::Borrowed(class),
        CObject::Array { elem, .. } => Cow::Owned(format!("[{elem}")),
        CObject::Str { .. } => Cow::Borrowed(models::STRING),
    }
}

/// Whether the engine represents no field of `class`: a class the JVM always takes from the
/// JDK, other than `String` (matched as a length). The models say which classes those are.
pub(super) fn fieldless_model(class: &str) -> bool {
    models::is_always_jdk(class) && class != models::STRING
}

/// The object-valued children of a concrete object, with the field name or element index.
pub(super) fn children(o: &CObject) -> impl Iterator<Item = Edge<'_>> {
    let (fields, elems) = match o {
        CObject::Instance { class, fields } if !fieldless_model(class) => (Some(fields), None),
        CObject::Array { elems, .. } => (None, Some(elems)),
        _ => (None, None),
    };
    let fields = fields.into_iter().flatten().filter_map(|(f, v)| match v {
        CValue::Ref(id) => Some((EdgeName::Field(f.as_str()), *id)),
        _ => None,
    });
    let elems = elems
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(k, v)| match v {
            CValue::Ref(id) => Some((EdgeName::Elem(k), *id)),
            _ => None,
        });
    fields.chain(elems)
}

impl<'a> Walk<'a> {
    /// A walk of `s` (whose [`StateIndex`] is `idx`) over the objects `heap`; see
    /// [`Walk::explain`] and [`Walk::defer_ints`].
    pub(super) fn new(
        s: &'a State,
        idx: Cow<'a, StateIndex<'a>>,
        heap: &'a Objects,
        types: &'a dyn Subtyping,
        explain: bool,
        defer_ints: bool,
    ) -> Walk<'a> {
        Walk {
            s,
            map: idx.ref_map(),
            idx,
            heap,
            types,
            path: Vec::new(),
            explicit: FxHashSet::default(),
            objects: SmallVec::new(),
            explain,
            defer_ints,
        }
    }

    pub(super) fn fail<T, R: Into<String>>(
        &self,
        condition: Condition,
        reason: impl FnOnce() -> R,
    ) -> Result<T, Failure> {
        Err(Failure {
            condition,
            reason: if self.explain {
                reason().into()
            } else {
                String::new()
            },
        })
    }

    pub(super) fn roots(&mut self, c: &Concrete<'_>) -> Result<(), Failure> {
        self.frame_roots(c)?;
        self.static_roots(c.statics)
    }

    /// The static fields of `s` that the run knows (see the module docs: the others are not
    /// compared).
    fn static_roots(&mut self, statics: &CStatics) -> Result<(), Failure> {
        let s = self.s;
        for (key, r) in &s.statics {
            if let Some(v) = static_value(statics, &key.0, &key.1) {
                self.visit_at(*r, *v, Root::Static(&key.0, &key.1))?;
            }
        }
        Ok(())
    }

    fn frame_roots(&mut self, c: &Concrete<'_>) -> Result<(), Failure> {
        let s = self.s;
        if let Some(end) = c.end {
            let Some(se) = &s.end else {
                return self.fail(Condition::Control, || {
                    format!(
                        "the run ended ({}) but s is at {}",
                        end_text(end),
                        position(s)
                    )
                });
            };
            return match (se, end) {
                (End::Return(None), TraceEnd::Returned(None)) => Ok(()),
                (End::Return(Some(r)), TraceEnd::Returned(Some(v))) => {
                    self.visit_at(*r, *v, Root::Result)
                }
                (End::Throw(r), TraceEnd::Threw { class, obj }) => match obj {
                    Some(id) if self.heap.contains_key(id) => {
                        self.visit_at(*r, CValue::Ref(*id), Root::Thrown)
                    }
                    _ => self.unrecorded_exception(*r, class),
                },
                _ => self.fail(Condition::Control, || {
                    format!("s ends with {}, the run {}", end_kind(se), end_text(end))
                }),
            };
        }
        frames_control(c.frames, s, self.explain)?;
        for (k, (sf, cf)) in s.frames.iter().rev().zip(c.frames).enumerate() {
            for (slot, r) in sf.locals.iter().enumerate() {
                // an unset slot of s accepts anything (the JVM may keep a dead value there)
                let Some(r) = r else { continue };
                if self.defer_ints && r.is_int() {
                    continue;
                }
                let v = cf.locals.get(slot).copied().unwrap_or(CValue::Top);
                if v == CValue::Top {
                    // the verifier's type of the slot is unusable here (a dead local at a
                    // merge point): the code cannot read it before overwriting it
                    continue;
                }
                self.visit_at(*r, v, Root::Local(k, slot))?;
            }
            // engine stack bottom first, harness stack top first
            for (j, (r, v)) in sf.stack.iter().rev().zip(&cf.stack).enumerate() {
                if self.defer_ints && r.is_int() {
                    continue;
                }
                self.visit_at(*r, *v, Root::Stack(k, j))?;
            }
        }
        Ok(())
    }

    /// A thrown exception the recorder never saw as an object: only its class is known.
    fn unrecorded_exception(&mut self, r: Ref, class: &str) -> Result<(), Failure> {
        let ok = match self.s.value(r) {
            Some(HeapValue::Unknown { ty } | HeapValue::Abstract { ty }) => {
                self.types.is_subtype(class, ty)
            }
            Some(HeapValue::Object { class: c, .. }) => c == class,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            self.fail(Condition::Object, || {
                format!(
                    "thrown: s throws {r} = {}, the run threw {}",
                    self.value_text(r),
                    display_type(class)
                )
            })
        }
    }

    fn value_text(&self, r: Ref) -> String {
        self.s
            .value(r)
            .map_or_else(|| "(no value)".into(), |v| v.to_string())
    }

    /// Visits a root: `pos` starts the path.
    fn visit_at(&mut self, r: Ref, v: CValue, pos: Root<'a>) -> Result<(), Failure> {
        // the path is only read in reasons
        if self.explain {
            self.path.clear();
            self.path.push(Seg::Root(pos));
        }
        self.visit(r, v)
    }

    /// Visits a child: `seg` extends the path for the duration of the visit.
    fn visit_child(&mut self, r: Ref, v: CValue, seg: EdgeName<'a>) -> Result<(), Failure> {
        if !self.explain {
            return self.visit(r, v);
        }
        self.path.push(Seg::Edge(seg));
        let res = self.visit(r, v);
        self.path.pop();
        res
    }

    /// The access path being visited, e.g. `lv0.1.next.val` (for messages).
    fn path(&self) -> String {
        self.path.iter().map(ToString::to_string).collect()
    }

    fn visit(&mut self, r: Ref, v: CValue) -> Result<(), Failure> {
        if let Some(prev) = self.map.get(&r).copied() {
            if prev == v || matches!(v, CValue::Uninit(_)) {
                return Ok(());
            }
            if !matches!(prev, CValue::Uninit(_)) {
                let cond = if r.is_int() {
                    Condition::Integer
                } else {
                    Condition::SameReference
                };
                return self.fail(cond, || {
                    format!(
                        "{r} is at {} and {}, which hold {} and {}",
                        self.place(r),
                        self.path(),
                        show(&prev),
                        show(&v)
                    )
                });
            }
            // an object met uninitialized earlier is now seen with its identity
        }
        match r {
            Ref::Null => {
                if v == CValue::Null {
                    Ok(())
                } else {
                    self.fail(Condition::Null, || {
                        format!("{}: s has null, the run {}", self.path(), show(&v))
                    })
                }
            }
            Ref::Int(_) => {
                let Some(hv) = self.idx.value(r).filter(|v| v.is_primitive()) else {
                    return self.fail(Condition::Integer, || {
                        format!("{}: {r} has no primitive value in s", self.path())
                    });
                };
                if primitive_holds(hv, v) {
                    self.bind(r, v);
                    Ok(())
                } else {
                    self.fail(Condition::Integer, || {
                        format!("{}: {r} = {hv} in s, the run has {}", self.path(), show(&v))
                    })
                }
            }
            Ref::Obj(_) => self.visit_object(r, v),
        }
    }

    fn bind(&mut self, r: Ref, v: CValue) {
        self.map.insert(r, v);
    }

    fn concrete(&self, id: ObjId, r: Ref) -> Result<&'a CObject, Failure> {
        let heap: &'a Objects = self.heap;
        match heap.get(&id) {
            Some(o) => Ok(o),
            None => self.fail(Condition::Object, || {
                format!(
                    "{}: {r} meets {id}, which the trace did not record",
                    self.path()
                )
            }),
        }
    }

    fn type_ok(&self, o: &CObject, ty: &str) -> bool {
        self.types.is_subtype(&class_of(o), ty)
    }

    fn visit_object(&mut self, r: Ref, v: CValue) -> Result<(), Failure> {
        let Some(hv) = self.idx.value(r) else {
            return self.fail(Condition::Object, || {
                format!("{}: {r} has no heap value in s", self.path())
            });
        };
        let id = match v {
            CValue::Ref(id) => id,
            CValue::Null if matches!(hv, HeapValue::Unknown { .. }) => {
                self.bind(r, v);
                return Ok(());
            }
            CValue::Uninit(_) => {
                self.bind(r, v);
                return Ok(());
            }
            _ => {
                return self.fail(Condition::Object, || {
                    format!("{}: {r} = {hv} in s, the run has {}", self.path(), show(&v))
                })
            }
        };
        let obj = self.concrete(id, r)?;
        self.bind(r, v);
        match hv {
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float(_) | HeapValue::Double(_) => {
                self.fail(Condition::Object, || {
                    format!("{}: {r} is a primitive in s", self.path())
                })
            }
            HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => {
                if !self.type_ok(obj, ty) {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of class {}",
                            self.path(),
                            display_type(&class_of(obj))
                        )
                    });
                }
                self.objects.push((r, id, Hidden::All));
                Ok(())
            }
            HeapValue::Object { class, fields } => {
                let cclass = class_of(obj);
                if *class != cclass {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of class {}",
                            self.path(),
                            display_type(&cclass)
                        )
                    });
                }
                // every listed field first, then the walk below them
                let mut values = SmallFields::new();
                for (f, rf) in fields {
                    let cv = match obj {
                        CObject::Instance { fields: cf, .. } => cf.get(f.as_str()).copied(),
                        CObject::Str { len } => {
                            (f.as_str() == "count").then_some(CValue::Int(*len))
                        }
                        CObject::Array { .. } => None,
                    };
                    let Some(cv) = cv else {
                        return self.fail(Condition::Object, || {
                            format!("{}: {r} has field {f} in s, {id} has none", self.path())
                        });
                    };
                    values.push((f.as_str(), *rf, cv));
                }
                self.objects.push((r, id, Hidden::Unlisted));
                for &(f, rf, cv) in &values {
                    self.visit_child(rf, cv, EdgeName::Field(f))?;
                }
                Ok(())
            }
            HeapValue::Array {
                ty,
                len,
                elems,
                exact,
            } => {
                let CObject::Array { elems: ce, .. } = obj else {
                    return self.fail(Condition::Object, || {
                        format!("{}: {r} = {hv} in s, {id} is not an array", self.path())
                    });
                };
                // an exact array type (`A[]!`) is the run's array type itself
                let type_ok = if *exact {
                    class_of(obj) == ty.as_str()
                } else {
                    self.type_ok(obj, ty)
                };
                if !type_ok {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of type {}",
                            self.path(),
                            display_type(&class_of(obj))
                        )
                    });
                }
                let n = i32::try_from(ce.len()).unwrap_or(i32::MAX);
                self.visit_child(*len, CValue::Int(n), EdgeName::Field("len"))?;
                match elems {
                    None => {
                        self.objects.push((r, id, Hidden::All));
                        Ok(())
                    }
                    Some(es) => {
                        if es.len() != ce.len() {
                            return self.fail(Condition::Object, || {
                                format!(
                                    "{}: {r} has {} elements in s, {id} has {}",
                                    self.path(),
                                    es.len(),
                                    ce.len()
                                )
                            });
                        }
                        self.objects.push((r, id, Hidden::Unlisted));
                        for (k, (re, cv)) in es.iter().zip(ce).enumerate() {
                            self.visit_child(*re, *cv, EdgeName::Elem(k))?;
                        }
                        Ok(())
                    }
                }
            }
        }
    }

    /// The first access path of `r` in `s` (roots top frame first, then breadth first),
    /// computed only for messages.
    pub(super) fn place(&self, r: Ref) -> String {
        let s = self.s;
        let mut todo: std::collections::VecDeque<(Ref, String)> = Default::default();
        for (k, f) in s.frames.iter().rev().enumerate() {
            for (slot, l) in f.locals.iter().enumerate() {
                if let Some(l) = l {
                    todo.push_back((*l, format!("lv{k}.{slot}")));
                }
            }
            for (j, x) in f.stack.iter().rev().enumerate() {
                todo.push_back((*x, format!("os{k}.{j}")));
            }
        }
        match &s.end {
            Some(End::Return(Some(x))) => todo.push_back((*x, "result".into())),
            Some(End::Throw(x)) => todo.push_back((*x, "thrown".into())),
            _ => {}
        }
        for ((class, name), x) in &s.statics {
            todo.push_back((*x, static_name(class, name)));
        }
        let mut seen = BTreeSet::new();
        while let Some((x, p)) = todo.pop_front() {
            if x == r {
                return p;
            }
            if !seen.insert(x) {
                continue;
            }
            match s.value(x) {
                Some(HeapValue::Object { fields, .. }) => {
                    for (f, c) in fields {
                        todo.push_back((*c, format!("{p}.{f}")));
                    }
                }
                Some(HeapValue::Array { len, elems, .. }) => {
                    todo.push_back((*len, format!("{p}.len")));
                    for (k, c) in elems.iter().flatten().enumerate() {
                        todo.push_back((*c, format!("{p}[{k}]")));
                    }
                }
                _ => {}
            }
        }
        "?".into()
    }

    pub(super) fn get(&self, r: Ref) -> Option<CValue> {
        if r.is_null() {
            Some(CValue::Null)
        } else {
            self.map.get(&r).copied()
        }
    }
}

fn end_kind(e: &End) -> String {
    match e {
        End::Return(None) => "return".into(),
        End::Return(Some(r)) => format!("return {r}"),
        End::Throw(r) => format!("throw {r}"),
    }
}

fn end_text(e: &TraceEnd) -> String {
    match e {
        TraceEnd::Returned(None) => "returned".into(),
        TraceEnd::Returned(Some(v)) => format!("returned {}", show(v)),
        TraceEnd::Threw { class, .. } => format!("threw {}", display_type(class)),
        TraceEnd::Cut { budget } => format!("was cut {budget}"),
    }
}

fn position(s: &State) -> String {
    match s.top() {
        Some(f) => format!("pc {} of {}", f.pc, f.method),
        None => "a program end".into(),
    }
}
