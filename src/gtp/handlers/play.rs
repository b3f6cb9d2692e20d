//! Playing through the protocol: `play`, `undo`, the legal moves and the score.

use crate::rules::{IllegalMove, Move, Status};

use crate::gtp::args;
use crate::gtp::error::GtpError;
use crate::gtp::format::legal_list;
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;

/// `play COLOR MOVE`: plays the move and answers what it did. A placement on an occupied point is refused as
/// occupied even when COLOR is not to move (the rules look at the turn first): GoGui sends every move again
/// after it is on the board, and logs the plain reason.
pub fn play(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let color = args::color(args[0])?;
    let notation = e.settings.notation;
    let pos = e.game.position();
    let geo = pos.geometry_arc().clone();
    let mv = args::mv(&geo, notation, args[1])?;
    if let Move::Place(p) = mv
        && !matches!(pos.status(), Status::Over(_))
        && let Some(stone) = pos.color_at(p)
    {
        return Err(GtpError::Illegal(notation.illegal(
            &geo,
            IllegalMove::Occupied {
                vertex: geo.name(p),
                stone,
            },
        )));
    }
    let report = e
        .game
        .play(color, mv)
        .map_err(|err| GtpError::Illegal(notation.illegal(&geo, err)))?;
    Ok(Reply::Played(report))
}

/// `undo`: takes back the last move.
pub fn undo(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    e.game
        .undo()
        .map(|_| Reply::Text(String::new()))
        .ok_or(GtpError::CannotUndo)
}

/// `list_legal`: the legal moves of the side to move.
pub fn list_legal(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(legal_list(e.game.position(), e.settings.notation).into())
}

/// `final_score`: the result once the game is over; before, GTP's `cannot score` and why.
pub fn final_score(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    match e.game.position().status() {
        Status::Over(o) => Ok(o.code().into()),
        _ => Err(GtpError::Failed(
            "cannot score: the game is not over".into(),
        )),
    }
}
