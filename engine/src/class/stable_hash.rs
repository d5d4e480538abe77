//! A hash that is the same on every machine and in every build (std's hashers promise neither):
//! 64-bit FNV-1a. The class path seeds its member shuffle with it; the checker's journal
//! fingerprints, the corpus's seeds and scratch folders, and termination's saved inputs name
//! things by it, so it lives in the lowest crate they all depend on.

/// The 64-bit FNV-1a hash of `bytes` (the published function, draft-eastlake-fnv).
pub fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::stable_hash;

    #[test]
    fn stable_hash_is_the_published_fnv1a() {
        // test vectors of the FNV reference (draft-eastlake-fnv)
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(stable_hash(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
