//! How a run shows its progress on stderr: a live bar on a terminal (games done of the total, the
//! running score and Elo, the time left), one plain line per finished game otherwise (a log, a
//! pipe, the tests), or nothing.

use std::io::{IsTerminal as _, Write as _};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Where progress goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, else plain lines.
    #[default]
    Auto,
    /// Plain lines.
    Lines,
    /// Nothing (benchmarks).
    Quiet,
}

/// The progress display of one run.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    /// Starts showing progress of `total` games, `done` of them already finished.
    #[must_use]
    pub fn start(mode: ProgressMode, total: u64, done: u64) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == ProgressMode::Auto && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_position(done);
            bar.reset_eta();
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            quiet: mode == ProgressMode::Quiet,
        }
    }

    /// A game finished: `line` describes it, `score` is the running score.
    pub fn game(&self, line: &str, score: &str) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(score.to_owned());
            }
            None if !self.quiet => say(&format!("{line}; {score}")),
            None => {}
        }
    }

    /// Whether [`Progress::game`] shows anything (its text need not be made otherwise).
    #[must_use]
    pub fn shows_games(&self) -> bool {
        self.bar.is_some() || !self.quiet
    }

    /// A message of its own line (above the bar, if there is one).
    pub fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None if !self.quiet => say(text),
            None => {}
        }
    }

    /// Removes the bar (the summary follows).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Writes `text` and a newline to stderr, ignoring a failure: progress and warnings are for
/// whoever watches; a closed stderr must not stop (or panic) a run whose results go to files.
pub fn say(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}
