//! The class hierarchy over a [`ClassPath`] plus a table of library classes (the JDK classes
//! the engine models, which `models` gives).
//!
//! Answers subtyping (JVMS §4.10.1.2, including arrays), enumerates concrete subtypes for
//! type refinement, lists instance/static fields (rejecting field shadowing, since the
//! engine identifies instance fields by name), and resolves/dispatches methods
//! (JVMS §5.4.3.3, §5.4.6, simplified: no access checks).
//!
//! No JDK class file is read: the library table gives supers, interfaces and flags of the
//! JDK classes the engine models. The table takes precedence over class-path entries of the
//! same name, so the engine's models and the hierarchy agree.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use super::classfile::{Class, Field, Method};
use super::classpath::ClassPath;
use super::descriptor::FieldType;
use super::error::ClassError;
use super::jvms::{ARRAY_INTERFACES, BOOTSTRAP_ONLY_PACKAGE, OBJECT};

/// A library class the hierarchy knows without reading a class file: the JDK classes the
/// engine models, given by `models` (this module holds no JDK fact of its own).
#[derive(Clone, Copy, Debug)]
pub struct LibraryClass {
    pub name: &'static str,
    pub super_name: Option<&'static str>,
    pub interfaces: &'static [&'static str],
    pub is_interface: bool,
    pub is_abstract: bool,
    /// A final class has no subtype but itself.
    pub is_final: bool,
}

/// Supertype information of one class, from the library table or a loaded class.
#[derive(Clone, Debug)]
struct Info {
    super_name: Option<String>,
    interfaces: Vec<String>,
    is_interface: bool,
    is_abstract: bool,
    /// `None` for library classes.
    class: Option<Arc<Class>>,
}

/// An instance field of a class's layout (see [`Hierarchy::instance_fields`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceField {
    pub declared_in: String,
    pub name: String,
    pub ty: FieldType,
    /// A more derived class of the object declares a field of the same name.
    pub shadowed: bool,
}

/// A resolved field: the declaring class and the declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedField {
    pub class: String,
    pub field: Field,
}

/// A resolved method: the declaring class and the method's index in it.
#[derive(Clone, Debug)]
pub struct ResolvedMethod {
    pub class: Arc<Class>,
    pub index: usize,
}

impl ResolvedMethod {
    /// The method declaration.
    pub fn method(&self) -> &Method {
        &self.class.methods[self.index]
    }
}

/// A resolved method reads as its declaration; holding the class keeps it cheap to pass around
/// (no copy of the decoded code).
impl std::ops::Deref for ResolvedMethod {
    type Target = Method;
    fn deref(&self) -> &Method {
        self.method()
    }
}

/// Element type name of an array class name: `[LA;` → `A`, `[[I` → `[I`, `[I` → `I`.
fn array_component(name: &str) -> Option<&str> {
    let rest = name.strip_prefix('[')?;
    Some(
        rest.strip_prefix('L')
            .and_then(|r| r.strip_suffix(';'))
            .unwrap_or(rest),
    )
}

fn is_primitive_descriptor(s: &str) -> bool {
    matches!(s, "B" | "C" | "D" | "F" | "I" | "J" | "S" | "Z")
}

/// Subtype queries and member lookup over a class path and a table of library classes.
#[derive(Debug)]
pub struct Hierarchy {
    classpath: Arc<ClassPath>,
    /// Sorted by name; takes precedence over class-path entries of the same name.
    library: &'static [LibraryClass],
    names: OnceLock<Vec<String>>,
    /// Per class, every class and interface above it (itself included), once the whole chain
    /// has loaded: subtype queries are the engine's most frequent hierarchy question, and each
    /// walk would otherwise load and copy every class on the way.
    supertypes: Mutex<HashMap<String, Arc<HashSet<String>>>>,
}

impl Hierarchy {
    /// A hierarchy over `classpath` and the library classes `library` (sorted by name; the
    /// engine passes `models::JDK_CLASSES`). The class list is read lazily, on first need.
    pub fn new(classpath: Arc<ClassPath>, library: &'static [LibraryClass]) -> Hierarchy {
        debug_assert!(library.windows(2).all(|w| w[0].name < w[1].name));
        Hierarchy {
            classpath,
            library,
            names: OnceLock::new(),
            supertypes: Mutex::default(),
        }
    }

    fn library_class(&self, name: &str) -> Option<&'static LibraryClass> {
        let lib = self.library;
        lib.binary_search_by(|b| b.name.cmp(name))
            .ok()
            .map(|i| &lib[i])
    }

    /// The underlying class path.
    pub fn classpath(&self) -> &ClassPath {
        &self.classpath
    }

    /// True for the classes of the library table.
    pub fn is_library(&self, name: &str) -> bool {
        self.library_class(name).is_some()
    }

    fn info(&self, name: &str) -> Result<Info, ClassError> {
        if let Some(b) = self.library_class(name) {
            return Ok(Info {
                super_name: b.super_name.map(str::to_string),
                interfaces: b.interfaces.iter().map(|s| s.to_string()).collect(),
                is_interface: b.is_interface,
                is_abstract: b.is_abstract || b.is_interface,
                class: None,
            });
        }
        let c = self.classpath.load(name)?;
        Ok(Info {
            // Interfaces have Object as class-file super; the hierarchy treats that uniformly.
            super_name: c.super_name.clone(),
            interfaces: c.interfaces.clone(),
            is_interface: c.is_interface,
            is_abstract: c.is_abstract || c.is_interface,
            class: Some(c),
        })
    }

    /// The loaded class, or `None` for a library one.
    fn class(&self, name: &str) -> Result<Option<Arc<Class>>, ClassError> {
        Ok(self.info(name)?.class)
    }

    /// The direct superclass (`None` for `java/lang/Object` and library interfaces).
    pub fn super_of(&self, class: &str) -> Result<Option<String>, ClassError> {
        Ok(self.info(class)?.super_name)
    }

    /// True for abstract classes and interfaces.
    pub fn is_abstract(&self, class: &str) -> Result<bool, ClassError> {
        Ok(self.info(class)?.is_abstract)
    }

    /// True for interfaces.
    pub fn is_interface(&self, class: &str) -> Result<bool, ClassError> {
        Ok(self.info(class)?.is_interface)
    }

    /// Whether `sub` ⊑ `sup` for reference types given as internal names or array
    /// descriptors (`[I`, `[LA;`). Unknown classes on the way are `NotFound` errors.
    pub fn is_subtype(&self, sub: &str, sup: &str) -> Result<bool, ClassError> {
        if sub == sup || sup == OBJECT {
            return Ok(true);
        }
        if let Some(sub_elem) = array_component(sub) {
            if let Some(sup_elem) = array_component(sup) {
                return match (
                    is_primitive_descriptor(sub_elem),
                    is_primitive_descriptor(sup_elem),
                ) {
                    (false, false) => self.is_subtype(sub_elem, sup_elem),
                    _ => Ok(sub_elem == sup_elem),
                };
            }
            return Ok(ARRAY_INTERFACES.contains(&sup));
        }
        if array_component(sup).is_some() {
            return Ok(false);
        }
        let cached = self.lock_supertypes().get(sub).cloned();
        let supers = match cached {
            Some(s) => s,
            None => match self.all_supertypes(sub) {
                Ok(s) => {
                    let s = Arc::new(s);
                    self.lock_supertypes()
                        .insert(sub.to_string(), Arc::clone(&s));
                    s
                }
                // an unknown class above `sub`: the walk answers as far as it gets
                Err(_) => return self.walk_supertypes(sub, sup),
            },
        };
        Ok(supers.contains(sup))
    }

    /// The most specific types above both classes `a` and `b`: the common supertypes
    /// (classes and interfaces, `java/lang/Object` aside) no other common supertype is below,
    /// sorted. Empty when only `Object` is common, or a supertype of either cannot be loaded.
    pub fn minimal_common_supertypes(&self, a: &str, b: &str) -> Vec<String> {
        let (Ok(sa), Ok(sb)) = (self.all_supertypes(a), self.all_supertypes(b)) else {
            return Vec::new();
        };
        let common: BTreeSet<&String> = sa.intersection(&sb).filter(|c| *c != OBJECT).collect();
        common
            .iter()
            .filter(|c| {
                !common
                    .iter()
                    .any(|d| d != *c && self.is_subtype(d, c).unwrap_or(false))
            })
            .map(|c| (*c).clone())
            .collect()
    }

    fn lock_supertypes(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<HashSet<String>>>> {
        // a panic while holding the lock leaves the map consistent (inserts are whole)
        self.supertypes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `c` and every class and interface above it; an error if one of them cannot be loaded.
    fn all_supertypes(&self, c: &str) -> Result<HashSet<String>, ClassError> {
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([c.to_string()]);
        while let Some(c) = queue.pop_front() {
            if seen.contains(&c) {
                continue;
            }
            let info = self.info(&c)?;
            seen.insert(c);
            queue.extend(info.super_name);
            queue.extend(info.interfaces);
        }
        Ok(seen)
    }

    /// Whether `sup` is above `sub`, walking up until it is found (breadth first): an unknown
    /// class is an error only if the walk must go through it. An unknown `java/` class is not
    /// gone through when `sup` is not a `java/` class: nothing above it can be `sup`
    /// ([`BOOTSTRAP_ONLY_PACKAGE`]), so an enum or a subclass of an unmodelled JDK class is
    /// known not to be below a class of the program.
    fn walk_supertypes(&self, sub: &str, sup: &str) -> Result<bool, ClassError> {
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([sub.to_string()]);
        let sup_is_bootstrap = sup.starts_with(BOOTSTRAP_ONLY_PACKAGE);
        while let Some(c) = queue.pop_front() {
            if c == sup {
                return Ok(true);
            }
            if !seen.insert(c.clone()) {
                continue;
            }
            let info = match self.info(&c) {
                Ok(info) => info,
                Err(_) if !sup_is_bootstrap && c.starts_with(BOOTSTRAP_ONLY_PACKAGE) => continue,
                Err(e) => return Err(e),
            };
            queue.extend(info.super_name);
            queue.extend(info.interfaces);
        }
        Ok(false)
    }

    fn all_names(&self) -> &[String] {
        self.names.get_or_init(|| {
            let mut names: BTreeSet<String> = self.classpath.class_names().into_iter().collect();
            names.extend(self.library.iter().map(|b| b.name.to_string()));
            names.into_iter().collect()
        })
    }

    /// All concrete (non-abstract, non-interface) classes of the class path and the library
    /// table that are subtypes of `class`, including `class` itself if concrete, sorted by
    /// name. For `java/lang/Object` that is every concrete known class; the caller decides
    /// whether such a refinement is meaningful.
    pub fn non_abstract_subtypes(&self, class: &str) -> Result<Vec<String>, ClassError> {
        self.non_abstract_subtypes_in(class, &|_| true)
    }

    /// [`Self::non_abstract_subtypes`] among the classes `keep` accepts (a closed world): a
    /// class `keep` refuses is never loaded nor asked about, so it cannot make the query fail.
    pub fn non_abstract_subtypes_in(
        &self,
        class: &str,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<String>, ClassError> {
        // Fail early (NotFound) if `class` itself is unknown.
        self.info(class)?;
        let mut out = Vec::new();
        for name in self.all_names().iter().filter(|n| keep(n)) {
            let info = self.info(name)?;
            if info.is_abstract || info.is_interface {
                continue;
            }
            if self.is_subtype(name, class)? {
                out.push(name.clone());
            }
        }
        Ok(out)
    }

    /// Whether some known class or interface other than `class` is a subtype of it (final
    /// classes have none). Used where a value's runtime type could be narrower than a bound.
    pub fn has_proper_subtype(&self, class: &str) -> Result<bool, ClassError> {
        // arrays are covariant: `B[]` is below `A[]` exactly when `B` is below `A`; an array
        // of a primitive type has no proper subtype
        if let Some(elem) = array_component(class) {
            return if is_primitive_descriptor(elem) {
                Ok(false)
            } else {
                self.has_proper_subtype(elem)
            };
        }
        if let Some(c) = self.class(class)? {
            if c.is_final {
                return Ok(false);
            }
        } else if self.library_class(class).is_some_and(|b| b.is_final) {
            return Ok(false);
        }
        for name in self.all_names() {
            if name != class && self.is_subtype(name, class)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The superclass chain starting at `class` itself.
    fn chain(&self, class: &str) -> Result<Vec<Info>, ClassError> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(class.to_string());
        while let Some(c) = next {
            if !seen.insert(c.clone()) {
                return Err(ClassError::malformed(format!(
                    "cyclic superclass chain at {c}"
                )));
            }
            let info = self.info(&c)?;
            next = info.super_name.clone();
            out.push(info);
        }
        Ok(out)
    }

    /// All non-static fields of `class`, including inherited ones, sorted by name (then by
    /// declaring class, most derived first). A field is *shadowed* when a more derived class
    /// of the chain declares an instance field of the same name: an object then has both, and
    /// the engine keys the shadowed one by its declaring class too (`state::FieldKey`).
    pub fn instance_fields(&self, class: &str) -> Result<Vec<InstanceField>, ClassError> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut out = Vec::new();
        for (depth, info) in self.chain(class)?.into_iter().enumerate() {
            let Some(c) = info.class else { continue };
            for f in c.fields.iter().filter(|f| !f.is_static) {
                out.push((
                    depth,
                    InstanceField {
                        declared_in: c.name.clone(),
                        name: f.name.clone(),
                        ty: f.desc.clone(),
                        shadowed: !seen.insert(f.name.clone()),
                    },
                ));
            }
        }
        out.sort_by(|(da, a), (db, b)| a.name.cmp(&b.name).then(da.cmp(db)));
        Ok(out.into_iter().map(|(_, f)| f).collect())
    }

    /// The static fields declared by `class` itself (not inherited), as
    /// `(declaring class, name, type)`, sorted by name. Built-in classes have none.
    pub fn static_fields(
        &self,
        class: &str,
    ) -> Result<Vec<(String, String, FieldType)>, ClassError> {
        let Some(c) = self.class(class)? else {
            return Ok(Vec::new());
        };
        let mut out: Vec<_> = c
            .fields
            .iter()
            .filter(|f| f.is_static)
            .map(|f| (c.name.clone(), f.name.clone(), f.desc.clone()))
            .collect();
        out.sort_by(|a, b| a.1.cmp(&b.1));
        Ok(out)
    }

    /// The enum constants `class` declares: its static `ACC_ENUM` fields, in class-file order
    /// (javac's declaration order). A library class has none.
    pub fn enum_constants(&self, class: &str) -> Result<Vec<String>, ClassError> {
        let Some(c) = self.class(class)? else {
            return Ok(Vec::new());
        };
        Ok(c.fields
            .iter()
            .filter(|f| f.is_static && f.is_enum)
            .map(|f| f.name.clone())
            .collect())
    }

    /// Field resolution (JVMS §5.4.3.2): the class itself, then its superinterfaces
    /// (recursively), then its superclass (recursively). `None` if no class declares it;
    /// library classes declare no fields.
    pub fn resolve_field(
        &self,
        class: &str,
        name: &str,
    ) -> Result<Option<ResolvedField>, ClassError> {
        let info = self.info(class)?;
        if let Some(c) = &info.class {
            if let Some(f) = c.field(name) {
                return Ok(Some(ResolvedField {
                    class: c.name.clone(),
                    field: f.clone(),
                }));
            }
        }
        for i in &info.interfaces {
            if let Some(r) = self.resolve_field(i, name)? {
                return Ok(Some(r));
            }
        }
        match &info.super_name {
            Some(s) => self.resolve_field(s, name),
            None => Ok(None),
        }
    }

    fn declared(
        &self,
        class: &str,
        name: &str,
        desc: &str,
    ) -> Result<Option<ResolvedMethod>, ClassError> {
        let Some(c) = self.class(class)? else {
            return Ok(None);
        };
        Ok(c.methods
            .iter()
            .position(|m| m.name == name && m.desc_str == desc)
            .map(|index| ResolvedMethod { class: c, index }))
    }

    /// All superinterfaces of `class` (transitively, via superclasses too), breadth first.
    fn superinterfaces(&self, class: &str) -> Result<Vec<String>, ClassError> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        for info in self.chain(class)? {
            queue.extend(info.interfaces);
        }
        while let Some(i) = queue.pop_front() {
            if !seen.insert(i.clone()) {
                continue;
            }
            queue.extend(self.info(&i)?.interfaces);
            out.push(i);
        }
        Ok(out)
    }

    /// Method resolution (JVMS §5.4.3.3, simplified): the class and its superclasses, then
    /// superinterfaces, preferring a non-abstract (default) method there. `Ok(None)` if no
    /// loaded class declares it (library classes contribute no methods).
    pub fn resolve_method(
        &self,
        class: &str,
        name: &str,
        desc: &str,
    ) -> Result<Option<ResolvedMethod>, ClassError> {
        let mut next = Some(class.to_string());
        while let Some(c) = next {
            if let Some(m) = self.declared(&c, name, desc)? {
                return Ok(Some(m));
            }
            next = self.super_of(&c)?;
        }
        self.interface_method(class, name, desc, false)
    }

    /// A superinterface method: a non-abstract one first, else (unless `concrete_only`) any.
    fn interface_method(
        &self,
        class: &str,
        name: &str,
        desc: &str,
        concrete_only: bool,
    ) -> Result<Option<ResolvedMethod>, ClassError> {
        let mut abstract_one = None;
        for i in self.superinterfaces(class)? {
            if let Some(m) = self.declared(&i, name, desc)? {
                let mm = m.method();
                if mm.is_static || mm.is_private {
                    continue;
                }
                if !mm.is_abstract {
                    return Ok(Some(m));
                }
                abstract_one.get_or_insert(m);
            }
        }
        Ok(if concrete_only { None } else { abstract_one })
    }

    /// Virtual dispatch (JVMS §5.4.6, simplified): the method executed by
    /// `invokevirtual`/`invokeinterface` for a receiver whose exact class is
    /// `receiver_class`. Selects the first non-static method of that name and descriptor in
    /// the class and its superclasses (private ones only in the receiver class itself), else
    /// a default method of a superinterface. `Ok(None)` if the selected method is abstract
    /// or there is none (AbstractMethodError, or a method of a library class the engine
    /// models itself).
    pub fn dispatch_virtual(
        &self,
        receiver_class: &str,
        name: &str,
        desc: &str,
    ) -> Result<Option<ResolvedMethod>, ClassError> {
        let mut next = Some(receiver_class.to_string());
        while let Some(c) = next {
            if let Some(m) = self.declared(&c, name, desc)? {
                let mm = m.method();
                let private_elsewhere = mm.is_private && c != receiver_class;
                if !mm.is_static && !private_elsewhere {
                    // An abstract redeclaration is selected too: it means AbstractMethodError.
                    return Ok((!mm.is_abstract).then_some(m));
                }
            }
            next = self.super_of(&c)?;
        }
        self.interface_method(receiver_class, name, desc, true)
    }
}
