//! Sizes, guarded before allocation. Every size that grows with the input
//! (a count of runs, sequences, rounds, actions, cells) is computed with
//! checked arithmetic — `None` once it overflows — and passes here before
//! anything proportional to it is allocated: a table is refused past
//! [`MEMORY_CAP`] bytes even with `--force` (the machine could not hold
//! it), and a vector is reserved fallibly, so that a failed allocation is
//! an error, never an abort.

use crate::error::{Error, Result};

/// The largest table one command allocates: 2^31 bytes (2 GiB), a limit
/// that `--force` does not lift.
pub const MEMORY_CAP: u128 = 1 << 31;

/// The product of `factors`, `None` when it overflows.
pub fn product(factors: impl IntoIterator<Item = u128>) -> Option<u128> {
    factors
        .into_iter()
        .try_fold(1u128, |acc, f| acc.checked_mul(f))
}

/// `count` values of `bytes_each` bytes each, as a length: refused when the
/// count overflowed (`None`) or the table would exceed [`MEMORY_CAP`].
/// `what` names the table in the user's terms (`the samples, n × t
/// actions`).
pub fn table(what: &str, count: Option<u128>, bytes_each: usize) -> Result<usize> {
    let refuse = |size: String| {
        Err(Error::TooLarge(format!(
            "{what}: {size}, over the memory cap of {} GiB, which --force does not lift",
            MEMORY_CAP >> 30
        )))
    };
    let Some(count) = count else {
        return refuse("a count that overflows 128 bits".into());
    };
    let bytes = count.saturating_mul(bytes_each.max(1) as u128);
    if bytes > MEMORY_CAP {
        return refuse(format!("{count} × {bytes_each} bytes = {bytes} bytes"));
    }
    usize::try_from(count).or_else(|_| refuse(format!("{count} values")))
}

/// An empty vector with room for `count` values of `T`, guarded by
/// [`table`] and reserved fallibly (an allocation the system refuses is an
/// error).
pub fn vec_with_capacity<T>(what: &str, count: Option<u128>) -> Result<Vec<T>> {
    let n = table(what, count, std::mem::size_of::<T>())?;
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::TooLarge(format!(
            "{what}: the system refuses {n} values of {} bytes",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(v)
}

/// A work estimate (operations, rounds, laws): refused past `limit` unless
/// `force`, and always when it overflowed (`None`). `what` names the work
/// and how it is counted; the message says how large it is and how to force it.
pub fn work(what: &str, estimate: Option<u128>, limit: u128, force: bool) -> Result<()> {
    match estimate {
        None => Err(Error::TooLarge(format!(
            "{what}: a count that overflows 128 bits"
        ))),
        Some(n) if n > limit && !force => Err(Error::TooLarge(format!(
            "{what}: {n}, over the limit of {limit}; pass --force to run it"
        ))),
        Some(_) => Ok(()),
    }
}

/// The most worker threads a run starts (`--threads`): a request beyond it
/// is refused before any thread starts (100 000 threads would reserve
/// hundreds of GB of stack address space).
pub const MAX_THREADS: usize = 1024;

/// Run `work` on the pool of `--threads` ([`thread_pool`]), or on the
/// current pool when no count is given.
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    match threads {
        None => work(),
        Some(n) => thread_pool(Some(n))?.install(work),
    }
}

/// The worker pool of `--threads` (`None`: one thread per core), refused
/// for 0 threads, past [`MAX_THREADS`], or when the system does not start
/// them.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    match threads {
        Some(0) => Err(Error::InvalidInput("--threads must be at least 1".into())),
        Some(n) if n > MAX_THREADS => Err(Error::InvalidInput(format!(
            "--threads {n} is over the limit of {MAX_THREADS} (each thread reserves a stack; the work never needs more threads than cores)"
        ))),
        _ => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|_| {
                Error::InvalidInput(format!(
                    "--threads {}: the system does not start that many threads",
                    threads.unwrap_or(0)
                ))
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_overflow_to_none() {
        assert_eq!(product([3, 5, 7]), Some(105));
        assert_eq!(product([u128::MAX, 2]), None);
        assert_eq!(product([]), Some(1));
    }

    #[test]
    fn tables_past_the_cap_are_refused_and_those_below_allocated() {
        assert_eq!(table("t", Some(1 << 28), 8).unwrap(), 1 << 28);
        let e = table("the samples", Some((1 << 28) + 1), 8).unwrap_err();
        assert!(e.to_string().contains("the samples"), "{e}");
        assert!(e.to_string().contains("--force does not lift"), "{e}");
        assert!(table("t", None, 1).is_err());
        let v: Vec<u64> = vec_with_capacity("t", Some(1000)).unwrap();
        assert!(v.capacity() >= 1000);
        assert!(vec_with_capacity::<u64>("t", Some(1 << 40)).is_err());
    }

    #[test]
    fn work_is_refused_past_its_limit_unless_forced_and_always_on_overflow() {
        assert!(work("w", Some(10), 10, false).is_ok());
        assert!(work("w", Some(11), 10, false).is_err());
        assert!(work("w", Some(11), 10, true).is_ok());
        assert!(work("w", None, 10, true).is_err());
    }
}
