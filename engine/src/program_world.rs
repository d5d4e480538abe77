//! The closed world of a run ([`Program::world`]): the classes its objects can have, the
//! statics that are inputs, and the class initializers it may start
//! ([`Program::initializers`]), all from one rapid type analysis of the code a run reaches.

use crate::class::{MethodKey, Reachable};
use crate::program::Program;
use crate::state::{MethodId, State};
use std::collections::BTreeSet;

/// The class initializers a run may start ([`Program::initializers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initializers {
    /// The class-path `<clinit>`s, in name order.
    pub methods: Vec<MethodId>,
    /// A handler of the run's code (method, handler pc) that catches the error an initializer
    /// that throws raises at its class's first use, which the graphs do not follow.
    pub caught_at: Option<(MethodId, u32)>,
}

impl Program {
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
        let (inputs, rta) = self.reach(start);
        let fields = match self.flow_seeds(start, &inputs) {
            Some(fs) => crate::class::field_types(&self.hierarchy, &rta.methods, &rta.classes, &fs),
            None => crate::class::FieldTypes::default(),
        };
        let read = self.statics_read_by(&rta.methods);
        crate::class::World::new(&self.hierarchy, rta.classes, &fields).with_read_statics(read)
    }

    /// The class initializers of class-path classes that a run from `start` may start (JVMS
    /// §5.5: a class's `<clinit>` runs on its first use by `new`, a static access or call, and
    /// its supertypes' before it; not that of an input's class, whose object exists), in
    /// name order, without the methods of `start`'s own frames, and the first handler of the
    /// run's code that would catch the error an initializer ending by an exception raises. The
    /// engine's graphs do not enter initializers (the first read of a static is an input), so
    /// a run ends only if each of these does too, and it follows its graph only if none of
    /// them throws or nothing catches what it throws; the JDK's own initializers are the JDK's.
    pub fn initializers(&self, start: &State) -> Initializers {
        let (_, rta) = self.reach(start);
        let own: BTreeSet<MethodKey> = start.frames.iter().map(|f| f.method.key()).collect();
        let methods = rta
            .methods
            .iter()
            .filter(|(c, name, _)| {
                name == "<clinit>"
                    && rta.triggered.contains(c)
                    && !crate::models::is_jdk_class(c)
                    && !self.hierarchy.is_library(c)
            })
            .filter(|k| !own.contains(*k))
            .map(MethodId::of_key)
            .collect();
        Initializers {
            methods,
            caught_at: self.initialization_error_handler(&rta.methods),
        }
    }

    /// The first handler (method in name order, handler pc) in the code of `methods` that
    /// catches an initialization error ([`crate::models::exceptions::catches_initialization_error`]).
    fn initialization_error_handler(
        &self,
        methods: &BTreeSet<MethodKey>,
    ) -> Option<(MethodId, u32)> {
        let cp = self.hierarchy.classpath();
        methods.iter().find_map(|key @ (class, name, desc)| {
            let c = cp.load(class).ok()?;
            let code = c
                .methods
                .iter()
                .find(|m| &m.name == name && &m.desc_str == desc)?
                .code
                .as_ref()?;
            let h = code.handlers.iter().find(|h| {
                crate::models::exceptions::catches_initialization_error(h.catch_type.as_deref())
                    && !rethrows(code, h.handler)
            })?;
            Some((MethodId::of_key(key), h.handler))
        })
    }

    /// The classes an input of a run from `start` can have and the rapid type analysis of the
    /// run's code (see [`Self::world`]).
    fn reach(&self, start: &State) -> (BTreeSet<String>, Reachable) {
        let seeds: BTreeSet<String> = crate::models::JDK_CLASSES
            .iter()
            .filter(|c| !c.is_abstract && !c.is_interface)
            .filter(|c| !crate::models::collections::made_by_calls_only(c.name))
            .map(|c| c.name.to_string())
            .collect();
        let entries: Vec<MethodKey> = start.frames.iter().map(|f| f.method.key()).collect();
        // the statics that are inputs are those the reachable code reads, and what is reachable
        // depends on the inputs' classes: to a fixpoint (the sets only grow), so that a class
        // the entry cannot reach adds nothing, not even through the statics its code reads
        let mut read = BTreeSet::new();
        loop {
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
                return (inputs, rta);
            }
            read.extend(now);
        }
    }

    /// The static fields (declaring class, name: [`Self::static_key`]) that the code of
    /// `methods` reads with `getstatic`.
    fn statics_read_by(
        &self,
        methods: &BTreeSet<MethodKey>,
    ) -> BTreeSet<crate::state::StaticField> {
        self.getstatics_of(methods)
            .map(|f| self.static_key(&f))
            .collect()
    }

    /// The `getstatic` instructions of the code of `methods`.
    fn getstatics_of<'m>(
        &'m self,
        methods: &'m BTreeSet<MethodKey>,
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
        inputs: &BTreeSet<String>,
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
        let mut unknown_fields = BTreeSet::new();
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
    fn reference_statics_read_by(&self, methods: &BTreeSet<MethodKey>) -> BTreeSet<String> {
        self.getstatics_of(methods)
            .filter(|f| f.desc.is_reference())
            .map(|f| f.desc.to_string())
            .collect()
    }

    /// The classes an input of a run from `start` can have (see [`Self::world`]), given the
    /// declared types of the reference statics the run's code may read (`read_statics`).
    fn input_classes(&self, start: &State, read_statics: &BTreeSet<String>) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
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
        let mut seen = BTreeSet::new();
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
}

/// Whether the handler at `pc` only throws what it caught again: javac's handler of a
/// `synchronized` block (`astore x; aload l; monitorexit; aload x; athrow`) or a bare rethrow
/// (`astore x; aload x; athrow`). The error then goes on as if uncaught (none of these
/// instructions starts a class's initialization), so such a handler catches nothing the
/// verdict must account for.
fn rethrows(code: &crate::class::Code, pc: u32) -> bool {
    use crate::class::{Insn, Kind};
    let Some(at) = code.insns.iter().position(|(p, _)| *p == pc) else {
        return false;
    };
    let insns: Vec<&Insn> = code.insns[at..].iter().map(|(_, i)| i).take(5).collect();
    match insns.as_slice() {
        [Insn::Store(Kind::Ref, x), Insn::Load(Kind::Ref, _), Insn::MonitorExit, Insn::Load(Kind::Ref, y), Insn::AThrow]
        | [Insn::Store(Kind::Ref, x), Insn::Load(Kind::Ref, y), Insn::AThrow, ..] => x == y,
        _ => false,
    }
}
