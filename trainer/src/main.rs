//! `tavola-trainer`: trains the built-in bot's learned evaluations
//! (`tavola::builtin::eval::net`: Ataxx, Dama, Gonnect and Tablut) from the
//! training positions `tavola match --positions FILE` writes, and writes the network's file.
//!
//! ```sh
//! cargo run --release -p tavola-trainer -- data.txt -o host/src/builtin/eval/ataxx.nnue
//! cargo run --release -p tavola-trainer -- --game dama data.txt -o host/src/builtin/eval/dama.nnue
//! cargo run --release -p tavola-trainer -- --game gonnect data.txt -o host/src/builtin/eval/gonnect.nnue
//! cargo run --release -p tavola-trainer -- --game tablut data.txt -o host/src/builtin/eval/tablut.nnue
//! ```
//!
//! Each position's target blends the game's result with its search score: `lambda * result +
//! (1 - lambda) * sigmoid(score / scale)`; the network's output is a logit, trained by the squared
//! error of its sigmoid against the target (Adam, mini-batches, a seeded shuffle: the same data and
//! seed give the same network). Where the network corrects a hand-written evaluation
//! ([`Learned::base`]: Gonnect, Tablut), that evaluation over `scale` is added to the logit, so
//! that the sum is what is fitted. A twentieth of the positions is held out and its loss reported
//! each epoch. Where the game's board has symmetries that keep a position's value (the square
//! boards of Ataxx, Gonnect and Tablut: eight), each position is learned in each of its images.
//! Training starts from random weights, or from an earlier network's (`--init`). The network is
//! then quantised ([`Network`]) as the host reads it.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::Parser;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tavola::arena::positions::parse_line;
use tavola::builtin::eval::net::{
    hidden_size_valid, Activation, Learned, Network, DEFAULT_SCALE, MAX_HIDDEN, QA, QB,
};
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;

/// The games with a learned evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GameName {
    Ataxx,
    Dama,
    Gonnect,
    Tablut,
}

/// Trains a learned evaluation of the built-in bot from training positions.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The game of the positions and the network.
    #[arg(short, long, value_enum, default_value_t = GameName::Ataxx)]
    game: GameName,
    /// Files of training positions (`POSITION | SCORE | RESULT` lines, as `tavola match
    /// --positions` writes them).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the network (its weights after the last epoch).
    #[arg(short, long)]
    output: PathBuf,
    /// Where to write, as well, the network of the epoch with the lowest held-out loss (the
    /// last epochs may fit the training positions better and the held-out ones worse). The
    /// starting network counts as epoch 0: with `--init`, where training made the network
    /// worse on the held-out positions, the file's own is written back.
    #[arg(long, value_name = "PATH")]
    best: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// The result's share of the target (the rest is the search score's).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Hundredths of a piece per unit of the output logit (a score of `scale` is a 73 % win).
    #[arg(long, default_value_t = DEFAULT_SCALE)]
    scale: i32,
    /// The learning rate (it drops to 30 % at 60 % of the epochs, and again at 85 %).
    #[arg(long, default_value_t = 0.002)]
    lr: f32,
    /// The hidden layer's activation [default: clipped].
    #[arg(long, value_enum)]
    activation: Option<Activation>,
    /// The number of hidden values (a multiple of 16, at most 256): more fit more, and cost the
    /// search time at every node [default: 64].
    #[arg(long)]
    hidden: Option<usize>,
    /// Start from this network's weights instead of random ones (a next generation from the
    /// shipped network: it needs fewer new positions and epochs, usually at a lower `--lr`). Its
    /// width and activation are kept; `--hidden` and `--activation`, if given, must be the same.
    #[arg(long, value_name = "PATH")]
    init: Option<PathBuf>,
    /// Positions per step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// The seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The positions, as feature lists and targets.
#[derive(Debug, Default)]
struct Data {
    features: Vec<u16>,
    /// Where each position's features start in `features` (one more entry at the end).
    starts: Vec<u32>,
    targets: Vec<f32>,
    /// The hand-written evaluation each position's network corrects, as a logit.
    bases: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn features(&self, index: usize) -> &[u16] {
        &self.features[self.starts[index] as usize..self.starts[index + 1] as usize]
    }

    fn push(&mut self, features: &[u16], target: f32, base: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.features.extend_from_slice(features);
        self.starts.push(self.features.len() as u32);
        self.targets.push(target);
        self.bases.push(base);
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads every file's positions into training and held-out data (one in twenty held out, by a
/// hash of the position, so that the split does not depend on the files' order).
fn read<G: Learned>(args: &Args) -> anyhow::Result<(Data, Data)> {
    let (mut train, mut held) = (Data::default(), Data::default());
    let mut found = Vec::with_capacity(G::INPUTS);
    let mut image = Vec::with_capacity(G::INPUTS);
    let mut skipped = 0u64;
    let mut not_quiet = 0u64;
    // A line met again (a game played twice the same way) is not a new sample.
    let mut seen = std::collections::HashSet::new();
    let mut repeated = 0u64;
    for path in &args.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        for (number, line) in BufReader::new(file).lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            let key = line.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
            });
            if !seen.insert(key) {
                repeated += 1;
                continue;
            }
            let parsed = parse_line(&line).and_then(|(text, score, result)| {
                G::parse_position(text, None)
                    .map(|position| (position, score, result))
                    .map_err(|e| e.to_string())
            });
            let (position, score, result) = match parsed {
                Ok(parsed) => parsed,
                Err(e) => {
                    if skipped < 5 {
                        eprintln!("{}:{}: skipped: {e}", path.display(), number + 1);
                    }
                    skipped += 1;
                    continue;
                }
            };
            if !G::trainable(&position) {
                not_quiet += 1;
                continue;
            }
            found.clear();
            G::features(&position, |f| found.push(f as u16));
            let target = args.lambda * result
                + (1.0 - args.lambda) * sigmoid(score as f32 / args.scale as f32);
            let hash = found.iter().fold(0u64, |h, &f| {
                (h ^ u64::from(f)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            });
            let into = if hash % 20 == 0 {
                &mut held
            } else {
                &mut train
            };
            let base = G::base(&position) as f32 / args.scale as f32;
            into.push(&found, target, base);
            // The position's images under the board's symmetries, on the same side of the split.
            for symmetry in 1..G::SYMMETRIES {
                image.clear();
                image.extend(
                    found
                        .iter()
                        .map(|&f| G::image(usize::from(f), symmetry) as u16),
                );
                into.push(&image, target, base);
            }
        }
    }
    if skipped > 0 {
        eprintln!("{skipped} lines skipped");
    }
    if repeated > 0 {
        eprintln!("{repeated} repeated lines left out");
    }
    if not_quiet > 0 {
        eprintln!("{not_quiet} positions that are not quiet left out");
    }
    if train.len() == 0 {
        bail!("no training positions in {:?}", args.data);
    }
    Ok((train, held))
}

/// The network in floating point, with Adam's moments for each weight.
struct Float {
    /// Hidden weights, input-major, then hidden biases (from [`Float::b1`]), output weights
    /// (from [`Float::w2`]), output bias (at [`Float::b2`]).
    weights: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
    inputs: usize,
    hidden: usize,
    activation: Activation,
}

impl Float {
    /// A network whose weights are all zero.
    fn zero(inputs: usize, hidden: usize, activation: Activation) -> Float {
        let count = inputs * hidden + 2 * hidden + 1;
        Float {
            weights: vec![0.0; count],
            m: vec![0.0; count],
            v: vec![0.0; count],
            step: 0,
            inputs,
            hidden,
            activation,
        }
    }

    fn new(inputs: usize, hidden: usize, activation: Activation, rng: &mut StdRng) -> Float {
        let mut net = Float::zero(inputs, hidden, activation);
        let (b1, w2, b2) = (net.b1(), net.w2(), net.b2());
        for w in &mut net.weights[..b1] {
            *w = rng.gen_range(-0.05..0.05);
        }
        for w in &mut net.weights[w2..b2] {
            *w = rng.gen_range(-0.2..0.2);
        }
        net
    }

    /// Where the hidden biases start in `weights`.
    const fn b1(&self) -> usize {
        self.inputs * self.hidden
    }

    /// Where the output weights start.
    const fn w2(&self) -> usize {
        self.b1() + self.hidden
    }

    /// Where the output bias is.
    const fn b2(&self) -> usize {
        self.w2() + self.hidden
    }

    /// The hidden sums of `features`, into `acc`.
    fn sums(&self, features: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.weights[self.b1()..self.w2()]);
        for &f in features {
            let row = &self.weights[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// A hidden sum's value after the activation.
    #[inline]
    fn activate(&self, sum: f32) -> f32 {
        let clipped = sum.clamp(0.0, 1.0);
        match self.activation {
            Activation::Clipped => clipped,
            Activation::Squared => clipped * clipped,
        }
    }

    /// The activation's slope at `sum` (zero where it clips).
    #[inline]
    fn slope(&self, sum: f32) -> f32 {
        if sum <= 0.0 || sum >= 1.0 {
            return 0.0;
        }
        match self.activation {
            Activation::Clipped => 1.0,
            Activation::Squared => 2.0 * sum,
        }
    }

    /// The output logit from the hidden sums.
    fn output(&self, acc: &[f32]) -> f32 {
        let w2 = &self.weights[self.w2()..self.b2()];
        self.weights[self.b2()]
            + acc
                .iter()
                .zip(w2)
                .map(|(a, w)| self.activate(*a) * w)
                .sum::<f32>()
    }

    /// The mean squared error over `data`.
    fn loss(&self, data: &Data) -> f32 {
        let mut acc = vec![0.0; self.hidden];
        let mut total = 0.0f64;
        for i in 0..data.len() {
            self.sums(data.features(i), &mut acc);
            let error = sigmoid(self.output(&acc) + data.bases[i]) - data.targets[i];
            total += f64::from(error * error);
        }
        (total / data.len().max(1) as f64) as f32
    }

    /// One step of Adam on the positions `batch` of `data`; returns their summed squared error.
    fn step(&mut self, data: &Data, batch: &[usize], lr: f32, gradient: &mut [f32]) -> f32 {
        gradient.fill(0.0);
        let mut acc = vec![0.0; self.hidden];
        let mut total = 0.0;
        for &i in batch {
            let features = data.features(i);
            self.sums(features, &mut acc);
            let p = sigmoid(self.output(&acc) + data.bases[i]);
            let error = p - data.targets[i];
            total += error * error;
            let g = 2.0 * error * p * (1.0 - p);
            gradient[self.b2()] += g;
            for j in 0..self.hidden {
                let a = acc[j];
                gradient[self.w2() + j] += g * self.activate(a);
                let slope = self.slope(a);
                if slope != 0.0 {
                    let d = g * slope * self.weights[self.w2() + j];
                    gradient[self.b1() + j] += d;
                    for &f in features {
                        gradient[usize::from(f) * self.hidden + j] += d;
                    }
                }
            }
        }
        self.step += 1;
        let scale = 1.0 / batch.len() as f32;
        let (b1, b2) = (0.9f32, 0.999f32);
        let correction1 = 1.0 - b1.powi(self.step);
        let correction2 = 1.0 - b2.powi(self.step);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((w, g), (m, v)) in self.weights.iter_mut().zip(gradient.iter()).zip(moments) {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
        }
        total
    }

    /// The floating-point network that `network` is the quantisation of, its output a logit in
    /// units of `scale` (the network's own scale may differ: its output weights are rescaled).
    fn from_network(network: &Network, scale: i32) -> Float {
        let hidden = network.hidden();
        let mut net = Float::zero(network.w1.len() / hidden, hidden, network.activation);
        let (qa, qb) = (network.qa as f32, network.qb as f32);
        let rescale = network.scale as f32 / scale as f32;
        let (b1, w2, b2) = (net.b1(), net.w2(), net.b2());
        let weights = &mut net.weights;
        for (w, &q) in weights[..b1].iter_mut().zip(network.w1.iter()) {
            *w = f32::from(q) / qa;
        }
        for (w, &q) in weights[b1..w2].iter_mut().zip(&network.b1) {
            *w = f32::from(q) / qa;
        }
        for (w, &q) in weights[w2..b2].iter_mut().zip(&network.w2) {
            *w = f32::from(q) / qb * rescale;
        }
        weights[b2] = network.b2 as f32 / (qa * qb) * rescale;
        net
    }

    /// The network quantised as the host reads it.
    fn quantise(&self, scale: i32) -> Network {
        let q = |w: f32, by: i32| (w * by as f32).round().clamp(-32_767.0, 32_767.0) as i16;
        let quantised = |from: usize, to: usize, by: i32| {
            self.weights[from..to]
                .iter()
                .map(|w| q(*w, by))
                .collect::<Vec<i16>>()
        };
        Network {
            w1: quantised(0, self.b1(), QA).into(),
            b1: quantised(self.b1(), self.w2(), QA),
            w2: quantised(self.w2(), self.b2(), QB),
            b2: (self.weights[self.b2()] * (QA * QB) as f32).round() as i32,
            qa: QA,
            qb: QB,
            scale,
            activation: self.activation,
        }
    }
}

fn main() -> anyhow::Result<()> {
    train(&Args::parse())
}

/// Trains on `args.data` and writes the network to `args.output`.
fn train(args: &Args) -> anyhow::Result<()> {
    match args.game {
        GameName::Ataxx => train_game::<Ataxx>(args),
        GameName::Dama => train_game::<Dama>(args),
        GameName::Gonnect => train_game::<Gonnect>(args),
        GameName::Tablut => train_game::<Tablut>(args),
    }
}

/// [`train`] for `G`.
fn train_game<G: Learned>(args: &Args) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) || args.scale <= 0 || args.batch == 0 {
        bail!("--lambda is from 0 to 1, --scale and --batch above 0");
    }
    if let Some(hidden) = args.hidden.filter(|h| !hidden_size_valid(*h)) {
        bail!("--hidden {hidden}: the hidden values are a multiple of 16, from 16 to {MAX_HIDDEN}");
    }
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut net = match &args.init {
        Some(path) => start_from::<G>(path, args)?,
        None => Float::new(
            G::INPUTS,
            args.hidden.unwrap_or(64),
            args.activation.unwrap_or(Activation::Clipped),
            &mut rng,
        ),
    };
    let started = Instant::now();
    let (train, held) = read::<G>(args)?;
    let images = if G::SYMMETRIES > 1 {
        format!(
            " (each position {} times: its images by the board's symmetries)",
            G::SYMMETRIES
        )
    } else {
        String::new()
    };
    eprintln!(
        "{} training positions, {} held out{images} ({:.1} s)",
        train.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    // The lowest held-out loss so far: its epoch (0, the starting network), the loss and the
    // weights (for --best).
    let mut best: Option<(u32, f32, Vec<f32>)> = None;
    if args.init.is_some() || args.best.is_some() {
        let loss = net.loss(&held);
        if args.init.is_some() {
            eprintln!("the initial network: held-out loss {loss:.6}");
        }
        if args.best.is_some() {
            best = Some((0, loss, net.weights.clone()));
        }
    }
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut gradient = vec![0.0; net.weights.len()];
    for epoch in 1..=args.epochs {
        let lr = args.lr
            * if epoch * 100 > args.epochs * 85 {
                0.09
            } else if epoch * 100 > args.epochs * 60 {
                0.3
            } else {
                1.0
            };
        order.shuffle(&mut rng);
        let mut total = 0.0f64;
        for batch in order.chunks(args.batch) {
            total += f64::from(net.step(&train, batch, lr, &mut gradient));
        }
        let held_loss = net.loss(&held);
        eprintln!(
            "epoch {epoch:3}: train loss {:.6}, held-out loss {held_loss:.6} ({:.0} s)",
            total / train.len() as f64,
            started.elapsed().as_secs_f64()
        );
        if args.best.is_some() && best.as_ref().is_none_or(|(_, loss, _)| held_loss < *loss) {
            best = Some((epoch, held_loss, net.weights.clone()));
        }
    }
    let network = net.quantise(args.scale);
    std::fs::write(&args.output, network.to_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    // The quantised network against the floating one, on the held-out positions.
    let mut found = Vec::new();
    let mut worst = 0i32;
    for text in held_positions(args, 200)? {
        let position = G::parse_position(&text, None).map_err(anyhow::Error::msg)?;
        found.clear();
        G::features(&position, |f| found.push(f as u16));
        let mut acc = vec![0.0; net.hidden];
        net.sums(&found, &mut acc);
        let exact = (net.output(&acc) * args.scale as f32).round() as i32 + G::base(&position);
        worst = worst.max((exact - network.evaluate::<G>(&position)).abs());
    }
    eprintln!(
        "wrote {} ({} bytes; quantised within {worst} hundredths of the float network) in {:.0} s",
        args.output.display(),
        network.to_bytes().len(),
        started.elapsed().as_secs_f64()
    );
    if let (Some(path), Some((epoch, loss, weights))) = (&args.best, best) {
        net.weights = weights;
        std::fs::write(path, net.quantise(args.scale).to_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        let which = if epoch == 0 {
            "the starting network".to_owned()
        } else {
            format!("epoch {epoch}'s network")
        };
        eprintln!(
            "wrote {} ({which}, held-out loss {loss:.6})",
            path.display()
        );
    }
    Ok(())
}

/// The network of `--init`'s file `path`, for `G`, checked against `--hidden` and
/// `--activation`.
fn start_from<G: Learned>(path: &std::path::Path, args: &Args) -> anyhow::Result<Float> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let network =
        Network::from_bytes::<G>(&bytes).with_context(|| format!("--init {}", path.display()))?;
    if let Some(hidden) = args.hidden.filter(|h| *h != network.hidden()) {
        bail!(
            "--init {}: {} hidden values, not --hidden {hidden}",
            path.display(),
            network.hidden()
        );
    }
    if let Some(activation) = args.activation.filter(|a| *a != network.activation) {
        let name = |a: Activation| {
            clap::ValueEnum::to_possible_value(&a).map_or(String::new(), |v| v.get_name().into())
        };
        bail!(
            "--init {}: a {} activation, not --activation {}",
            path.display(),
            name(network.activation),
            name(activation)
        );
    }
    Ok(Float::from_network(&network, args.scale))
}

/// Up to `count` positions of the first data file, to check the quantised network against.
fn held_positions(args: &Args, count: usize) -> anyhow::Result<Vec<String>> {
    let file = std::fs::File::open(&args.data[0])?;
    Ok(BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| parse_line(&line).ok().map(|(p, _, _)| p.to_owned()))
        .take(count)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::{Game as _, Position as _};

    /// A file of random positions scored by material alone, the result the side ahead winning.
    fn material_data(path: &std::path::Path, count: usize) {
        use std::fmt::Write as _;
        let mut rng = StdRng::seed_from_u64(3);
        let mut text = String::new();
        while text.lines().count() < count {
            let mut position = Ataxx::start(None).unwrap();
            for _ in 0..rng.gen_range(4..60) {
                let moves = position.legal_moves();
                if position.is_game_over() || moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
            if position.is_game_over() {
                continue;
            }
            let me = position.side_to_move();
            let lead =
                position.pieces(me).count() as i32 - position.pieces(me.other()).count() as i32;
            let result = match lead.signum() {
                1 => "1",
                0 => "0.5",
                _ => "0",
            };
            let _ = writeln!(text, "{position} | {} | {result}", 100 * lead);
        }
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_network_learns_material_and_is_written_as_the_host_reads_it() {
        let dir = std::env::temp_dir().join(format!("tavola-trainer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (data, output, best) = (
            dir.join("data.txt"),
            dir.join("net.nnue"),
            dir.join("best.nnue"),
        );
        material_data(&data, 3000);
        for (name, activation, hidden) in [
            ("clipped", Activation::Clipped, "64"),
            ("squared", Activation::Squared, "32"),
        ] {
            let args = Args::parse_from([
                "tavola-trainer",
                data.to_str().unwrap(),
                "-o",
                output.to_str().unwrap(),
                "--epochs",
                "8",
                "--batch",
                "64",
                "--best",
                best.to_str().unwrap(),
                "--activation",
                name,
                "--hidden",
                hidden,
            ]);
            train(&args).unwrap();
            // The last epoch's network and the one with the lowest held-out loss both learned it.
            for path in [&output, &best] {
                let bytes = std::fs::read(path).unwrap();
                let network = Network::from_bytes::<Ataxx>(&bytes).unwrap();
                assert_eq!(network.activation, activation);
                assert_eq!(network.hidden().to_string(), hidden);
                let score = |text: &str| {
                    network.evaluate::<Ataxx>(&Ataxx::parse_position(text, None).unwrap())
                };
                // Three pieces up scores well above three pieces down, whoever moves.
                let (up, down) = (
                    score("xxxx2o/7/7/7/7/7/o6 x 0 1"),
                    score("xxxx2o/7/7/7/7/7/o6 o 0 1"),
                );
                assert!(
                    up > down + 100,
                    "{name} {}: {up} against {down}",
                    path.display()
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_network_starts_from_another_and_keeps_it_when_not_trained() {
        let dir = std::env::temp_dir().join(format!("tavola-trainer-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
        material_data(&dir.join("data.txt"), 2000);
        let run = |extra: &[&str]| {
            let data = path("data.txt");
            let mut words = vec!["tavola-trainer", &data];
            words.extend_from_slice(extra);
            train(&Args::parse_from(&words)).map_err(|e| format!("{e:#}"))
        };
        let first = path("first.nnue");
        run(&[
            "-o", &first, "--epochs", "3", "--batch", "64", "--hidden", "32",
        ])
        .unwrap();
        // No epoch: the network written is the one read, to the last byte, and so is the best
        // one (the starting network is epoch 0).
        let (again, best) = (path("again.nnue"), path("best.nnue"));
        run(&[
            "-o", &again, "--epochs", "0", "--init", &first, "--best", &best,
        ])
        .unwrap();
        for written in [&again, &best] {
            assert_eq!(
                std::fs::read(written).unwrap(),
                std::fs::read(&first).unwrap(),
                "{written}"
            );
        }
        // At another scale the output weights are rescaled: the same evaluations, to rounding.
        let rescaled = path("rescaled.nnue");
        run(&[
            "-o", &rescaled, "--epochs", "0", "--init", &first, "--scale", "125",
        ])
        .unwrap();
        let read = |p: &str| Network::from_bytes::<Ataxx>(&std::fs::read(p).unwrap()).unwrap();
        let position = Ataxx::parse_position("xxxx2o/7/7/7/7/7/o6 x 0 1", None).unwrap();
        let (a, b) = (
            read(&first).evaluate::<Ataxx>(&position),
            read(&rescaled).evaluate::<Ataxx>(&position),
        );
        assert!((a - b).abs() <= 3, "{a} against {b}");
        // Trained further, it stays a network of the same width that knows material.
        let next = path("next.nnue");
        run(&[
            "-o", &next, "--epochs", "2", "--batch", "64", "--init", &first, "--lr", "0.0005",
        ])
        .unwrap();
        let network = read(&next);
        assert_eq!(network.hidden(), 32);
        let down = Ataxx::parse_position("xxxx2o/7/7/7/7/7/o6 o 0 1", None).unwrap();
        assert!(network.evaluate::<Ataxx>(&position) > network.evaluate::<Ataxx>(&down) + 100);
        // A width or an activation that is not the file's, a file that is not a network.
        let error = run(&["-o", &next, "--init", &first, "--hidden", "64"]).unwrap_err();
        assert!(
            error.contains(&first) && error.contains("32 hidden"),
            "{error}"
        );
        let error = run(&["-o", &next, "--init", &first, "--activation", "squared"]).unwrap_err();
        assert!(error.contains("a clipped activation"), "{error}");
        let error = run(&["-o", &next, "--init", &path("data.txt")]).unwrap_err();
        assert!(
            error.contains("--init") && error.contains("data.txt"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_settings_and_empty_data_are_refused() {
        let dir = std::env::temp_dir().join(format!("tavola-trainer-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("empty.txt");
        std::fs::write(&data, "not a line\n").unwrap();
        let run = |extra: &[&str]| {
            let mut words = vec!["tavola-trainer", data.to_str().unwrap(), "-o", "/dev/null"];
            words.extend_from_slice(extra);
            train(&Args::parse_from(words)).unwrap_err().to_string()
        };
        assert!(run(&[]).contains("no training positions"), "{}", run(&[]));
        assert!(run(&["--lambda", "2"]).contains("--lambda"));
        for hidden in ["0", "40", "512"] {
            let error = run(&["--hidden", hidden]);
            assert!(error.contains(&format!("--hidden {hidden}")), "{error}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
