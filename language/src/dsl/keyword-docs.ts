/**
 * What each keyword means, in a sentence: one table for the completion item's documentation and the hover on a
 * keyword (or on a misspelt one). A keyword that means different things in different rules (`period` of a source,
 * a component or a budget; `cores` of a platform or a schedule) has an entry per rule, `Rule:keyword`, and falls
 * back to its plain entry.
 */
import { quotedAlternatives } from './close-names.js';

const DOCS: Readonly<Record<string, string>> = {
    // elements
    platform: 'A platform: the cores and caches of the machine a chain is planned for (`platform P { cores 4 }`).',
    image: 'An image type: width × height pixels of a pixel type (`image F 1024 x 1024 of u16`).',
    box: 'A box: one processing step, its ports and the kernel it runs (`box Gain { in i: F out o: F kernel gain(2) }`).',
    chain: 'A box chain: instances of boxes connected port to port, planned and run as one program.',
    ptts: 'A PTTS chain: periodic tasks in sequence, analysed for their end-to-end latency distribution.',
    throttle: 'A throttle: how best-effort cores are held back (duty-cycle or memory budget).',
    target: 'A target: the machine a chain runs on (local or over ssh), its real-time and best-effort cores.',
    // platform
    'CoresSetting:cores': 'The number of cores of the platform.',
    smt: 'Simultaneous multithreading: `on` or `off`.',
    cache: 'A cache level and its size (`cache L2 1 MiB shared`).',
    shared: 'Shared between the cores.',
    private: 'Private to each core (the default).',
    // box members
    in: 'An input port and its image type (`in i: F`).',
    out: 'An output port and its image type (`out o: F`).',
    kernel: 'The kernel the box runs, with its arguments (`kernel gain(2)`).',
    source: 'Makes the box a periodic source (kernel source): it produces a frame per iteration, every `period` if given.',
    'SourceSpec:period': 'The time between two frames of the source.',
    split: 'Whether the box is split into row slices that run in parallel: `rows` or `none`.',
    rows: 'Split into row slices that run in parallel.',
    depends:
        'What a row slice of the output depends on in the input: `pointwise`, `halo N` rows around it, `whole` or `none`.',
    pointwise: 'Each output row needs only the same input row.',
    halo: 'Each output row reads N input rows above and below it.',
    whole: 'Each output row may read the whole input frame.',
    cost: 'The execution time of the box per frame, for planning.',
    etp: 'The execution-time distribution (ETP): `point`, `uniform`, `pmf`, `histogram` or `chain`.',
    // chain members
    schedule: 'How the chain is scheduled onto threads: a heuristic, `threads N` and `cores` (default: reduced).',
    threads: 'The number of threads (default: one per core of the core set or the platform).',
    'CoresOption:cores': 'The cores the threads are pinned to (`cores 0..3`).',
    simple: 'The simple heuristic.',
    'MemoryKind:simple': 'One buffer per connection, no reuse.',
    barrier: 'The barrier heuristic: all threads meet at a barrier between levels of the chain.',
    fixed: 'The fixed heuristic: each box on the thread it was assigned to.',
    predictable: 'The predictable heuristic: a schedule that keeps the latency variation low.',
    reduced: 'The reduced heuristic (the default).',
    memory: 'How buffers are allocated: `simple` (one per connection) or `reuse` (the default).',
    reuse: 'Buffers are reused once their frame is consumed (the default).',
    iterations: 'The number of frames a run processes.',
    // ptts members
    component: 'A component of the PTTS chain: a periodic task with its period, offset and ETP.',
    resolution: 'The time grid of the analysis.',
    order: 'Which comes first when a production and a consumption happen at the same time.',
    'production-first': 'A token produced at the same time as a consumption is consumed at once.',
    'consumption-first': 'A consumption at the same time as a production takes the previous token.',
    'PeriodSetting:period': "The component's period.",
    'OffsetSetting:offset': "The component's offset: when its first activation happens.",
    // execution-time distributions
    point: 'A single execution time.',
    uniform: 'A discrete uniform distribution from min to max (`uniform 1 ms .. 3 ms step 1 ms`).',
    step: 'The step of a uniform distribution (default: one unit of the unit min is written in).',
    pmf: 'A probability mass function: times and their probabilities, which sum to 1.',
    histogram: 'Latencies from a measurement file, binned (`histogram "times.csv" unit us bin 1 ms`).',
    unit: 'The time unit of the values in the file.',
    bin: 'The width of the bins the measured values are put in.',
    column: 'The CSV column holding the values.',
    'ChainEtp:chain': 'The latency distribution of a box chain (predicted, or measured after a run).',
    // requirements
    require: 'A requirement checked by the analysis: on the latency or the loss rate.',
    latency: 'The end-to-end latency: a percentile below a bound, or a bound with a probability.',
    with: 'A bound that holds with a probability (`with probability >= 99.9 %`).',
    probability: 'The probability with which a latency bound holds.',
    loss: 'The rate of frames lost (overwritten before they were consumed).',
    // throttles
    'duty-cycle': 'Duty-cycling: best-effort cores are suspended while a counter is over its threshold.',
    sample: 'How often the counter is sampled.',
    suspend: 'How long the best-effort cores are suspended once over the threshold.',
    threshold: 'The counter rate above which the best-effort cores are suspended.',
    'read-threshold': 'The read rate above which the best-effort cores are suspended.',
    'write-threshold': 'The write rate above which the best-effort cores are suspended.',
    proportional: 'Suspend for a time proportional to how far the rate is over the threshold.',
    budget: 'A memory budget: at most a number of cache misses per period (Yun et al.).',
    'BudgetValue:period': 'The period of the budget.',
    misses: 'The budget: cache misses allowed per period.',
    per: 'The budget counts per core.',
    core: 'The budget counts per core.',
    distribution: 'How the budget is split among the cores: `static` or `dynamic`.',
    counter: 'The performance counter the throttle watches (`llc-misses`, …, or a `raw` event).',
    raw: 'A raw performance-counter event, as a string.',
    mechanism: 'How the best-effort cores are held: `fifo-hold`, `sigstop` or `freeze`.',
    // targets
    local: 'Runs on this machine.',
    ssh: 'Runs on a machine reached over ssh (`ssh "user@host"`).',
    port: 'The ssh port.',
    key: 'The ssh key file.',
    root: 'The folder on the target where chainlab builds and runs.',
    'TargetSetting:platform': 'The platform the target is.',
    'rt-cores': 'The cores the real-time chain runs on.',
    'be-cores': 'The cores the best-effort workload runs on.',
    'TargetSetting:throttle': 'The throttle that holds back the best-effort cores.',
    workload: 'The best-effort workload: the cache hog (`hog`) or a command.',
    hog: 'The cache-hogging workload chainlab carries.',
};

/** What `keyword` means where rule `rule` uses it; undefined for a keyword without an entry. */
export function keywordDoc(keyword: string, rule?: string): string | undefined {
    return (rule ? DOCS[`${rule}:${keyword}`] : undefined) ?? DOCS[keyword];
}

/** `**kernel**: The kernel the box runs …`, the Markdown the hover and completion show for a keyword. */
export function keywordMarkdown(keyword: string, rule?: string): string | undefined {
    const doc = keywordDoc(keyword, rule);
    return doc ? `**${keyword}**: ${doc}` : undefined;
}

/** `**kerne**: did you mean 'kernel'?` and what that keyword means: the hover on a misspelt keyword. */
export function typoMarkdown(word: string, keywords: readonly string[]): string {
    const meaning = keywords.length === 1 ? keywordMarkdown(keywords[0]) : undefined;
    return [`**${word}**: did you mean ${quotedAlternatives(keywords)}?`, ...(meaning ? [meaning] : [])].join('\n\n');
}
