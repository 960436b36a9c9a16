/** Stable codes of every diagnostic the language reports (tests and quick fixes use them). */
export const Codes = {
    duplicateName: 'duplicate-name',
    repeatedSetting: 'repeated-setting',
    badQuantity: 'bad-quantity',
    // platform and images
    platformCores: 'platform-cores',
    imageSize: 'image-size',
    unknownPixelType: 'unknown-pixel-type',
    // boxes
    missingKernel: 'missing-kernel',
    unknownKernel: 'unknown-kernel',
    kernelParameters: 'kernel-parameters',
    kernelPorts: 'kernel-ports',
    kernelDependency: 'kernel-dependency',
    nonPositiveCost: 'non-positive-cost',
    // chains
    connectionDirection: 'connection-direction',
    portTypeMismatch: 'port-type-mismatch',
    twoWriters: 'two-writers',
    unconnectedInput: 'unconnected-input',
    unconnectedOutput: 'unconnected-output',
    cycle: 'cycle',
    noSource: 'no-source',
    threadsExceedCores: 'threads-exceed-cores',
    coreOutOfRange: 'core-out-of-range',
    haloExceedsSlice: 'halo-exceeds-slice',
    missingPlatform: 'missing-platform',
    // PTTS
    emptyPtts: 'empty-ptts',
    missingPeriod: 'missing-period',
    missingEtp: 'missing-etp',
    nonPositivePeriod: 'non-positive-period',
    offsetNotBelowPeriod: 'offset-not-below-period',
    pmfSum: 'pmf-sum',
    pmfProbability: 'pmf-probability',
    pmfDuplicateTime: 'pmf-duplicate-time',
    uniformRange: 'uniform-range',
    histogramFile: 'histogram-file',
    slowAnalysis: 'slow-analysis',
    badPercentile: 'bad-percentile',
    badProbability: 'bad-probability',
    requirementKind: 'requirement-kind',
    // throttles and targets
    throttleParameter: 'throttle-parameter',
    targetKind: 'target-kind',
    sshAddress: 'ssh-address',
    overlappingCores: 'overlapping-cores',
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];
