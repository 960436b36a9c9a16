/**
 * The number format of plots, tables, verdicts and the Output channel: the contract's one format (the language
 * server's hovers and diagrams and the backend's report text write the same), re-exported here so the plot
 * webview bundles it without the rest of the contract.
 */
export {
    formatCount,
    formatDuration,
    formatLevel,
    formatMs,
    formatNumber,
    formatPercent,
    formatProbability,
    powerOfTen,
    PROBABILITY_FLOOR,
} from '@chainlab/contract/number-format';
