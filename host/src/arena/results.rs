//! The arena's files, written so that a run killed at any moment (Ctrl-C twice, `kill -9`, a power
//! loss) loses no finished game and leaves nothing that a resumed run would misread:
//!
//! - the results file: one JSON line per finished game, appended and flushed as the game ends. It is
//!   the run's ledger: a game is finished once its line is complete. A last line cut short is
//!   dropped (with a warning) when the run is resumed, and its game played again.
//! - the records (PGN-style): each game's record is appended *before* its results line, in one
//!   write, with its number in the `Round` tag. On resume the file is brought back in line with the
//!   ledger: records cut short, or of games whose results line never made it, are removed.
//! - the summary: written to a temporary file beside it, then renamed over it, so that it is
//!   always either the old summary or the new one, whole.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use super::resume::{Header, RunSettings};
use crate::record::GameRecord;

/// One finished game, as a line of the results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's index in the schedule.
    pub index: usize,
    /// The pair it belongs to.
    pub pair: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The index of the player with White (in a match, 0 for A and 1 for B).
    pub white_player: usize,
    /// The index of the player with Black (absent in the files of older matches: the other one of
    /// players 0 and 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_player: Option<usize>,
    /// The start position's text.
    pub opening: String,
    /// The moves, separated by spaces.
    pub moves: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination, as the record's tag says it.
    pub termination: String,
    /// The reason in words.
    pub reason: String,
    /// Plies played from the opening: the number of moves in `moves` (the opening's own plies are
    /// not counted).
    pub plies: usize,
    /// Wall time of the game, in seconds.
    pub duration: f64,
    /// The run's seed (so that a resumed run plays the same openings).
    pub match_seed: u64,
    /// The game's own seed.
    pub seed: u64,
}

impl GameLine {
    /// The index of the player with Black.
    #[must_use]
    pub fn black_player(&self) -> usize {
        self.black_player
            .unwrap_or_else(|| usize::from(self.white_player == 0))
    }

    /// White's score: 1, ½ or 0.
    #[must_use]
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    /// The score of player `player` in this game (0 if they did not play it).
    #[must_use]
    pub fn score_of(&self, player: usize) -> f64 {
        if player == self.white_player {
            self.white_score()
        } else if player == self.black_player() {
            1.0 - self.white_score()
        } else {
            0.0
        }
    }

    /// The player who lost, if any.
    #[must_use]
    pub fn loser(&self) -> Option<usize> {
        match self.result.as_str() {
            "1-0" => Some(self.black_player()),
            "0-1" => Some(self.white_player),
            _ => None,
        }
    }
}

/// A game's line as read from a results file, with its place there.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadGame {
    /// The line's number in the file, from 1.
    pub line: usize,
    /// The game.
    pub game: GameLine,
}

/// The run's settings from the header line of a results file, without reading its games:
/// `None` for a file of an older version, which has none.
///
/// # Errors
/// The file does not exist or cannot be read.
pub fn read_settings(path: &Path) -> anyhow::Result<Option<RunSettings>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut first = String::new();
    BufReader::new(file)
        .read_line(&mut first)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(serde_json::from_str::<Header>(&first)
        .ok()
        .map(|h| h.tavola_run))
}

/// A results file as read: its settings and games, not yet checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunFile {
    /// The run's settings from the header line (`None` in the files of older versions, which have
    /// none).
    pub settings: Option<RunSettings>,
    /// The finished games, each with its line number.
    pub games: Vec<ReadGame>,
    /// The lines skipped (a last line cut short by a kill or a power loss, whose game is played
    /// again), as warnings for stderr: shown once the run is known to go on.
    pub warnings: Vec<String>,
}

/// Reads a results file: the run's settings from its header line and the finished games, each
/// with its line number. A line that cannot be read (cut short by a kill or a power loss) is
/// skipped with a warning. A missing file holds no game.
///
/// The games are only read, not checked: [`super::verify::check_games`] replays them through the
/// rules of the run before they may count.
///
/// # Errors
/// The file exists but cannot be read.
pub fn read_run(path: &Path) -> anyhow::Result<RunFile> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(RunFile::default()),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut text = Vec::new();
    BufReader::new(file)
        .read_to_end(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    parse_run(&text, &path.display().to_string())
}

/// Reads the text of a results file as [`read_run`] does, naming it `name` in warnings and errors.
///
/// # Errors
/// A line that is not UTF-8.
pub fn parse_run(text: &[u8], name: &str) -> anyhow::Result<RunFile> {
    let mut run = RunFile::default();
    let torn_tail = text.last().is_some_and(|&last| last != b'\n');
    let count = text.split(|&b| b == b'\n').count();
    for (number, line) in text.lines().enumerate() {
        let line = line.with_context(|| format!("reading {name}"))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameLine>(&line) {
            Ok(game) => run.games.push(ReadGame {
                line: number + 1,
                game,
            }),
            Err(_)
                if run.settings.is_none() && run.games.is_empty() && is_header(line.as_bytes()) =>
            {
                run.settings = serde_json::from_str::<Header>(&line)
                    .ok()
                    .map(|h| h.tavola_run);
            }
            Err(_) if torn_tail && number + 1 == count => run.warnings.push(format!(
                "warning: {name}:{}: the last line was cut short (the run was killed?); dropped, \
                 its game will be played again",
                number + 1
            )),
            Err(e) => run.warnings.push(format!(
                "warning: {name}:{}: not a game's results line, skipped ({e})",
                number + 1
            )),
        }
    }
    Ok(run)
}

fn is_header(line: &[u8]) -> bool {
    serde_json::from_slice::<Header>(line).is_ok()
}

/// Opens `path` for appending; a last line cut short (by a kill or a power loss) is removed first,
/// so its game is played again and the file stays one JSON object a line. A last line that is
/// whole but for its newline gets the newline.
///
/// # Errors
/// The file cannot be opened, read or cut.
pub fn open_append(path: &Path) -> anyhow::Result<File> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let mut text = Vec::new();
    file.read_to_end(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    if text.last().is_some_and(|&last| last != b'\n') {
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        // A whole line whose newline was lost is a finished game ([`read_run`] reads it):
        // ended, not cut.
        let tail = &text[keep..];
        if serde_json::from_slice::<GameLine>(tail).is_ok() || is_header(tail) {
            file.write_all(b"\n")
                .with_context(|| format!("ending the last line of {}", path.display()))?;
        } else {
            file.set_len(keep as u64).with_context(|| {
                format!("cutting the unfinished last line of {}", path.display())
            })?;
        }
    }
    Ok(file)
}

/// Writes the run's settings as the first line of the (empty) results file `file`.
///
/// # Errors
/// The write fails.
pub fn write_header(file: &mut File, settings: &RunSettings) -> anyhow::Result<()> {
    let header = Header {
        tavola_run: settings.clone(),
    };
    let mut json = serde_json::to_string(&header)?;
    json.push('\n');
    file.write_all(json.as_bytes())
        .and_then(|()| file.flush())
        .context("writing the results file")
}

/// Appends one game's line to the results file and flushes it.
///
/// # Errors
/// The write fails.
pub fn append_line(file: &mut File, line: &GameLine) -> anyhow::Result<()> {
    let mut json = serde_json::to_string(line)?;
    json.push('\n');
    file.write_all(json.as_bytes())
        .and_then(|()| file.flush())
        .context("writing the results file")
}

/// The game number written in a record's `Round` tag: the schedule's index, from 1.
#[must_use]
pub fn round_tag(index: usize) -> String {
    (index + 1).to_string()
}

/// Appends `record` to the records file at `path` in a single write (a blank line before it when
/// the file is not empty).
///
/// # Errors
/// The file cannot be opened or written.
pub fn append_record(path: &Path, record: &GameRecord) -> anyhow::Result<()> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let empty = file.metadata().map_or(true, |m| m.len() == 0);
    let text = format!("{}{record}", if empty { "" } else { "\n" });
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("writing the game to {}", path.display()))
}

/// Checks that records can be appended to `path` (creating it, empty, if need be), so that a bad
/// path fails the run before its first game rather than after it.
///
/// # Errors
/// The file cannot be opened for appending; the message names it.
pub fn check_appendable(path: &Path) -> anyhow::Result<()> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .with_context(|| format!("cannot write to {}", path.display()))
}

/// Checks that [`write_atomically`] can write `path`: that a temporary file can be made beside it
/// (and removed again), and that `path` is not a folder.
///
/// # Errors
/// Either cannot; the message names `path`.
pub fn check_replaceable(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("cannot write to {}: it is a folder", path.display());
    }
    let temporary = temporary_beside(path);
    File::create(&temporary)
        .map(drop)
        .with_context(|| format!("cannot write to {}", path.display()))?;
    let _ = std::fs::remove_file(&temporary);
    Ok(())
}

/// Brings the records file at `path` in line with the finished games `done` (indices in the
/// schedule): keeps each complete record of a finished game once, in file order, and drops records
/// cut short and records of games not in `done`. Returns how many records were dropped; the file is
/// rewritten (atomically) only when there are any.
///
/// # Errors
/// The file cannot be read or rewritten.
pub fn resync_records(path: &Path, done: &BTreeSet<usize>) -> anyhow::Result<usize> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let mut kept = Vec::new();
    let mut seen = BTreeSet::new();
    let mut dropped = 0;
    for chunk in record_chunks(&text) {
        let index = complete_record_index(chunk);
        match index {
            Some(index) if done.contains(&index) && seen.insert(index) => kept.push(chunk.trim()),
            _ => dropped += 1,
        }
    }
    if dropped > 0 {
        let mut rewritten = kept.join("\n\n");
        if !rewritten.is_empty() {
            rewritten.push('\n');
        }
        write_atomically(path, rewritten.as_bytes())?;
    }
    Ok(dropped)
}

/// The file's records as text, each starting at a line `[Game ...` (the first tag the referee
/// writes); text before the first is a chunk of its own (and never a complete record).
fn record_chunks(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Game ") {
            starts.push(offset);
        }
        offset += line.len();
    }
    let mut chunks = Vec::new();
    let first = starts.first().copied().unwrap_or(text.len());
    if !text[..first].trim().is_empty() {
        chunks.push(&text[..first]);
    }
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        chunks.push(&text[start..end]);
    }
    chunks
}

/// The schedule index of a whole record (ending in a newline, its movetext ending with its result,
/// its `Round` tag a game number), or `None`.
fn complete_record_index(chunk: &str) -> Option<usize> {
    if !chunk.ends_with('\n') {
        return None;
    }
    let mut records = GameRecord::parse_all(chunk).ok()?;
    let record = records.pop().filter(|_| records.is_empty())?;
    let result = record.tag("Result")?;
    let last_token = chunk.split_whitespace().last()?;
    if last_token != result || result == "*" {
        return None;
    }
    let round: usize = record.tag("Round")?.parse().ok()?;
    round.checked_sub(1)
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`: a kill
/// leaves either the old file or the new one, never half of one.
///
/// # Errors
/// The temporary file cannot be written or renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let temporary = temporary_beside(path);
    let written = File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.with_context(|| format!("writing {}", path.display()))
}

fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(index: usize, white: usize, black: Option<usize>, result: &str) -> GameLine {
        GameLine {
            index,
            pair: index / 2,
            white: String::new(),
            black: String::new(),
            white_player: white,
            black_player: black,
            opening: String::new(),
            moves: String::new(),
            result: result.to_owned(),
            termination: "normal".to_owned(),
            reason: String::new(),
            plies: 0,
            duration: 0.0,
            match_seed: 0,
            seed: 0,
        }
    }

    fn read_results(path: &Path) -> anyhow::Result<Vec<GameLine>> {
        let run = read_run(path)?;
        Ok(run.games.into_iter().map(|read| read.game).collect())
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tavola-results-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_line_round_trips_and_old_lines_default_black() {
        let game = line(5, 2, Some(0), "0-1");
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(serde_json::from_str::<GameLine>(&json).unwrap(), game);
        assert_eq!(
            (game.loser(), game.score_of(0), game.score_of(2)),
            (Some(2), 1.0, 0.0)
        );
        let old = line(1, 1, None, "1/2-1/2");
        let json = serde_json::to_string(&old).unwrap();
        assert!(!json.contains("black_player"), "{json}");
        assert_eq!(old.black_player(), 0);
        assert_eq!(old.score_of(0), 0.5);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut() {
        let dir = scratch("torn");
        let path = dir.join("results.jsonl");
        let whole = serde_json::to_string(&line(0, 0, Some(1), "1-0")).unwrap();
        std::fs::write(&path, format!("{whole}\n{{\"index\":1,\"pa")).unwrap();
        let read = read_run(&path).unwrap();
        assert_eq!(read.games.len(), 1);
        assert_eq!(read.warnings.len(), 1);
        assert!(
            read.warnings[0].contains("results.jsonl:2: the last line was cut short"),
            "{:?}",
            read.warnings
        );
        let mut file = open_append(&path).unwrap();
        append_line(&mut file, &line(1, 1, Some(0), "0-1")).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert_eq!(read_results(&path).unwrap().len(), 2);
        assert!(read_results(&dir.join("missing")).unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_whole_last_line_without_its_newline_is_kept() {
        let dir = scratch("unterminated");
        let path = dir.join("results.jsonl");
        let first = serde_json::to_string(&line(0, 0, Some(1), "1-0")).unwrap();
        let second = serde_json::to_string(&line(1, 1, Some(0), "0-1")).unwrap();
        std::fs::write(&path, format!("{first}\n{second}")).unwrap();
        assert_eq!(read_results(&path).unwrap().len(), 2);
        let mut file = open_append(&path).unwrap();
        append_line(&mut file, &line(2, 0, Some(1), "1/2-1/2")).unwrap();
        let games = read_results(&path).unwrap();
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn record(index: usize) -> GameRecord {
        let mut record = GameRecord::default();
        record.set_tag("Game", "ataxx");
        record.set_tag("Round", round_tag(index));
        record.set_tag("Result", "1-0");
        record.moves = vec![crate::record::RecordedMove {
            text: "g1f2".to_owned(),
            clock: None,
        }];
        record.result = "1-0".to_owned();
        record
    }

    #[test]
    fn records_are_brought_in_line_with_the_results() {
        let dir = scratch("resync");
        let path = dir.join("games.pgn");
        for index in [0, 1, 2, 1] {
            append_record(&path, &record(index)).unwrap();
        }
        // A record cut short by a kill.
        let mut text = std::fs::read_to_string(&path).unwrap();
        let torn = record(3).to_string();
        text.push('\n');
        text.push_str(&torn[..torn.len() - 5]);
        std::fs::write(&path, text).unwrap();
        // Game 2's results line never made it; game 1 is there twice.
        let done = BTreeSet::from([0, 1]);
        assert_eq!(resync_records(&path, &done).unwrap(), 3);
        let records = GameRecord::parse_all(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let rounds: Vec<_> = records.iter().map(|r| r.tag("Round").unwrap()).collect();
        assert_eq!(rounds, ["1", "2"]);
        // In line already: untouched.
        assert_eq!(resync_records(&path, &done).unwrap(), 0);
        append_record(&path, &record(2)).unwrap();
        assert_eq!(
            GameRecord::parse_all(&std::fs::read_to_string(&path).unwrap())
                .unwrap()
                .len(),
            3
        );
        assert_eq!(resync_records(&dir.join("missing"), &done).unwrap(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unwritable_paths_are_found_before_any_game() {
        let dir = scratch("check");
        let missing = dir.join("no such folder").join("x.pgn");
        let error = check_appendable(&missing).unwrap_err();
        assert!(format!("{error:#}").contains("no such folder"), "{error:#}");
        assert!(check_replaceable(&missing).is_err());
        assert!(check_replaceable(&dir).is_err());
        check_appendable(&dir.join("games.pgn")).unwrap();
        check_replaceable(&dir.join("summary.json")).unwrap();
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["games.pgn"], "no temporary and no summary left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_atomic_write_replaces_the_file_whole() {
        let dir = scratch("atomic");
        let path = dir.join("summary.json");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
