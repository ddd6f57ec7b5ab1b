use dpdtol::mechanism::{weights, exponential, Scale};
use dpdtol::num::*;
fn main() {
    let s = Scale::beta(Q::from_integer(1.into())).unwrap();
    let k = 1000;
    let losses: Vec<Q> = (0..k).map(|i| Q::new(((i * 7919) % 1000).into(), 100.into())).collect();
    let t = std::time::Instant::now();
    let w: Vec<Certified> = weights(&losses, &s, &Precision(256)).unwrap();
    println!("weights: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let p = exponential::law(&w);
    println!("law: {:?}", t.elapsed());
    let (lo,hi) = p[3].enclosure().unwrap();
    println!("{} {}", format_sig(&lo,40), format_sig(&hi,40));
}
