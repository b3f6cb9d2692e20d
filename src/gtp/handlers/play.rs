//! Playing through the protocol: `play`, `undo`, the legal moves and the score.

use crate::rules::Status;

use crate::gtp::args;
use crate::gtp::error::GtpError;
use crate::gtp::format::legal_list;
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;

/// `play COLOR MOVE`: plays the move and answers what it did.
pub fn play(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let color = args::color(args[0])?;
    let notation = e.settings.notation;
    let geo = e.game.position().geometry_arc().clone();
    let mv = args::mv(&geo, notation, args[1])?;
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

/// `final_score`: the result once the game is over.
pub fn final_score(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    match e.game.position().status() {
        Status::Over(o) => Ok(o.code().into()),
        _ => Err(GtpError::Failed("game is not over".into())),
    }
}
