//! The figures of the reports, drawn with [`crate::regret::plot`] (its axes,
//! legend and styles are the one drawing code): the exact regret of
//! `dpdtol regret` against the horizon T with the papers' bounds, and the
//! simulated mean regret of `dpdtol bandit` against the rounds t with its
//! Student-t band, one figure per ε, like the figures of Hu, Huang, Mehta &
//! Hegde (§6).

use super::bandit::BanditReport;
use super::regret::{RegretReport, Trajectory};
use crate::error::Result;
use crate::regret::bounds::BoundKind;
use crate::regret::plot::{draw, Series, Style};
use std::path::{Path, PathBuf};

/// The figure file of each ε of a bandit simulation: `path` itself for one
/// ε, else `<stem>-eps<ε>.<ext>`.
pub fn bandit_files(path: &Path, epsilons: &[f64]) -> Vec<(f64, PathBuf)> {
    epsilons
        .iter()
        .map(|&eps| {
            let file = if epsilons.len() == 1 {
                path.to_path_buf()
            } else {
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or("bandit");
                let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("svg");
                path.with_file_name(format!("{stem}-eps{eps}.{ext}"))
            };
            (eps, file)
        })
        .collect()
}

/// Mean regret against t with its t-band, one file per ε of `epsilons`
/// ([`bandit_files`]); the files written.
pub fn draw_bandit(path: &Path, report: &BanditReport, epsilons: &[f64]) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (eps, file) in bandit_files(path, epsilons) {
        let mut series = Vec::new();
        for (group, r) in report.panel(eps).enumerate() {
            let points = |values: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
                report
                    .checkpoints
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (*t as f64, values(i)))
                    .collect()
            };
            let name = &r.algorithm;
            series.push(Series {
                label: format!("{name}: mean regret"),
                group,
                style: Style::Regret,
                points: points(&|i| r.mean[i].0),
            });
            for end in [0, 1] {
                series.push(Series {
                    label: format!("{name}: t-band"),
                    group,
                    style: Style::Band,
                    points: points(&|i| r.t_interval[i][end].0),
                });
            }
        }
        let title = format!(
            "means {}, ε = {eps}, {} runs (dotted: the {}% t-band; approximate)",
            report.exact_means(),
            report.runs,
            report.percent()
        );
        draw(&file, &title, "rounds t", &series)?;
        written.push(file);
    }
    Ok(written)
}

/// Regret against T on log axes, with the bounds on the regret itself.
pub fn draw_regret(path: &Path, report: &RegretReport, trajectories: &[Trajectory]) -> Result<()> {
    let mut series = Vec::new();
    for (group, c) in trajectories.iter().enumerate() {
        series.push(Series {
            label: format!("{}: exact regret", c.label),
            group,
            style: Style::Regret,
            points: c
                .points
                .iter()
                .map(|p| (p.t as f64, p.approximate))
                .collect(),
        });
        let (mut uppers, mut lowers) = (0, 0);
        series.extend(c.bounds.iter().map(|line| Series {
            label: format!(
                "{}: {} ({}{})",
                c.label,
                line.id,
                line.kind.name(),
                if line.fails { ", FAILS at T" } else { "" }
            ),
            group,
            style: match line.kind {
                BoundKind::Upper => {
                    uppers += 1;
                    Style::Upper(uppers - 1)
                }
                BoundKind::Lower => {
                    lowers += 1;
                    Style::Lower(lowers - 1)
                }
            },
            points: line.points.clone(),
        }));
    }
    let first = &report.results()[0];
    let title = format!(
        "Pseudo-regret, μ = ({}), ε = {}, {} setting",
        first.means_text(),
        first.epsilon.0,
        first.setting
    );
    draw(path, &title, "horizon T", &series)
}
