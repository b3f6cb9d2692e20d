//! Where the page draws each cell and coordinate: the board's drawing, computed from the geometry once per board
//! and sent to the page as JSON. The page only draws what this says.
//!
//! Units: neighbouring cells are 1 apart. A rectangle is a grid; a hexhex board is GoGui's rhombus of pointy-top
//! hexagons, each row shifted half a cell to the right of the row above it (BOARDS.md), which makes the hexagon.

use serde_json::{Value, json};

use crate::notation::cell_name;
use crate::rules::{Geometry, Shape};

/// Height of a row of hexagons, for cells 1 apart.
const ROW_HEIGHT: f64 = 0.866_025_403_784_438_6;

/// Where grid column `x` and row `y` (from the bottom, both may be one beyond the board for labels) are drawn.
fn place(geo: &Geometry, x: i64, y: i64) -> (f64, f64) {
    let (_, h) = geo.dimensions();
    let from_top = (h as i64 - 1 - y) as f64;
    match geo.shape() {
        Shape::Rect { .. } => (x as f64, from_top),
        Shape::Hex { .. } => (x as f64 + from_top * 0.5, from_top * ROW_HEIGHT),
    }
}

/// The letters and the number of a cell name such as `d4` or `D4`.
fn split_name(name: &str) -> (String, String) {
    let cut = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    (name[..cut].to_string(), name[cut..].to_string())
}

/// One coordinate label: where it stands, and its text in both notations.
fn label(geo: &Geometry, at: (i64, i64), gtp: &str, ap: &str) -> Value {
    let (x, y) = place(geo, at.0, at.1);
    json!({"x": round(x), "y": round(y), "gtp": gtp, "ap": ap})
}

fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The drawing of `geo`'s board: `cells` (GTP vertex, Abstract Play name, centre), `labels` (position, GTP text,
/// Abstract Play text; a label with an empty text in one notation is not shown in it), the bounding box of the
/// centres (`min_x`, `min_y`, `max_x`, `max_y`, labels included) and whether cells are hexagons.
pub fn layout(geo: &Geometry) -> Value {
    let (w, h) = geo.dimensions();
    let (w, h) = (w as i64, h as i64);
    let mut cells = Vec::new();
    for p in geo.points() {
        let (cx, cy) = geo.coords(p);
        let (x, y) = place(geo, cx as i64, cy as i64);
        cells
            .push(json!({"v": geo.name(p), "ap": cell_name(geo, p), "x": round(x), "y": round(y)}));
    }
    let mut labels = Vec::new();
    let at = |x: i64, y: i64| geo.point_at(x as usize, y as usize).expect("a board cell");
    match geo.shape() {
        Shape::Rect { .. } => {
            for x in 0..w {
                let gtp = split_name(&geo.name(at(x, 0))).0;
                let ap = split_name(&cell_name(geo, at(x, 0))).0;
                labels.push(label(geo, (x, h), &gtp, &ap));
                labels.push(label(geo, (x, -1), &gtp, &ap));
            }
            for y in 0..h {
                let gtp = split_name(&geo.name(at(0, y))).1;
                let ap = split_name(&cell_name(geo, at(0, y))).1;
                labels.push(label(geo, (-1, y), &gtp, &ap));
                labels.push(label(geo, (w, y), &gtp, &ap));
            }
        }
        Shape::Hex { side } => {
            let side = side as i64;
            // GTP (as oust's board diagram): each column's letter one step beyond its two ends, along the
            // column's slant (the top and upper-left edges, the bottom and lower-right ones); each row's number
            // beyond the end of the row where no column letter stands: at the left of the lower half, at the right
            // of the upper half. Abstract Play: each row's letter at its left end; each cell number follows a line
            // of cells that runs along a column below the middle row and along the other slant above it, so it
            // stands below the lower line and above the upper one.
            for x in 0..w {
                let top = (x + side - 1).min(h - 1);
                let bottom = (x - (side - 1)).max(0);
                let letter = split_name(&geo.name(at(x, top))).0;
                labels.push(label(geo, (x, top + 1), &letter, ""));
                labels.push(label(geo, (x, bottom - 1), &letter, ""));
            }
            for y in 0..h {
                let first = (y - (side - 1)).max(0);
                let number = split_name(&geo.name(at(first, y))).1;
                let row = split_name(&cell_name(geo, at(first, y))).0;
                if y < side {
                    labels.push(label(geo, (-1, y), &number, ""));
                }
                if y >= side - 1 {
                    labels.push(label(geo, (w, y), &number, ""));
                }
                labels.push(label(geo, (first - 1, y), "", &row));
            }
            let middle = side - 1;
            for x in 0..w {
                // The lower line of cell number x + 1 is column x, from its bottom cell up to the middle row.
                let bottom = (x - (side - 1)).max(0);
                let number = split_name(&cell_name(geo, at(x, bottom))).1;
                labels.push(label(geo, (x, bottom - 1), "", &number));
            }
            for n in 0..w {
                // The upper line of cell number n + 1: from the middle row's cell n + 1, up and to the right.
                let (mut x, mut y) = (n, middle);
                while geo.point_at((x + 1) as usize, (y + 1) as usize).is_some() {
                    x += 1;
                    y += 1;
                }
                let number = split_name(&cell_name(geo, at(x, y))).1;
                labels.push(label(geo, (x + 1, y + 1), "", &number));
            }
        }
    }
    let mut bounds = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for v in cells.iter().chain(labels.iter()) {
        let (x, y) = (
            v["x"].as_f64().unwrap_or(0.0),
            v["y"].as_f64().unwrap_or(0.0),
        );
        bounds = [
            bounds[0].min(x),
            bounds[1].min(y),
            bounds[2].max(x),
            bounds[3].max(y),
        ];
    }
    json!({
        "board": geo.size_name(),
        "hex": geo.shape().is_hex(),
        "cells": cells,
        "labels": labels,
        "min_x": bounds[0], "min_y": bounds[1], "max_x": bounds[2], "max_y": bounds[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_cells_are_one_apart_from_their_neighbours() {
        let geo = Geometry::hex(4).unwrap();
        let l = layout(&geo);
        let cells = l["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 37);
        let pos = |name: &str| {
            let c = cells.iter().find(|c| c["v"] == name).unwrap();
            (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap())
        };
        for p in geo.points() {
            for &q in geo.neighbors(p) {
                let (a, b) = (pos(&geo.name(p)), pos(&geo.name(q)));
                let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!(
                    (d - 1.0).abs() < 0.01,
                    "{} {} {d}",
                    geo.name(p),
                    geo.name(q)
                );
            }
        }
        // Abstract Play's a1 is GoGui's A1, the bottom-left cell.
        assert_eq!(cells.iter().find(|c| c["v"] == "A1").unwrap()["ap"], "a1");
    }

    #[test]
    fn rect_labels_name_their_column_and_row() {
        let geo = Geometry::rect(11, 3).unwrap();
        let l = layout(&geo);
        let labels = l["labels"].as_array().unwrap();
        // Column 9 (from 1) is GTP's J and Abstract Play's i, drawn above and below it.
        let j: Vec<_> = labels.iter().filter(|v| v["gtp"] == "J").collect();
        assert_eq!(j.len(), 2);
        assert!(j.iter().all(|v| v["ap"] == "i" && v["x"] == 8.0));
    }
}
