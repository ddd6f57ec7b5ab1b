//! One progress facility for every long computation (privacy enumerations
//! and the exact bandit checks, regret sums, mechanism and bandit laws,
//! samples): a bar on stderr (never stdout) that appears
//! only once the run has lasted 1 s, is drawn only when stderr is a terminal,
//! and reaches 100 % exactly once, at the end. When stderr is not a terminal
//! (a log file, a batch job), a run still says how far it is: one line every
//! [`LINE_INTERVAL`] (`dpdtol: law: 1200 of 4096 pull sequences (29 %),
//! 10 s`); the environment's `DPDTOL_PROGRESS=N` sets the interval to `N`
//! seconds, `DPDTOL_PROGRESS=0` turns the lines off.
//!
//! Work is counted in abstract units (pairs, rounds, pieces) against a total
//! announced beforehand; a computation made of several passes (precision
//! raised and the work redone) restarts the count with [`Progress::start`],
//! and the bar holds below 100 % until the whole run is over.
//!
//! Without the `cli` feature (the engine alone) nothing is drawn: the counters
//! are kept and `work` runs as it is.

#[cfg(feature = "cli")]
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
#[cfg(feature = "cli")]
use std::io::IsTerminal;
#[cfg(feature = "cli")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
#[cfg(feature = "cli")]
use std::time::{Duration, Instant};

/// Counters the workers update; a monitor thread draws them.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    stage: Mutex<String>,
}

impl Progress {
    /// A new pass over `total` units.
    pub(crate) fn start(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }

    /// `done` units of `total` (a count kept by the computation itself).
    #[cfg(feature = "cli")]
    pub(crate) fn set(&self, done: u64, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    /// `n` more units done.
    pub(crate) fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// The label of the current pass (backend and precision).
    pub(crate) fn stage(&self, label: &str) {
        if let Ok(mut stage) = self.stage.lock() {
            label.clone_into(&mut stage);
        }
    }
}

/// What the bar says: the task (`"privacy"`) and the unit counted (`"pairs"`).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct Task {
    /// The name shown before the bar.
    pub(crate) name: &'static str,
    /// The unit of the counts.
    pub(crate) unit: &'static str,
}

/// Run `work` with a progress monitor when `enabled` (and stderr is a
/// terminal); `total` units are expected.
#[cfg(feature = "cli")]
pub(crate) fn with_progress<T>(
    enabled: bool,
    task: Task,
    total: u64,
    work: impl FnOnce(&Progress) -> T,
) -> T {
    let progress = Progress::default();
    progress.total.store(total, Ordering::Relaxed);
    let terminal = std::io::stderr().is_terminal();
    let interval = match std::env::var("DPDTOL_PROGRESS") {
        Ok(seconds) => seconds
            .trim()
            .parse()
            .map_or(LINE_INTERVAL, Duration::from_secs),
        Err(_) => LINE_INTERVAL,
    };
    if !enabled || (!terminal && interval.is_zero()) {
        return work(&progress);
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let monitor = scope.spawn(|| {
            if terminal {
                monitor(&progress, &finished, task);
            } else {
                report_lines(&progress, &finished, task, interval);
            }
        });
        let out = work(&progress);
        finished.store(true, Ordering::SeqCst);
        monitor.thread().unpark();
        out
    })
}

/// Run `work`; without the `cli` feature there is no bar to draw.
#[cfg(not(feature = "cli"))]
pub(crate) fn with_progress<T>(
    _enabled: bool,
    _task: Task,
    total: u64,
    work: impl FnOnce(&Progress) -> T,
) -> T {
    let progress = Progress::default();
    progress.total.store(total, Ordering::Relaxed);
    work(&progress)
}

/// How often a run whose stderr is not a terminal prints a progress line
/// (unless `DPDTOL_PROGRESS` says otherwise).
#[cfg(feature = "cli")]
pub(crate) const LINE_INTERVAL: Duration = Duration::from_secs(5);

/// Off a terminal: one line on stderr every `interval` until the run is
/// over (none for a run shorter than that).
#[cfg(feature = "cli")]
fn report_lines(progress: &Progress, finished: &AtomicBool, task: Task, interval: Duration) {
    let started = Instant::now();
    let mut next = interval;
    while !finished.load(Ordering::SeqCst) {
        std::thread::park_timeout(Duration::from_millis(200));
        let elapsed = started.elapsed();
        if elapsed < next || finished.load(Ordering::SeqCst) {
            continue;
        }
        next += interval;
        let total = progress.total.load(Ordering::Relaxed).max(1);
        let done = progress.done.load(Ordering::Relaxed).min(total);
        let stage = progress
            .stage
            .lock()
            .map(|s| {
                if s.is_empty() {
                    String::new()
                } else {
                    format!(" ({s})")
                }
            })
            .unwrap_or_default();
        eprintln!(
            "dpdtol: {}{stage}: {done} of {total} {} ({} %), {} s",
            task.name,
            task.unit,
            u128::from(done) * 100 / u128::from(total),
            elapsed.as_secs()
        );
    }
}

#[cfg(feature = "cli")]
fn monitor(progress: &Progress, finished: &AtomicBool, task: Task) {
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    loop {
        std::thread::park_timeout(Duration::from_millis(200));
        if finished.load(Ordering::SeqCst) {
            break;
        }
        if started.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let bar = bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr())
                .with_elapsed(started.elapsed());
            let template = format!(
                "{{msg}} {{wide_bar}} {{percent}}% of {{human_len}} {}, {{elapsed}}",
                task.unit
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            bar
        });
        if let Ok(stage) = progress.stage.lock() {
            if stage.is_empty() {
                bar.set_message(task.name);
            } else {
                bar.set_message(format!("{} ({stage})", task.name));
            }
        }
        let total = progress.total.load(Ordering::Relaxed).max(1);
        bar.set_length(total);
        // 100 % is drawn once, when the run is over (a later pass may restart).
        bar.set_position(progress.done.load(Ordering::Relaxed).min(total - 1));
    }
    if let Some(bar) = bar {
        bar.set_position(bar.length().unwrap_or(1));
        bar.finish();
    }
}
