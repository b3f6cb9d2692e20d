//! The network's file: a short text header, then the parameters as little-endian 32-bit floats; and the networks
//! built into the binary.

use std::sync::Arc;

use super::{Family, Layout, Net, Size, features};

/// The first line of a weights file, with its format version.
pub const MAGIC: &str = "oust-net 1";

/// FNV-1a over bytes: the file's checksum, which finds a file damaged after it was written.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Net {
    /// The checksum of the parameters, as a weights file's header gives it (`checksum ...`): it names a network.
    pub fn checksum(&self) -> u64 {
        let data: Vec<u8> = self.params.iter().flat_map(|x| x.to_le_bytes()).collect();
        checksum(&data)
    }

    /// The bytes of a weights file: a text header, then the parameters as little-endian 32-bit floats.
    ///
    /// ```text
    /// oust-net 1
    /// family hex
    /// inputs oust-input-1
    /// channels 32
    /// blocks 4
    /// value-hidden 32
    /// parameters 80129
    /// checksum 0123456789abcdef
    /// data
    /// ```
    pub fn to_bytes(&self, comment: &str) -> Vec<u8> {
        let data: Vec<u8> = self.params.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = format!("{MAGIC}\n");
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!(
            "family {}\ninputs {}\nchannels {}\nblocks {}\nvalue-hidden {}\nparameters {}\nchecksum {:016x}\ndata\n",
            self.family.name(),
            features::INPUT_VERSION,
            self.size.channels,
            self.size.blocks,
            self.size.value_hidden,
            self.params.len(),
            checksum(&data)
        ));
        let mut bytes = out.into_bytes();
        bytes.extend(data);
        bytes
    }

    /// Reads the bytes of a weights file.
    ///
    /// # Errors
    /// A message that says what is wrong: not a network file, another format or input version, a header line
    /// missing or wrong, a size out of range, fewer or more parameter bytes than the header says (a truncated
    /// file), a checksum that does not match, or a parameter that is not finite.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Net, String> {
        let mut rest = bytes;
        let mut line_no = 0;
        let mut next_line = |rest: &mut &[u8]| -> Result<Option<String>, String> {
            let Some(end) = rest.iter().position(|&b| b == b'\n') else {
                return Ok(None);
            };
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| format!("line {}: not text", line_no + 1))?
                .to_string();
            *rest = &rest[end + 1..];
            line_no += 1;
            Ok(Some(line))
        };
        let first = next_line(&mut rest).ok().flatten();
        match first.as_deref() {
            Some(MAGIC) => {}
            Some(l) if l.starts_with("oust-net ") => {
                return Err(format!(
                    "'{l}' is another version of the network format (this engine reads '{MAGIC}')"
                ));
            }
            Some(l) if l.starts_with("oust-weights ") => {
                return Err(
                    "a weights file of the learned priors (oust train), not a network".into(),
                );
            }
            _ => {
                return Err(format!(
                    "not a network file (it does not start with '{MAGIC}')"
                ));
            }
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let Some(line) = next_line(&mut rest)? else {
                return Err("truncated: the header ends before its 'data' line".into());
            };
            if line == "data" {
                break;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (k, v) = line
                .split_once(' ')
                .ok_or_else(|| format!("header line '{line}' is not 'NAME VALUE'"))?;
            if fields.iter().any(|(f, _)| f == k) {
                return Err(format!("header field '{k}' is given twice"));
            }
            fields.push((k.to_string(), v.to_string()));
        }
        let field = |k: &str| -> Result<&str, String> {
            fields
                .iter()
                .find(|(f, _)| f == k)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("the header has no '{k}' line"))
        };
        let number = |k: &str| -> Result<usize, String> {
            let v = field(k)?;
            v.parse()
                .map_err(|_| format!("header field '{k}': '{v}' is not a whole number"))
        };
        let family = Family::parse(field("family")?).ok_or_else(|| {
            format!(
                "family '{}' is neither square nor hex",
                field("family").unwrap_or("")
            )
        })?;
        let inputs = field("inputs")?;
        if inputs != features::INPUT_VERSION {
            return Err(format!(
                "its inputs are '{inputs}', and this engine computes '{}'",
                features::INPUT_VERSION
            ));
        }
        let size = Size {
            channels: number("channels")?,
            blocks: number("blocks")?,
            value_hidden: number("value-hidden")?,
        }
        .check()?;
        let layout = Layout::new(family, size);
        let count = number("parameters")?;
        if count != layout.total {
            return Err(format!(
                "the header says {count} parameters, and a {} network of size {size} has {}",
                family.name(),
                layout.total
            ));
        }
        let sum = field("checksum")?;
        let sum = u64::from_str_radix(sum, 16)
            .map_err(|_| format!("checksum '{sum}' is not hexadecimal"))?;
        if rest.len() != 4 * count {
            return Err(format!(
                "{}: {} bytes of parameters where the header says {}",
                if rest.len() < 4 * count {
                    "truncated"
                } else {
                    "too long"
                },
                rest.len(),
                4 * count
            ));
        }
        if checksum(rest) != sum {
            return Err("the parameters do not match the checksum: the file is damaged".into());
        }
        let params: Vec<f32> = rest
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(i) = params.iter().position(|v| !v.is_finite() || v.abs() > 1e6) {
            return Err(format!(
                "parameter {i} is {}, not a finite number up to 1e6",
                params[i]
            ));
        }
        Ok(Net {
            family,
            size,
            layout,
            params,
            name: name.to_string(),
        })
    }
}

/// The network built into the binary for square and rectangular boards (docs/learning.md says how it was made).
pub const BUILT_IN_SQUARE: &[u8] = include_bytes!("../../weights/oust-net-square.net");

/// The network built into the binary for hexhex boards.
pub const BUILT_IN_HEX: &[u8] = include_bytes!("../../weights/oust-net-hex.net");

/// The built-in network of `family`, read once.
pub fn built_in(family: Family) -> Arc<Net> {
    static NETS: [std::sync::OnceLock<Arc<Net>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let (cell, bytes) = match family {
        Family::Square => (&NETS[0], BUILT_IN_SQUARE),
        Family::Hex => (&NETS[1], BUILT_IN_HEX),
    };
    cell.get_or_init(|| {
        let net = Net::from_bytes(bytes, "built-in").expect("the built-in networks read");
        assert_eq!(net.family(), family, "the built-in network's family");
        Arc::new(net)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::super::small_net;
    use super::*;

    #[test]
    fn a_file_reads_back_the_same_network_and_damage_is_refused_with_its_reason() {
        let net = small_net(Family::Hex);
        let bytes = net.to_bytes("a test\nsecond line");
        let back = Net::from_bytes(&bytes, "x").unwrap();
        assert_eq!(back.params, net.params);
        assert_eq!((back.family, back.size), (net.family, net.size));
        let err = |b: &[u8]| Net::from_bytes(b, "x").unwrap_err();
        assert!(
            err(&bytes[..bytes.len() - 3]).starts_with("truncated: "),
            "{}",
            err(&bytes[..bytes.len() - 3])
        );
        assert!(err(b"hello\n").starts_with("not a network file"));
        assert!(err(b"").starts_with("not a network file"));
        assert!(err(b"oust-weights 1\nfeatures x\n").contains("learned priors"));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(err(&damaged).contains("damaged"));
        let text = String::from_utf8_lossy(&bytes).replace("oust-input-1", "oust-input-0");
        assert!(err(text.as_bytes()).contains("'oust-input-0'"));
    }
}
