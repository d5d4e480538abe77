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
    /// The classes a value of a type may reach (`Program::reachable_classes`), by type name.
    pub(crate) reach: Mutex<HashMap<String, Reach>>,
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
            reach: Mutex::new(HashMap::new()),
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

    /// The classes an object of a run from `start` can have (the closed world of dispatch and
    /// instance refinement): rapid type analysis ([`crate::class::rapid_type_analysis`]) from
    /// the methods of `start`'s frames, seeded with
    /// * the modelled JDK classes that are not abstract (strings, boxes, the exceptions the JVM
    ///   throws: objects the JVM and the library models make without a `new` of the analysed
    ///   code; no other way to make an object is modelled: reflection, cloning an object and
    ///   library factories are unsupported);
    /// * every class an input can have: below the type of an object of `start`, of a static
    ///   field `start` lists, and of a static field the program reads, and below the field types
    ///   of those classes, transitively (an input of type `Object`, or with a field of that type,
    ///   may hold any class). The statics the program reads are left out for the start of
    ///   `main(String[])` (one frame at pc 0): that run's statics hold what its class
    ///   initializers store, which the analysis reaches.
    ///
    /// The world also narrows the types of instance fields ([`crate::class::field_types`]): a
    /// field that the run's code fills only with objects below a class holds such objects.
    /// What inputs may put in fields counts as any class: the fields of every input class, the
    /// entry's parameters, and statics, except for the start of `main(String[])`, whose only
    /// input is an array of strings. A start inside a method (not at pc 0, or with more than
    /// one frame) narrows no field.
    pub fn world(&self, start: &State) -> crate::class::World {
        let mut seeds: std::collections::BTreeSet<String> = crate::models::JDK_CLASSES
            .iter()
            .filter(|c| !c.is_abstract && !c.is_interface)
            .filter(|c| !crate::models::collections::made_by_calls_only(c.name))
            .map(|c| c.name.to_string())
            .collect();
        let entries: Vec<crate::class::MethodKey> =
            start.frames.iter().map(|f| f.method.key()).collect();
        // the statics that are inputs are those the reachable code reads, and what is reachable
        // depends on the inputs' classes: to a fixpoint (the sets only grow), so that a class
        // the entry cannot reach adds nothing, not even through the statics its code reads
        let mut read = std::collections::BTreeSet::new();
        let (inputs, rta) = loop {
            let inputs = self.input_classes(start, &read);
            let mut all = seeds.clone();
            all.extend(inputs.iter().cloned());
            let rta = crate::class::rapid_type_analysis_with(
                &self.hierarchy,
                &entries,
                &all,
                &crate::models::collections::made_by_call,
            );
            let now = self.reference_statics_read_by(&rta.methods);
            if now.is_subset(&read) {
                break (inputs, rta);
            }
            read.extend(now);
        };
        seeds.extend(inputs.iter().cloned());
        let fields = match self.flow_seeds(start, &inputs) {
            Some(fs) => crate::class::field_types(&self.hierarchy, &rta.methods, &rta.classes, &fs),
            None => crate::class::FieldTypes::default(),
        };
        let read = self.statics_read_by(&rta.methods);
        crate::class::World::new(&self.hierarchy, rta.classes, &fields).with_read_statics(read)
    }

    /// The static fields (declaring class, name: [`Self::static_key`]) that the code of
    /// `methods` reads with `getstatic`.
    fn statics_read_by(
        &self,
        methods: &std::collections::BTreeSet<crate::class::MethodKey>,
    ) -> std::collections::BTreeSet<crate::state::StaticField> {
        self.getstatics_of(methods)
            .map(|f| self.static_key(&f))
            .collect()
    }

    /// The `getstatic` instructions of the code of `methods`.
    fn getstatics_of<'m>(
        &'m self,
        methods: &'m std::collections::BTreeSet<crate::class::MethodKey>,
    ) -> impl Iterator<Item = crate::class::FieldRef> + 'm {
        let cp = self.hierarchy.classpath();
        methods.iter().flat_map(move |(class, name, desc)| {
            let Ok(c) = cp.load(class) else {
                return Vec::new();
            };
            c.methods
                .iter()
                .filter(|m| &m.name == name && &m.desc_str == desc)
                .flat_map(|m| m.code.iter())
                .flat_map(|code| code.insns.iter())
                .filter_map(|(_, insn)| match insn {
                    crate::class::Insn::GetStatic(f) => Some(f.clone()),
                    _ => None,
                })
                .collect()
        })
    }

    /// What a run from `start` may hold before its code stores anything (see [`Self::world`]);
    /// `None` for a start inside a method.
    fn flow_seeds(
        &self,
        start: &State,
        inputs: &std::collections::BTreeSet<String>,
    ) -> Option<crate::class::FlowSeeds> {
        let [frame] = start.frames.as_slice() else {
            return None;
        };
        if frame.pc != 0 {
            return None;
        }
        let m = &frame.method;
        let key = m.key();
        let resolved = self.method(m).ok()?;
        let method = resolved.method();
        if self.is_main_start(start) && start.statics.is_empty() {
            let array = format!("[L{};", crate::models::STRING);
            return Some(crate::class::FlowSeeds {
                params: vec![(key, 0, Some([array].into()))],
                array_elems: Some([crate::models::STRING.to_string()].into()),
                unknown_fields: Default::default(),
                unknown_statics: false,
            });
        }
        let mut params = Vec::new();
        let mut slot = u16::from(!method.is_static);
        if !method.is_static {
            params.push((key.clone(), 0, None));
        }
        for p in &method.desc.params {
            if p.is_reference() {
                params.push((key.clone(), slot, None));
            }
            slot += p.slots();
        }
        let mut unknown_fields = std::collections::BTreeSet::new();
        for c in inputs {
            for f in self.hierarchy.instance_fields(c).ok()? {
                unknown_fields.insert((f.declared_in, f.name));
            }
        }
        Some(crate::class::FlowSeeds {
            params,
            array_elems: None,
            unknown_fields,
            unknown_statics: true,
        })
    }

    /// Whether `start` is the start of `main(String[])`: one frame, at pc 0, of a static method
    /// `main` with that descriptor.
    fn is_main_start(&self, start: &State) -> bool {
        let [frame] = start.frames.as_slice() else {
            return false;
        };
        frame.pc == 0
            && frame.method.name.as_ref() == "main"
            && frame.method.desc.as_ref() == format!("({})V", crate::models::STRING_ARRAY)
            && self.method(&frame.method).is_ok_and(|m| m.is_static)
    }

    /// The declared types of the reference static fields that the code of `methods` reads.
    fn reference_statics_read_by(
        &self,
        methods: &std::collections::BTreeSet<crate::class::MethodKey>,
    ) -> std::collections::BTreeSet<String> {
        self.getstatics_of(methods)
            .filter(|f| f.desc.is_reference())
            .map(|f| f.desc.to_string())
            .collect()
    }

    /// The classes an input of a run from `start` can have (see [`Self::world`]), given the
    /// declared types of the reference statics the run's code may read (`read_statics`).
    fn input_classes(
        &self,
        start: &State,
        read_statics: &std::collections::BTreeSet<String>,
    ) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        let class_of = |t: &str| -> String {
            let elem = t.trim_start_matches('[');
            elem.strip_prefix('L')
                .and_then(|e| e.strip_suffix(';'))
                .unwrap_or(elem)
                .to_string()
        };
        let mut todo: Vec<String> = start
            .heap
            .values()
            .filter_map(|v| v.type_name().map(class_of))
            .collect();
        if !self.is_main_start(start) {
            todo.extend(read_statics.iter().map(|t| class_of(t)));
        }
        todo.extend(
            start
                .statics
                .keys()
                .filter_map(|k| self.static_type(k))
                .filter(|t| t.is_reference())
                .map(|t| class_of(&t.to_string())),
        );
        let mut seen = std::collections::BTreeSet::new();
        while let Some(t) = todo.pop() {
            if !seen.insert(t.clone()) {
                continue;
            }
            let Ok(subs) = self.hierarchy.non_abstract_subtypes(&t) else {
                continue;
            };
            for c in subs {
                if crate::models::collections::made_by_calls_only(&c) {
                    // no input is a map's view, its iterator or entry
                    continue;
                }
                if let Ok(fields) = self.instance_fields(&c) {
                    todo.extend(
                        fields
                            .iter()
                            .filter(|(_, ft, _)| ft.is_reference())
                            .map(|(_, ft, _)| class_of(&ft.to_string())),
                    );
                }
                out.insert(c);
            }
        }
        out
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
