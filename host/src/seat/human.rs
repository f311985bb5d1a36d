//! A person typing moves in the terminal (headless play).

use std::io::{self, BufRead, Write};

use tavola_sdk::{Game, Position};

use super::{Answer, Brain, Control, Request, SeatFailure};

/// Reads moves from standard input, one per line, until one is legal.
///
/// `moves` lists the legal moves, `resign` gives up; the end of the input also resigns.
#[derive(Debug, Default)]
pub struct TerminalHuman;

impl<G: Game> Brain<G> for TerminalHuman {
    fn choose(&mut self, request: &Request<G>, _control: &Control) -> Answer {
        let position = &request.position;
        let stdin = io::stdin();
        let mut line = String::new();
        loop {
            print!(
                "{} to move (type a move, `moves` or `resign`): ",
                position.side_to_move()
            );
            let _ = io::stdout().flush();
            line.clear();
            match stdin.lock().read_line(&mut line) {
                Ok(0) => {
                    return Err(SeatFailure::Resigned(
                        "stopped playing: the input ended".to_owned(),
                    ))
                }
                Ok(_) => {}
                Err(e) => {
                    return Err(SeatFailure::Resigned(format!(
                        "stopped playing: the input cannot be read ({e})"
                    )))
                }
            }
            let text = line.trim();
            match text {
                "" => continue,
                "resign" | "quit" => return Err(SeatFailure::Resigned("resigned".to_owned())),
                "moves" | "help" | "?" => {
                    let moves: Vec<String> = position
                        .legal_moves()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    println!("legal moves: {}", moves.join(" "));
                }
                _ => match position.parse_move(text) {
                    Ok(mv) => return Ok(mv.to_string()),
                    Err(e) => println!("{e}"),
                },
            }
        }
    }
}
