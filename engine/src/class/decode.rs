//! The bounds-checked bytecode decoder: a method's code array into [`Insn`]s.
//!
//! Decoding never panics: truncated code, bad constant-pool indices, reserved opcodes and
//! branches outside the code all yield [`ClassError::Malformed`].

use std::collections::HashSet;

use super::error::ClassError;
use super::insn::{ArithOp, ArrayKind, Cond, Constant, Insn, Kind};
use super::member::InvokeKind;
use super::pool::ConstantPool;

/// Bounds-checked big-endian reader over a method's code array.
struct Reader<'a> {
    code: &'a [u8],
    pos: usize,
    insn_pc: usize,
}

impl Reader<'_> {
    fn truncated(&self) -> ClassError {
        ClassError::malformed(format!(
            "bytecode truncated in instruction at pc {}",
            self.insn_pc
        ))
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], ClassError> {
        let end = self.pos.checked_add(N).ok_or_else(|| self.truncated())?;
        let bytes = self
            .code
            .get(self.pos..end)
            .ok_or_else(|| self.truncated())?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        self.pos = end;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, ClassError> {
        Ok(self.take::<1>()?[0])
    }
    fn i8(&mut self) -> Result<i8, ClassError> {
        Ok(i8::from_be_bytes(self.take()?))
    }
    fn u16(&mut self) -> Result<u16, ClassError> {
        Ok(u16::from_be_bytes(self.take()?))
    }
    fn i16(&mut self) -> Result<i16, ClassError> {
        Ok(i16::from_be_bytes(self.take()?))
    }
    fn i32(&mut self) -> Result<i32, ClassError> {
        Ok(i32::from_be_bytes(self.take()?))
    }

    /// Absolute target of a branch with relative `offset`, checked to lie inside the code.
    fn target(&self, offset: i64) -> Result<u32, ClassError> {
        let pc = self.insn_pc as i64;
        let t = pc + offset;
        if t < 0 || t >= self.code.len() as i64 {
            return Err(ClassError::malformed(format!(
                "branch at pc {pc} to {t} leaves the code (length {})",
                self.code.len()
            )));
        }
        u32::try_from(t).map_err(|_| ClassError::malformed(format!("branch target {t} too large")))
    }
}

/// Decodes a method's code array into `(pc, instruction)` pairs in pc order.
///
/// Checks that every branch target and the whole code array are covered by instruction
/// boundaries; any violation is [`ClassError::Malformed`].
pub fn decode_code(bytes: &[u8], cp: &ConstantPool<'_>) -> Result<Vec<(u32, Insn)>, ClassError> {
    if bytes.is_empty() {
        return Err(ClassError::malformed("empty code array"));
    }
    if u32::try_from(bytes.len()).is_err() {
        return Err(ClassError::malformed("code array longer than 2^32 bytes"));
    }
    let mut r = Reader {
        code: bytes,
        pos: 0,
        insn_pc: 0,
    };
    let mut out = Vec::new();
    while r.pos < bytes.len() {
        r.insn_pc = r.pos;
        let pc = r.pos as u32;
        let insn = decode_one(&mut r, cp)?;
        out.push((pc, insn));
    }
    let starts: HashSet<u32> = out.iter().map(|&(pc, _)| pc).collect();
    for (pc, insn) in &out {
        for t in insn.branch_targets() {
            if !starts.contains(&t) {
                return Err(ClassError::malformed(format!(
                    "branch at pc {pc} targets {t}, which is not an instruction boundary"
                )));
            }
        }
    }
    Ok(out)
}

fn decode_one(r: &mut Reader<'_>, cp: &ConstantPool<'_>) -> Result<Insn, ClassError> {
    use Insn::*;
    let op = r.u8()?;
    let insn = match op {
        0x00 => Nop,
        0x01 => AConstNull,
        0x02..=0x08 => IConst(i32::from(op) - 3),
        0x09 | 0x0a => LConst(i64::from(op - 0x09)),
        0x0b..=0x0d => FConst(f32::from(op - 0x0b)),
        0x0e | 0x0f => DConst(f64::from(op - 0x0e)),
        0x10 => IConst(i32::from(r.i8()?)),
        0x11 => IConst(i32::from(r.i16()?)),
        0x12 => {
            let index = u16::from(r.u8()?);
            ldc(cp, index, false)?
        }
        0x13 => {
            let index = r.u16()?;
            ldc(cp, index, false)?
        }
        0x14 => {
            let index = r.u16()?;
            ldc(cp, index, true)?
        }
        0x15..=0x19 => Load(Kind::ALL[usize::from(op - 0x15)], u16::from(r.u8()?)),
        0x1a..=0x2d => {
            let i = op - 0x1a;
            Load(Kind::ALL[usize::from(i / 4)], u16::from(i % 4))
        }
        0x2e..=0x35 => ArrayLoad(ArrayKind::ALL[usize::from(op - 0x2e)]),
        0x36..=0x3a => Store(Kind::ALL[usize::from(op - 0x36)], u16::from(r.u8()?)),
        0x3b..=0x4e => {
            let i = op - 0x3b;
            Store(Kind::ALL[usize::from(i / 4)], u16::from(i % 4))
        }
        0x4f..=0x56 => ArrayStore(ArrayKind::ALL[usize::from(op - 0x4f)]),
        0x57 => Pop,
        0x58 => Pop2,
        0x59 => Dup,
        0x5a => DupX1,
        0x5b => DupX2,
        0x5c => Dup2,
        0x5d => Dup2X1,
        0x5e => Dup2X2,
        0x5f => Swap,
        0x60..=0x77 => {
            let i = op - 0x60;
            let ops = [
                ArithOp::Add,
                ArithOp::Sub,
                ArithOp::Mul,
                ArithOp::Div,
                ArithOp::Rem,
                ArithOp::Neg,
            ];
            Arith(Kind::ALL[usize::from(i % 4)], ops[usize::from(i / 4)])
        }
        0x78..=0x83 => {
            let i = op - 0x78;
            let ops = [
                ArithOp::Shl,
                ArithOp::Shr,
                ArithOp::Ushr,
                ArithOp::And,
                ArithOp::Or,
                ArithOp::Xor,
            ];
            Arith(Kind::ALL[usize::from(i % 2)], ops[usize::from(i / 2)])
        }
        0x84 => IInc {
            index: u16::from(r.u8()?),
            delta: i32::from(r.i8()?),
        },
        0x85..=0x90 => {
            const PAIRS: [(Kind, Kind); 12] = [
                (Kind::Int, Kind::Long),
                (Kind::Int, Kind::Float),
                (Kind::Int, Kind::Double),
                (Kind::Long, Kind::Int),
                (Kind::Long, Kind::Float),
                (Kind::Long, Kind::Double),
                (Kind::Float, Kind::Int),
                (Kind::Float, Kind::Long),
                (Kind::Float, Kind::Double),
                (Kind::Double, Kind::Int),
                (Kind::Double, Kind::Long),
                (Kind::Double, Kind::Float),
            ];
            let (from, to) = PAIRS[usize::from(op - 0x85)];
            Convert { from, to }
        }
        0x91 => I2B,
        0x92 => I2C,
        0x93 => I2S,
        0x94 => LCmp,
        0x95 => FCmpL,
        0x96 => FCmpG,
        0x97 => DCmpL,
        0x98 => DCmpG,
        0x99..=0x9e => If {
            cond: Cond::ALL[usize::from(op - 0x99)],
            target: r.branch16()?,
        },
        0x9f..=0xa4 => IfICmp {
            cond: Cond::ALL[usize::from(op - 0x9f)],
            target: r.branch16()?,
        },
        0xa5 | 0xa6 => IfACmp {
            eq: op == 0xa5,
            target: r.branch16()?,
        },
        0xa7 => Goto(r.branch16()?),
        0xa8 => Jsr(r.branch16()?),
        0xa9 => Ret(u16::from(r.u8()?)),
        0xaa => {
            skip_padding(r)?;
            let default = r.branch32()?;
            let low = r.i32()?;
            let high = r.i32()?;
            if high < low {
                return Err(ClassError::malformed(format!(
                    "tableswitch at pc {} has high {high} < low {low}",
                    r.insn_pc
                )));
            }
            let n = (i64::from(high) - i64::from(low) + 1) as usize;
            check_room(r, n, 4)?;
            let mut targets = Vec::with_capacity(n);
            for _ in 0..n {
                targets.push(r.branch32()?);
            }
            TableSwitch {
                default,
                low,
                targets,
            }
        }
        0xab => {
            skip_padding(r)?;
            let default = r.branch32()?;
            let npairs = r.i32()?;
            let n = usize::try_from(npairs).map_err(|_| {
                ClassError::malformed(format!(
                    "lookupswitch at pc {} has negative npairs {npairs}",
                    r.insn_pc
                ))
            })?;
            check_room(r, n, 8)?;
            let mut pairs = Vec::with_capacity(n);
            for _ in 0..n {
                let key = r.i32()?;
                let t = r.branch32()?;
                pairs.push((key, t));
            }
            LookupSwitch { default, pairs }
        }
        0xac..=0xb0 => Return(Some(Kind::ALL[usize::from(op - 0xac)])),
        0xb1 => Return(None),
        0xb2 => GetStatic(cp.field_ref(r.u16()?)?),
        0xb3 => PutStatic(cp.field_ref(r.u16()?)?),
        0xb4 => GetField(cp.field_ref(r.u16()?)?),
        0xb5 => PutField(cp.field_ref(r.u16()?)?),
        0xb6 => Invoke {
            kind: InvokeKind::Virtual,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb7 => Invoke {
            kind: InvokeKind::Special,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb8 => Invoke {
            kind: InvokeKind::Static,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb9 => {
            let method = cp.method_ref(r.u16()?)?;
            let _count = r.u8()?;
            let _zero = r.u8()?;
            Invoke {
                kind: InvokeKind::Interface,
                method,
            }
        }
        0xba => {
            let (name, descriptor, site) = cp.invoke_dynamic(r.u16()?)?;
            let _zeros = r.u16()?;
            InvokeDynamic {
                name,
                descriptor,
                site: Box::new(site),
            }
        }
        0xbb => New(cp.class_name(r.u16()?)?.to_string()),
        0xbc => {
            let atype = r.u8()?;
            NewArray(match atype {
                4 => ArrayKind::Boolean,
                8 => ArrayKind::Byte,
                5 => ArrayKind::Char,
                6 => ArrayKind::Float,
                7 => ArrayKind::Double,
                9 => ArrayKind::Short,
                10 => ArrayKind::Int,
                11 => ArrayKind::Long,
                _ => {
                    return Err(ClassError::malformed(format!(
                        "newarray at pc {} has bad atype {atype}",
                        r.insn_pc
                    )))
                }
            })
        }
        0xbd => ANewArray(cp.class_name(r.u16()?)?.to_string()),
        0xbe => ArrayLength,
        0xbf => AThrow,
        0xc0 => CheckCast(cp.class_name(r.u16()?)?.to_string()),
        0xc1 => InstanceOf(cp.class_name(r.u16()?)?.to_string()),
        0xc2 => MonitorEnter,
        0xc3 => MonitorExit,
        0xc4 => {
            let op2 = r.u8()?;
            match op2 {
                0x15..=0x19 => Load(Kind::ALL[usize::from(op2 - 0x15)], r.u16()?),
                0x36..=0x3a => Store(Kind::ALL[usize::from(op2 - 0x36)], r.u16()?),
                0xa9 => Ret(r.u16()?),
                0x84 => IInc {
                    index: r.u16()?,
                    delta: i32::from(r.i16()?),
                },
                _ => {
                    return Err(ClassError::malformed(format!(
                        "wide at pc {} modifies opcode 0x{op2:02x}",
                        r.insn_pc
                    )))
                }
            }
        }
        0xc5 => {
            let class = cp.class_name(r.u16()?)?.to_string();
            let dims = r.u8()?;
            if dims == 0 {
                return Err(ClassError::malformed(format!(
                    "multianewarray at pc {} has zero dimensions",
                    r.insn_pc
                )));
            }
            MultiANewArray { class, dims }
        }
        0xc6 => IfNull {
            target: r.branch16()?,
        },
        0xc7 => IfNonNull {
            target: r.branch16()?,
        },
        0xc8 => Goto(r.branch32()?),
        0xc9 => Jsr(r.branch32()?),
        _ => {
            return Err(ClassError::malformed(format!(
                "reserved or unknown opcode 0x{op:02x} at pc {}",
                r.insn_pc
            )))
        }
    };
    Ok(insn)
}

impl Reader<'_> {
    /// Reads a 16-bit branch offset and returns the absolute target.
    fn branch16(&mut self) -> Result<u32, ClassError> {
        let offset = self.i16()?;
        self.target(i64::from(offset))
    }

    /// Reads a 32-bit branch offset and returns the absolute target.
    fn branch32(&mut self) -> Result<u32, ClassError> {
        let offset = self.i32()?;
        self.target(i64::from(offset))
    }
}

fn ldc(cp: &ConstantPool<'_>, index: u16, wide: bool) -> Result<Insn, ClassError> {
    let c = cp.constant(index)?;
    let two_slots = matches!(c, Constant::Long(_) | Constant::Double(_));
    if two_slots != wide {
        return Err(ClassError::malformed(format!(
            "{} of constant #{index} ({c})",
            if wide { "ldc2_w" } else { "ldc" }
        )));
    }
    Ok(Insn::Ldc(c))
}

/// Skips the 0–3 padding bytes after a switch opcode (aligned to the code start).
fn skip_padding(r: &mut Reader<'_>) -> Result<(), ClassError> {
    while r.pos % 4 != 0 {
        r.u8()?;
    }
    Ok(())
}

/// Fails unless `n` entries of `size` bytes remain, before anything is allocated.
fn check_room(r: &Reader<'_>, n: usize, size: usize) -> Result<(), ClassError> {
    let need = n.checked_mul(size);
    let have = r.code.len().saturating_sub(r.pos);
    match need {
        Some(need) if need <= have => Ok(()),
        _ => Err(r.truncated()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::mnemonic::INVALID;
    use classfile_parser::constant_info::*;

    fn utf8(s: &str) -> ConstantInfo {
        ConstantInfo::Utf8(Utf8Constant {
            utf8_string: s.to_string(),
            bytes: s.as_bytes().to_vec(),
        })
    }

    /// A small pool with one entry of each kind the decoder resolves.
    fn pool() -> Vec<ConstantInfo> {
        vec![
            utf8("A"),                                            // 1
            ConstantInfo::Class(ClassConstant { name_index: 1 }), // 2
            utf8("f"),                                            // 3
            utf8("I"),                                            // 4
            ConstantInfo::NameAndType(NameAndTypeConstant {
                name_index: 3,
                descriptor_index: 4,
            }), // 5
            ConstantInfo::FieldRef(FieldRefConstant {
                class_index: 2,
                name_and_type_index: 5,
            }), // 6
            utf8("()V"),                                          // 7
            ConstantInfo::NameAndType(NameAndTypeConstant {
                name_index: 3,
                descriptor_index: 7,
            }), // 8
            ConstantInfo::MethodRef(MethodRefConstant {
                class_index: 2,
                name_and_type_index: 8,
            }), // 9
            ConstantInfo::InterfaceMethodRef(InterfaceMethodRefConstant {
                class_index: 2,
                name_and_type_index: 8,
            }), // 10
            ConstantInfo::Integer(IntegerConstant { value: 5 }),  // 11
            ConstantInfo::Long(LongConstant { value: 7 }),        // 12
            ConstantInfo::Unusable,                               // 13
            ConstantInfo::InvokeDynamic(InvokeDynamicConstant {
                bootstrap_method_attr_index: 0,
                name_and_type_index: 8,
            }), // 14
            ConstantInfo::String(StringConstant { string_index: 1 }), // 15
            ConstantInfo::MethodHandle(classfile_parser::constant_info::MethodHandleConstant {
                reference_kind: 6,
                reference_index: 9,
            }), // 16: the bootstrap method of #14
        ]
    }

    /// The bootstrap table of [`pool`]'s `invokedynamic` (#14).
    fn bootstrap() -> Vec<classfile_parser::attribute_info::BootstrapMethod> {
        vec![classfile_parser::attribute_info::BootstrapMethod {
            bootstrap_method_ref: 16,
            num_bootstrap_arguments: 0,
            bootstrap_arguments: vec![],
        }]
    }

    fn patterns(op: u8) -> Vec<Vec<u8>> {
        let mut out = vec![[op].iter().chain(&[0u8; 23]).copied().collect::<Vec<u8>>()];
        for k in 0..16u8 {
            out.push([op, 0, k, 1].iter().chain(&[0u8; 20]).copied().collect());
            out.push([op, k].iter().chain(&[0u8; 22]).copied().collect());
        }
        out
    }

    #[test]
    fn every_opcode_decodes_and_reports_its_opcode() {
        let entries = pool();
        let table = bootstrap();
        let cp = ConstantPool::new(&entries).with_bootstrap(&table);
        for op in 0..=0xc9u8 {
            if op == 0xc4 {
                continue; // wide: tested below
            }
            let expected = match op {
                0x13 => 0x12,
                0xc8 => 0xa7,
                0xc9 => 0xa8,
                _ => op,
            };
            let mut decoded = Vec::new();
            for p in patterns(op) {
                if let Ok(insns) = decode_code(&p, &cp) {
                    decoded.push(insns[0].1.clone());
                }
            }
            assert!(!decoded.is_empty(), "opcode 0x{op:02x} never decodes");
            if op == 0x10 || op == 0x11 {
                assert!(decoded.iter().all(|i| matches!(i, Insn::IConst(_))));
                continue;
            }
            assert!(
                decoded.iter().any(|i| i.opcode() == expected),
                "opcode 0x{op:02x} decodes to {decoded:?}"
            );
            for i in &decoded {
                assert_ne!(i.mnemonic(), INVALID.0, "{i:?}");
                assert!(!i.to_string().is_empty());
            }
        }
        for op in 0xca..=0xffu8 {
            assert!(
                decode_code(&[op], &cp).is_err(),
                "reserved 0x{op:02x} accepted"
            );
        }
    }

    #[test]
    fn wide_forms() {
        let entries = pool();
        let cp = ConstantPool::new(&entries);
        let d =
            |b: &[u8]| decode_code(b, &cp).map(|v| v.into_iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(
            d(&[0xc4, 0x15, 1, 0]).ok(),
            Some(vec![Insn::Load(Kind::Int, 256)])
        );
        assert_eq!(
            d(&[0xc4, 0x3a, 0, 9]).ok(),
            Some(vec![Insn::Store(Kind::Ref, 9)])
        );
        assert_eq!(d(&[0xc4, 0xa9, 1, 1]).ok(), Some(vec![Insn::Ret(257)]));
        assert_eq!(
            d(&[0xc4, 0x84, 1, 0, 0xff, 0xfe]).ok(),
            Some(vec![Insn::IInc {
                index: 256,
                delta: -2
            }])
        );
        assert!(d(&[0xc4, 0x60, 0, 0]).is_err());
        assert!(d(&[0xc4, 0x15, 1]).is_err());
    }

    #[test]
    fn branch_checks() {
        let cp = ConstantPool::new(&[]);
        // goto +1 lands inside the goto itself.
        assert!(decode_code(&[0xa7, 0, 1, 0], &cp).is_err());
        // goto -1 leaves the code.
        assert!(decode_code(&[0xa7, 0xff, 0xff], &cp).is_err());
        // goto +3 past the end.
        assert!(decode_code(&[0xa7, 0, 3], &cp).is_err());
        assert_eq!(
            decode_code(&[0x00, 0xa7, 0xff, 0xff], &cp).ok(),
            Some(vec![(0, Insn::Nop), (1, Insn::Goto(0))])
        );
        assert!(decode_code(&[], &cp).is_err());
        // Unresolvable constant pool index.
        assert!(decode_code(&[0xb4, 0, 1], &cp).is_err());
        // tableswitch with high < low and with an absurd range.
        assert!(decode_code(&[0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &cp).is_err());
        assert!(decode_code(
            &[0xaa, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff],
            &cp
        )
        .is_err());
    }

    #[test]
    fn random_code_never_panics() {
        let entries = pool();
        let cp = ConstantPool::new(&entries);
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| (state.rotate_left(i as u32 * 5) & 0xff) as u8 % 0xcc)
                .collect();
            if let Ok(insns) = decode_code(&bytes, &cp) {
                for (_, i) in insns {
                    let _ = (i.to_string(), i.opcode(), i.mnemonic());
                }
            }
        }
    }

    #[test]
    fn cond_helpers() {
        for c in Cond::ALL {
            assert_eq!(c.negate().negate(), c);
            assert_ne!(c.negate(), c);
        }
        assert_eq!(Cond::Ge.symbol(), "≥");
        assert_eq!(Cond::Lt.negate(), Cond::Ge);
    }
}
