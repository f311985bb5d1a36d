//! Support for Tavola's end-to-end tests: they run the real `tavola` binary with real plugin
//! libraries, as a user would.
//!
//! [`artifacts`] builds the binary and every bot library once per test process (a nested
//! `cargo build`, see there) and returns their paths; [`tavola`] runs the binary with a time limit,
//! so that a hang fails the test instead of hanging CI; [`TempDir`] is a scratch directory that
//! removes itself.

use std::ffi::OsStr;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long one run of the binary may take before it is killed and the test fails: a guard
/// against a hang, never a measure of speed, so far above the slowest run on a loaded machine
/// (the report test's 48-game match takes 35 s of a debug build on an idle core; with the suite
/// and two other processes on two cores it had not ended after 60).
pub const TIMEOUT: Duration = Duration::from_secs(300);

/// The packages the end-to-end tests need built.
const PACKAGES: [&str; 8] = [
    "tavola",
    "random-bot",
    "greedy-bot",
    "faulty-bot",
    "not-a-bot",
    "future-sdk-bot",
    "altered-abi-bot",
    "text-only-bot",
];

/// The paths of the built binary and bot libraries.
#[derive(Debug, Clone)]
pub struct Artifacts {
    /// The `tavola` binary.
    pub tavola: PathBuf,
    /// `sample-bots/random`.
    pub random_bot: PathBuf,
    /// `sample-bots/greedy`.
    pub greedy_bot: PathBuf,
    /// `tests/fixtures/faulty-bot`: misbehaves as its `mode` option says.
    pub faulty_bot: PathBuf,
    /// `tests/fixtures/not-a-bot`: a shared library without a bot module.
    pub not_a_bot: PathBuf,
    /// `tests/fixtures/future-sdk-bot`: claims to be built against tavola-sdk 0.2.0.
    pub future_sdk_bot: PathBuf,
    /// `tests/fixtures/altered-abi-bot`: the host's SDK version, another root-module layout.
    pub altered_abi_bot: PathBuf,
    /// `tests/fixtures/text-only-bot`: a library built before the typed path (the root module
    /// alone), playing as the random bot.
    pub text_only_bot: PathBuf,
    /// The working folder of [`tavola`] runs (in the target folder: files a run writes by
    /// default, such as the arena's, stay out of the source tree).
    pub workdir: PathBuf,
}

/// Builds the binary and the bot libraries (once per test process) and returns their paths.
///
/// This runs `$CARGO build -p tavola -p random-bot ...` in the workspace root with the profile of
/// the running test binary. Calling cargo from inside `cargo test` is safe: cargo releases its
/// build-directory lock once compilation is done, before it runs any test. The build is quick when
/// `cargo test` has just built the same workspace, and it is what makes a plain
/// `cargo test -p tavola-tests` test up-to-date plugins rather than stale ones.
///
/// # Panics
/// When the build fails (with cargo's output), or an expected file is missing afterwards.
pub fn artifacts() -> &'static Artifacts {
    static ARTIFACTS: OnceLock<Result<Artifacts, String>> = OnceLock::new();
    // A failed build is remembered, so that every test fails with its output and the build is
    // not run again by each of them.
    match ARTIFACTS.get_or_init(build) {
        Ok(artifacts) => artifacts,
        Err(message) => panic!("{message}"),
    }
}

fn build() -> Result<Artifacts, String> {
    let workspace = workspace_root();
    let (out_dir, profile_args) = output_dir_and_profile(&workspace);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .arg("build")
        .args(&profile_args)
        .current_dir(&workspace);
    for package in PACKAGES {
        command.args(["-p", package]);
    }
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {cargo:?}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`{cargo:?} build {profile_args:?} -p ...` in {} failed ({}):\n{}{}",
            workspace.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        ));
    }
    let library = |crate_name: &str| {
        let name = format!(
            "{}{crate_name}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        );
        out_dir.join(name)
    };
    let artifacts = Artifacts {
        tavola: out_dir.join(format!("tavola{}", std::env::consts::EXE_SUFFIX)),
        random_bot: library("random_bot"),
        greedy_bot: library("greedy_bot"),
        faulty_bot: library("faulty_bot"),
        not_a_bot: library("not_a_bot"),
        future_sdk_bot: library("future_sdk_bot"),
        altered_abi_bot: library("altered_abi_bot"),
        text_only_bot: library("text_only_bot"),
        workdir: out_dir.join("test-workdir"),
    };
    std::fs::create_dir_all(&artifacts.workdir)
        .map_err(|e| format!("cannot create {}: {e}", artifacts.workdir.display()))?;
    let all = [
        &artifacts.tavola,
        &artifacts.random_bot,
        &artifacts.greedy_bot,
        &artifacts.faulty_bot,
        &artifacts.not_a_bot,
        &artifacts.future_sdk_bot,
        &artifacts.altered_abi_bot,
        &artifacts.text_only_bot,
    ];
    match all.iter().find(|path| !path.is_file()) {
        Some(missing) => Err(format!(
            "cargo build succeeded but {} does not exist (a --target or an unusual target-dir \
             setting is not supported by the end-to-end tests)",
            missing.display()
        )),
        None => Ok(artifacts),
    }
}

/// The workspace root: the parent of this crate.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// Where cargo puts the binary and libraries for the running test's profile, and the arguments
/// that select that profile.
///
/// A test binary lives in `<target>/<profile dir>/deps/`, whichever way the target directory was
/// set (`CARGO_TARGET_DIR`, `build.target-dir` in a config file); the profile directory is `debug`
/// for the dev and test profiles, `release` for release and bench, else the custom profile's
/// name. Otherwise (never under cargo): `$CARGO_TARGET_DIR` or `<workspace>/target`, with `debug`
/// or `release` as the test was built with or without debug assertions.
fn output_dir_and_profile(workspace: &Path) -> (PathBuf, Vec<String>) {
    let from_exe = std::env::current_exe().ok().and_then(|exe| {
        let deps = exe.parent()?;
        (deps.file_name()? == "deps").then(|| deps.parent().map(Path::to_path_buf))?
    });
    let out_dir = from_exe.unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| workspace.join("target"), PathBuf::from);
        target.join(if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        })
    });
    let profile = out_dir
        .file_name()
        .and_then(OsStr::to_str)
        .unwrap_or("debug");
    let args = match profile {
        "debug" => vec![],
        "release" => vec!["--release".to_owned()],
        custom => vec!["--profile".to_owned(), custom.to_owned()],
    };
    (out_dir, args)
}

/// What one run of the binary did.
#[derive(Debug, Clone)]
pub struct Output {
    /// The command line, for messages.
    pub command: String,
    /// The exit code (`None` if a signal ended the process).
    pub code: Option<i32>,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
    /// How long the run took.
    pub elapsed: Duration,
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "$ {}", self.command)?;
        writeln!(f, "exit code: {:?} after {:?}", self.code, self.elapsed)?;
        writeln!(f, "--- stdout ---\n{}", self.stdout)?;
        write!(f, "--- stderr ---\n{}", self.stderr)
    }
}

impl Output {
    /// Asserts the exit code, showing the whole run if it differs.
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Output {
        assert_eq!(self.code, Some(code), "unexpected exit code\n{self}");
        self
    }

    /// Asserts that stdout contains `needle`.
    #[track_caller]
    pub fn assert_stdout_contains(&self, needle: &str) -> &Output {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}\n{self}"
        );
        self
    }

    /// Asserts a refusal: exit `code`, exactly one line on stderr containing each of `needles`,
    /// and nothing on stdout that looks like a panic.
    #[track_caller]
    pub fn assert_one_line_error(&self, code: i32, needles: &[&str]) -> &Output {
        self.assert_code(code);
        assert_eq!(
            self.stderr.trim().lines().count(),
            1,
            "the error is not one line\n{self}"
        );
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr lacks {needle:?}\n{self}"
            );
        }
        self.assert_no_panic_on_stdout()
    }

    /// Asserts that stdout shows no panic message or backtrace.
    #[track_caller]
    pub fn assert_no_panic_on_stdout(&self) -> &Output {
        for sign in ["panicked at", "stack backtrace", "RUST_BACKTRACE"] {
            assert!(!self.stdout.contains(sign), "stdout shows {sign:?}\n{self}");
        }
        self
    }

    /// The value after `prefix` on the first stdout line that starts with it.
    pub fn stdout_line(&self, prefix: &str) -> Option<&str> {
        self.stdout
            .lines()
            .find_map(|line| line.strip_prefix(prefix))
            .map(str::trim)
    }
}

/// Runs the `tavola` binary with `args` in [`Artifacts::workdir`], killing it after [`TIMEOUT`].
///
/// # Panics
/// When the binary cannot be built or started, or it runs out of time.
pub fn tavola<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let artifacts = artifacts();
    run_with_timeout(&artifacts.tavola, Some(&artifacts.workdir), args, TIMEOUT)
}

/// Runs the `tavola` binary with `args` in the directory `dir`, killing it after [`TIMEOUT`].
///
/// # Panics
/// As [`tavola`].
pub fn tavola_in<I, S>(dir: &Path, args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_with_timeout(&artifacts().tavola, Some(dir), args, TIMEOUT)
}

/// Runs the `tavola` binary with `args` and the environment variables `env` added, as [`tavola`].
///
/// # Panics
/// As [`tavola`].
pub fn tavola_with_env<I, S>(args: I, env: &[(&str, &str)]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let artifacts = artifacts();
    run(
        &artifacts.tavola,
        Some(&artifacts.workdir),
        args,
        TIMEOUT,
        env,
    )
}

/// Runs `program` with `args` in `dir` (else the current directory), stdin closed, and kills it
/// after `timeout`.
///
/// `RUST_LOG` and `RUST_BACKTRACE` are removed from its environment, so that what it writes does
/// not depend on the shell the tests run from.
///
/// # Panics
/// When the program cannot be started, or it runs out of time (the panic shows what it wrote).
pub fn run_with_timeout<I, S>(
    program: &Path,
    dir: Option<&Path>,
    args: I,
    timeout: Duration,
) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run(program, dir, args, timeout, &[])
}

/// Runs the `tavola` binary with `args`, `input` on its standard input (then closed), as
/// [`tavola`].
///
/// # Panics
/// As [`tavola`].
pub fn tavola_with_input<I, S>(args: I, input: &str) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let artifacts = artifacts();
    run_fed(
        &artifacts.tavola,
        Some(&artifacts.workdir),
        args,
        TIMEOUT,
        &[],
        Some(input),
    )
}

fn run<I, S>(
    program: &Path,
    dir: Option<&Path>,
    args: I,
    timeout: Duration,
    env: &[(&str, &str)],
) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_fed(program, dir, args, timeout, env, None)
}

fn run_fed<I, S>(
    program: &Path,
    dir: Option<&Path>,
    args: I,
    timeout: Duration,
    env: &[(&str, &str)],
    input: Option<&str>,
) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let command_line = std::iter::once(program.as_os_str())
        .chain(args.iter().map(|a| a.as_os_str()))
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let started = Instant::now();
    let mut command = Command::new(program);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(&args)
        .env_remove("RUST_LOG")
        .env_remove("RUST_BACKTRACE")
        .envs(env.iter().copied())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command_line}: {e}"));
    if let (Some(mut stdin), Some(input)) = (child.stdin.take(), input) {
        let input = input.to_owned();
        // Written from a thread: a child that stops reading must not block the test.
        thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    // Read both pipes while waiting, so that a chatty child never blocks on a full pipe.
    let stdout = reader(child.stdout.take());
    let stderr = reader(child.stderr.take());
    let code = wait_with_timeout(&mut child, timeout);
    // A grandchild may still hold the pipes open: wait a little for the end of the output, not
    // for ever.
    let drained = Instant::now() + Duration::from_secs(5);
    while !(stdout.is_finished() && stderr.is_finished()) && Instant::now() < drained {
        thread::sleep(Duration::from_millis(5));
    }
    let output = Output {
        command: command_line,
        code: code.unwrap_or(None),
        stdout: stdout.text(),
        stderr: stderr.text(),
        elapsed: started.elapsed(),
    };
    assert!(code.is_some(), "killed after {timeout:?}\n{output}");
    output
}

/// Waits for `child` at most `timeout`: `Some(exit code)`, or `None` after killing it.
fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<Option<i32>> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status.code()),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Collects what a child writes to one pipe, on a thread of its own.
struct Reader {
    bytes: Arc<Mutex<Vec<u8>>>,
    thread: JoinHandle<()>,
}

impl Reader {
    fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// What was read so far, as text.
    fn text(&self) -> String {
        let bytes = self.bytes.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> Reader {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&bytes);
    let thread = thread::spawn(move || {
        let Some(mut pipe) = pipe else { return };
        let mut buffer = [0; 8192];
        while let Ok(n @ 1..) = pipe.read(&mut buffer) {
            if let Ok(mut sink) = sink.lock() {
                sink.extend_from_slice(&buffer[..n]);
            }
        }
    });
    Reader { bytes, thread }
}

/// A fresh directory under [`std::env::temp_dir`], removed (with its contents) when dropped.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates a directory whose name contains `label`, unique to this process and call.
    ///
    /// # Panics
    /// When the directory cannot be created.
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "tavola-tests-{label}-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `contents` to the file `name` in the directory and returns its path.
    ///
    /// # Panics
    /// When the file cannot be written.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path.join(name);
        std::fs::write(&path, contents)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Duration) -> Output {
        run_with_timeout(Path::new("/bin/sh"), None, ["-c", script], timeout)
    }

    #[test]
    fn captures_both_streams_and_the_code() {
        let output = sh("echo out; echo err >&2; exit 3", TIMEOUT);
        assert_eq!(output.code, Some(3));
        assert_eq!(output.stdout, "out\n");
        assert_eq!(output.stderr, "err\n");
    }

    #[test]
    #[should_panic(expected = "killed after")]
    fn kills_a_hang() {
        sh("exec sleep 30", Duration::from_millis(200));
    }

    #[test]
    fn temp_dirs_are_distinct_and_removed() {
        let (a, b) = (TempDir::new("x"), TempDir::new("x"));
        assert_ne!(a.path(), b.path());
        let file = a.write("f.txt", "hi");
        assert_eq!(std::fs::read_to_string(&file).ok().as_deref(), Some("hi"));
        let path = a.path().to_path_buf();
        drop(a);
        assert!(!path.exists());
    }
}

/// How long to wait for an expected line from an engine before calling it hung (not a speed
/// check).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// `tavola` running as an engine (`tavola uai`, `tavola ugi ...`): lines in, lines out.
#[derive(Debug)]
pub struct EngineProcess {
    /// The engine's process.
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl EngineProcess {
    /// Starts `tavola ARGS` with piped stdin and stdout.
    ///
    /// # Panics
    /// When the binary does not start.
    pub fn start(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(&artifacts().tavola)
            .args(args)
            .current_dir(&artifacts().workdir)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tavola starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Sends one line.
    ///
    /// # Panics
    /// When the engine no longer reads.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that starts with `prefix`.
    ///
    /// # Panics
    /// When no such line comes within [`PATIENCE`] (with all the engine said).
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!(
                    "no line starting with {prefix:?}; the engine said:\n{}",
                    self.seen.join("\n")
                )
            });
            self.seen.push(line.clone());
            lines.push(line.clone());
            if line.starts_with(prefix) {
                return lines;
            }
        }
    }

    /// The move of the next `bestmove` line.
    ///
    /// # Panics
    /// As [`EngineProcess::until`].
    pub fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove ");
        let last = lines.last().expect("at least the bestmove line");
        last.split_whitespace().nth(1).expect("a move").to_owned()
    }

    /// Sends `quit` and checks that the engine ends, with success.
    ///
    /// # Panics
    /// When it does not end within [`PATIENCE`], or fails.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "quit did not end the engine");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A private copy of the faulty bot library inside `dir`, named after `name`: leftover processes
/// are then found by its path ([`processes_using`]) even while other tests run.
///
/// # Panics
/// When the copy cannot be written.
pub fn private_copy(dir: &TempDir, name: &str) -> PathBuf {
    let copy = dir
        .path()
        .join(format!("libfaulty_{}.so", name.replace('-', "_")));
    std::fs::copy(&artifacts().faulty_bot, &copy).expect("temp dir is writable");
    copy
}

/// Processes whose command line mentions `path` (leftover workers or their children).
#[must_use]
pub fn processes_using(path: &Path) -> Vec<String> {
    let needle = path.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}
