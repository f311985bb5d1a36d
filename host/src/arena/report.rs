//! `tavola report`: one self-contained HTML page of one or more runs, with charts drawn as inline
//! SVG (no script, no network): the Elo estimate and its 95 % band against games played, the
//! W/D/L and pentanomial bars, the SPRT's log-likelihood ratio against its bounds, the
//! terminations, the crosstable and rating list of a tournament, and the results per opening.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::bail;

use super::results::{self, GameLine};
use super::stats::{Pentanomial, Sprt, Wdl};
use super::summary::{termination_group, RunFacts, Summary, Tally};

/// The colours of the page (the window's theme).
const WIN: &str = "#629924";
const DRAW: &str = "#8f8a82";
const LOSS: &str = "#cc3333";
const ACCENT: &str = "#3692e7";
const BAND: &str = "#9cc8f2";

/// One point of a curve: games so far, and the value with its 95 % band.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Games counted.
    pub games: u64,
    /// The value.
    pub value: f64,
    /// The band's low end.
    pub low: f64,
    /// The band's high end.
    pub high: f64,
}

/// What the report shows of one run.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The results file, as given.
    pub path: String,
    /// The players' names.
    pub names: Vec<String>,
    /// The summary, as the run's own.
    pub summary: Summary,
    /// Player 0's Elo after each finished pair (from the pentanomial counts), with its band.
    pub elo: Vec<Point>,
    /// The LLR after each finished pair, if there is a test.
    pub llr: Vec<Point>,
    /// The test's bounds (lower, upper).
    pub bounds: Option<(f64, f64)>,
    /// Per opening: its text, and player 0's (a match) or White's (a tournament) W/D/L.
    pub openings: Vec<(String, Wdl)>,
    /// How the games ended: group, games.
    pub terminations: Vec<(&'static str, u64)>,
}

/// Reads the run of the results file `path` (and `sprt`, a test to draw).
///
/// # Errors
/// The file cannot be read or holds no run.
pub fn read(path: &Path, sprt: Option<&Sprt>) -> anyhow::Result<RunReport> {
    let run = results::read_run(path)?;
    let Some(settings) = run.settings else {
        bail!(
            "{}: no run settings line: not the results of a tavola run",
            path.display()
        );
    };
    let mut games: Vec<GameLine> = run.games.into_iter().map(|r| r.game).collect();
    games.sort_by_key(|g| g.index);
    games.dedup_by_key(|g| g.index);
    if games.is_empty() {
        bail!("{}: no finished game yet", path.display());
    }
    let players = settings.players.len();
    let mut names = vec![String::new(); players];
    for game in &games {
        if let Some(name) = names.get_mut(game.white_player) {
            name.clone_from(&game.white);
        }
        if let Some(name) = names.get_mut(game.black_player()) {
            name.clone_from(&game.black);
        }
    }
    let mut tally = Tally::new(players);
    let mut pentanomial = Pentanomial::default();
    let mut firsts: BTreeMap<usize, f64> = BTreeMap::new();
    let mut elo = Vec::new();
    let mut llr = Vec::new();
    let mut openings: BTreeMap<String, Wdl> = BTreeMap::new();
    let mut terminations: BTreeMap<&'static str, u64> = BTreeMap::new();
    let is_match = players == 2;
    for (n, game) in games.iter().enumerate() {
        tally.add(game);
        *terminations
            .entry(termination_group(&game.termination))
            .or_default() += 1;
        let point_of = if is_match { 0 } else { game.white_player };
        let score = game.score_of(point_of);
        let wdl = openings.entry(game.opening.clone()).or_default();
        match score {
            s if s > 0.75 => wdl.wins += 1,
            s if s < 0.25 => wdl.losses += 1,
            _ => wdl.draws += 1,
        }
        if !is_match {
            continue;
        }
        let mine = game.score_of(0);
        if let Some(first) = firsts.remove(&game.pair) {
            pentanomial.add_pair(first, mine);
            let games_so_far = n as u64 + 1;
            if let Some(estimate) = pentanomial.elo().filter(|e| e.elo.is_finite()) {
                elo.push(Point {
                    games: games_so_far,
                    value: estimate.elo,
                    low: estimate.lower95.max(-1000.0),
                    high: estimate.upper95.min(1000.0),
                });
            }
            if let Some(test) = sprt {
                let value = test.llr_pentanomial(&pentanomial);
                llr.push(Point {
                    games: games_so_far,
                    value,
                    low: value,
                    high: value,
                });
            }
        } else {
            firsts.insert(game.pair, mine);
        }
    }
    let sprt = sprt.filter(|_| is_match);
    if let Some(test) = sprt {
        tally.check_sprt(Some(test));
    }
    let margin = settings.margin_ns.map_or(
        crate::referee::DEFAULT_MARGIN,
        std::time::Duration::from_nanos,
    );
    let time_control = match (settings.movetime_ns, settings.time_ns) {
        (Some(ms), _) => format!("{} s/move", ms as f64 / 1e9),
        (None, Some(t)) => format!("{}+{}", t as f64 / 1e9, settings.increment_ns as f64 / 1e9),
        (None, None) => "-".to_owned(),
    };
    let format = if is_match && settings.format == "round-robin" {
        "match".to_owned()
    } else {
        settings.format.clone()
    };
    let specs = settings.players.clone();
    let scheduled = super::schedule::encounters(
        players,
        if settings.format == "gauntlet" {
            super::schedule::Format::Gauntlet
        } else {
            super::schedule::Format::RoundRobin
        },
    )
    .len()
        * settings.games as usize;
    let summary = Summary::new(
        &RunFacts {
            game: &settings.game,
            format: &format,
            time_control,
            seed: settings.seed,
            scheduled,
            concurrency: 1,
            interrupted: false,
            time_margin: margin,
            names: &names,
            specs,
            sprt: sprt.copied(),
        },
        &tally,
    );
    Ok(RunReport {
        path: path.display().to_string(),
        names,
        summary,
        elo,
        llr,
        bounds: sprt.filter(|_| is_match).map(Sprt::bounds),
        openings: openings.into_iter().collect(),
        terminations: terminations.into_iter().collect(),
    })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line chart of `points` (with their band), and horizontal rules at `rules`.
fn chart(id: &str, title: &str, points: &[Point], rules: &[(f64, &str)], unit: &str) -> String {
    let (w, h, left, bottom) = (760.0, 260.0, 56.0, 28.0);
    let mut out = format!(
        "<figure id=\"{id}\"><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        escape(title)
    );
    if points.is_empty() {
        out.push_str(
            "<text x=\"60\" y=\"130\">Nothing to draw yet: no finished pair, or only a clean \
             sweep (whose Elo is unbounded).</text></svg></figure>",
        );
        return out;
    }
    let max_games = points.iter().map(|p| p.games).max().unwrap_or(1).max(1) as f64;
    let mut lo = points.iter().map(|p| p.low).fold(f64::INFINITY, f64::min);
    let mut hi = points
        .iter()
        .map(|p| p.high)
        .fold(f64::NEG_INFINITY, f64::max);
    for (rule, _) in rules {
        lo = lo.min(*rule);
        hi = hi.max(*rule);
    }
    if (hi - lo).abs() < 1e-9 {
        lo -= 1.0;
        hi += 1.0;
    }
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (lo - pad, hi + pad);
    let x = |games: u64| left + (w - left - 12.0) * games as f64 / max_games;
    let y = |v: f64| 10.0 + (h - bottom - 10.0) * (hi - v) / (hi - lo);
    // Axes.
    let _ = write!(
        out,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\
         <line x1=\"{left}\" y1=\"10\" x2=\"{left}\" y2=\"{}\" stroke=\"#888\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"12\">{} games</text>\
         <text x=\"4\" y=\"{}\" font-size=\"12\">{:.0}{unit}</text>\
         <text x=\"4\" y=\"{}\" font-size=\"12\">{:.0}{unit}</text>",
        h - bottom,
        w - 12.0,
        h - bottom,
        h - bottom,
        w - 12.0,
        h - 8.0,
        max_games,
        y(hi) + 12.0,
        hi,
        y(lo),
        lo
    );
    // The band, then the line.
    let mut band = String::new();
    for p in points {
        let _ = write!(band, "{:.1},{:.1} ", x(p.games), y(p.high));
    }
    for p in points.iter().rev() {
        let _ = write!(band, "{:.1},{:.1} ", x(p.games), y(p.low));
    }
    let _ = write!(
        out,
        "<polygon class=\"band\" points=\"{band}\" fill=\"{BAND}\" stroke=\"none\"/>"
    );
    for (rule, label) in rules {
        let _ = write!(
            out,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{2}\" stroke-dasharray=\"6 4\" stroke-width=\"2\"/>\
             <text x=\"{3}\" y=\"{4:.1}\" font-size=\"12\" fill=\"{2}\">{5}</text>",
            y(*rule),
            w - 12.0,
            if *rule < 0.0 { LOSS } else if *rule > 0.0 { WIN } else { DRAW },
            left + 4.0,
            y(*rule) - 4.0,
            escape(label)
        );
    }
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.games), y(p.value)))
        .collect();
    let _ = write!(
        out,
        "<polyline class=\"line\" points=\"{}\" fill=\"none\" stroke=\"{ACCENT}\" stroke-width=\"3\"/></svg></figure>",
        line.join(" ")
    );
    out
}

/// A horizontal bar of `parts` (count, colour, label), scaled to their total.
fn bar(parts: &[(u64, &str, &str)]) -> String {
    let total: u64 = parts.iter().map(|p| p.0).sum();
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"360\" height=\"30\" viewBox=\"0 0 360 30\">",
    );
    let mut at = 0.0;
    for &(count, colour, label) in parts {
        if count == 0 || total == 0 {
            continue;
        }
        let width = 360.0 * count as f64 / total as f64;
        let _ = write!(
            out,
            "<rect x=\"{at:.1}\" y=\"0\" width=\"{width:.1}\" height=\"30\" fill=\"{colour}\"><title>{label}: {count}</title></rect>"
        );
        if width > 34.0 {
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"20\" font-size=\"13\" fill=\"#fff\">{label} {count}</text>",
                at + 5.0
            );
        }
        at += width;
    }
    out.push_str("</svg>");
    out
}

fn number(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
}

/// The page of `runs`.
#[must_use]
pub fn html(runs: &[RunReport]) -> String {
    let mut out = String::from(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Tavola report</title>\
         <style>body{font-family:sans-serif;margin:24px;color:#222;background:#fff}\
         table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\
         th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}figure{margin:12px 0}\
         figcaption{font-weight:bold;margin-bottom:4px}section{margin-bottom:40px}code{font-size:12px}</style>\
         </head><body><h1>Tavola report</h1>",
    );
    for run in runs {
        let s = &run.summary;
        let _ = write!(
            out,
            "<section><h2>{} of {}: {}</h2><p>{} games of {} scheduled, time control {}, seed {}, \
             from <code>{}</code>.</p>",
            escape(&s.format),
            escape(&s.game),
            escape(&run.names.join(" vs ")),
            s.games,
            s.scheduled,
            escape(&s.time_control),
            s.seed,
            escape(&run.path)
        );
        out.push_str("<table id=\"players\"><tr><th>player</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score %</th><th>Elo</th><th>95 %</th><th>nElo</th><th>LOS %</th></tr>");
        for p in &s.players {
            let band = match (p.elo_lower95, p.elo_upper95) {
                (Some(lo), Some(hi)) => format!("{lo:.1} to {hi:.1}"),
                _ => "-".to_owned(),
            };
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{band}</td><td>{}</td><td>{}</td></tr>",
                escape(&p.name),
                p.games,
                p.wins,
                p.draws,
                p.losses,
                number(p.score_percent, 1),
                number(p.elo, 1),
                number(p.nelo, 1),
                number(p.los_percent, 1)
            );
        }
        out.push_str("</table>");
        if run.names.len() == 2 {
            let name = run.names.first().map_or("A", String::as_str);
            out.push_str(&chart(
                "elo",
                &format!("Elo of {name} against games played, with its 95 % band"),
                &run.elo,
                &[(0.0, "0")],
                "",
            ));
        }
        if let Some((lower, upper)) = run.bounds {
            out.push_str(&chart(
                "llr",
                "SPRT: log-likelihood ratio against its bounds",
                &run.llr,
                &[(lower, "accept H0"), (upper, "accept H1")],
                "",
            ));
            if let Some(test) = &s.sprt {
                let _ = write!(
                    out,
                    "<p>SPRT: {}, LLR {:.2}.</p>",
                    escape(&test.result),
                    test.llr
                );
            }
        }
        out.push_str("<figure id=\"wdl\"><figcaption>Wins, draws, losses; pairs (LL, LD, WL+DD, WD, WW)</figcaption><table>");
        for p in &s.players {
            let [ll, ld, wl, wd, ww] = p.pentanomial;
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&p.name),
                bar(&[
                    (p.wins, WIN, "W"),
                    (p.draws, DRAW, "D"),
                    (p.losses, LOSS, "L")
                ]),
                bar(&[
                    (ll, LOSS, "LL"),
                    (ld, "#e07b6a", "LD"),
                    (wl, DRAW, "WL+DD"),
                    (wd, "#9ccf6a", "WD"),
                    (ww, WIN, "WW")
                ])
            );
        }
        out.push_str("</table></figure>");
        out.push_str("<table id=\"terminations\"><tr><th>termination</th><th>games</th></tr>");
        for (group, count) in &run.terminations {
            let _ = write!(out, "<tr><td>{}</td><td>{count}</td></tr>", escape(group));
        }
        out.push_str("</table>");
        if let Some(crosstable) = &s.crosstable {
            out.push_str("<table id=\"crosstable\"><tr><th>crosstable</th>");
            for row in crosstable {
                let _ = write!(out, "<th>{}</th>", escape(&row.name));
            }
            out.push_str("</tr>");
            for row in crosstable {
                let _ = write!(out, "<tr><td>{}</td>", escape(&row.name));
                for cell in &row.against {
                    match cell {
                        Some((points, games)) => {
                            let _ = write!(out, "<td>{points}/{games}</td>");
                        }
                        None => out.push_str("<td>-</td>"),
                    }
                }
                out.push_str("</tr>");
            }
            out.push_str("</table>");
        }
        if let Some(ratings) = &s.ratings {
            out.push_str("<table id=\"ratings\"><tr><th>rating list (Bradley-Terry)</th><th>Elo</th><th>± 95 %</th></tr>");
            for line in ratings {
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{:+.1}</td><td>{:.1}</td></tr>",
                    escape(&line.name),
                    line.elo,
                    line.error95
                );
            }
            out.push_str("</table>");
        }
        let whose = if run.names.len() == 2 {
            run.names[0].clone()
        } else {
            "White".to_owned()
        };
        let _ = write!(
            out,
            "<table id=\"openings\"><tr><th>opening</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score of {}</th></tr>",
            escape(&whose)
        );
        for (opening, wdl) in &run.openings {
            let _ = write!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(opening),
                wdl.games(),
                wdl.wins,
                wdl.draws,
                wdl.losses,
                number(wdl.score().map(|s| s * 100.0), 0) + " %"
            );
        }
        out.push_str("</table></section>");
    }
    out.push_str("</body></html>\n");
    out
}
