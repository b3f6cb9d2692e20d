//! Learned knowledge: self-play training data ([`selfplay`], in the format of [`data`]) and the fit of the
//! learned priors to it ([`train`]). The model itself, and its features, live in the search
//! ([`crate::search::learned`]), which uses them; this layer sits above the search and plays it.

pub mod data;
pub mod knowledge;
pub mod netfit;
pub mod selfplay;
pub mod train;
