//! The bot side of the log bridge: a `log::Log` that forwards records to the host's [`LogSink`].
//!
//! Each dynamic library has its own copy of the `log` crate's statics, so without this bridge the
//! `log` macros inside a bot would go nowhere.

use std::sync::{Once, RwLock};

use abi_stable::std_types::RStr;

use super::LogSink;

static SINK: RwLock<Option<LogSink>> = RwLock::new(None);
static INSTALL: Once = Once::new();

struct Bridge;

impl log::Log for Bridge {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let Ok(sink) = SINK.read() else { return };
        if let Some(sink) = *sink {
            let message = record.args().to_string();
            (sink.log)(
                level_to_u8(record.level()),
                RStr::from_str(record.target()),
                RStr::from_str(&message),
            );
        }
    }

    fn flush(&self) {}
}

/// Installs `sink` as the destination of this library's `log` records (the host calls it through
/// [`super::BotModule::set_logger`]). Calling it again replaces the sink.
pub extern "C" fn set_logger(sink: LogSink) {
    // A poisoned lock only means a panic elsewhere while logging; the sink itself is plain data.
    let mut slot = SINK.write().unwrap_or_else(|poison| poison.into_inner());
    *slot = Some(sink);
    drop(slot);
    INSTALL.call_once(|| {
        // Fails only if the bot installed a logger of its own; then that one stays.
        let _ = log::set_logger(&Bridge);
        // The library has its own copy of std, whose default panic hook would print to the host's
        // stderr. The SDK catches every panic and hands its message to the host, which records
        // it; the hook only adds the location, in the host's log.
        std::panic::set_hook(Box::new(|info| log::debug!(target: "panic", "{info}")));
    });
    log::set_max_level(level_from_u8(sink.max_level));
}

/// The wire encoding of a level: 1 error .. 5 trace.
#[must_use]
pub fn level_to_u8(level: log::Level) -> u8 {
    level as u8
}

/// Decodes a wire level filter: 0 off, 1 error .. 5 trace (anything above is trace).
#[must_use]
pub fn level_from_u8(level: u8) -> log::LevelFilter {
    match level {
        0 => log::LevelFilter::Off,
        1 => log::LevelFilter::Error,
        2 => log::LevelFilter::Warn,
        3 => log::LevelFilter::Info,
        4 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip() {
        for level in [
            log::Level::Error,
            log::Level::Warn,
            log::Level::Info,
            log::Level::Debug,
            log::Level::Trace,
        ] {
            assert_eq!(
                level_from_u8(level_to_u8(level)),
                level.to_level_filter(),
                "{level}"
            );
        }
        assert_eq!(level_from_u8(0), log::LevelFilter::Off);
    }
}
