//! The IEEE double backend, for simulation and quick looks only: its
//! [`Kind`] is [`Kind::Approximate`], and no verdict is ever drawn from it.

use super::{Kind, Real, Q};
use crate::error::{Error, Result};
use num_traits::FromPrimitive;
use std::cmp::Ordering;

impl Real for f64 {
    type Context = ();
    const KIND: Kind = Kind::Approximate;

    fn from_rational(q: &Q, _: &()) -> Self {
        num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
    }

    fn context(&self) -> Self::Context {}

    fn exp(&self) -> Result<Self> {
        Ok(f64::exp(*self))
    }

    fn ln(&self) -> Result<Self> {
        if *self > 0.0 {
            Ok(f64::ln(*self))
        } else {
            Err(Error::Domain(format!("ln({self})")))
        }
    }

    fn enclosure(&self) -> Option<(Q, Q)> {
        let q = Q::from_f64(*self)?;
        Some((q.clone(), q))
    }

    fn cmp_certain(&self, other: &Self) -> Option<Ordering> {
        self.partial_cmp(other)
    }

    fn to_f64(&self) -> f64 {
        *self
    }
}
