use dpdtol::mechanism::{law, Noise, Scale};
use dpdtol::num::*;
fn main() {
    let losses: Vec<Q> = vec![parse_rational("0").unwrap(), parse_rational("2").unwrap()];
    let s = Scale::beta(Q::from_integer(1.into())).unwrap();
    let p: Vec<Certified> = law(Noise::Exponential, &losses, &s, &Precision(128)).unwrap();
    for x in &p { let (lo,hi)=x.enclosure().unwrap(); println!("{} {}", format_sig(&lo,40), format_sig(&hi,40)); }
    let w = Scale::unit_weight(Q::new(1.into(),3.into())).unwrap();
    let losses: Vec<Q> = (0..6).map(|i| Q::new((i*i % 7).into(), 2.into())).collect();
    let e: Vec<Exact> = law(Noise::Exponential, &losses, &Scale::unit_weight(Q::new(1.into(),4.into())).unwrap(), &()).unwrap();
    println!("{:?} sum={}", e.iter().map(|x| x.to_string()).collect::<Vec<_>>(), e.iter().cloned().reduce(|a,b|a+b).unwrap());
    let f: Vec<f64> = law(Noise::Exponential, &losses, &Scale::unit_weight(Q::new(1.into(),4.into())).unwrap(), &()).unwrap();
    println!("{:?}", f);
    let _ = w;
    // brute-force check of permute-and-flip for K=3 by exact monomial integral
    let t = std::time::Instant::now();
    let k = 1000;
    let losses: Vec<Q> = (0..k).map(|i| Q::new(((i * 7919) % 1000).into(), 100.into())).collect();
    let p: Vec<Certified> = law(Noise::Exponential, &losses, &s, &Precision(256)).unwrap();
    println!("K=1000 256-bit: {:?}", t.elapsed());
    let (lo,hi) = p[3].enclosure().unwrap();
    println!("{} {}", format_sig(&lo,40), format_sig(&hi,40));
    let total = p.iter().cloned().reduce(|a,b|a+b).unwrap(); let (lo,hi)=total.enclosure().unwrap();
    println!("sum {} {}", format_sig(&lo,40), format_sig(&hi,40));
}
