//! Rapid type analysis (Bacon & Sweeney, OOPSLA '96): the methods reachable from entry methods
//! and the classes their code instantiates, computed together to a fixpoint in which a virtual
//! call reaches only the methods that the classes instantiated so far select.
//!
//! The result bounds the classes of the objects of a run: an object exists because some
//! executed `new` made it, or because it was there at the start (the caller's `seeds`: the
//! classes of the inputs and of the objects the JDK itself makes). Class initializers run when
//! a class is first used (JVMS §5.5), so the `<clinit>` of every class the reachable code
//! touches (and of its supertypes) is reachable too. A lambda site instantiates the class the
//! engine makes for it (`lambda.rs`, whose method calls the implementation); a string
//! concatenation calls no program code the engine runs (a program object's `toString()` is
//! unsupported there). Any other `invokedynamic` may call code the class files do not name;
//! reaching one gives up precision: every class a `new` of the class path names counts as
//! instantiated.

use super::{Class, Hierarchy, Insn, InvokeKind, MethodRef};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A method as (class, name, descriptor), internal names.
pub type MethodKey = (String, String, String);

/// The class file declaring `m` (loaded from the class path) and `m`'s index among its methods.
pub(super) fn declared_method(h: &Hierarchy, m: &MethodKey) -> Option<(Arc<Class>, usize)> {
    let class = h.classpath().load(&m.0).ok()?;
    let i = class
        .methods
        .iter()
        .position(|x| x.name == m.1 && x.desc_str == m.2)?;
    Some((class, i))
}

/// What a rapid type analysis found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reachable {
    /// The classes that objects of a run may have: the seeds and every class a reachable `new`
    /// names.
    pub classes: BTreeSet<String>,
    /// The methods with code that a run may execute.
    pub methods: BTreeSet<MethodKey>,
    /// The classes whose initialization an instruction of the run may start (JVMS §5.5: `new`,
    /// `getstatic`, `putstatic`, `invokestatic` of the class, the entry's class) with their
    /// supertypes, and those that the initializers of these start; not the seeds' classes,
    /// whose objects exist, so their initialization has started before the run (the
    /// initializers of seed classes are reachable methods all the same, but what their code
    /// starts counts only where the run starts them).
    pub triggered: BTreeSet<String>,
}

/// A virtual call site: the class, name and descriptor the instruction names.
type Site = (String, String, String);

/// The analysis state of [`rapid_type_analysis`].
struct Rta<'a> {
    h: &'a Hierarchy,
    library_news: LibraryNews<'a>,
    out: Reachable,
    sites: BTreeSet<Site>,
    todo: Vec<MethodKey>,
    initialized: BTreeSet<String>,
    /// The classes an initializer's code may trigger, by the initializer's class.
    init_triggers: BTreeMap<String, BTreeSet<String>>,
    saw_invokedynamic: bool,
}

/// The methods reachable from `entries` and the classes instantiated on the way, starting from
/// `seeds` (classes whose objects exist without a `new` of the analysed code). A class or
/// method missing from the class path contributes nothing (the engine reports its use).
pub fn rapid_type_analysis(
    h: &Hierarchy,
    entries: &[MethodKey],
    seeds: &BTreeSet<String>,
) -> Reachable {
    rapid_type_analysis_with(h, entries, seeds, &|_, _| vec![])
}

/// The classes of the objects a library call `name desc` makes that no `new` of the analysed
/// code names (the models know them: a map's `keySet()` makes a view).
pub type LibraryNews<'a> = &'a dyn Fn(&str, &str) -> Vec<&'static str>;

/// [`rapid_type_analysis`] where a reachable virtual or interface call `name desc` also makes
/// objects of the classes `library_news` gives.
pub fn rapid_type_analysis_with(
    h: &Hierarchy,
    entries: &[MethodKey],
    seeds: &BTreeSet<String>,
    library_news: LibraryNews<'_>,
) -> Reachable {
    let mut rta = Rta {
        h,
        library_news,
        out: Reachable::default(),
        sites: BTreeSet::new(),
        todo: Vec::new(),
        initialized: BTreeSet::new(),
        init_triggers: BTreeMap::new(),
        saw_invokedynamic: false,
    };
    for c in seeds {
        rta.instantiate(c);
    }
    for e in entries {
        rta.trigger(None, &e.0);
        rta.initialize(&e.0);
        rta.reach(e.clone());
    }
    while let Some(m) = rta.todo.pop() {
        rta.scan(&m);
        if rta.saw_invokedynamic {
            rta.saw_invokedynamic = false;
            for c in every_new(h) {
                rta.trigger(None, &c);
                rta.instantiate(&c);
            }
        }
    }
    rta.close_triggered();
    rta.out
}

/// Every class a `new` of the class path names.
fn every_new(h: &Hierarchy) -> BTreeSet<String> {
    let cp = h.classpath();
    let mut out = BTreeSet::new();
    for name in cp.class_names() {
        let Ok(class) = cp.load(&name) else { continue };
        for m in &class.methods {
            for (_, insn) in m.code.iter().flat_map(|c| c.insns.iter()) {
                if let Insn::New(c) = insn {
                    out.insert(c.clone());
                }
            }
        }
    }
    out
}

impl Rta<'_> {
    fn reach(&mut self, m: MethodKey) {
        if self.out.methods.insert(m.clone()) {
            self.todo.push(m);
        }
    }

    /// `class` has instances now: every known virtual call site may select its methods.
    fn instantiate(&mut self, class: &str) {
        if !self.out.classes.insert(class.to_string()) {
            return;
        }
        self.initialize(class);
        let sites: Vec<Site> = self.sites.iter().cloned().collect();
        for s in &sites {
            self.dispatch(class, s);
        }
    }

    /// A virtual call site is reachable: it may select the method of every instantiated class.
    fn add_site(&mut self, m: &MethodRef) {
        let site = (m.class.clone(), m.name.clone(), m.desc_str.clone());
        if !self.sites.insert(site.clone()) {
            return;
        }
        let classes: Vec<String> = self.out.classes.iter().cloned().collect();
        for c in &classes {
            self.dispatch(c, &site);
        }
    }

    /// The method that a call at `site` runs on an object of exact class `class`, if the
    /// object can be the receiver there. A class missing from the class path is assumed to
    /// fit (the analysis only over-approximates).
    fn dispatch(&mut self, class: &str, site: &Site) {
        if !self.h.is_subtype(class, &site.0).unwrap_or(true) {
            return;
        }
        if let Ok(Some(m)) = self.h.dispatch_virtual(class, &site.1, &site.2) {
            let callee = m.method();
            self.reach((
                callee.class.clone(),
                callee.name.clone(),
                callee.desc_str.clone(),
            ));
        }
    }

    /// An instruction of `by` (`None`: the run's start) may start `class`'s initialization,
    /// and with it its supertypes' ([`Reachable::triggered`]); one of an initializer counts
    /// once its class is triggered ([`Self::close_triggered`]).
    fn trigger(&mut self, by: Option<&MethodKey>, class: &str) {
        if let Some(init) = by.filter(|m| m.1 == "<clinit>") {
            let by_init = self.init_triggers.entry(init.0.clone()).or_default();
            by_init.insert(class.to_string());
            return;
        }
        let mut todo = vec![class.to_string()];
        while let Some(c) = todo.pop() {
            if !self.out.triggered.insert(c.clone()) {
                continue;
            }
            if let Ok(cls) = self.h.classpath().load(&c) {
                todo.extend(cls.super_name.iter().cloned());
                todo.extend(cls.interfaces.iter().cloned());
            }
        }
    }

    /// Adds what the initializers of the triggered classes trigger, to a fixpoint.
    fn close_triggered(&mut self) {
        loop {
            let more: Vec<String> = (self.out.triggered.iter())
                .filter_map(|c| self.init_triggers.remove(c))
                .flatten()
                .collect();
            if more.is_empty() {
                return;
            }
            for c in more {
                self.trigger(None, &c);
            }
        }
    }

    /// `class` is used: its initializer and those of its supertypes may run.
    fn initialize(&mut self, class: &str) {
        let mut todo = vec![class.to_string()];
        while let Some(c) = todo.pop() {
            if !self.initialized.insert(c.clone()) {
                continue;
            }
            let Ok(cls) = self.h.classpath().load(&c) else {
                continue;
            };
            if cls.methods.iter().any(|m| m.name == "<clinit>") {
                self.reach((c.clone(), "<clinit>".into(), "()V".into()));
            }
            todo.extend(cls.super_name.iter().cloned());
            todo.extend(cls.interfaces.iter().cloned());
        }
    }

    /// Adds what the code of `m` reaches.
    fn scan(&mut self, m: &MethodKey) {
        let Some((class, i)) = declared_method(self.h, m) else {
            return;
        };
        let method = &class.methods[i];
        let Some(code) = &method.code else {
            return;
        };
        for (_, insn) in &code.insns {
            match insn {
                Insn::New(c) => {
                    self.trigger(Some(m), c);
                    self.instantiate(c);
                }
                Insn::GetStatic(f) | Insn::PutStatic(f) => {
                    self.trigger(Some(m), &f.class);
                    self.initialize(&f.class);
                }
                Insn::Invoke { kind, method } => match kind {
                    InvokeKind::Static | InvokeKind::Special => {
                        if *kind == InvokeKind::Static {
                            self.trigger(Some(m), &method.class);
                            self.initialize(&method.class);
                        }
                        if let Ok(Some(r)) =
                            self.h
                                .resolve_method(&method.class, &method.name, &method.desc_str)
                        {
                            let callee = r.method();
                            self.reach((
                                callee.class.clone(),
                                callee.name.clone(),
                                callee.desc_str.clone(),
                            ));
                        }
                    }
                    InvokeKind::Virtual | InvokeKind::Interface => {
                        for c in (self.library_news)(&method.name, &method.desc_str) {
                            self.instantiate(c);
                        }
                        self.add_site(method);
                    }
                },
                Insn::InvokeDynamic { site, .. } => {
                    if let Some(index) = site.lambda_index {
                        // its class's method calls the implementation (see `lambda.rs`)
                        let class = super::indy::lambda_class_name(&m.0, index);
                        self.instantiate(&class);
                    } else if (self.h.classpath().bootstraps())
                        .and_then(|bs| site.concat_recipe(bs))
                        .is_none()
                    {
                        self.saw_invokedynamic = true;
                    }
                }
                _ => {}
            }
        }
    }
}
