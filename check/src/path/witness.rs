//! The witness of a node for a step of the run: `c ⊑ s` on the step's view (through the shape
//! memo where it applies), or on how the run or an abstracted callee ended.

use super::memo::RunMemo;
use super::Matcher;
use crate::instance::{
    bind_int_roots, concrete_instance, frames_control, shape_key_into, walk_indexed, walk_shape,
    Concrete, Condition, Failure, Witness,
};
use crate::run::ConcreteRun;
use jtg_engine::class::Insn;
use jtg_engine::graph::NodeId;
use jtg_engine::state::MethodId;
use jtg_jvm::{CFrame, CObject, CStatics, CValue, Objects, TraceEnd};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

impl Matcher<'_> {
    /// The witness of `node` for the state before step `i` (or the run's end); `depth` frames
    /// of the run belong to callers of an abstracted call being followed (`in_call`), and are
    /// not compared.
    pub(super) fn witness(
        &self,
        run: &dyn ConcreteRun,
        memo: &mut RunMemo,
        node: NodeId,
        i: usize,
        depth: usize,
        in_call: bool,
    ) -> Result<Rc<Witness>, Failure> {
        let state = &self.graph.nodes[node].state;
        if in_call && state.is_end() {
            return self.callee_end(run, state, i, depth).map(Rc::new);
        }
        if i < run.len() {
            let frames = if in_call {
                let n = run.depth(i);
                if n <= depth {
                    return control(format!(
                        "the abstracted call has returned (the run has {n} frames, the caller {depth}), s is still in it"
                    ));
                }
                n - depth
            } else {
                usize::MAX
            };
            let (view, heap_id) = memo.view(run, i, frames);
            let c = Concrete {
                frames: &view.frames,
                heap: &view.objects,
                statics: &view.statics,
                end: None,
            };
            // the heap id covers the statics only where the run keys its views
            if self.shape_memo
                && !memo.explain
                && (view.heap_key.is_some() || view.statics.is_empty())
            {
                if let Some(w) = self.by_shape(memo, node, &c, heap_id) {
                    return w;
                }
            }
            let walked = walk_indexed(
                &c,
                state,
                Cow::Borrowed(&self.index[node]),
                self.types,
                memo.explain,
            )?;
            // the key's vector is reused until a key is kept
            let mut objs = std::mem::take(&mut memo.key_buf);
            walked.object_witnesses_into(&mut objs);
            let key = (node, heap_id, objs);
            if memo.shapes_held.contains(&key) {
                memo.key_buf = key.2;
                return Ok(Rc::new(walked.witness()));
            }
            let w = walked.finish_with(Some(memo.reach.of(heap_id)));
            match w {
                Ok(_) => {
                    memo.shapes_held.insert(key);
                }
                Err(_) => memo.key_buf = key.2,
            }
            w.map(Rc::new)
        } else {
            let (heap, statics) = last_objects(run);
            concrete_instance(
                &Concrete {
                    frames: &[],
                    heap: &heap,
                    statics: &statics,
                    end: Some(run.end()),
                },
                state,
                self.types,
            )
            .map(Rc::new)
        }
    }

    /// [`Matcher::witness`] for a state with frames, from the shape part kept in `memo` for
    /// (`node`, `heap_id`, the values at the positions [`shape_key_into`] reads) plus the
    /// integer positions; `None` where that shortcut does not apply. Failures have no reason.
    fn by_shape(
        &self,
        memo: &mut RunMemo,
        node: NodeId,
        c: &Concrete<'_>,
        heap_id: u32,
    ) -> Option<Result<Rc<Witness>, Failure>> {
        let state = &self.graph.nodes[node].state;
        if let Err(f) = frames_control(c.frames, state, false) {
            return Some(Err(f));
        }
        let mut values = std::mem::take(&mut memo.shape_buf);
        if !shape_key_into(c.frames, state, &mut values) {
            memo.shape_buf = values;
            return None;
        }
        let key = (node, heap_id, values);
        let base = match memo.shapes.get(&key).cloned() {
            Some(b) => {
                memo.shape_buf = key.2;
                b
            }
            None => {
                let b = walk_shape(c, state, &self.index[node], self.types)
                    .and_then(|w| w.finish_with(Some(memo.reach.of(heap_id))))
                    .ok()
                    .map(Rc::new);
                memo.shapes.insert(key, b.clone());
                b
            }
        };
        let Some(base) = base else {
            return Some(Err(Failure {
                condition: Condition::Object,
                reason: String::new(),
            }));
        };
        let mut w = memo.spare.pop().unwrap_or_default();
        let Some(wm) = Rc::get_mut(&mut w) else {
            unreachable!("a spare witness is held by nothing else")
        };
        wm.clone_from(&base);
        match bind_int_roots(c.frames, state, &self.index[node], wm) {
            Ok(()) => Some(Ok(w)),
            Err(f) => {
                memo.recycle(w);
                Some(Err(f))
            }
        }
    }

    /// The witness of a program end `state` of a callee's method graph, for the state before
    /// step `i`: how the callee's frame (above `depth` caller frames) was left. A normal return
    /// (the callee's last instruction a return, the run back at `depth` frames) is compared as
    /// `end: return` with the value on the caller's stack; otherwise an exception left the
    /// frame, compared as `end: throw` with the exception at the handler (on its stack) or the
    /// run's own exceptional end.
    pub(super) fn callee_end(
        &self,
        run: &dyn ConcreteRun,
        state: &jtg_engine::state::State,
        i: usize,
        depth: usize,
    ) -> Result<Witness, Failure> {
        if i >= run.len() {
            if !matches!(run.end(), TraceEnd::Threw { .. }) {
                return control(
                    "the run ended without an exception inside an abstracted call".to_string(),
                );
            }
            let (heap, statics) = last_objects(run);
            return concrete_instance(
                &Concrete {
                    frames: &[],
                    heap: &heap,
                    statics: &statics,
                    end: Some(run.end()),
                },
                state,
                self.types,
            );
        }
        let n = run.depth(i);
        if n > depth {
            return control(format!(
                "s ends the abstracted call, but the run is still in it ({n} frames, the caller {depth})"
            ));
        }
        // the value or exception is in the top frame: the heap reachable from it is enough
        let step = run.top_step(i, 1);
        // `i >= 1`: the callee's first step follows the call step
        let last = run.top_frame(i.saturating_sub(1));
        let returned = match self.insn_at(&last) {
            Some(Insn::Return(kind)) if n == depth => Some(kind),
            Some(_) => None,
            None => {
                return control(format!(
                    "no instruction at pc {} of {}.{}{} (the callee's last step)",
                    last.pc, last.class, last.method, last.desc
                ))
            }
        };
        let end = if let Some(kind) = returned {
            if kind.is_none() {
                TraceEnd::Returned(None)
            } else {
                match step.frames.first().and_then(|f| f.stack.first()) {
                    Some(v) => TraceEnd::Returned(Some(*v)),
                    None => {
                        return control(
                            "the callee returned a value, but the caller's stack is empty".into(),
                        )
                    }
                }
            }
        } else {
            match step.frames.first().and_then(|f| f.stack.first()) {
                Some(CValue::Ref(id)) => {
                    let class = match step.heap.get(id) {
                        Some(CObject::Instance { class, .. }) => class.clone(),
                        _ => {
                            return control(format!(
                                "the callee was left by an exception, but {id} at the handler is no exception object"
                            ))
                        }
                    };
                    TraceEnd::Threw {
                        class,
                        obj: Some(*id),
                    }
                }
                _ => {
                    return control(
                        "the callee was left by an exception, but the handler has no exception on its stack"
                            .into(),
                    )
                }
            }
        };
        concrete_instance(
            &Concrete {
                frames: &[],
                heap: &Objects::from(Arc::clone(&step.heap)),
                statics: &step.statics,
                end: Some(&end),
            },
            state,
            self.types,
        )
    }

    /// The instruction a frame is at.
    fn insn_at(&self, f: &CFrame) -> Option<Insn> {
        let m = MethodId::new(&f.class, &f.method, &f.desc);
        let c = self.prog.hierarchy.classpath().load(&m.class).ok()?;
        let meth = c.method(&m.name, Some(&m.desc)).ok()?;
        meth.code.as_ref()?.at(f.pc).cloned()
    }
}

/// The objects and static fields of the run's last step (those of its program end: the last
/// step is the return or the throw that ends the run, which accesses no static field).
fn last_objects(run: &dyn ConcreteRun) -> (Objects, CStatics) {
    if run.is_empty() {
        (Objects::default(), CStatics::default())
    } else {
        let s = run.step(run.len() - 1);
        (Objects::from(Arc::clone(&s.heap)), s.statics.clone())
    }
}

fn control<T>(reason: String) -> Result<T, Failure> {
    Err(Failure {
        condition: Condition::Control,
        reason,
    })
}
