//! Finding class files in directories and jars, with a thread-safe cache of parsed classes.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use zip::ZipArchive;

use super::classfile::{parse_class, Class};
use super::error::ClassError;
use super::indy::Bootstraps;

/// One class-path entry.
#[derive(Debug)]
enum Entry {
    /// A folder: `shown` as given (for messages), `dir` made absolute when the class path is
    /// made, so that what is read never depends on the process's working directory later
    /// (another thread may change it: the embedded JVM did, for a moment, when it started).
    Dir { shown: PathBuf, dir: PathBuf },
    Jar {
        path: PathBuf,
        /// Internal names of the `.class` entries, read when the jar is opened.
        classes: BTreeSet<String>,
        archive: Mutex<ZipArchive<File>>,
    },
    /// Class files held in memory, by internal name (see [`ClassPath::from_classes`]).
    Memory(HashMap<String, Vec<u8>>),
}

/// An ordered list of directories and jars, searched first to last.
///
/// Loaded classes are cached; the cache is behind a `Mutex`, so a `ClassPath` can be
/// shared between threads (`Send + Sync`).
#[derive(Debug)]
pub struct ClassPath {
    entries: Vec<Entry>,
    cache: Mutex<HashMap<String, Arc<Class>>>,
    /// Test hook: permute each loaded class's `methods` and `fields` with this seed.
    member_shuffle: Option<u64>,
    /// The bootstrap methods of the call sites read as lambda sites (numbered, their classes
    /// made); `None`: none is ([`ClassPath::with_bootstraps`]).
    bootstraps: Option<&'static Bootstraps>,
}

fn io_err(path: &Path, source: std::io::Error) -> ClassError {
    ClassError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn zip_err(path: &Path, e: zip::result::ZipError) -> ClassError {
    match e {
        zip::result::ZipError::Io(source) => io_err(path, source),
        other => ClassError::malformed(format!(
            "{} is neither a folder nor a jar (zip) file ({other}): a class path is a folder \
             that holds the classes' package folders, a jar, or a `:`-separated list of them",
            path.display()
        )),
    }
}

/// Whether `file` starts with a class file's magic number (the read position is rewound).
fn is_class_file(file: &mut File) -> bool {
    use std::io::{Read, Seek};
    let mut magic = [0u8; 4];
    let yes = file.read_exact(&mut magic).is_ok() && magic == [0xca, 0xfe, 0xba, 0xbe];
    let _ = file.rewind();
    yes
}

/// Internal class name of a jar or directory entry path, if it names a class file.
fn class_name_of_entry(entry: &str) -> Option<String> {
    let name = entry.strip_suffix(".class")?;
    if name.is_empty()
        || name.starts_with("META-INF/")
        || name == "module-info"
        || name.split('/').any(|s| s.is_empty())
    {
        return None;
    }
    Some(name.to_string())
}

/// True if `name` is a plausible internal class name that is safe to turn into a path.
fn valid_internal_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['\\', '.', '[', ';'])
        && name.split('/').all(|s| !s.is_empty())
}

impl ClassPath {
    /// Parses a `:`-separated list of directories and jars; empty segments are skipped.
    pub fn parse(spec: &str) -> Result<ClassPath, ClassError> {
        let paths: Vec<PathBuf> = spec
            .split(':')
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect();
        ClassPath::from_paths(&paths)
    }

    /// Builds a class path from directories and jar (or zip) files; jars are opened now.
    pub fn from_paths(paths: &[PathBuf]) -> Result<ClassPath, ClassError> {
        let mut entries = Vec::with_capacity(paths.len());
        for path in paths {
            let meta = std::fs::metadata(path).map_err(|e| io_err(path, e))?;
            if meta.is_dir() {
                let dir = std::path::absolute(path).map_err(|e| io_err(path, e))?;
                // every folder below must be readable now: later walks cannot report it
                walk_dir(&dir, "", &mut BTreeSet::new())?;
                entries.push(Entry::Dir {
                    shown: path.clone(),
                    dir,
                });
                continue;
            }
            let mut file = File::open(path).map_err(|e| io_err(path, e))?;
            if is_class_file(&mut file) {
                // a common slip (`jtg graph Foo.class …`): say what a class path is
                return Err(ClassError::malformed(format!(
                    "{} is a class file, not a class path: a class path is a folder that holds \
                     the classes' package folders (e.g. build/fixtures), a jar, or a \
                     `:`-separated list of them",
                    path.display()
                )));
            }
            let archive = ZipArchive::new(file).map_err(|e| zip_err(path, e))?;
            let classes = archive
                .file_names()
                .filter_map(class_name_of_entry)
                .collect();
            entries.push(Entry::Jar {
                path: path.clone(),
                classes,
                archive: Mutex::new(archive),
            });
        }
        Ok(ClassPath {
            entries,
            cache: Mutex::new(HashMap::new()),
            member_shuffle: None,
            bootstraps: None,
        })
    }

    /// **Test hook for determinism.** Classes loaded from now on get their `methods` and
    /// `fields` vectors permuted by a pseudo-random permutation derived from `seed` and the
    /// class name. A class file's member order is an accident of the compiler, so nothing the
    /// engine prints may depend on it; the snapshot tests build every fixture graph with a few
    /// seeds and require byte-identical output. The default class path never shuffles.
    pub fn with_member_shuffle(mut self, seed: u64) -> ClassPath {
        self.member_shuffle = Some(seed);
        self.lock_cache().clear();
        self
    }

    /// The class path reading `invokedynamic` call sites of `bootstraps` (`models::BOOTSTRAPS`,
    /// which `Program::new` sets): the lambda sites of each class loaded from now on are
    /// numbered ([`super::lambda`]), and the class of a lambda site is made on demand.
    pub fn with_bootstraps(mut self, bootstraps: &'static Bootstraps) -> ClassPath {
        self.bootstraps = Some(bootstraps);
        self.lock_cache().clear();
        self
    }

    /// The bootstrap methods of [`ClassPath::with_bootstraps`].
    pub fn bootstraps(&self) -> Option<&'static Bootstraps> {
        self.bootstraps
    }

    /// A class path of class files held in memory: `(internal name, class-file bytes)` pairs,
    /// e.g. `("a/B", bytes)`. The bytes are parsed lazily, on the first [`ClassPath::load`] of
    /// the name, exactly like a file from a directory (a malformed class is an error then, and
    /// a class whose bytes declare another name is rejected). For the same name twice, the
    /// first pair wins, as on a file class path. Used by tests and the fuzz targets.
    pub fn from_classes(classes: Vec<(String, Vec<u8>)>) -> ClassPath {
        let mut map = HashMap::with_capacity(classes.len());
        for (name, bytes) in classes {
            map.entry(name).or_insert(bytes);
        }
        ClassPath {
            entries: vec![Entry::Memory(map)],
            cache: Mutex::new(HashMap::new()),
            member_shuffle: None,
            bootstraps: None,
        }
    }

    /// Loads (and caches) the class with the given internal name, e.g. `java/lang/String`.
    pub fn load(&self, internal_name: &str) -> Result<Arc<Class>, ClassError> {
        if let Some(c) = self.lock_cache().get(internal_name) {
            return Ok(Arc::clone(c));
        }
        if !valid_internal_name(internal_name) {
            return Err(ClassError::not_found(internal_name));
        }
        let Some((bytes, origin)) = self.read_bytes(internal_name)? else {
            return self.load_lambda_class(internal_name);
        };
        let mut class = parse_class(&bytes).map_err(|e| match e {
            ClassError::Malformed { what } => {
                ClassError::malformed(format!("{}: {what}", origin.display()))
            }
            other => other,
        })?;
        if let Some(bs) = self.bootstraps {
            super::lambda::number_lambda_sites(&mut class.methods, bs);
        }
        if let Some(seed) = self.member_shuffle {
            let mut rng = SplitMix64::new(seed ^ super::stable_hash(internal_name.as_bytes()));
            rng.shuffle(&mut class.methods);
            rng.shuffle(&mut class.fields);
        }
        if class.name != internal_name {
            return Err(ClassError::malformed(format!(
                "{} declares class {} instead of {internal_name}",
                origin.display(),
                class.name
            )));
        }
        let class = Arc::new(class);
        let mut cache = self.lock_cache();
        Ok(Arc::clone(
            cache.entry(internal_name.to_string()).or_insert(class),
        ))
    }

    /// The class the engine makes for a lambda site (`Host$$Lambda$N`, see `lambda.rs`) when
    /// no class file has the name.
    fn load_lambda_class(&self, internal_name: &str) -> Result<Arc<Class>, ClassError> {
        let not_found = || ClassError::not_found(internal_name);
        let bs = self.bootstraps.ok_or_else(not_found)?;
        let (host, index) =
            super::indy::parse_lambda_class_name(internal_name).ok_or_else(not_found)?;
        let host = self.load(host)?;
        let class = Arc::new(super::lambda::lambda_class(&host, index, bs)?);
        let mut cache = self.lock_cache();
        Ok(Arc::clone(
            cache.entry(internal_name.to_string()).or_insert(class),
        ))
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Class>>> {
        // A panic elsewhere cannot leave the map inconsistent: entries are inserted whole.
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The bytes of `name.class` from the first entry that has it, with a path for messages.
    fn read_bytes(&self, name: &str) -> Result<Option<(Vec<u8>, PathBuf)>, ClassError> {
        let file_name = format!("{name}.class");
        for entry in &self.entries {
            match entry {
                Entry::Dir { shown, dir } => {
                    let path = shown.join(&file_name);
                    match std::fs::read(dir.join(&file_name)) {
                        Ok(bytes) => return Ok(Some((bytes, path))),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => return Err(io_err(&path, e)),
                    }
                }
                Entry::Jar {
                    path,
                    classes,
                    archive,
                } => {
                    if !classes.contains(name) {
                        continue;
                    }
                    let mut archive = archive.lock().unwrap_or_else(|p| p.into_inner());
                    let mut zf = archive.by_name(&file_name).map_err(|e| zip_err(path, e))?;
                    let mut bytes = Vec::new();
                    zf.read_to_end(&mut bytes).map_err(|e| io_err(path, e))?;
                    return Ok(Some((bytes, path.join(&file_name))));
                }
                Entry::Memory(classes) => {
                    if let Some(bytes) = classes.get(name) {
                        return Ok(Some((
                            bytes.clone(),
                            PathBuf::from(format!("<memory>/{file_name}")),
                        )));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Internal names of all classes in all entries, sorted and without duplicates.
    ///
    /// Directories are walked at each call.
    pub fn class_names(&self) -> Vec<String> {
        let mut names = BTreeSet::new();
        for entry in &self.entries {
            match entry {
                // readable when the class path was made (`from_paths`); a folder removed
                // since then only loses its classes
                Entry::Dir { dir, .. } => {
                    let _ = walk_dir(dir, "", &mut names);
                }
                Entry::Jar { classes, .. } => names.extend(classes.iter().cloned()),
                Entry::Memory(classes) => names.extend(classes.keys().cloned()),
            }
        }
        names.into_iter().collect()
    }
}

/// SplitMix64, enough randomness for the member-shuffle test hook without a dependency.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Fisher–Yates.
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// Adds the class names under `dir` to `out`; an unreadable folder or entry is an error naming
/// it (a class path that silently misses classes gives a wrong closed world).
fn walk_dir(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) -> Result<(), ClassError> {
    let read = std::fs::read_dir(dir).map_err(|e| io_err(dir, e))?;
    for entry in read {
        let entry = entry.map_err(|e| io_err(dir, e))?;
        // a name that is no UTF-8 is no class name
        let Some(file_name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let rel = format!("{prefix}{file_name}");
        let kind = entry.file_type().map_err(|e| io_err(&entry.path(), e))?;
        if kind.is_dir() {
            walk_dir(&entry.path(), &format!("{rel}/"), out)?;
        } else if let Some(name) = class_name_of_entry(&rel) {
            out.insert(name);
        }
    }
    Ok(())
}

/// The `Main-Class` of a jar's `META-INF/MANIFEST.MF`, in internal form (`a/b/Main`).
///
/// Dotted and slashed spellings are both accepted. `Ok(None)` if there is no manifest or
/// no `Main-Class` attribute.
pub fn jar_main_class(path: &Path) -> Result<Option<String>, ClassError> {
    let file = File::open(path).map_err(|e| io_err(path, e))?;
    let mut archive = ZipArchive::new(file).map_err(|e| zip_err(path, e))?;
    let mut manifest = Vec::new();
    match archive.by_name("META-INF/MANIFEST.MF") {
        Ok(mut zf) => {
            zf.read_to_end(&mut manifest).map_err(|e| io_err(path, e))?;
        }
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(zip_err(path, e)),
    }
    Ok(manifest_main_class(&String::from_utf8_lossy(&manifest)))
}

/// Extracts `Main-Class` from manifest text (continuation lines start with one space).
fn manifest_main_class(text: &str) -> Option<String> {
    let mut logical: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        match (line.strip_prefix(' '), logical.last_mut()) {
            (Some(cont), Some(last)) => last.push_str(cont),
            _ => logical.push(line.to_string()),
        }
    }
    logical.iter().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        if !key.trim().eq_ignore_ascii_case("Main-Class") {
            return None;
        }
        let v = value.trim();
        let v = v.strip_suffix(".class").unwrap_or(v);
        (!v.is_empty()).then(|| v.replace('.', "/"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_parsing() {
        let m = "Manifest-Version: 1.0\r\nMain-Class: a.b.Main\r\n\r\n";
        assert_eq!(manifest_main_class(m).as_deref(), Some("a/b/Main"));
        let m = "Manifest-Version: 1.0\nmain-class: a/b/Ma\n in\n";
        assert_eq!(manifest_main_class(m).as_deref(), Some("a/b/Main"));
        assert_eq!(manifest_main_class("Manifest-Version: 1.0\n"), None);
    }

    #[test]
    fn entry_names() {
        assert_eq!(class_name_of_entry("a/B.class").as_deref(), Some("a/B"));
        assert_eq!(class_name_of_entry("META-INF/versions/9/a/B.class"), None);
        assert_eq!(class_name_of_entry("source.zip"), None);
        assert_eq!(class_name_of_entry("module-info.class"), None);
        assert!(!valid_internal_name("../etc/passwd"));
        assert!(!valid_internal_name("[I"));
        assert!(valid_internal_name("java/lang/Object"));
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        SplitMix64::new(7).shuffle(&mut a);
        SplitMix64::new(7).shuffle(&mut b);
        assert_eq!(a, b, "same seed, same permutation");
        assert_ne!(a, (0..20).collect::<Vec<_>>(), "seed 7 moves something");
        a.sort_unstable();
        assert_eq!(a, (0..20).collect::<Vec<_>>(), "a permutation");
    }

    #[test]
    fn in_memory_class_path() {
        let cp = ClassPath::from_classes(vec![
            ("a/Bad".into(), vec![0xCA, 0xFE]),
            ("a/Empty".into(), vec![]),
        ]);
        assert_eq!(cp.class_names(), vec!["a/Bad", "a/Empty"]);
        let e = cp.load("a/Bad").unwrap_err().to_string();
        assert!(e.contains("<memory>/a/Bad.class"), "{e}");
        assert!(matches!(
            cp.load("a/Nope"),
            Err(ClassError::NotFound { .. })
        ));
    }

    #[test]
    fn classpath_is_send_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<ClassPath>();
    }
}
