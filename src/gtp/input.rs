//! Reading command lines: the GTP v2 preprocessing of section 3.1, and a length cap on what is left of a line.

use std::io::{self, BufRead};

/// Longest accepted command in bytes, counted after preprocessing: comments, control characters and repeated
/// spaces do not count. Longer commands are answered with an error; the reader keeps at most this many bytes of
/// any line and discards the rest, so memory stays bounded whatever arrives.
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read: its command part, at most [`MAX_LINE`] bytes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    /// The bytes of the line without the newline, the comment, control characters other than tab, and spaces or
    /// tabs at the start and repeated (a run of them is kept as one space). [`preprocess`] does the rest.
    pub bytes: Vec<u8>,
    /// True when the command part was longer than [`MAX_LINE`] and was cut.
    pub truncated: bool,
}

/// Reads the next line from `input`, keeping its command part as [`RawLine`] says. Returns `None` at end of
/// input. A last line without a newline is still returned.
///
/// # Errors
/// Errors of the underlying reader.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R) -> io::Result<Option<RawLine>> {
    let mut in_comment = false;
    let mut space = false;
    read_with(input, |line, chunk| {
        for &b in chunk {
            match b {
                _ if in_comment || line.truncated => {}
                b'#' => in_comment = true,
                b' ' | b'\t' => space = !line.bytes.is_empty(),
                _ if b < 0x20 || b == 0x7f => {}
                _ => {
                    let needed = 1 + usize::from(space);
                    if line.bytes.len() + needed > MAX_LINE {
                        line.truncated = true;
                        line.bytes.truncate(MAX_LINE);
                        continue;
                    }
                    if space {
                        line.bytes.push(b' ');
                        space = false;
                    }
                    line.bytes.push(b);
                }
            }
        }
    })
}

/// Reads the next line from `input` as it is, without the newline, keeping at most [`MAX_LINE`] bytes (the rest
/// of a longer line is discarded and [`RawLine::truncated`] set). Returns `None` at end of input. This is how the
/// referee reads an engine's responses: none of the preprocessing of commands ([`read_line`]) applies to them.
///
/// # Errors
/// Errors of the underlying reader.
pub fn read_raw_line<R: BufRead + ?Sized>(input: &mut R) -> io::Result<Option<RawLine>> {
    read_with(input, |line, chunk| {
        let room = MAX_LINE - line.bytes.len();
        if chunk.len() > room {
            line.truncated = true;
        }
        line.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
    })
}

/// Reads the next line from `input` in the chunks the reader has buffered, giving each chunk of the line (without
/// the newline) to `keep`, which adds what it keeps of it to the line. Returns `None` at end of input; a last line
/// without a newline is still returned.
fn read_with<R: BufRead + ?Sized>(
    input: &mut R,
    mut keep: impl FnMut(&mut RawLine, &[u8]),
) -> io::Result<Option<RawLine>> {
    let mut line = RawLine {
        bytes: Vec::new(),
        truncated: false,
    };
    let mut seen_any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(seen_any.then_some(line));
        }
        seen_any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        keep(&mut line, chunk);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(line));
        }
    }
}

/// GTP v2 preprocessing: drops control characters other than HT and LF, cuts the line at `#`, turns HT into a
/// space and trims. Returns `None` for a line that is then empty. Bytes that are not UTF-8 become U+FFFD, so they
/// reach the parser as characters no command or argument accepts.
pub fn preprocess(bytes: &[u8]) -> Option<String> {
    let cut = bytes.iter().position(|&b| b == b'#').unwrap_or(bytes.len());
    let kept: Vec<u8> = bytes[..cut]
        .iter()
        .filter(|&&b| b == b'\t' || !(b < 0x20 || b == 0x7f))
        .map(|&b| if b == b'\t' { b' ' } else { b })
        .collect();
    let text = String::from_utf8_lossy(&kept);
    let trimmed = text.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_comments_and_tabs() {
        assert_eq!(
            preprocess(b"\tplay\x01 b\tD4\r # comment"),
            Some("play b D4".to_string())
        );
        assert_eq!(preprocess(b"   # only a comment"), None);
        assert_eq!(preprocess(b" \t \r"), None);
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_discarded() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nname\n");
        let mut r = &data[..];
        let first = read_line(&mut r).unwrap().unwrap();
        assert!(first.truncated);
        assert_eq!(first.bytes.len(), MAX_LINE);
        assert_eq!(read_line(&mut r).unwrap().unwrap().bytes, b"name");
        assert_eq!(read_line(&mut r).unwrap(), None);
    }

    #[test]
    fn raw_lines_keep_every_byte_up_to_the_cap() {
        let mut data = b"= A1 # not a comment\t\x08 \r\n".to_vec();
        data.extend(vec![b'x'; MAX_LINE + 5]);
        data.extend_from_slice(b"\nlast");
        let mut r = &data[..];
        let line = read_raw_line(&mut r).unwrap().unwrap();
        assert_eq!(line.bytes, b"= A1 # not a comment\t\x08 \r");
        let line = read_raw_line(&mut r).unwrap().unwrap();
        assert_eq!((line.bytes.len(), line.truncated), (MAX_LINE, true));
        assert_eq!(read_raw_line(&mut r).unwrap().unwrap().bytes, b"last");
        assert_eq!(read_raw_line(&mut r).unwrap(), None);
    }

    #[test]
    fn comments_control_characters_and_padding_do_not_count() {
        let long = |fill: &[u8]| fill.repeat(2 * MAX_LINE);
        let mut data = b"name #".to_vec();
        data.extend(long(b"comment "));
        data.extend_from_slice(b"\n\t 7 ");
        data.extend(long(b" \t"));
        data.extend_from_slice(b"play");
        data.extend(long(b"\0\r"));
        data.extend_from_slice(b" b\tD4 ");
        data.extend(long(b" "));
        data.extend_from_slice(b"\n");
        let mut r = &data[..];
        let line = read_line(&mut r).unwrap().unwrap();
        assert_eq!(
            (line.bytes.as_slice(), line.truncated),
            (&b"name"[..], false)
        );
        let line = read_line(&mut r).unwrap().unwrap();
        assert_eq!(
            (line.bytes.as_slice(), line.truncated),
            (&b"7 play b D4"[..], false)
        );
        assert_eq!(read_line(&mut r).unwrap(), None);
        // Exactly MAX_LINE bytes of command is accepted; one more is not.
        for (len, truncated) in [(MAX_LINE, false), (MAX_LINE + 1, true)] {
            let mut data = vec![b'y'; len];
            data.push(b'\n');
            let line = read_line(&mut &data[..]).unwrap().unwrap();
            assert_eq!((line.bytes.len(), line.truncated), (MAX_LINE, truncated));
        }
    }

    #[test]
    fn last_line_without_newline_is_kept() {
        let mut r = &b"a\nb"[..];
        assert_eq!(read_line(&mut r).unwrap().unwrap().bytes, b"a");
        assert_eq!(read_line(&mut r).unwrap().unwrap().bytes, b"b");
        assert_eq!(read_line(&mut r).unwrap(), None);
    }
}
