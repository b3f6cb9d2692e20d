//! Who plays whom: the pairings of a tournament of several engines, by its format.

use std::fmt;

/// A tournament's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others, and no other games.
    Gauntlet,
    /// Each engine against the next in the list: the chain `oust calibrate` plays, from the random player up.
    Ladder,
}

impl Format {
    /// The format's word on the command line and in results files.
    pub fn keyword(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Ladder => "ladder",
        }
    }

    /// The format of `word`, or a message listing the formats.
    ///
    /// # Errors
    /// A word that names no format.
    pub fn parse(word: &str) -> Result<Format, String> {
        [Format::RoundRobin, Format::Gauntlet, Format::Ladder]
            .into_iter()
            .find(|f| f.keyword() == word)
            .ok_or_else(|| format!("'{word}' is not a format: round-robin, gauntlet or ladder"))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// The pairings of `engines` engines (indices, engine A first): a round-robin's in the order (0, 1), (0, 2), ...,
/// (1, 2), ...; a gauntlet's (0, 1), (0, 2), ...; a ladder's (0, 1), (1, 2), ...
pub fn pairings(engines: usize, format: Format) -> Vec<[usize; 2]> {
    match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| [i, j]))
            .collect(),
        Format::Gauntlet => (1..engines).map(|j| [0, j]).collect(),
        Format::Ladder => (1..engines).map(|j| [j - 1, j]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pairings_of_each_format() {
        assert_eq!(
            pairings(4, Format::RoundRobin),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(pairings(4, Format::Gauntlet), [[0, 1], [0, 2], [0, 3]]);
        assert_eq!(pairings(4, Format::Ladder), [[0, 1], [1, 2], [2, 3]]);
        assert!(pairings(1, Format::RoundRobin).is_empty());
        assert_eq!(Format::parse("gauntlet"), Ok(Format::Gauntlet));
        assert!(Format::parse("swiss").unwrap_err().contains("round-robin"));
    }
}
