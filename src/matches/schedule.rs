//! Who plays whom: the pairings of a tournament of several engines, by its format, and the engines and pairings
//! of a run ([`Field`]: a match is one pairing) with the place of each game among them ([`Slot`]).

use std::fmt;

use super::results::{GameResult, Side};

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

/// The engines of a run and who plays whom: a match is one pairing of two engines, a tournament several. Each
/// pairing plays the games a match of the configuration would (its openings, its colours); the games of the
/// pairings are interleaved by opening pair, so that a run stopped early has played every pairing about as often.
pub(super) struct Field {
    /// The engines' shell commands.
    pub commands: Vec<String>,
    /// The pairings: indices into `commands`, engine A first.
    pub pairings: Vec<[usize; 2]>,
    /// The engines' names in a tournament (its results file's black and white columns, the progress lines and
    /// the records); `None` for a match, whose engines are A and B.
    pub names: Option<Vec<String>>,
    /// The index of the run's first game among all the games (a shard starts further on).
    pub start: u64,
    /// The games of the run.
    pub count: u64,
    /// The opening pair of the run's first game, counted in its pairing's games from 0 (its index there over 2).
    pub first_round: u64,
}

/// Where a game of the run stands: its pairing and its index in that pairing's games (its match index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    /// The pairing, an index into [`Field::pairings`].
    pub pairing: usize,
    /// The game's index among its pairing's games, from 0: its colours and opening are those of this game of a
    /// match.
    pub index: u64,
}

impl Field {
    /// The pairing and index of the game of run index `g` (the game's number less 1): the games go by opening
    /// pair, each pair of games through every pairing in turn.
    pub fn slot(&self, g: u64) -> Slot {
        let p = self.pairings.len() as u64;
        Slot {
            pairing: ((g % (2 * p)) / 2) as usize,
            index: (g / (2 * p)) * 2 + g % 2,
        }
    }

    /// What engine `side` of `pairing` is called in messages: `engine A` in a match, its name in a tournament.
    pub fn called(&self, pairing: usize, side: Side) -> String {
        match &self.names {
            Some(names) => names[self.pairings[pairing][side.index()]].clone(),
            None => format!("engine {}", side.letter()),
        }
    }

    /// The results file's line of `result`, a game of `pairing`: in a tournament the black and white columns
    /// hold the engines' names.
    pub fn line(&self, pairing: usize, result: &GameResult) -> String {
        let line = result.to_line();
        let Some(names) = &self.names else {
            return line;
        };
        let mut fields: Vec<String> = line.split('\t').map(str::to_string).collect();
        let pair = self.pairings[pairing];
        fields[1] = names[pair[result.black.index()]].clone();
        fields[2] = names[pair[result.black.other().index()]].clone();
        fields.join("\t")
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
