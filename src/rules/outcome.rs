//! How a game ends.

use super::color::Color;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The colour captured every stone of the opponent.
    Win(Color),
    /// Neither player can place (ruling 8 of RULES.md).
    Draw,
}

impl Outcome {
    /// The result as GTP `final_score` states it: `B+`, `W+` or `0`.
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "B+",
            Outcome::Win(Color::White) => "W+",
            Outcome::Draw => "0",
        }
    }

    /// The result code with a few words of explanation.
    pub fn describe(self) -> String {
        match self {
            Outcome::Win(c) => format!(
                "{} ({c} captured every {} stone)",
                self.code(),
                c.opponent()
            ),
            Outcome::Draw => "0 (neither player can place)".to_string(),
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
}
