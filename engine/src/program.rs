//! The analysed program: class path, hierarchy and the options of a graph construction, plus
//! the adapters the state layer needs (local names for the text form, subtyping) and the
//! default start state of a method.

use crate::class::Liveness;
use crate::class::{ClassPath, FieldType, Hierarchy, ResolvedMethod};
use crate::error::EngineError;
use crate::state::text::LocalNames;
use crate::state::types::most_general;
use crate::state::{
    FieldKey, Frame, HeapValue, IntSemantics, Interval, MethodId, State, Subtyping,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Options of a graph construction.
#[derive(Clone, Debug)]
pub struct Options {
    pub ints: IntSemantics,
    /// The construction stops with [`EngineError::Budget`] past this many nodes.
    pub max_nodes: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ints: IntSemantics::Unbounded,
            max_nodes: 100_000,
        }
    }
}

/// A loop of a method's code as `(head, back)`: a branch at `back` to `head ≤ back`.
type LoopEdge = (u32, u32);

/// The classes (array types as descriptors, every array of references as `[L`) of the objects
/// a value may reach, itself included; `None` where that is open (`program_shapes.rs`).
pub(crate) type Reach = Option<Arc<std::collections::BTreeSet<String>>>;

/// What each method's runs may write, by method (`program_writes.rs`).
pub(crate) type OwnWritesMap =
    std::collections::BTreeMap<crate::class::MethodKey, crate::class::OwnWrites>;

/// A program to analyse.
#[derive(Debug)]
pub struct Program {
    pub hierarchy: Hierarchy,
    liveness: Mutex<HashMap<MethodId, Arc<Liveness>>>,
    loops: Mutex<HashMap<MethodId, Arc<Vec<LoopEdge>>>>,
    loop_receivers: Mutex<HashMap<MethodId, Arc<crate::class::InvariantReceivers>>>,
    read_statics: std::sync::OnceLock<Vec<(crate::state::StaticField, FieldType)>>,
    static_types:
        std::sync::OnceLock<std::collections::BTreeMap<crate::state::StaticField, FieldType>>,
    /// What the stores into each static store (`models::static_values`).
    static_stores: std::sync::OnceLock<
        std::collections::BTreeMap<crate::state::StaticField, crate::models::static_values::Stores>,
    >,
    /// The classes a value of a type may reach (`Program::reachable_classes`), by type name.
    pub(crate) reach: Mutex<HashMap<String, Reach>>,
    /// Whether a value of the first type may reach one of the second
    /// (`Program::may_reach_type`), and whether a realized object of a class shows every
    /// reference it holds (`Program::fully_shown`): asked at every field write.
    pub(crate) type_reach: Mutex<HashMap<(String, String), bool>>,
    pub(crate) reference_fields: Mutex<HashMap<String, Option<Arc<Vec<crate::state::FieldKey>>>>>,
    /// What each method's runs may write (`program_writes.rs`).
    pub(crate) own_writes: std::sync::OnceLock<OwnWritesMap>,
}

impl Program {
    pub fn new(classpath: ClassPath) -> Program {
        Program {
            hierarchy: Hierarchy::new(
                Arc::new(classpath.with_bootstraps(&crate::models::BOOTSTRAPS)),
                crate::models::JDK_CLASSES,
            ),
            liveness: Mutex::new(HashMap::new()),
            loop_receivers: Mutex::new(HashMap::new()),
            loops: Mutex::new(HashMap::new()),
            read_statics: std::sync::OnceLock::new(),
            static_types: std::sync::OnceLock::new(),
            static_stores: std::sync::OnceLock::new(),
            reach: Mutex::new(HashMap::new()),
            type_reach: Mutex::new(HashMap::new()),
            reference_fields: Mutex::new(HashMap::new()),
            own_writes: std::sync::OnceLock::new(),
        }
    }

    /// The static fields the program reads (`getstatic` anywhere in the class path), with
    /// their declared types (computed once).
    pub(crate) fn read_statics(&self) -> &[(crate::state::StaticField, FieldType)] {
        self.read_statics.get_or_init(|| {
            let cp = self.hierarchy.classpath();
            let mut out = std::collections::BTreeMap::new();
            for name in cp.class_names() {
                let Ok(class) = cp.load(&name) else { continue };
                for m in &class.methods {
                    for (_, insn) in m.code.iter().flat_map(|c| c.insns.iter()) {
                        if let crate::class::Insn::GetStatic(f) = insn {
                            out.insert(self.static_key(f), f.desc.clone());
                        }
                    }
                }
            }
            out.into_iter().collect()
        })
    }

    /// The instance fields of `class` as the engine represents them: the class path's
    /// declarations, or the modelled fields of a JDK class (see [`crate::models`]).
    pub fn instance_fields(
        &self,
        class: &str,
    ) -> Result<Vec<(FieldKey, FieldType, Option<Interval>)>, EngineError> {
        crate::models::instance_fields(&self.hierarchy, class)
    }

    /// The key of field `f` (a `getfield`/`putfield` operand) in a realized object whose
    /// fields are `fields`: the plain name, unless the object also has a shadowed field of
    /// that name and `f` resolves to it (field resolution, JVMS §5.4.3.2).
    pub(crate) fn field_key<V>(
        &self,
        fields: &std::collections::BTreeMap<FieldKey, V>,
        f: &crate::class::FieldRef,
    ) -> FieldKey {
        let plain = FieldKey::plain(&f.name);
        if !fields
            .keys()
            .any(|k| k.declared_in().is_some() && k.name() == f.name)
        {
            return plain;
        }
        match self.hierarchy.resolve_field(&f.class, &f.name) {
            Ok(Some(r)) => {
                let key = FieldKey::shadowed(&r.class, &f.name);
                if fields.contains_key(&key) {
                    key
                } else {
                    plain
                }
            }
            _ => plain,
        }
    }

    /// The classes a program starting in `entry` can name: `entry`, and transitively the
    /// superclasses, interfaces, field and method-descriptor types and the classes the code
    /// mentions (new, casts, type tests, field and method owners, handlers). Classes missing
    /// from the class path are left out. Concrete inputs of a wide declared type (an `Object`
    /// field) are drawn from these, the classes whose behaviour the program can depend on.
    pub fn named_classes(&self, entry: &str) -> std::collections::BTreeSet<String> {
        use crate::class::Insn;
        fn add_type(t: &FieldType, todo: &mut Vec<String>) {
            match t {
                FieldType::Object(c) => todo.push(c.clone()),
                FieldType::Array(e) => add_type(e, todo),
                _ => {}
            }
        }
        fn add_name(n: &str, todo: &mut Vec<String>) {
            // an array descriptor (`[LList;`) names its element class
            match n.trim_start_matches('[') {
                e if e.len() < n.len() => {
                    if let Some(c) = e.strip_prefix('L').and_then(|c| c.strip_suffix(';')) {
                        todo.push(c.to_string());
                    }
                }
                _ => todo.push(n.to_string()),
            }
        }
        let cp = self.hierarchy.classpath();
        let mut seen = std::collections::BTreeSet::new();
        let mut todo = vec![entry.to_string()];
        while let Some(name) = todo.pop() {
            if seen.contains(&name) {
                continue;
            }
            let Ok(class) = cp.load(&name) else { continue };
            seen.insert(name);
            todo.extend(class.super_name.iter().cloned());
            todo.extend(class.interfaces.iter().cloned());
            for f in &class.fields {
                add_type(&f.desc, &mut todo);
            }
            for m in &class.methods {
                for t in m.desc.params.iter().chain(m.desc.ret.iter()) {
                    add_type(t, &mut todo);
                }
                let Some(code) = &m.code else { continue };
                todo.extend(code.handlers.iter().filter_map(|h| h.catch_type.clone()));
                for (_, insn) in &code.insns {
                    match insn {
                        Insn::New(c)
                        | Insn::ANewArray(c)
                        | Insn::CheckCast(c)
                        | Insn::InstanceOf(c)
                        | Insn::MultiANewArray { class: c, .. } => add_name(c, &mut todo),
                        Insn::GetStatic(f)
                        | Insn::PutStatic(f)
                        | Insn::GetField(f)
                        | Insn::PutField(f) => {
                            todo.push(f.class.clone());
                            add_type(&f.desc, &mut todo);
                        }
                        Insn::Invoke { method, .. } => add_name(&method.class, &mut todo),
                        _ => {}
                    }
                }
            }
        }
        seen
    }

    /// The static field a `getstatic`/`putstatic` accesses: the class that declares it (field
    /// resolution, JVMS §5.4.3.2) and its name. javac names the class the source qualified the
    /// field with (`Sub.count` for a `count` declared in a superclass), so two instructions may
    /// name one field through different classes. A field no analysed class declares (a JDK
    /// class's, or a missing one) keeps the instruction's class.
    pub fn static_key(&self, f: &crate::class::FieldRef) -> crate::state::StaticField {
        match self.hierarchy.resolve_field(&f.class, &f.name) {
            Ok(Some(r)) => (r.class, f.name.clone()),
            _ => (f.class.clone(), f.name.clone()),
        }
    }

    /// The first-access value of static field `key` of type `t`
    /// ([`crate::state::types::fill_static`]), which may also be an enum constant the state
    /// holds when `t` is an enum class or an array of one
    /// ([`crate::models::enums::relate_constants`]).
    pub(crate) fn fill_static(
        &self,
        st: &mut State,
        key: crate::state::StaticField,
        t: &FieldType,
        sem: IntSemantics,
    ) -> Result<crate::state::Ref, String> {
        let narrowed;
        let mut t = t;
        if let FieldType::Object(c) = t {
            let jdk_type =
                crate::models::is_jdk_class(c) && !crate::models::is_final_value_class(c);
            let stores = self.static_stores().get(&key);
            if let (true, false, Some(stores)) =
                (jdk_type, crate::models::is_jdk_class(&key.0), stores)
            {
                if let Some(store) = &stores.unknown {
                    return Err(format!(
                        "its value may be of a JDK class the engine does not model ({store})"
                    ));
                }
                // all stores make objects of one class: the static holds one of that class
                if let Some(only) = stores.only_class().filter(|o| *o != c.as_str()) {
                    narrowed = FieldType::Object(only.into());
                    t = &narrowed;
                }
            }
        }
        if let FieldType::Object(c) = t {
            if key.0 == *c {
                let constant = self.instance_fields(c).ok().and_then(|all| {
                    crate::models::enums::constant_value(&self.hierarchy, st, c, &key.1, all, sem)
                });
                if let Some(r) = constant {
                    // (`=?` only to unknown statics: a realized one is of another class)
                    crate::state::types::relate_static(st, r);
                    st.statics.insert(key, r);
                    crate::models::enums::relate_constants(&self.hierarchy, st, r, c);
                    // what may share with the constant may reach its `name` too
                    let kids: Vec<_> = st.value(r).into_iter().flat_map(|v| v.children()).collect();
                    let sharing: Vec<_> = st
                        .heap
                        .keys()
                        .copied()
                        .filter(|q| q.is_obj() && *q != r && st.preds.joins(r, *q))
                        .collect();
                    for k in kids.into_iter().filter(|k| k.is_obj()) {
                        for &q in &sharing {
                            st.preds.add_join(k, q);
                        }
                    }
                    return Ok(r);
                }
            }
        }
        let r = crate::state::types::fill_static(st, key, t, sem, self.field_shapes(t))?;
        if let FieldType::Object(ty) = t {
            let shared = |class: &str| crate::models::may_hold_interned(ty, class);
            crate::state::types::relate_interned(st, r, &shared);
        }
        let ty = match t {
            FieldType::Object(c) => Some(c.to_string()),
            FieldType::Array(_) => Some(t.to_string()),
            _ => None,
        };
        if let Some(ty) = ty {
            crate::models::enums::relate_constants(&self.hierarchy, st, r, &ty);
        }
        Ok(r)
    }

    /// The type of a static field as the instructions that access it declare it (`None` when
    /// no `getstatic`/`putstatic` of the class path names it).
    pub(crate) fn static_type(&self, key: &crate::state::StaticField) -> Option<&FieldType> {
        self.static_types
            .get_or_init(|| {
                let cp = self.hierarchy.classpath();
                let mut out = std::collections::BTreeMap::new();
                for name in cp.class_names() {
                    let Ok(class) = cp.load(&name) else { continue };
                    for m in &class.methods {
                        for (_, insn) in m.code.iter().flat_map(|c| c.insns.iter()) {
                            if let crate::class::Insn::GetStatic(f)
                            | crate::class::Insn::PutStatic(f) = insn
                            {
                                out.insert(self.static_key(f), f.desc.clone());
                            }
                        }
                    }
                }
                out
            })
            .get(key)
    }

    /// What the stores into each static field store ([`crate::models::static_values`]).
    fn static_stores(
        &self,
    ) -> &std::collections::BTreeMap<crate::state::StaticField, crate::models::static_values::Stores>
    {
        self.static_stores.get_or_init(|| {
            let cp = self.hierarchy.classpath();
            let mut out = std::collections::BTreeMap::new();
            for name in cp.class_names() {
                let Ok(class) = cp.load(&name) else { continue };
                for m in &class.methods {
                    let Some(code) = &m.code else { continue };
                    for (k, (pc, insn)) in code.insns.iter().enumerate() {
                        let crate::class::Insn::PutStatic(f) = insn else {
                            continue;
                        };
                        let before = k.checked_sub(1).map(|j| &code.insns[j].1);
                        let at = || {
                            let class = name.replace('/', ".");
                            format!("{class}.{}{} pc {pc}", m.name, m.desc_str)
                        };
                        out.entry(self.static_key(f))
                            .or_insert_with(crate::models::static_values::Stores::default)
                            .add(crate::models::static_values::stored(before), at);
                    }
                }
            }
            out
        })
    }

    /// The loops of a method's code ([`crate::class::Code::loop_ranges`], once per method;
    /// none for a method without code or that cannot be found).
    pub(crate) fn loops(&self, m: &MethodId) -> Arc<Vec<LoopEdge>> {
        if let Some(l) = self.loops.lock().ok().and_then(|c| c.get(m).cloned()) {
            return l;
        }
        let l = Arc::new(
            self.method(m)
                .ok()
                .and_then(|r| r.method().code.as_ref().map(|c| c.loop_ranges()))
                .unwrap_or_default(),
        );
        if let Ok(mut c) = self.loops.lock() {
            c.insert(m.clone(), l.clone());
        }
        l
    }

    /// The objects each loop of a method reads through locals it never assigns
    /// ([`crate::class::invariant_receivers`], once per method).
    pub(crate) fn loop_receivers(&self, m: &MethodId) -> Arc<crate::class::InvariantReceivers> {
        if let Some(l) = self
            .loop_receivers
            .lock()
            .ok()
            .and_then(|c| c.get(m).cloned())
        {
            return l;
        }
        let l = Arc::new(
            self.method(m)
                .ok()
                .and_then(|r| {
                    r.method()
                        .code
                        .as_ref()
                        .map(|c| crate::class::invariant_receivers(c, &crate::models::is_jdk_class))
                })
                .unwrap_or_default(),
        );
        if let Ok(mut c) = self.loop_receivers.lock() {
            c.insert(m.clone(), l.clone());
        }
        l
    }

    /// The live locals of a method (computed once per method).
    pub(crate) fn liveness(&self, m: &MethodId) -> Option<Arc<Liveness>> {
        if let Some(l) = self.liveness.lock().ok()?.get(m) {
            return Some(l.clone());
        }
        let method = self.method(m).ok()?;
        let l = Arc::new(Liveness::of(method.code.as_ref()?));
        self.liveness.lock().ok()?.insert(m.clone(), l.clone());
        Some(l)
    }

    /// Forgets the dead locals of every frame (see [`crate::class::Liveness`]). A dead local is kept
    /// while its object is the target of a must-reach fact: it anchors that fact (as `this`
    /// anchors the cyclic list of Fig. 2.13), which keeps the graph precise.
    pub(crate) fn forget_dead_locals(&self, st: &mut State) {
        let anchors: std::collections::BTreeSet<crate::state::Ref> =
            st.preds.must_reach.iter().map(|m| m.to).collect();
        for f in &mut st.frames {
            if let Some(l) = self.liveness(&f.method) {
                for (slot, v) in f.locals.iter_mut().enumerate() {
                    if let Some(r) = *v {
                        if !l.is_live(f.pc, slot) && !anchors.contains(&r) {
                            *v = None;
                        }
                    }
                }
            }
        }
    }

    /// Loads a method's declaration.
    pub fn method(&self, m: &MethodId) -> Result<ResolvedMethod, EngineError> {
        let class = self.hierarchy.classpath().load(&m.class)?;
        let index = class.method_index(&m.name, Some(&m.desc))?;
        Ok(ResolvedMethod { class, index })
    }

    /// The instruction the top frame of `s` executes next (`None`: no frame, or its code
    /// cannot be read).
    pub fn next_insn(&self, s: &State) -> Option<crate::class::Insn> {
        let f = s.top()?;
        let class = self.hierarchy.classpath().load(&f.method.class).ok()?;
        let method = class.method(&f.method.name, Some(&f.method.desc)).ok()?;
        method.code.as_ref()?.at(f.pc).cloned()
    }

    /// Resolves `Class.method` or `Class.method(desc)` (class dotted or slashed).
    pub fn find_method(&self, spec: &str) -> Result<MethodId, EngineError> {
        let (head, desc) = match spec.find('(') {
            Some(i) => (&spec[..i], Some(&spec[i..])),
            None => (spec, None),
        };
        let dot = head
            .rfind('.')
            .ok_or_else(|| EngineError::MethodSpec(spec.to_string()))?;
        let class = head[..dot].replace('.', "/");
        let name = &head[dot + 1..];
        let c = self.hierarchy.classpath().load(&class)?;
        let m = c.method(name, desc)?;
        Ok(MethodId::new(&class, &m.name, &m.desc_str))
    }

    /// The default start state of `m` (spec §8): every parameter the most general value of its
    /// type; `this` an existing instance `C(…)`; `String[] args` of `main` a non-null array of
    /// unknown length. Parameters that may be constants of one enum class may be equal (`=?`),
    /// and those that may reach constants of one enum class may share them (`%$`, `♦`).
    pub fn default_start(&self, m: &MethodId, sem: IntSemantics) -> Result<State, EngineError> {
        let method = self.method(m)?;
        let code = method.code.as_ref().ok_or_else(|| {
            EngineError::StartState(format!("{m} has no code (abstract or native)"))
        })?;
        let mut st = State::default();
        let mut frame = Frame::new(m.clone(), code.max_locals as usize);
        // `this` and the parameters must fit into the locals (the JVM verifier checks this).
        let needed = usize::from(!method.is_static)
            + method
                .desc
                .params
                .iter()
                .map(|p| p.slots() as usize)
                .sum::<usize>();
        if needed > frame.locals.len() {
            return Err(EngineError::Invalid {
                method: m.clone(),
                pc: 0,
                what: format!(
                    "the parameters need {needed} local slots but max_locals is {}",
                    code.max_locals
                ),
            });
        }
        let mut slot = 0usize;
        if !method.is_static {
            let this = st.new_obj(HeapValue::Abstract {
                ty: m.class.to_string(),
            });
            frame.locals[slot] = Some(this);
            slot += 1;
        }
        let is_main = method.is_static
            && m.name.as_ref() == "main"
            && m.desc.as_ref() == format!("({})V", crate::models::STRING_ARRAY);
        for p in &method.desc.params {
            let r = if is_main {
                let len = st.new_int(
                    Interval::at_least(0)
                        .intersect(&Interval::most_general(sem))
                        .unwrap_or(Interval::at_least(0)),
                );
                st.new_obj(HeapValue::array(
                    crate::models::STRING_ARRAY.into(),
                    len,
                    None,
                    false,
                ))
            } else {
                most_general(&mut st, p, sem).map_err(|what| EngineError::Unsupported {
                    method: m.clone(),
                    pc: 0,
                    what,
                })?
            };
            if slot >= frame.locals.len() {
                return Err(EngineError::StartState(format!(
                    "{m}: parameters exceed max_locals"
                )));
            }
            frame.locals[slot] = Some(r);
            slot += p.slots() as usize;
        }
        // an enum object is one of its class's constants: two parameters (and `this`) may be
        // the same one, and an object a parameter reaches may hold it
        let refs: Vec<_> = frame
            .locals
            .iter()
            .flatten()
            .filter_map(|&r| {
                let ty = st.value(r).and_then(HeapValue::type_name)?;
                Some((r, ty.to_string()))
            })
            .collect();
        for (r, ty) in &refs {
            crate::models::enums::relate_constants(&self.hierarchy, &mut st, *r, ty);
        }
        crate::models::enums::share_reachable_constants(&self.hierarchy, &mut st, &refs);
        st.frames.push(frame);
        Ok(st)
    }

    /// Constants the method compares against (for threshold widening).
    pub fn compared_constants(&self, m: &MethodId) -> Vec<i128> {
        use crate::class::Insn;
        let mut out = vec![0i128];
        if let Ok(method) = self.method(m) {
            if let Some(code) = &method.code {
                for (_, insn) in &code.insns {
                    if let Insn::IConst(v) = insn {
                        out.push(i128::from(*v));
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl LocalNames for Program {
    fn local_name(&self, m: &MethodId, slot: usize, pc: u32) -> Option<String> {
        let method = self.method(m).ok()?;
        let name = method
            .code
            .as_ref()?
            .local_name(u16::try_from(slot).ok()?, pc)?;
        Some(name.to_string())
    }
    fn local_slot(&self, m: &MethodId, name: &str, pc: u32) -> Option<usize> {
        let method = self.method(m).ok()?;
        let code = method.code.as_ref()?;
        code.local_names
            .iter()
            .find(|l| l.name == name && l.start <= pc && pc < l.start + l.len)
            .or_else(|| code.local_names.iter().find(|l| l.name == name))
            .map(|l| l.slot as usize)
    }
    fn max_locals(&self, m: &MethodId) -> Option<usize> {
        Some(self.method(m).ok()?.code.as_ref()?.max_locals as usize)
    }
    fn source_line(&self, m: &MethodId, pc: u32) -> Option<crate::state::SourceLine> {
        let method = self.method(m).ok()?;
        let line = method.code.as_ref()?.line_at(pc)?;
        Some(crate::state::SourceLine {
            file: method.class.source_file.clone()?,
            line,
        })
    }
}

/// Hierarchy errors (a class missing from the class path) answer "not a subtype": the safe
/// answer for instance checks, which then fail instead of guessing.
impl Subtyping for Program {
    fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        sub == sup || self.hierarchy.is_subtype(sub, sup).unwrap_or(false)
    }
    fn join(&self, a: &str, b: &str) -> String {
        if self.is_subtype(a, b) {
            return b.to_string();
        }
        if self.is_subtype(b, a) {
            return a.to_string();
        }
        let mut cur = self.hierarchy.super_of(a).ok().flatten();
        while let Some(c) = cur.filter(|c| c != crate::models::OBJECT) {
            if self.is_subtype(b, &c) {
                return c;
            }
            cur = self.hierarchy.super_of(&c).ok().flatten();
        }
        // no class above both: an interface both implement, where one says more than tags
        // (a merged `Comparable` of an `Integer` and an enum constant can still be refined
        // for `compareTo`; as an `Object` it would need every class)
        let common = self.hierarchy.minimal_common_supertypes(a, b);
        let mut useful = common
            .iter()
            .filter(|c| !crate::models::is_tag_interface(c));
        match (useful.next(), useful.next()) {
            (Some(one), None) => one.clone(),
            _ => crate::models::OBJECT.to_string(),
        }
    }
}
