//! The claims checked one at a time with a progress bar on stderr (drawn
//! only on a terminal), which prints each claim's id, status and seconds as
//! it finishes: what `dpdtol verify` shows during a run of the registry,
//! which takes minutes.

use super::search::Adversary;
use super::{run_searched, Checked, Claim};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Run the checks with a progress bar on stderr (drawn only on a terminal),
/// which advances as each claim finishes and prints its id and status.
pub fn run<'a>(chosen: &[&'a Claim], adversaries: &[Adversary]) -> Vec<Checked<'a>> {
    let bar =
        ProgressBar::with_draw_target(Some(chosen.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("verify {wide_bar} {pos}/{len} claims, {elapsed}: {msg}")
    {
        bar.set_style(style);
    }
    // Redrawn every 200 ms, so the elapsed time moves during a long claim.
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    // One claim at a time, so that each is shown (id, status, seconds) as it
    // finishes.
    let mut checked = Vec::with_capacity(chosen.len());
    for (i, claim) in chosen.iter().enumerate() {
        bar.set_position(i as u64);
        bar.set_message(claim.id);
        for c in run_searched(&[*claim], adversaries, |_, _| {}) {
            bar.println(format!(
                "  {:<24} {:<18} {:.2} s",
                c.claim.id,
                c.outcome.status.name(),
                c.seconds
            ));
            checked.push(c);
        }
    }
    bar.set_position(chosen.len() as u64);
    bar.finish_and_clear();
    checked
}
