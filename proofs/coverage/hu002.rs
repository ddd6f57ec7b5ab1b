//! Coverage map: see [`super`].

use super::Item;

/// The items, in reading order.
pub const ITEMS: &[Item] = &[];
