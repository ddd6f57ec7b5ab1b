//! A progress bar on stderr (never stdout) for long checks: it appears only
//! once the run has lasted 1 s, and indicatif draws it only on a terminal.
//! Without the `cli` feature (the engine alone) nothing is drawn.

#[cfg(feature = "cli")]
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
#[cfg(feature = "cli")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
#[cfg(feature = "cli")]
use std::time::{Duration, Instant};

/// Counters the workers update; a monitor thread draws them.
#[derive(Debug, Default)]
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    stage: Mutex<String>,
}

impl Progress {
    /// A new pass over `total` pairs.
    pub(crate) fn start(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }

    /// `n` more pairs done.
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

/// Run `work` with a progress monitor when `enabled` (and the `cli`
/// feature, which draws it, is on).
#[cfg(feature = "cli")]
pub(crate) fn with_progress<T>(enabled: bool, total: u64, work: impl FnOnce(&Progress) -> T) -> T {
    let progress = Progress::default();
    progress.total.store(total, Ordering::Relaxed);
    if !enabled {
        return work(&progress);
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let monitor = scope.spawn(|| monitor(&progress, &finished));
        let out = work(&progress);
        finished.store(true, Ordering::SeqCst);
        monitor.thread().unpark();
        out
    })
}

/// Run `work`; without the `cli` feature there is no bar to draw.
#[cfg(not(feature = "cli"))]
pub(crate) fn with_progress<T>(_: bool, total: u64, work: impl FnOnce(&Progress) -> T) -> T {
    let progress = Progress::default();
    progress.total.store(total, Ordering::Relaxed);
    work(&progress)
}

#[cfg(feature = "cli")]
fn monitor(progress: &Progress, finished: &AtomicBool) {
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
            if let Ok(style) = ProgressStyle::with_template(
                "{msg} {wide_bar} {percent}% of {human_len} pairs, {elapsed}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        if let Ok(stage) = progress.stage.lock() {
            bar.set_message(format!("privacy ({stage})"));
        }
        bar.set_length(progress.total.load(Ordering::Relaxed));
        bar.set_position(progress.done.load(Ordering::Relaxed));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}
