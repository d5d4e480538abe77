//! The step index of a trace: where each step's header and values lie in the trace buffer,
//! and the call stack of every step rebuilt from the recorded depths (each step links to the
//! step that holds its caller frame). Materialises the frames of a step from there, numbering
//! the objects under construction they hold.

use std::collections::BTreeMap;

use crate::decode::methods::{MethodMeta, MethodTable};
use crate::decode::wire::{
    bad, header_at, read_val, Val, NONE, OP_INVOKEDYNAMIC, OP_INVOKESPECIAL, OP_INVOKEVIRTUAL,
};
use crate::error::JvmError;
use crate::step::{CFrame, UninitObj};
use crate::values::CValue;
use std::sync::Arc;

/// The steps of one trace: the buffer, each step's offset, caller step and depth.
#[derive(Clone)]
pub(crate) struct StepIndex {
    pub methods: MethodTable,
    pub buf: Vec<i32>,
    /// Offset of each step's header in `buf`.
    off: Vec<u32>,
    /// Step that holds the caller frame of each step (`NONE` for the entry frame).
    caller: Vec<u32>,
    /// Number of frames of each step (the length of its caller chain, itself included).
    depth: Vec<u32>,
}

impl StepIndex {
    /// Indexes the steps of `buf` and links each to its caller, in vectors of the exact size
    /// (a first pass counts the steps: a long trace's index is then not grown by doubling).
    pub(crate) fn build(buf: Vec<i32>, methods: MethodTable) -> Result<StepIndex, JvmError> {
        let mut steps = 0usize;
        let mut q = 0usize;
        while let Some((mid, pc, _, values)) = header_at(&buf, q) {
            let Some(layout) = methods.get(mid as usize).and_then(|m| m.layout(pc)) else {
                break; // the second pass reports it
            };
            steps += 1;
            q = values + layout.ints;
        }
        let mut off = Vec::with_capacity(steps);
        let mut caller = Vec::with_capacity(steps);
        let mut depths = Vec::with_capacity(steps);
        let mut active: Vec<u32> = Vec::new();
        let mut p = 0usize;
        while p < buf.len() {
            let Some((mid, pc, depth, values)) = header_at(&buf, p) else {
                return Err(bad("truncated step header"));
            };
            if mid as usize >= methods.len() {
                return Err(bad(format!(
                    "unknown method id {mid} at step {}",
                    off.len()
                )));
            }
            let depth = depth.max(1);
            let i = off.len() as u32;
            let Some(layout) = methods[mid as usize].layout(pc) else {
                return Err(bad(format!(
                    "no layout for pc {pc} of method {mid} at step {i}"
                )));
            };
            off.push(p as u32);
            p = values + layout.ints;
            if p > buf.len() {
                return Err(bad("truncated step values"));
            }
            active.truncate(depth - 1);
            caller.push(active.last().copied().unwrap_or(NONE));
            active.push(i);
            depths.push(active.len() as u32);
        }
        Ok(StepIndex {
            methods,
            buf,
            off,
            caller,
            depth: depths,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.off.len()
    }

    pub(crate) fn header(&self, i: usize) -> (u32, u32, usize, usize) {
        // decode() read every step's header
        header_at(&self.buf, self.off[i] as usize).unwrap_or((0, 0, 0, 0))
    }

    pub(crate) fn meta(&self, mid: u32) -> &Arc<MethodMeta> {
        // decode() checked every step's method id
        &self.methods[mid as usize]
    }

    pub(crate) fn depth(&self, i: usize) -> usize {
        self.depth[i] as usize
    }

    pub(crate) fn site(&self, i: usize) -> (u32, u32) {
        let (mid, pc, ..) = self.header(i);
        (mid, pc)
    }

    pub(crate) fn position(&self, i: usize) -> (&str, &str, u32) {
        let (mid, pc, ..) = self.header(i);
        let m = self.meta(mid);
        (&m.class, &m.name, pc)
    }

    /// Locals (padded to max_locals with `top`) and stack (top first) of step `i`, each value
    /// passed through `number` (which numbers objects under construction).
    pub(crate) fn values<T: Clone>(
        &self,
        i: usize,
        number: impl FnMut(Val) -> T,
        top: T,
    ) -> (Vec<T>, Vec<T>) {
        let (mut locals, mut stack) = (Vec::new(), Vec::new());
        self.values_into(i, number, top, &mut locals, &mut stack);
        (locals, stack)
    }

    /// [`TraceData::values`] into `locals` and `stack` (cleared first), reusing their room.
    pub(crate) fn values_into<T: Clone>(
        &self,
        i: usize,
        mut number: impl FnMut(Val) -> T,
        top: T,
        locals: &mut Vec<T>,
        stack: &mut Vec<T>,
    ) {
        let (mid, pc, _, mut p) = self.header(i);
        let m = self.meta(mid);
        locals.clear();
        stack.clear();
        // decode() checked that the step has a layout and its values are in the buffer
        let Some(layout) = m.layout(pc) else {
            locals.resize(m.max_locals, top);
            return;
        };
        let (lk, sk) = layout.kinds.split_at(layout.nl);
        locals.reserve(m.max_locals.max(layout.nl));
        locals.extend(lk.iter().map(|&k| number(read_val(k, &self.buf, &mut p))));
        stack.extend(sk.iter().map(|&k| number(read_val(k, &self.buf, &mut p))));
        locals.resize(m.max_locals.max(layout.nl), top);
    }

    /// The frame recorded at step `i`; as a caller frame, the pending call's arguments are
    /// popped. Objects under construction get numbers from `objs` (one per site); `this` before
    /// `super()` gets the number of `passed` if the frame below passed that object as the
    /// receiver of its constructor call and this frame is that constructor. Writes the frame
    /// into `out` (reusing its vectors) and returns, if its pending instruction is a constructor call on an object under construction,
    /// that object's number and whether the frame has it from a `new` of its own (then the
    /// constructor is one of exactly the `new`'s class, JVMS invokespecial; otherwise the
    /// object is its `this` and the callee is its own class's or the superclass's).
    fn frame_of(
        &self,
        i: usize,
        as_caller: bool,
        passed: Option<(u32, bool)>,
        objs: &mut Vec<UninitObj>,
        out: &mut CFrame,
    ) -> Option<(u32, bool)> {
        let (mid, pc, ..) = self.header(i);
        let m = self.meta(mid);
        // An uninstrumented frame in between (a JDK constructor calling back into the program)
        // is not visible in the depth counter: only a constructor of the right class takes
        // the object.
        let this = passed
            .filter(|&(n, new)| {
                &*m.name == "<init>" && (!new || *objs[n as usize].class == *m.class)
            })
            .map(|(n, _)| n);
        let mut sites: smallvec::SmallVec<[(i32, u32); 4]> =
            this.map(|n| (-1, n)).into_iter().collect();
        let CFrame { locals, stack, .. } = &mut *out;
        {
            let mut number = |v: Val| match v {
                Val::C(c) => c,
                Val::New(site) => {
                    if let Some(&(_, n)) = sites.iter().find(|(s, _)| *s == site) {
                        return CValue::Uninit(n);
                    }
                    let n = objs.len() as u32;
                    let class = match u32::try_from(site) {
                        // decode() checked that the site is a `new` of this method
                        Ok(site) => m.news.get(&site).cloned().unwrap_or_default(),
                        Err(_) => m.class.to_string(),
                    };
                    objs.push(UninitObj { class, init: None });
                    sites.push((site, n));
                    CValue::Uninit(n)
                }
            };
            self.values_into(i, &mut number, CValue::Top, locals, stack);
        }
        if let (Some(n), false, Some(&CValue::Ref(id))) = (this, m.stores_slot0, locals.first()) {
            // past `super()`: slot 0 of the constructor is still `this`
            objs[n as usize].init = Some(id);
        }
        let mut receiver = None;
        if as_caller {
            if let Some((op, pops)) = m.op(pc) {
                if (OP_INVOKEVIRTUAL..=OP_INVOKEDYNAMIC).contains(&op) {
                    // the bits above the low 8 name a library write (see `library`)
                    let pops = ((pops & 0xff).max(0) as usize).min(stack.len());
                    if let (OP_INVOKESPECIAL, Some(&CValue::Uninit(n))) =
                        (op, pops.checked_sub(1).and_then(|r| stack.get(r)))
                    {
                        let new = sites.iter().any(|&(s, k)| k == n && s >= 0);
                        receiver = Some((n, new));
                    }
                    stack.drain(..pops);
                }
            }
        }
        // the frame's names are shared by all frames of the method: kept where they are
        if !Arc::ptr_eq(&out.class, &m.class) {
            out.class = m.class.clone();
        }
        if !Arc::ptr_eq(&out.method, &m.name) {
            out.method = m.name.clone();
        }
        if !Arc::ptr_eq(&out.desc, &m.desc) {
            out.desc = m.desc.clone();
        }
        out.pc = pc;
        receiver
    }

    pub(crate) fn frames(&self, i: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        self.top_frames(i, usize::MAX)
    }

    /// The `k` top frames of step `i` (all of them if it has fewer), top first, and the
    /// objects under construction they hold, by number. Numbers are assigned from the lowest
    /// frame up, so that a constructor's `this` before `super()` can take the number of the
    /// object the frame below is constructing.
    pub(crate) fn top_frames(&self, i: usize, k: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        let mut frames = Vec::new();
        let objs = self.top_frames_into(i, k, &mut frames);
        (frames, (0u32..).zip(objs).collect())
    }

    /// [`TraceData::top_frames`] into `frames`, reusing its frames' room (a frame's vectors
    /// are refilled in place). Returns the objects under construction, numbered by position
    /// (no allocation when there are none).
    pub(crate) fn top_frames_into(
        &self,
        i: usize,
        k: usize,
        frames: &mut Vec<CFrame>,
    ) -> Vec<UninitObj> {
        let mut chain: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        let mut j = i as u32;
        while j != NONE && chain.len() < k {
            chain.push(j as usize);
            j = self.caller[j as usize];
        }
        frames.truncate(chain.len());
        while frames.len() < chain.len() {
            frames.push(CFrame::empty());
        }
        let mut objs = Vec::new();
        let mut passed = None;
        for (n, &j) in chain.iter().enumerate().rev() {
            passed = self.frame_of(j, n > 0, passed, &mut objs, &mut frames[n]);
        }
        objs
    }

    /// The step at which the instruction of step `i` (`len` bytes long) has completed
    /// normally: the next step of its frame, if that is the instruction after it. Steps in
    /// between are frames above (methods a class initialiser that the instruction ran calls).
    pub(crate) fn continuation(&self, i: usize, len: u32) -> Option<usize> {
        let (mid, pc, ..) = self.header(i);
        let d = self.depth[i];
        let j = (i + 1..self.len()).find(|&j| self.depth[j] <= d)?;
        let (mid2, pc2, ..) = self.header(j);
        (self.depth[j] == d && self.caller[j] == self.caller[i] && mid2 == mid && pc2 == pc + len)
            .then_some(j)
    }
}
