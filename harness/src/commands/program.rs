//! What the commands share about the program: loading a class path and a method, start
//! states (read and validated), the graph to check, `--ints` names.

use anyhow::{Context, Result};
use jtg_engine::class::ClassPath;
use jtg_engine::models;
use jtg_engine::render::json;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{fmt_fields, HeapValue, IntSemantics, MethodId, State};
use jtg_engine::{build_graph, EngineError, Graph, Options, Program};
use std::path::Path;

/// Loads the class path and resolves the method.
pub fn load(classpath: &str, method: &str) -> Result<(Program, MethodId)> {
    let cp = ClassPath::parse(classpath)
        .map_err(EngineError::from)
        .with_context(|| format!("class path `{classpath}`"))?;
    let prog = Program::new(cp);
    let m = prog.find_method(method)?;
    Ok((prog, m))
}

/// The start state: from `--start FILE` (the state text form, frames without a method belong to
/// the analysed method), or the default one.
pub fn start_state(
    prog: &Program,
    m: &MethodId,
    file: Option<&Path>,
    sem: IntSemantics,
) -> Result<State> {
    let Some(path) = file else {
        return Ok(prog
            .default_start(m, sem)
            .map_err(|e| e.with_source_line(prog))?);
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read start state {}", path.display()))?;
    let ctx = TextContext::for_method(m.clone(), prog);
    let st = parse_state(&text, &ctx)
        .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
    check_start(prog, m, &st).map_err(EngineError::StartState)?;
    check_values(prog, &st, sem)
        .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
    Ok(st)
}

/// What the JVM side refuses in an input, refused in every start state too (`graph` accepts
/// no state `check` could not run): a field its object's class does not have, and under
/// `--ints java` an int or long literal outside its Java range.
fn check_values(prog: &Program, st: &State, sem: IntSemantics) -> Result<(), String> {
    values_fit(prog, st, sem, false)
}

/// [`check_values`] for a concrete input (`--input`): it may also give a box its value (the
/// input-only field of [`jtg_engine::models::input_only_field`], which the generator draws and
/// a shrunk input prints).
pub fn check_input_values(prog: &Program, st: &State, sem: IntSemantics) -> Result<(), String> {
    values_fit(prog, st, sem, true)
}

fn values_fit(prog: &Program, st: &State, sem: IntSemantics, input: bool) -> Result<(), String> {
    predicate_fields_exist(prog, st)?;
    for (r, v) in &st.heap {
        match v {
            HeapValue::Object { class, fields } => {
                let declared = prog.instance_fields(class).map_err(|e| e.to_string())?;
                let input_only = models::input_only_field(class).filter(|_| input);
                if let Some(f) = fields.keys().find(|f| {
                    !declared.iter().any(|(d, _, _)| d == *f)
                        && input_only.as_ref().is_none_or(|(k, _)| k != *f)
                }) {
                    return Err(format!("{r}: class {class} has no instance field `{f}`"));
                }
            }
            HeapValue::Int(i) | HeapValue::Long(i) if sem == IntSemantics::Java => {
                let (lo, hi, what) = match v {
                    HeapValue::Int(_) => (i128::from(i32::MIN), i128::from(i32::MAX), "int"),
                    _ => (i128::from(i64::MIN), i128::from(i64::MAX), "long"),
                };
                let outside = |b: Option<i128>| b.is_some_and(|b| b < lo || b > hi);
                if outside(i.lo) || outside(i.hi) {
                    return Err(format!(
                        "{r}: {} is outside the Java {what} range [{lo}, {hi}] (--ints java)",
                        i
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The fields of a predicate (`o1⟲{next}`, `o1→!{next}o2`) are refused like a field of an
/// object that its class does not have: no object reachable from the predicate's reference
/// has a field of that name (its type, the types of their fields, transitively, and every
/// subtype of each).
fn predicate_fields_exist(prog: &Program, st: &State) -> Result<(), String> {
    let mut uses: Vec<(jtg_engine::state::Ref, &jtg_engine::state::FieldSet, String)> = vec![];
    for (r, fields) in &st.preds.cyclic {
        uses.push((*r, fields, format!("{r}⟲{}", fmt_fields(fields))));
    }
    for m in &st.preds.must_reach {
        uses.push((
            m.from,
            &m.fields,
            format!("{}→!{}{}", m.from, fmt_fields(&m.fields), m.to),
        ));
    }
    for (r, fields, shown) in uses {
        let Some(names) = reachable_field_names(prog, st, r) else {
            continue;
        };
        if let Some(f) = fields
            .iter()
            .find(|f| f.as_str() != "[]" && !names.contains(f.name()))
        {
            return Err(format!(
                "{shown}: no object reachable from {r} has an instance field `{f}`"
            ));
        }
    }
    Ok(())
}

/// The names of the instance fields of every object that can be reached from `r` (`None`:
/// the types do not tell, as for `java.lang.Object` or a class that cannot be loaded).
fn reachable_field_names(
    prog: &Program,
    st: &State,
    r: jtg_engine::state::Ref,
) -> Option<std::collections::BTreeSet<String>> {
    use jtg_engine::class::FieldType;
    fn class_of(t: &FieldType) -> Option<String> {
        match t {
            FieldType::Object(c) => Some(c.clone()),
            FieldType::Array(e) => class_of(e),
            _ => None,
        }
    }
    let ty = match st.value(r)? {
        HeapValue::Object { class, .. } => class.clone(),
        // a class's internal name, or an array's descriptor (`[LNode;`)
        HeapValue::Unknown { ty } | HeapValue::Abstract { ty } | HeapValue::Array { ty, .. } => {
            if ty.starts_with('[') {
                class_of(&FieldType::parse(ty).ok()?)?
            } else {
                ty.clone()
            }
        }
        _ => return None,
    };
    let mut names = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![ty];
    while let Some(c) = todo.pop() {
        if c == models::OBJECT {
            return None;
        }
        if !seen.insert(c.clone()) {
            continue;
        }
        for sub in prog.hierarchy.non_abstract_subtypes(&c).ok()? {
            for (key, ft, _) in prog.instance_fields(&sub).ok()? {
                names.insert(key.name().to_string());
                todo.extend(class_of(&ft));
            }
        }
    }
    Some(names)
}

/// A start state must be a single frame of the method at pc 0 whose parameters have values of
/// the declared types.
pub fn check_start(prog: &Program, m: &MethodId, st: &State) -> Result<(), String> {
    let [frame] = st.frames.as_slice() else {
        return Err(format!("a start state has exactly one frame, of {m}"));
    };
    if &frame.method != m {
        return Err(format!("the frame is of {}, not of {m}", frame.method));
    }
    if frame.pc != 0 || !frame.stack.is_empty() || frame.exception.is_some() {
        return Err(format!(
            "a start state is at pc 0 with an empty operand stack and no exception (this one is at pc {})",
            frame.pc
        ));
    }
    let method = prog.method(m).map_err(|e| e.to_string())?;
    let mut slot = 0usize;
    let mut params: Vec<(usize, String)> = vec![];
    if !method.is_static {
        params.push((0, m.class.to_string()));
        slot = 1;
    }
    for p in &method.desc.params {
        params.push((slot, jtg_engine::state::types::type_string(p)));
        slot += p.slots() as usize;
    }
    for (slot, ty) in params {
        let r = frame
            .locals
            .get(slot)
            .copied()
            .flatten()
            .ok_or_else(|| format!("parameter slot {slot} ({ty}) has no value"))?;
        let is_int_type = matches!(ty.as_str(), "I" | "S" | "B" | "C" | "Z");
        let is_primitive = is_int_type || matches!(ty.as_str(), "J" | "F" | "D");
        // a primitive argument needs a value of its own kind: `J` a long (`5L`, `ZL`), `F` a
        // `float`, `D` a `double`, the int-like types an integer
        let ok = match st.value(r) {
            None => r.is_null() && !is_primitive,
            Some(HeapValue::Int(_)) => is_int_type,
            Some(HeapValue::Long(_)) => ty == "J",
            Some(HeapValue::Float(_)) => ty == "F",
            Some(HeapValue::Double(_)) => ty == "D",
            Some(v) => match v.type_name() {
                None => false,
                Some(t) => !is_primitive && prog_is_subtype(prog, t, &ty),
            },
        };
        if !ok {
            return Err(format!(
                "parameter slot {slot} has {r}, which does not fit the declared type {}",
                jtg_engine::state::display_type(&ty)
            ));
        }
    }
    // `a =? b` relates references whose fields are not realized (spec §2.1: an equality is
    // refined before a field is read); between two realized values with different fields the
    // engine would take them for different objects, and the graph would miss their equal case
    let realized = |r| {
        matches!(
            st.value(r),
            Some(HeapValue::Object { .. } | HeapValue::Array { .. })
        )
    };
    for &(a, b) in &st.preds.may_equal {
        if realized(a) && realized(b) && st.value(a) != st.value(b) {
            return Err(format!(
                "{a} =? {b} between two realized values ({a}: {}, {b}: {}): give at least one of them unrealized, as `C(?)` or `C(…)`",
                st.value(a).map(ToString::to_string).unwrap_or_default(),
                st.value(b).map(ToString::to_string).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

fn prog_is_subtype(prog: &Program, sub: &str, sup: &str) -> bool {
    use jtg_engine::state::Subtyping;
    prog.is_subtype(sub, sup)
}

/// The graph to check: read from `--graph`, or built from the start state.
pub fn graph_for(
    prog: &jtg_engine::Program,
    m: &jtg_engine::state::MethodId,
    graph: Option<&std::path::Path>,
    start: Option<&std::path::Path>,
    sem: IntSemantics,
) -> Result<Graph> {
    match graph {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read graph {}", path.display()))?;
            // a graph that cannot be read is bad input (exit code 2)
            let g = json::read(&text, prog)
                .map_err(|e| jtg_jvm::JvmError::BadInput(format!("{}: {e}", path.display())))?;
            if g.method != *m {
                anyhow::bail!(EngineError::StartState(format!(
                    "{} is a graph of {}, not of {m}",
                    path.display(),
                    g.method
                )));
            }
            Ok(g)
        }
        None => {
            let st = start_state(prog, m, start, sem)?;
            let opts = Options {
                ints: sem,
                ..Default::default()
            };
            build_graph(prog, m, st, &opts).map_err(|f| anyhow::Error::new(f.error))
        }
    }
}

/// The `--ints` value of an integer semantics.
pub fn ints_name(sem: IntSemantics) -> &'static str {
    match sem {
        IntSemantics::Unbounded => "unbounded",
        IntSemantics::Java => "java",
    }
}
