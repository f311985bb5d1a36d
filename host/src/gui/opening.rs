//! A game screen opened on a thread of its own: its players are seated there (a plugin loads, a
//! worker process starts and answers its handshake, a bot builds its tables) while the window
//! goes on drawing the screen that asked for it.

use std::sync::mpsc;

use anyhow::anyhow;

use super::board::BoardView;
use super::game::GameScreen;
use super::screen::Screen;
use super::session::Session;
use crate::builtin::Evaluate;
use crate::text_ui::GameSetup;

/// What an opening gives once ready: the game screen, or why the game cannot start.
pub type Opened = anyhow::Result<Box<dyn Screen>>;

/// A game screen being opened.
pub struct Opening {
    poll: Box<dyn FnMut() -> Option<Opened>>,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opening").finish_non_exhaustive()
    }
}

impl Opening {
    /// Seats the players of `setup` on a thread of its own; [`Opening::poll`] then gives the
    /// game screen of board view `V`, made by `finish` (on the window's thread, where screens
    /// live).
    pub fn start<V: BoardView>(
        setup: GameSetup,
        finish: impl FnOnce(GameScreen<V>) -> GameScreen<V> + 'static,
    ) -> Opening
    where
        V::Game: Evaluate,
    {
        let (sender, receiver) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("opening a game".to_owned())
            .spawn(move || {
                // A game no longer awaited (the person went back) is dropped here.
                let _ = sender.send(Session::<V::Game>::new(&setup));
            });
        if let Err(e) = spawned {
            let mut failed = Some(anyhow!("cannot start a thread to open the game: {e}"));
            return Opening {
                poll: Box::new(move || failed.take().map(Err)),
            };
        }
        let mut finish = Some(finish);
        Opening {
            poll: Box::new(move || {
                let session = match receiver.try_recv() {
                    Ok(session) => session,
                    Err(mpsc::TryRecvError::Empty) => return None,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        Err(anyhow!("the game could not start: its thread died"))
                    }
                };
                let finish = finish.take()?;
                Some(session.map(|session| {
                    Box::new(finish(GameScreen::<V>::with_session(session))) as Box<dyn Screen>
                }))
            }),
        }
    }

    /// The game screen or the error, once the players are seated (never blocks; `None` until
    /// then, and after it was given once).
    pub fn poll(&mut self) -> Option<Opened> {
        (self.poll)()
    }

    /// Waits for the game screen (tests).
    ///
    /// # Errors
    /// Why the game cannot start.
    pub fn wait(mut self) -> Opened {
        loop {
            if let Some(opened) = self.poll() {
                return opened;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
