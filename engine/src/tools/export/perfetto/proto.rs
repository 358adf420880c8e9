//! The protobuf wire format, the little of it a Perfetto trace needs (protobuf's "Encoding"
//! guide): base-128 varints, field keys `(number << 3) | wire type`, length-delimited strings and
//! nested messages. A message is built in a buffer of its own and written into its parent with
//! its length in front.

/// Wire type 0: a varint (int32, int64, uint32, uint64, bool, enum).
const VARINT: u32 = 0;
/// Wire type 2: length-delimited (string, bytes, a nested message).
const LEN: u32 = 2;

/// A message being written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Msg(pub Vec<u8>);

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

impl Msg {
    pub fn new() -> Msg {
        Msg(Vec::with_capacity(64))
    }

    fn key(&mut self, field: u32, wire: u32) {
        varint(&mut self.0, u64::from(field << 3 | wire));
    }

    /// An unsigned or (two's complement, as protobuf's int64) signed integer field.
    pub fn uint(&mut self, field: u32, v: u64) -> &mut Msg {
        self.key(field, VARINT);
        varint(&mut self.0, v);
        self
    }

    pub fn int(&mut self, field: u32, v: i64) -> &mut Msg {
        self.uint(field, v as u64)
    }

    pub fn bytes(&mut self, field: u32, b: &[u8]) -> &mut Msg {
        self.key(field, LEN);
        varint(&mut self.0, b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }

    pub fn str(&mut self, field: u32, s: &str) -> &mut Msg {
        self.bytes(field, s.as_bytes())
    }

    pub fn msg(&mut self, field: u32, m: &Msg) -> &mut Msg {
        self.bytes(field, &m.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_as_protobufs_guide_shows() {
        // The guide's examples: field 1 = 150 is 08 96 01; field 2 = "testing" is 12 07 ...
        assert_eq!(Msg::new().uint(1, 150).0, [0x08, 0x96, 0x01]);
        assert_eq!(&Msg::new().str(2, "testing").0[..2], [0x12, 0x07]);
        let mut inner = Msg::new();
        inner.uint(1, 150);
        assert_eq!(Msg::new().msg(3, &inner).0, [0x1a, 0x03, 0x08, 0x96, 0x01]);
        // A negative int64 takes ten bytes; the kernel's dev_t of 179:0 is (179 << 20) | 0.
        assert_eq!(Msg::new().int(1, -1).0.len(), 11);
        assert_eq!(
            Msg::new().uint(1, 179 << 20).0,
            [0x08, 0x80, 0x80, 0xc0, 0x59]
        );
    }
}
