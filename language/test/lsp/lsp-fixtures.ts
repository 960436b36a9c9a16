/** Models shared by the language-server tests. */

/** The one-line "sketch" style: every feature of the language in a few lines. */
export const SKETCH = `platform LabPC { cores 4  cache L3 8 MiB shared  smt off }
image Frame 1024 x 1024 of u16
box Detector { out img: Frame  source period 66.6 ms }
box Gain     { in i: Frame  out o: Frame  kernel gain(1.5)       split rows  depends pointwise  cost 0.4 ms }
box Spatial  { in i: Frame  out o: Frame  kernel convolution(5)  split rows  depends halo 2      cost 3.1 ms }
box Display  { in i: Frame  kernel sink  split none }
chain XRay on LabPC {
    d: Detector  g: Gain  s: Spatial  out: Display
    d.img -> g.i   g.o -> s.i   s.o -> out.i
    schedule reduced threads 4 cores 0..3   memory reuse
    require latency p99 < 20 ms
}
ptts System {
    component Sensor  period 66.6 ms offset 0 ms  etp uniform 30 ms .. 60 ms
    component Process period 33.3 ms offset 5 ms  etp chain XRay      // ETP = the chain's latency distribution
    component GPU     period 16.6 ms              etp pmf { 11 ms: 0.9, 12 ms: 0.1 }
    component Wall    period 16.7 ms              etp point 8 ms
    require latency p99 < 160 ms   require loss < 1e-4
    require latency <= 160 ms with probability >= 99.9 %
}
throttle BestEffort { duty-cycle counter llc-misses sample 100 us suspend 900 us threshold 25 % }
throttle Budget     { budget period 10 ms misses 15000 per core }
target here { local  rt-cores 0  be-cores 1  throttle BestEffort  workload hog }
target lab1 { ssh "xray@10.200.0.2" port 22 key "~/.ssh/id_ed25519"  rt-cores 0..1  be-cores 2..3  throttle Budget }
`;

/** The thesis example: periods 200, 58 and 56 ms give a hyper-period of 40600 ms and 203 latency trees. */
export const THESIS = `ptts Thesis {
    component Camera period 200 ms etp point 10 ms
    component Filter period 58 ms  etp point 5 ms
    component Screen period 56 ms  etp point 2 ms
}
`;

/** A small box chain used by the navigation tests. */
export const SMALL = `platform P { cores 2 }
image F 64 x 48 of u8
image G 32 x 32 of u16
box Src { out o: F source period 10 ms }
box Inc { in i: F out o: F kernel offset(1) split rows }
box Snk { in i: F kernel sink }
chain C on P {
    s: Src a: Inc b: Inc k: Snk
    s.o -> a.i a.o -> b.i b.o -> k.i
}
throttle T { budget period 10 ms }
target t { platform P throttle T }
ptts Q { component X period 10 ms etp chain C }
`;
