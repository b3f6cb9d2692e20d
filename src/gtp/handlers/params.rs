//! The parameter commands: `oust-list-params`, `oust-get-param` and `oust-set-param`, over the table of
//! [`crate::gtp::params`].

use crate::gtp::error::{GtpError, syntax};
use crate::gtp::params::{PARAMS, SetError, find_param, try_set_param};
use crate::gtp::reply::Reply;
use crate::gtp::state::{Engine, auto_evaluator};

/// `oust-list-params`: every parameter and its value.
pub fn list(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(PARAMS
        .iter()
        .map(|p| {
            let value = (p.get)(e);
            // What `auto` chooses on this board, and why when it is not the network.
            if p.name == "evaluator" && value == "auto" {
                let shape = e.game().position().geometry().shape();
                format!("{} {value} (here: {})", p.name, auto_evaluator(shape))
            } else {
                format!("{} {value}", p.name)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into())
}

/// `oust-get-param NAME`.
pub fn get(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let spec = find_param(args[0])
        .ok_or_else(|| GtpError::Failed(format!("unknown parameter '{}'", args[0])))?;
    Ok((spec.get)(e).into())
}

/// `oust-set-param NAME VALUE`.
pub fn set(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    try_set_param(e, args[0], args[1]).map_err(|err| match err {
        SetError::Unknown(msg) => GtpError::Failed(msg),
        SetError::Value(msg) => syntax(format!("{}: {msg}", args[0])),
        // A good value the game refuses now: not a syntax error.
        SetError::State(msg) => GtpError::Failed(format!("{}: {msg}", args[0])),
    })?;
    Ok(Reply::Text(String::new()))
}
